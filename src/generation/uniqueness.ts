// Uniqueness. Countable pools are drawn without replacement by construction (a keyed permutation,
// a weighted random order, or in order); joint keys draw combinations the same way. Faker, template
// and other open-ended values get bounded retries, then a deterministic `-<row>` tag, checked
// against a Bloom filter of the values already issued: no false negatives, so no duplicates.
import { unhandledFieldType } from '../contract.ts';
import type { RowValue } from '../model/row-value.ts';
import type { Field } from '../model/config-types.ts';
import type { FinitePool, ValueProgram } from './program.ts';
import type { Finisher } from './coerce.ts';
import type { StreamKey } from './random.ts';
import { KeyedPermutation, RandomStream, fmix32 } from './random.ts';
import { formatInstant, formatDay, parseDay } from './values/dates.ts';

/** Returned by a field when it has no unique value left: the entity stops at that row. */
export const EXHAUSTED: unique symbol = Symbol('exhausted');
export type FieldOutput = RowValue | typeof EXHAUSTED;

const RETRIES = 8;
const TAGS = 8;
const WALK = 1000;
const WEIGHTED_ORDER_LIMIT = 100_000;

/** The pool index of each row when drawing without replacement: in order, by weight, or permuted. */
export function drawOrder(pool: FinitePool, key: StreamKey): (row: number) => number {
  if (pool.ordered) return (row) => row;
  const weights = pool.weights;
  if (weights && pool.size <= WEIGHTED_ORDER_LIMIT && new Set(weights).size > 1) {
    // Efraimidis–Spirakis: sorting by -ln(u)/w draws heavier values earlier.
    const stream = new RandomStream(key);
    const keys = Float64Array.from({ length: pool.size }, (_, i) => -Math.log(1 - stream.float53(i)) / (weights[i] ?? 1));
    const order = Uint32Array.from({ length: pool.size }, (_, i) => i).sort((a, b) => keys[a]! - keys[b]!);
    return (row) => order[row]!;
  }
  const permutation = new KeyedPermutation(pool.size, key);
  return (row) => permutation.at(row);
}

/** Combinations of several pools drawn without replacement (a composite unique key). */
export function jointDraw(pools: FinitePool[], key: StreamKey): { size: number; indexes(row: number): number[] } | undefined {
  let size = 1;
  for (const pool of pools) size *= pool.size;
  if (!Number.isSafeInteger(size)) return undefined;
  const permutation = new KeyedPermutation(size, key);
  let cachedRow = -1;
  let cached: number[] = [];
  return {
    size,
    indexes(row) {
      if (row === cachedRow) return cached;
      let combination = permutation.at(row);
      cached = pools.map((pool) => {
        const index = combination % pool.size;
        combination = Math.floor(combination / pool.size);
        return index;
      });
      cachedRow = row;
      return cached;
    },
  };
}

/**
 * A Bloom filter of issued values, sized for `expected` of them (16 bits each, 8 probes). Keys
 * ignore case, accents and trailing spaces, as MySQL's default collations compare text.
 */
export class SeenSet {
  readonly #bits: Uint32Array;
  readonly #mask: number;

  constructor(expected: number) {
    let size = 1024;
    while (size < expected * 16 && size < 2 ** 32) size *= 2;
    this.#bits = new Uint32Array(size / 32);
    this.#mask = size - 1;
  }

  /** Records `value`; false when it (or, rarely, a value with the same bits) was recorded before. */
  add(value: RowValue): boolean {
    if (typeof value !== 'string') return this.#addKey(typeof value === 'object' ? JSON.stringify(value) : String(value), false)!;
    return this.#addKey(value, true) ?? this.#addKey(value.toLowerCase().normalize('NFKD').replace(/[\u0300-\u036f]/g, ''), false)!;
  }

