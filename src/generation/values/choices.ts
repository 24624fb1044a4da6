// Weighted choices (enum values, weightedChoice strategies, booleans with a trueRate): one draw per
// value, a binary search over cumulative weights; the pool is the distinct values with summed weights.
import type { ValueProgram } from '../program.ts';
import type { RandomStream } from '../random.ts';

/** Picks among `values` with probability proportional to `weights` (all equal when absent). */
export function choiceProgram(stream: RandomStream, values: readonly unknown[], weights?: readonly number[]): ValueProgram {
  const distinct = new Map<string, { value: unknown; weight: number }>();
  values.forEach((value, i) => {
    const key = JSON.stringify(value) ?? 'undefined';
    const weight = weights?.[i] ?? 1;
    const entry = distinct.get(key);
    if (entry) entry.weight += weight;
    else distinct.set(key, { value, weight });
  });
  const entries = [...distinct.values()].filter((entry) => entry.weight > 0);
  if (entries.length === 0) return { at: () => null };
  const cumulative = new Float64Array(entries.length);
  let total = 0;
  entries.forEach((entry, i) => {
    total += entry.weight;
    cumulative[i] = total;
  });
  const last = entries.length - 1;
  const pick = (unit: number) => {
    const target = unit * total;
    let low = 0;
    let high = last;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (cumulative[middle]! > target) high = middle;
      else low = middle + 1;
    }
    return entries[low]!.value;
  };
  return {
    at: (row, _values, attempt) => pick(stream.float(row, attempt)),
    pool: { size: entries.length, at: (index) => entries[index]!.value, weights: entries.map((entry) => entry.weight) },
  };
}

/** true with probability `trueRate`. */
export function booleanProgram(stream: RandomStream, trueRate: number): ValueProgram {
  const rate = Math.min(1, Math.max(0, trueRate));
  const values = rate >= 1 ? [true] : rate <= 0 ? [false] : [true, false];
  return {
    at: (row, _values, attempt) => stream.float(row, attempt) < rate,
    pool: { size: values.length, at: (index) => values[index], weights: values.length === 2 ? [rate, 1 - rate] : [1] },
    typed: true,
  };
}
