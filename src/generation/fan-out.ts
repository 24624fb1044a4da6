// Reference fan-out: which parent each child row takes, so that parents get skewed (Zipf, Pareto),
// bounded (min..max) or histogram (empirical) numbers of children. Every choice is a pure function
// of the child row: a keyed permutation decides which parents are the busy ones, and the counted
// fan-outs precompute each parent's count once (O(parents) memory) and map a permuted row onto the
// parents' slots (slotPicker).
import type { FanOut } from '../model/config-types.ts';
import type { RandomStream } from './random.ts';
import { KeyedPermutation } from './random.ts';
import { ZipfSampler } from './values/distributions.ts';

/** Default Pareto index: the busiest 20% of parents get 80% of the children. */
export const PARETO_ALPHA = 1.16;

export interface ParentPicker {
  /** Index of the parent of child `row` (0 ≤ index < parents), or -1 for none (an empirical fan-out's `empty` share). */
  pick(row: number, attempt: number): number;
  /** Rows the children can have (bounded fan-out: parents × max); undefined when unbounded. */
  rows?: number;
  /** Why some parents get fewer than min children, when they do. */
  shortfall?: string;
}

/**
 * Counted pickers made lately (each pass over an entity compiles it, and the lines made ahead for a
 * parent's sums compile the parent and the child once more), up to PICKERS_KEPT parents in all: one
 * costs a keyed permutation step per parent to make. A picker is a pure function of its inputs.
 */
const madePickers = new Map<string, { picker: ParentPicker; parents: number }>();
const PICKERS_KEPT = 2_000_000;
let parentsKept = 0;

/** A picker for `fanOut` over `parents` parents and `children` planned child rows; undefined for uniform. */
export function parentPicker(fanOut: FanOut, parents: number, children: number, stream: RandomStream): ParentPicker | undefined {
  if (parents === 0) return undefined;
  if (fanOut.kind !== 'bounded' && fanOut.kind !== 'empirical') return makePicker(fanOut, parents, children, stream);
  const key = `${stream.a} ${stream.b} ${parents} ${children} ${JSON.stringify(fanOut)}`;
  const kept = madePickers.get(key);
  if (kept) {
    // Most recently used last.
    madePickers.delete(key);
    madePickers.set(key, kept);
    return kept.picker;
  }
  const picker = makePicker(fanOut, parents, children, stream)!;
  if (parents > PICKERS_KEPT) return picker;
  for (const [old, { parents: oldParents }] of madePickers) {
    if (parentsKept + parents <= PICKERS_KEPT) break;
    madePickers.delete(old);
    parentsKept -= oldParents;
  }
  madePickers.set(key, { picker, parents });
  parentsKept += parents;
  return picker;
}

function makePicker(fanOut: FanOut, parents: number, children: number, stream: RandomStream): ParentPicker | undefined {
  const busy = new KeyedPermutation(parents, keyOf(stream.derive('busy parents')));
  switch (fanOut.kind) {
    case 'uniform':
      return undefined;
    case 'zipf': {
      const zipf = new ZipfSampler(parents, fanOut.exponent ?? 1);
      return { pick: (row, attempt) => busy.at(zipf.sample(stream, row, attempt * 16) - 1) };
    }
    case 'pareto': {
      // Position U^k with k = α/(α−1): the first fraction q of positions gets q^(1−1/α) of the draws.
      const power = (fanOut.alpha ?? PARETO_ALPHA) / ((fanOut.alpha ?? PARETO_ALPHA) - 1);
      return { pick: (row, attempt) => busy.at(Math.min(parents - 1, Math.floor(stream.float53(row, attempt) ** power * parents))) };
    }
    case 'bounded':
      return boundedPicker(fanOut.min, fanOut.max, parents, children, stream, busy);
    case 'empirical':
      return empiricalPicker(fanOut.histogram, parents, children, stream, busy, fanOut.empty ?? 0);
  }
}

/**
 * Parents in a keyed order take the histogram's counts by stratified inverse transform: parent i
 * of n gets the count at cumulative share (i + ½) / n, so the shares hold over any number of
 * parents. Rows beyond the slots are not inserted, slots beyond the rows stay empty. With an
 * `empty` share e, slots of no parent (a null reference) are added, e / (1 − e) of the parents'
 * slots, so that share of the rows is null however many rows there are.
 */
function empiricalPicker(histogram: readonly { children: number; weight: number }[], parents: number, children: number, stream: RandomStream, busy: KeyedPermutation, empty = 0): ParentPicker {
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
  if (!(empty > 0)) return slotPicker(counts, children, stream);
  // The null slots are the last "parent"'s: its index (parents) means no parent.
  let slots = 0;
  for (const count of counts) slots += count;
  const withNone = new Uint32Array(parents + 1);
  withNone.set(counts);
  withNone[parents] = Math.round((slots * empty) / (1 - empty));
  const picker = slotPicker(withNone, children, stream);
  return { ...picker, pick: (row, attempt) => {
    const index = picker.pick(row, attempt);
    return index === parents ? -1 : index;
  } };
}

/**
 * Every parent gets min children first (as evenly as the rows allow), then the rows left over go
 * to the parents' free slots (max − min each) in a keyed random order. The counts add up to the
 * rows (children, at most parents × max).
 */
function boundedPicker(min: number, max: number, parents: number, children: number, stream: RandomStream, busy: KeyedPermutation): ParentPicker {
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
  const picker = slotPicker(counts, children, stream);
  return rows < parents * min ? { ...picker, shortfall: `${rows} rows give ${parents} parents fewer than min (${min}) children each` } : picker;
}

/**
 * The one slot search of counted fan-outs (bounded, empirical): parent p owns `counts[p]`
 * consecutive slots, and child row r takes the parent of slot `order(r)`, a keyed permutation of
 * the slots. Only rows below `rows` (all children when undefined) may be picked: a row at or past
 * the slots is outside the permutation's domain, where its cycle walk need never end.
 */
function slotPicker(counts: Uint32Array, children: number, stream: RandomStream): ParentPicker {
  const parents = counts.length;
  const starts = new Float64Array(parents + 1);
  for (let i = 0; i < parents; i++) starts[i + 1] = starts[i]! + counts[i]!;
  const slots = starts[parents]!;
  const rows = Math.min(children, slots);
  const order = new KeyedPermutation(Math.max(1, slots), keyOf(stream.derive('child order')));
  return {
    pick: (row) => {
      const slot = order.at(row);
      // The last parent whose first slot is ≤ slot.
      let low = 0;
      let high = parents - 1;
      while (low < high) {
        const mid = (low + high + 1) >>> 1;
        if (starts[mid]! <= slot) low = mid;
        else high = mid - 1;
      }
      return low;
    },
    rows: rows < children ? rows : undefined,
  };
}

function keyOf(stream: RandomStream): { a: number; b: number } {
  return { a: stream.a, b: stream.b };
}
