// Fitting a column's profile into a strategy, case by case, and the fidelity scores on known samples.
import { describe, expect, it } from 'vitest';
import type { Field } from '../../../src/model/config-types.ts';
import { fitColumn, type ColumnFacts, type FittedColumn } from '../../../src/learn/fit-column.ts';
import { identifyingKind } from '../../../src/learn/identifying.ts';
import { cardinalityScore, ksScore, tvdScore } from '../../../src/learn/fidelity.ts';

const field = (type: Field['type'], extra: Partial<Field> = {}) => ({ id: 'x', type, ...extra }) as Field;
const facts = (given: Partial<ColumnFacts> & Pick<ColumnFacts, 'field' | 'profile'>): ColumnFacts => ({ minCount: 5, ...given });

const cases: [string, { given: ColumnFacts; want: Partial<FittedColumn> }][] = [
  [
    'few prices: their values and counts, the rare one left in the database',
    {
      given: facts({ field: field('number', { precision: 2 }), profile: { rows: 100, nonNull: 100, distinct: 3, frequent: [{ value: '0.99', count: 70 }, { value: '1.99', count: 26 }] } }),
      want: {
        generation: { strategy: { kind: 'weightedChoice', choices: [{ value: 0.99, weight: 70 }, { value: 1.99, weight: 26 }] } },
        report: { learned: 'values: 2 with their frequencies', rule: 'min-count', copied: [0.99, 1.99], dropped: 1 },
      },
    },
  ],
  [
    'many numbers: quantiles, observed decimals, the share of nulls',
    {
      given: facts({ field: field('number', { nullable: true }), profile: { rows: 100, nonNull: 80, distinct: 80, quantiles: [1.5, 2.25, 10.125] } }),
      want: {
        generation: { strategy: { kind: 'randomFloat', min: 1.5, max: 10.125, precision: 3, distribution: { kind: 'empirical', quantiles: [1.5, 2.25, 10.125] } }, emptyRate: 0.2 },
        report: { learned: 'numbers 1.5–10.125 with 3 decimals, 100-quantile distribution', rule: 'aggregates', nullShare: 0.2 },
      },
    },
  ],
  [
    'a person column: never copied, even when its values repeat',
    {
      given: facts({ field: field('string'), identifying: 'person', profile: { rows: 100, nonNull: 100, distinct: 3, frequent: [{ value: 'Ann', count: 50 }] } }),
      want: { report: { learned: 'person: kept sds’s generator', rule: 'never-copied' } },
    },
  ],
  [
    'a category without any value held by k rows: nothing copied',
    {
      given: facts({ field: field('string'), profile: { rows: 20, nonNull: 20, distinct: 5, frequent: [] } }),
      want: { report: { learned: 'no value held by 5 rows: kept sds’s generator', rule: 'min-count', dropped: 5 } },
    },
  ],
  [
    'a lookup label: every value, drawn once each',
    {
      given: facts({ field: field('string'), lookup: true, profile: { rows: 2, nonNull: 2, distinct: 2, frequent: [{ value: 'Rock', count: 1 }, { value: 'Jazz', count: 1 }] } }),
      want: {
        generation: { strategy: { kind: 'weightedChoice', choices: [{ value: 'Rock', weight: 1 }, { value: 'Jazz', weight: 1 }] }, uniqueValues: true },
        report: { learned: 'lookup labels: 2 with their frequencies', rule: 'lookup', copied: ['Rock', 'Jazz'] },
      },
    },
  ],
];

describe('fitColumn', () => {
  it.each(cases)('%s', (_name, { given, want }) => {
    expect(fitColumn(given)).toEqual(want);
  });
});

describe('identifyingKind', () => {
  it.each([
    ['customers', 'first_name', 'person'],
    ['customers', 'email', 'contact'],
    ['artists', 'name', 'person'],
    ['genres', 'name', undefined],
    ['albums', 'title', 'free text'],
    ['orders', 'status', undefined],
  ] as const)('%s.%s: %s', (table, column, want) => {
    expect(identifyingKind(table, column, [column])).toBe(want);
  });
});

describe('fidelity scores', () => {
  it('KS, TVD and cardinality: 1 for the same sample, the distance otherwise', () => {
    expect(ksScore([1, 2, 3, 4], [4, 3, 2, 1])).toBe(1);
    expect(ksScore([1, 2, 3, 4], [3, 4, 5, 6])).toBe(0.5);
    expect(ksScore(['2024-01-01', '2024-01-02'], ['2024-01-01T00:00:00Z', '2024-01-02T00:00:00Z'])).toBe(1);
    expect(tvdScore(['a', 'a', 'b', 'b'], ['a', 'b', 'b', 'b'])).toBe(0.75);
    expect(cardinalityScore({ parents: [1, 2], children: [1, 1] }, { parents: [1, 2], children: [2, 1] })).toBe(0.5);
  });
});
