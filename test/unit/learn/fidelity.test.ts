// Pair trends as SDMetrics measures them: Spearman rank correlations (ties averaged, nulls and
// non-numbers left out, dates as instants) and CorrelationSimilarity between real and generated.
import { describe, expect, it } from 'vitest';
import { correlationSimilarity, rankCorrelation } from '../../../src/learn/fidelity.ts';

describe('rank correlation', () => {
  const cases: [string, { given: [unknown[], unknown[]]; want: number | null }][] = [
    ['a monotone but not linear pair is 1', { given: [[1, 2, 3, 4, 5], [1, 8, 27, 64, 125]], want: 1 }],
    ['a reversed pair is −1', { given: [[1, 2, 3, 4], [40, 30, 20, 10]], want: -1 }],
    ['dates compare as instants, nulls are left out', { given: [['2024-01-01', '2024-02-01', null, '2024-03-01'], ['2024-01-02T00:00:00.000Z', '2024-02-03T00:00:00.000Z', '2020-01-01', '2024-03-09T00:00:00.000Z']], want: 1 }],
    ['ties share their average rank', { given: [[1, 1, 2, 3], [1, 2, 3, 4]], want: 0.9487 }],
    ['a constant column has no correlation', { given: [[1, 1, 1], [1, 2, 3]], want: null }],
    ['fewer than 3 pairs: none', { given: [[1, 2], [2, 1]], want: null }],
  ];
  for (const [name, { given, want }] of cases) {
    it(name, () => {
      const got = rankCorrelation(...given);
      if (want === null) expect(got).toBeNull();
      else expect(got).toBeCloseTo(want, 4);
    });
  }

  it('CorrelationSimilarity is 1 for equal correlations, 0 for opposite extremes', () => {
    expect(correlationSimilarity(0.8, 0.8)).toBe(1);
    expect(correlationSimilarity(1, -1)).toBe(0);
    expect(correlationSimilarity(0.9, 0.1)).toBeCloseTo(0.6, 10);
  });
});
