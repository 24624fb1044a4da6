// The look-ups the coherence report makes for every row (report.ts): whether a row's place fields
// form a tuple of the reference data, and the created-like time of the parent a child row
// references. They answer exactly what a joined-key Set and a Map of time strings would, without
// building a key string per row or keeping every parent's time string alive until its children
// are made (both showed as the report's main costs in profiles of generation).
import type { RowValue } from '../../model/row-value.ts';

/** Reference tuples of a row's place fields, found by their most varied field. */
export class PlaceTuples {
  /** Tuples by the value of the key field. */
  readonly #byKey = new Map<string, string[][]>();
  /** The tuple position looked up first. */
  readonly #key: number;
  /** Row column of each tuple position. */
  readonly #columns: readonly number[];
  /** Tuple position of the phone field (compared by its calling code, and area code where the place has one), or -1. */
  readonly #phone: number;

  /**
   * `tuples`: each reference place's value per place field ('' where it has none); `columns`: the
   * row column of each; `phone`: the position of the phone field, -1 for none.
   */
  constructor(tuples: readonly string[][], columns: readonly number[], phone: number) {
    this.#columns = columns;
    this.#phone = phone;
    let key = -1;
    let most = -1;
    for (let i = 0; i < columns.length; i++) {
      if (i === phone) continue;
      const distinct = new Set<string>();
      for (const tuple of tuples) distinct.add(tuple[i]!);
      if (distinct.size > most) [key, most] = [i, distinct.size];
    }
    this.#key = key;
    for (const tuple of tuples) {
      const value = tuple[key]!;
      const list = this.#byKey.get(value);
      if (list) list.push(tuple);
      else this.#byKey.set(value, [tuple]);
    }
  }

  /**
   * Whether a row's place fields form a reference tuple; undefined when one of them is not a
   * string. A phone number counts by its first groups, as many as the reference value has: it is
   * that value followed by a space (`+1 415 555 0134` for `+1`, `+49 351 4567890` for `+49 351`).
   */
  has(row: readonly RowValue[]): boolean | undefined {
    const columns = this.#columns;
    for (let i = 0; i < columns.length; i++) if (typeof row[columns[i]!] !== 'string') return undefined;
    const candidates = this.#byKey.get(row[columns[this.#key]!] as string);
    if (candidates === undefined) return false;
    next: for (const tuple of candidates) {
      for (let i = 0; i < columns.length; i++) {
        const value = row[columns[i]!] as string;
        const expected = tuple[i]!;
        if (i !== this.#phone) {
          if (value !== expected) continue next;
          continue;
        }
        if (value === expected) continue;
        if (value.charCodeAt(expected.length) !== 32 || !value.startsWith(expected)) continue next;
      }
      return true;
    }
    return false;
  }
}

/** Orders two stored times; a date against a datetime compares calendar days of the entity's zone. */
export type CompareTimes = (a: string, b: string) => number;

/**
 * Parents' created-like times by key. Small integer keys (the usual primary key) keep a time of
 * the stored form 'YYYY-MM-DDTHH:mm:ss.sssZ' as two numbers in typed arrays (its digits, which
 * order as the text does); other times and keys stay strings in a map.
 */
export class ParentTimes {
  /** Digits YYYYMMDDhh of a key's time; NaN: none, or not of the stored form (then in #strings). */
  #high = new Float64Array(0);
  /** Digits mmssSSS. */
  #low = new Int32Array(0);
  readonly #strings = new Map<unknown, string>();
  /** Integer keys below this go to the typed arrays (a bound fixed up front, so a key always goes to the same place). */
  readonly #limit: number;

  /** `rows`: the parent's planned rows (typed storage grows with the largest key, up to 4× that). */
  constructor(rows: number) {
    this.#limit = Math.min(2 ** 31, 4 * rows + 1024);
  }

  set(key: RowValue, time: string): void {
    if (!this.#typed(key)) {
      this.#strings.set(key, time);
      return;
    }
    if (key >= this.#high.length) this.#grow(key);
    const high = highDigits(time);
    if (Number.isNaN(high)) {
      this.#high[key] = Number.NaN;
      this.#strings.set(key, time);
      return;
    }
    this.#high[key] = high;
    this.#low[key] = lowDigits(time);
    if (this.#strings.size > 0) this.#strings.delete(key);
  }

  /** compare(child, parent's time) of the parent with this key; undefined when it has none. */
  compare(key: RowValue, child: string, compare: CompareTimes): number | undefined {
    if (this.#typed(key) && key < this.#high.length) {
      const high = this.#high[key]!;
      if (!Number.isNaN(high)) {
        const childHigh = highDigits(child);
        if (!Number.isNaN(childHigh)) {
          const childLow = lowDigits(child);
          const low = this.#low[key]!;
          return childHigh < high ? -1 : childHigh > high ? 1 : childLow < low ? -1 : childLow > low ? 1 : 0;
        }
        return compare(child, timeText(high, this.#low[key]!));
      }
    }
    const time = this.#strings.get(key);
    return time === undefined ? undefined : compare(child, time);
  }

  #typed(key: RowValue): key is number {
    return typeof key === 'number' && Number.isInteger(key) && key >= 0 && key < this.#limit;
  }

  #grow(key: number): void {
    const length = Math.min(this.#limit, Math.max(1024, key + 1, this.#high.length * 2));
    const high = new Float64Array(length).fill(Number.NaN);
    high.set(this.#high);
    const low = new Int32Array(length);
    low.set(this.#low);
    this.#high = high;
    this.#low = low;
  }
}

// Positions of the digits in 'YYYY-MM-DDTHH:mm:ss.sssZ', and the characters between them.
const HIGH_DIGITS = [0, 1, 2, 3, 5, 6, 8, 9, 11, 12];
const LOW_DIGITS = [14, 15, 17, 18, 20, 21, 22];
const SEPARATORS: [number, number][] = [[4, 45], [7, 45], [10, 84], [13, 58], [16, 58], [19, 46], [23, 90]];

/** YYYYMMDDhh of a time of the stored form as a number, or NaN when the text has another form. */
function highDigits(text: string): number {
  if (text.length !== 24) return Number.NaN;
  for (const [at, code] of SEPARATORS) if (text.charCodeAt(at) !== code) return Number.NaN;
  let value = 0;
  for (const at of HIGH_DIGITS) {
    const digit = text.charCodeAt(at) - 48;
    if (digit < 0 || digit > 9) return Number.NaN;
    value = value * 10 + digit;
  }
  for (const at of LOW_DIGITS) {
    const digit = text.charCodeAt(at) - 48;
    if (digit < 0 || digit > 9) return Number.NaN;
  }
  return value;
}

/** mmssSSS of a text highDigits accepted. */
function lowDigits(text: string): number {
  let value = 0;
  for (const at of LOW_DIGITS) value = value * 10 + (text.charCodeAt(at) - 48);
  return value;
}

/** The stored text of the digits highDigits and lowDigits read. */
function timeText(high: number, low: number): string {
  const digits = String(high).padStart(10, '0') + String(low).padStart(7, '0');
  return `${digits.slice(0, 4)}-${digits.slice(4, 6)}-${digits.slice(6, 8)}T${digits.slice(8, 10)}:${digits.slice(10, 12)}:${digits.slice(12, 14)}.${digits.slice(14, 17)}Z`;
}
