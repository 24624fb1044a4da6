// Key pools: the values of a parent column that children pick from, kept compact. A column whose
// value is a pure function of the row (sequences, uuids, permuted draws) is recomputed on demand
// and stores nothing; others are stored as they are generated, numbers in a Float64Array.
import type { RowValue } from '../model/row-value.ts';
import type { KeyPool } from './program.ts';

/** Values recomputed from the row index. */
export class IndexedKeyPool implements KeyPool {
  readonly size: number;
  readonly #valueAt: (index: number) => RowValue;

  constructor(size: number, valueAt: (index: number) => RowValue) {
    this.size = size;
    this.#valueAt = valueAt;
  }

  at(index: number): RowValue {
    return this.#valueAt(index);
  }
}

/** Values stored in generation order; nulls are left out when `skipNulls` (they cannot be picked). */
export class StoredKeyPool implements KeyPool {
  #numbers: Float64Array | undefined = new Float64Array(1024);
  #values: RowValue[] | undefined;
  #size = 0;
  readonly #skipNulls: boolean;

  constructor(skipNulls: boolean) {
    this.#skipNulls = skipNulls;
  }

  get size(): number {
    return this.#size;
  }

  push(value: RowValue): void {
    if (value === null && this.#skipNulls) return;
    if (this.#numbers && typeof value === 'number') {
      if (this.#size === this.#numbers.length) {
        const grown = new Float64Array(this.#numbers.length * 2);
        grown.set(this.#numbers);
        this.#numbers = grown;
      }
      this.#numbers[this.#size++] = value;
      return;
    }
    if (this.#numbers) {
      this.#values = Array.from(this.#numbers.subarray(0, this.#size));
      this.#numbers = undefined;
    }
    this.#values!.push(value);
    this.#size++;
  }

  at(index: number): RowValue {
    return this.#numbers ? this.#numbers[index]! : this.#values![index]!;
  }
}