  // Two hashes in one pass over the comparable form (ASCII upper case folded, trailing spaces
  // dropped); undefined when `asciiOnly` and the key has other characters, which need folding first.
  #addKey(key: string, asciiOnly: boolean): boolean | undefined {
    let end = key.length;
    while (end > 0 && key.charCodeAt(end - 1) === 32) end--;
    let h1 = 0x2545f491;
    let h2 = 0x9e3779b9;
    for (let i = 0; i < end; i++) {
      let code = key.charCodeAt(i);
      if (code > 127 && asciiOnly) return undefined;
      if (code >= 65 && code <= 90) code += 32;
      h1 = Math.imul(h1 ^ code, 0x01000193);
      h2 = Math.imul(h2 ^ code, 0x5bd1e995);
    }
    return this.#set(fmix32(h1 ^ end), fmix32(h2 ^ end) | 1);
  }

  #set(h1: number, h2: number): boolean {
    let fresh = false;
    for (let i = 0; i < 8; i++) {
      const bit = (h1 + Math.imul(i, h2)) & this.#mask;
      const word = bit >>> 5;
      const flag = 1 << (bit & 31);
      if ((this.#bits[word]! & flag) === 0) {
        fresh = true;
        this.#bits[word]! |= flag;
      }
    }
    return fresh;
  }
}

/** Values that step (integers, decimals, days, milliseconds) when retries and tags run out. */
function walker(field: Field): ((value: RowValue, step: number) => RowValue | undefined) | undefined {
  const inRange = (n: number) => n >= (field.min ?? Number.NEGATIVE_INFINITY) && n <= (field.max ?? Number.POSITIVE_INFINITY);
  switch (field.type) {
    case 'integer':
    case 'number': {
      const unit = field.type === 'integer' ? 1 : 10 ** -(field.precision ?? 6);
      return (value, step) => {
        const next = Number(((value as number) + step * unit).toFixed(field.type === 'integer' ? 0 : (field.precision ?? 6)));
        return inRange(next) ? next : undefined;
      };
    }
    case 'date':
      return (value, step) => formatDay(parseDay(value as string) + step);
    case 'datetime':
      return (value, step) => formatInstant(Date.parse(value as string) + step);
    // Text gets tags instead; the others have countable pools drawn without replacement, or none.
    case 'string':
    case 'text':
    case 'enum':
    case 'boolean':
    case 'time':
    case 'uuid':
    case 'json':
      return undefined;
  }
  return unhandledFieldType(field.type);
}

/**
 * Where each row of a unique field drawn by retries found its value, as one pass in order found it
 * (DrawLedger.record): the rows whose first candidate was taken, sorted, with the draw each needed
 * (an attempt, a tag or a step). Every other row took its first candidate. With it, any row's value
 * is computed on its own (`replayRetries`), exactly as the pass in order made it. Plain data (typed
 * arrays), so it can be posted to worker threads.
 */
export interface DrawLedger {
  rows: Uint32Array;
  draws: Uint16Array;
  /** Entries used in `rows` and `draws`. */
  count: number;
}

export const DrawLedger = {
  empty(): DrawLedger {
    return { rows: new Uint32Array(256), draws: new Uint16Array(256), count: 0 };
  },

  /** Appends a row (rows come in increasing order) and the draw it took. */
  record(ledger: DrawLedger, row: number, draw: number): void {
    if (ledger.count === ledger.rows.length) {
      const rows = new Uint32Array(ledger.rows.length * 2);
      rows.set(ledger.rows);
      const draws = new Uint16Array(ledger.draws.length * 2);
      draws.set(ledger.draws);
      ledger.rows = rows;
      ledger.draws = draws;
    }
    ledger.rows[ledger.count] = row;
    ledger.draws[ledger.count] = draw;
    ledger.count++;
  },

  /** The arrays cut to their entries (what a finished pass keeps). */
  trimmed(ledger: DrawLedger): DrawLedger {
    return { rows: ledger.rows.slice(0, ledger.count), draws: ledger.draws.slice(0, ledger.count), count: ledger.count };
  },

  /** Bytes the ledger holds. */
  bytes(ledger: DrawLedger): number {
    return ledger.rows.byteLength + ledger.draws.byteLength;
  },
};

