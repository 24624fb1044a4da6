// Numeric distributions of randomInt and randomFloat: statistics within 5% of the parameters,
// values always clamped to min and max and rounded as the strategy rounds, Zipf shares exact in
// expectation, and the Zipf sampler against its exact probabilities.
import { describe, expect, it } from 'vitest';
import type { Field } from '../../../src/model/config-types.ts';
import { ZipfSampler } from '../../../src/generation/values/distributions.ts';
import { RandomStream, streamKey } from '../../../src/generation/random.ts';
import { values } from '../../helpers/generate-in-memory.ts';

const ROWS = 20_000;

const numbers = (type: Field['type'], strategy: object, rows = ROWS): number[] =>
  values({ id: 'x', type, generation: { strategy } } as Field, rows) as number[];

function stats(list: number[]): { mean: number; stddev: number; median: number } {
  const mean = list.reduce((sum, value) => sum + value, 0) / list.length;
  const variance = list.reduce((sum, value) => sum + (value - mean) ** 2, 0) / (list.length - 1);
  const sorted = [...list].sort((a, b) => a - b);
  return { mean, stddev: Math.sqrt(variance), median: sorted[Math.floor(sorted.length / 2)]! };
}

const within = (actual: number, expected: number, tolerance = 0.05) => expect(Math.abs(actual - expected)).toBeLessThanOrEqual(Math.abs(expected) * tolerance);

describe('numeric distributions', () => {
  it('normal: mean and standard deviation within 5%, values rounded to the precision', () => {
    const list = numbers('number', { kind: 'randomFloat', min: 0, max: 1000, precision: 2, distribution: { kind: 'normal', mean: 400, stddev: 50 } });
    const { mean, stddev } = stats(list);
    within(mean, 400);
    within(stddev, 50);
    expect(list.every((value) => /^\d+(\.\d{1,2})?$/.test(String(value)))).toBe(true);
  });

  it('normal defaults: the midpoint and a sixth of the range', () => {
    const { mean, stddev } = stats(numbers('integer', { kind: 'randomInt', min: 0, max: 600, distribution: { kind: 'normal' } }));
    within(mean, 300);
    within(stddev, 100);
  });

  it('values outside min and max are clamped to the nearer bound', () => {
    const list = numbers('integer', { kind: 'randomInt', min: -5, max: 5, distribution: { kind: 'normal', mean: 0, stddev: 10 } });
    expect(Math.min(...list)).toBe(-5);
    expect(Math.max(...list)).toBe(5);
    expect(list.every(Number.isInteger)).toBe(true);
    // P(|Z| > 0.55) ≈ 0.58: well over half the rows sit on a bound.
    const onBounds = list.filter((value) => value === -5 || value === 5).length / list.length;
    expect(onBounds).toBeGreaterThan(0.5);
    expect(onBounds).toBeLessThan(0.66);
    const floats = numbers('number', { kind: 'randomFloat', min: 1.005, max: 2, precision: 2, distribution: { kind: 'normal', mean: 0, stddev: 1 } });
    expect(Math.min(...floats)).toBe(1.01);
  });

  it('lognormal: median within 5%, a tail to the right', () => {
    const list = numbers('number', { kind: 'randomFloat', min: 0, max: 1_000_000, distribution: { kind: 'lognormal', median: 50, sigma: 0.5 } });
    const { mean, median } = stats(list);
    within(median, 50);
    within(mean, 50 * Math.exp(0.125)); // e^(σ²/2) times the median
  });

  it('exponential: the mean within 5%, from min upwards', () => {
    const list = numbers('number', { kind: 'randomFloat', min: 10, max: 10_000, precision: 3, distribution: { kind: 'exponential', mean: 40 } });
    within(stats(list).mean, 40);
    expect(Math.min(...list)).toBeGreaterThanOrEqual(10);
  });

  it('zipf: min the most frequent value, the top 10% of values holding their exact share within 5%', () => {
    const list = numbers('integer', { kind: 'randomInt', min: 1, max: 100, distribution: { kind: 'zipf', exponent: 1 } });
    const counts = new Map<number, number>();
    for (const value of list) counts.set(value, (counts.get(value) ?? 0) + 1);
    within(counts.get(1)! / list.length, ZipfSampler.share(100, 1, 1));
    within(list.filter((value) => value <= 10).length / list.length, ZipfSampler.share(100, 1, 10));
    expect(counts.get(1)!).toBeGreaterThan(counts.get(2)!);
    expect(counts.get(2)!).toBeGreaterThan(counts.get(4)!);
  });

  it.each([0.5, 1, 1.5, 3])('ZipfSampler (exponent %s) matches the exact rank probabilities', (exponent) => {
    const n = 1000;
    const sampler = new ZipfSampler(n, exponent);
    const stream = new RandomStream(streamKey('zipf', exponent));
    const draws = 40_000;
    const counts = new Array<number>(n + 1).fill(0);
    for (let row = 0; row < draws; row++) {
      const rank = sampler.sample(stream, row, 0);
      expect(rank).toBeGreaterThanOrEqual(1);
      expect(rank).toBeLessThanOrEqual(n);
      counts[rank]!++;
    }
    for (const k of [1, 2, 10, 100]) {
      const top = counts.slice(1, k + 1).reduce((sum, count) => sum + count, 0) / draws;
      within(top, ZipfSampler.share(n, exponent, k));
    }
  });

  it('a distribution leaves the values of earlier rows unchanged when rows are added (a pure function of the row)', () => {
    const strategy = { kind: 'randomFloat', min: 0, max: 100, distribution: { kind: 'lognormal', median: 10 } };
    expect(numbers('number', strategy, 2000).slice(0, 300)).toEqual(numbers('number', strategy, 300));
  });
});
