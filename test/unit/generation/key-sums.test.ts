import { describe, expect, it } from 'vitest';
import { KeySums } from '../../../src/generation/key-sums.ts';
import type { RowValue } from '../../../src/model/row-value.ts';

/** What the lines sums did before KeySums: a Map keyed by the number itself, or else by its text. */
function mapSums(adds: [number | string, number][]): (key: RowValue) => number | undefined {
  const sums = new Map<number | string, number>();
  for (const [key, value] of adds) sums.set(key, (sums.get(key) ?? 0) + value);
  return (key) => (key === null ? undefined : sums.get(typeof key === 'number' ? key : String(key)));
}

describe('KeySums', () => {
  const cases: [string, { adds: [number | string, number][]; reads: RowValue[] }][] = [
    ['whole-number keys in any order, growing past the first array', { adds: [[5000, 199], [1, 0.5], [5000, 1], [3, -0], [70_000, 7]], reads: [1, 3, 5000, 70_000, 2, 0, 69_999, 1 << 30] }],
    ['keys the arrays do not take: fractions, negatives, huge numbers, NaN, text', { adds: [[1.5, 3], [-2, 4], [2 ** 40, 5], [Number.NaN, 6], ['A-1', 7], ['A-1', 8], ['7', 9]], reads: [1.5, -2, 2 ** 40, Number.NaN, 'A-1', '7', 7, null] }],
    ['a NaN worth stays a sum, not "no lines"', { adds: [[4, Number.NaN], [4, 10]], reads: [4, 5] }],
    ['-0 as a key is 0', { adds: [[-0, 12], [0, 1]], reads: [0, -0] }],
  ];
  it.each(cases)('%s: the same sums as the Map', (_name, { adds, reads }) => {
    const sums = new KeySums();
    for (const [key, value] of adds) sums.add(key, value);
    const want = mapSums(adds);
    for (const key of reads) expect(Object.is(sums.get(key), want(key)) || sums.get(key) === want(key), `key ${String(key)}`).toBe(true);
  });
});
