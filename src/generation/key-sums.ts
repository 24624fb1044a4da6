// Sums by key value (a lines sum's cents per parent key): whole-number keys index typed arrays, others a Map.
import type { RowValue } from '../model/row-value.ts';

/** Past this key, whole numbers go to the Map too (arrays grow to the largest key seen). */
const MAX_DENSE_KEY = 1 << 24;

/**
 * Sums of numbers by key, as a `Map<number | string, number>` keyed by the number itself or else its
 * text would sum them (the same additions in the same order, so the same sums): a Map lookup per line
 * cost more than making the line's worth. `get` is undefined for a key nothing was added to.
 */
export class KeySums {
  #sums = new Float64Array(0);
  #added = new Uint8Array(0);
  readonly #other = new Map<number | string, number>();

  add(key: number | string, value: number): void {
    if (typeof key === 'number' && Number.isInteger(key) && key >= 0 && key < MAX_DENSE_KEY) {
      if (key >= this.#sums.length) this.#grow(key);
      if (this.#added[key] === 0) {
        this.#added[key] = 1;
        // 0 + value, as the Map's `(get ?? 0) + value` (which turns -0 into 0).
        this.#sums[key] = 0 + value;
      } else this.#sums[key] = this.#sums[key]! + value;
      return;
    }
    this.#other.set(key, (this.#other.get(key) ?? 0) + value);
  }

  /** The sum of a key value (`null`: undefined); numbers are their own key, anything else its text. */
  get(key: RowValue): number | undefined {
    if (key === null) return undefined;
    if (typeof key === 'number') {
      if (Number.isInteger(key) && key >= 0 && key < MAX_DENSE_KEY) return this.#added[key] === 1 ? this.#sums[key] : undefined;
      return this.#other.get(key);
    }
    return this.#other.get(String(key));
  }

  #grow(key: number): void {
    const length = Math.min(MAX_DENSE_KEY, Math.max(key + 1, this.#sums.length * 2, 1024));
    const sums = new Float64Array(length);
    const added = new Uint8Array(length);
    sums.set(this.#sums);
    added.set(this.#added);
    this.#sums = sums;
    this.#added = added;
  }
}