/** A ledger reader: the draw of a row (0, the first candidate, for rows not in it), fastest for rows asked in increasing order. */
function ledgerReader(ledger: DrawLedger): (row: number) => number {
  const { rows, draws, count } = ledger;
  let at = 0;
  return (row) => {
    // The next entry at or after `row`: walk forward from the last one, or search when the row went back or far ahead.
    if (at > 0 && rows[at - 1]! >= row) at = 0;
    if (at < count && rows[at]! < row && (at + 16 >= count || rows[at + 16]! < row)) {
      let low = at;
      let high = count;
      while (low < high) {
        const mid = (low + high) >>> 1;
        if (rows[mid]! < row) low = mid + 1;
        else high = mid;
      }
      at = low;
    }
    while (at < count && rows[at]! < row) at++;
    if (at < count && rows[at] === row) return draws[at++]!;
    return 0;
  };
}

// Draws: 0 … RETRIES - 1 the attempt, then TAGS tags, then the walk's steps (k, -k for k = 1 … WALK).
const TAG_DRAW = RETRIES;
const WALK_DRAW = RETRIES + TAGS;

/** A unique field drawn by retries: in order (`inOrder`, recording its draws when `ledger` is given), or any row from a ledger (`replay`). */
export interface RetryUnique {
  inOrder: (row: number, values: readonly RowValue[]) => FieldOutput;
  replay(ledger: DrawLedger): (row: number, values: readonly RowValue[]) => FieldOutput;
}

/** A unique field fed by an open-ended program: retries, then tags (text) or steps (numbers, dates). */
export function uniqueByRetries(program: ValueProgram, finish: Finisher, field: Field, expected: number, ledger?: DrawLedger): RetryUnique {
  const seen = new SeenSet(expected);
  const text = field.type === 'string' || field.type === 'text';
  const walk = walker(field);
  const took = ledger ? (row: number, draw: number) => draw !== 0 && DrawLedger.record(ledger, row, draw) : () => {};
  const inOrder = (row: number, values: readonly RowValue[]): FieldOutput => {
    let first: unknown = null;
    for (let attempt = 0; attempt < RETRIES; attempt++) {
      const raw = program.at(row, values, attempt);
      if (raw === null || raw === undefined) {
        took(row, attempt);
        return null;
      }
      if (attempt === 0) first = raw;
      const value = finish(raw, row, '');
      if (seen.add(value)) {
        took(row, attempt);
        return value;
      }
    }
    if (text) {
      for (let k = 0; k < TAGS; k++) {
        const value = finish(first, row, retryTag(row, k));
        // A tag (or suffix) cut off by maxLength leaves no room for unique values.
        if (typeof value !== 'string' || !value.includes(retryTag(row, k)) || !value.endsWith(field.suffix ?? '')) break;
        if (seen.add(value)) {
          took(row, TAG_DRAW + k);
          return value;
        }
      }
    } else if (walk) {
      const start = finish(first, row, '');
      for (let k = 1; k <= WALK; k++) {
        for (const step of [k, -k]) {
          const value = walk(start, step);
          if (value !== undefined && seen.add(value)) {
            took(row, WALK_DRAW + 2 * (k - 1) + (step < 0 ? 1 : 0));
            return value;
          }
        }
      }
    }
    return EXHAUSTED;
  };
  const replay = (recorded: DrawLedger) => {
    const drawOf = ledgerReader(recorded);
    return (row: number, values: readonly RowValue[]): FieldOutput => {
      const draw = drawOf(row);
      if (draw < TAG_DRAW) {
        const raw = program.at(row, values, draw);
        return raw === null || raw === undefined ? null : finish(raw, row, '');
      }
      const first = program.at(row, values, 0);
      if (draw < WALK_DRAW) return finish(first, row, retryTag(row, draw - TAG_DRAW));
      const step = draw - WALK_DRAW;
      const k = (step >> 1) + 1;
      return walk!(finish(first, row, ''), step & 1 ? -k : k)!;
    };
  };
  return { inOrder, replay };
}

function retryTag(row: number, k: number): string {
  return k === 0 ? `-${row + 1}` : `-${row + 1}-${k}`;
}
