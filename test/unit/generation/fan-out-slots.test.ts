// The one slot picker of counted fan-outs (bounded, empirical) picks exactly what the two pickers
// it replaced picked: the old pickers are kept here as the reference, and every pickable row of
// many seeds, parent and child counts, bounds and histograms is compared. Rows at or past a
// picker's `rows` are never asked: there KeyedPermutation's cycle walk can loop for ever (size 5,
// row 5, seed 0 does), which is why an earlier comparison that asked them hung.
import { describe, expect, it } from 'vitest';
import type { FanOut } from '../../../src/model/config-types.ts';
import { parentPicker, type ParentPicker } from '../../../src/generation/fan-out.ts';
import { KeyedPermutation, RandomStream, streamKey } from '../../../src/generation/random.ts';

const SEEDS = Array.from({ length: 8 }, (_, i) => `seed-${i}`);
const SIZES: [parents: number, children: number][] = [
  [1, 1], [1, 7], [2, 0], [3, 5], [5, 4], [7, 100], [10, 10], [13, 97], [40, 1_000], [100, 250], [250, 90], [1_000, 5_000],
];
const BOUNDS: [number, number][] = [[0, 0], [0, 1], [1, 1], [1, 3], [2, 5], [0, 10], [3, 3], [5, 40]];
const HISTOGRAMS: { children: number; weight: number }[][] = [
  [{ children: 1, weight: 1 }],
  [{ children: 0, weight: 1 }, { children: 2, weight: 1 }],
  [{ children: 5, weight: 0.1 }, { children: 1, weight: 0.6 }, { children: 2, weight: 0.3 }],
  [{ children: 0, weight: 3 }, { children: 1, weight: 2 }, { children: 4, weight: 1 }, { children: 20, weight: 0.2 }],
  [{ children: 0, weight: 1 }],
  [{ children: 3, weight: 2 }, { children: 3, weight: 1 }],
];

describe('slot picker against the pickers it replaced', () => {
  it.each([
    ['bounded', BOUNDS.map(([min, max]): FanOut => ({ kind: 'bounded', min, max }))],
    ['empirical', HISTOGRAMS.map((histogram): FanOut => ({ kind: 'empirical', histogram: histogram as Extract<FanOut, { kind: 'empirical' }>['histogram'] }))],
  ] as const)('%s: every pickable row of every seed and size picks the same parent', (_kind, fanOuts) => {
    let compared = 0;
    for (const fanOut of fanOuts) {
      for (const seed of SEEDS) {
        for (const [parents, children] of SIZES) {
          const stream = () => new RandomStream(streamKey(seed, 'orders', 'customerId', 'fanOut'));
          const now = parentPicker(fanOut, parents, children, stream())!;
          const before = oldPicker(fanOut, parents, children, stream());
          expect(now.rows).toBe(before.rows);
          expect(now.shortfall).toBe(before.shortfall);
          const rows = before.rows ?? children;
          const picks = (picker: ParentPicker) => Array.from({ length: rows }, (_, row) => picker.pick(row, 0));
          expect(picks(now)).toEqual(picks(before));
          compared += rows;
        }
      }
    }
    // The grid really compares rows (a picker left undefined or rows all cut would compare none).
    expect(compared).toBeGreaterThan(50_000);
  });
});

// ---- The reference: fan-out.ts's two pickers as they were before slotPicker (commit 5199ecd). ----

function oldPicker(fanOut: FanOut, parents: number, children: number, stream: RandomStream): ParentPicker {
  const busy = new KeyedPermutation(parents, keyOf(stream.derive('busy parents')));
  if (fanOut.kind === 'bounded') return oldBounded(fanOut.min, fanOut.max, parents, children, stream, busy);
  if (fanOut.kind === 'empirical') return oldEmpirical(fanOut.histogram, parents, children, stream, busy);
  throw new Error(`no reference for ${fanOut.kind}`);
}

function oldEmpirical(histogram: readonly { children: number; weight: number }[], parents: number, children: number, stream: RandomStream, busy: KeyedPermutation): ParentPicker {
  const bins = [...histogram].sort((a, b) => a.children - b.children);
  const total = bins.reduce((sum, bin) => sum + bin.weight, 0);
  const counts = new Uint32Array(parents);
  let bin = 0;
  let cumulative = (bins[0]?.weight ?? 0) / total;
  for (let i = 0; i < parents; i++) {
    const share = (i + 0.5) / parents;
    while (share > cumulative && bin < bins.length - 1) cumulative += bins[++bin]!.weight / total;
    counts[busy.at(i)] = bins[bin]?.children ?? 0;
  }
  const starts = new Float64Array(parents + 1);
  for (let i = 0; i < parents; i++) starts[i + 1] = starts[i]! + counts[i]!;
  const slots = starts[parents]!;
  const rows = Math.min(children, slots);
  const order = new KeyedPermutation(Math.max(1, slots), keyOf(stream.derive('child order')));
  return { pick: (row) => lastStartAtMost(starts, parents, order.at(row)), rows: rows < children ? rows : undefined };
}

function oldBounded(min: number, max: number, parents: number, children: number, stream: RandomStream, busy: KeyedPermutation): ParentPicker {
  const rows = Math.min(children, parents * max);
  const counts = new Uint32Array(parents);
  const mandatory = Math.min(rows, parents * min);
  const full = Math.floor(mandatory / parents);
  const extraFirst = mandatory - full * parents;
  counts.fill(full);
  for (let i = 0; i < extraFirst; i++) counts[busy.at(i)]!++;
  const room = max - min;
  const extras = rows - mandatory;
  if (extras > 0 && room > 0) {
    const slots = new KeyedPermutation(parents * room, keyOf(stream.derive('free slots')));
    for (let i = 0; i < extras; i++) counts[Math.floor(slots.at(i) / room)]!++;
  }
  const starts = new Float64Array(parents + 1);
  for (let i = 0; i < parents; i++) starts[i + 1] = starts[i]! + counts[i]!;
  const order = new KeyedPermutation(Math.max(1, rows), keyOf(stream.derive('child order')));
  return {
    pick: (row) => lastStartAtMost(starts, parents, order.at(row)),
    rows: rows < children ? rows : undefined,
    shortfall: rows < parents * min ? `${rows} rows give ${parents} parents fewer than min (${min}) children each` : undefined,
  };
}

function lastStartAtMost(starts: Float64Array, parents: number, slot: number): number {
  let low = 0;
  let high = parents - 1;
  while (low < high) {
    const mid = (low + high + 1) >>> 1;
    if (starts[mid]! <= slot) low = mid;
    else high = mid - 1;
  }
  return low;
}

function keyOf(stream: RandomStream): { a: number; b: number } {
  return { a: stream.a, b: stream.b };
}
