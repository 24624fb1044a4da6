// What the passes that make children ahead of their parents (DataGenerator #makeLineSums) leave for
// the rest of one generation: the children's sums by parent key, shared by every generator of it
// (a child's own sum made in such a pass is the sum the generation reads when it makes the child),
// and the child columns such a pass made, carried to the generation's own pass over the child so
// that it reads them instead of making them a second time, up to a memory budget.
import type { RowValue } from '../model/row-value.ts';
import { KeySums } from './key-sums.ts';

/** Most values carried at once (8 bytes and a null flag each: about 38 MB); past it, rows are made again. */
export const MAX_CARRIED_VALUES = 1 << 22;
/** Fewer rows than this are not worth carrying. */
const MIN_CARRIED_ROWS = 1024;

/** One child column's values of rows 0 … rows − 1, numbers and nulls only. */
export interface CarriedColumn {
  readonly rows: number;
  at(row: number): RowValue;
}

class NumberColumn implements CarriedColumn {
  #numbers: Float64Array | undefined;
  #nulls: Uint8Array | undefined;
  rows = 0;

  constructor(readonly capacity: number) {
    this.#numbers = new Float64Array(capacity);
    this.#nulls = new Uint8Array(capacity);
  }

  /** Row `rows`'s value; a value that is neither a number nor null ends the column (nothing carried). */
  push(value: RowValue): void {
    if (!this.#numbers) return;
    if (typeof value === 'number') this.#numbers[this.rows++] = value;
    else if (value === null) this.#nulls![this.rows++] = 1;
    else {
      this.#numbers = this.#nulls = undefined;
      this.rows = 0;
    }
  }

  at(row: number): RowValue {
    return this.#nulls![row] === 1 ? null : this.#numbers![row]!;
  }
}

export class MadeAhead {
  readonly #sums = new Map<string, KeySums>();
  readonly #summing = new Set<string>();
  /** Carried columns by entity id, then field index. */
  readonly #carried = new Map<string, Map<number, NumberColumn>>();
  #values = 0;

  constructor(readonly maxValues = MAX_CARRIED_VALUES) {}

  /** The sums of `slot`, made once by `make`; a sum that needs itself (children summing their parents' sums) throws. */
  sums(slot: string, make: () => KeySums): KeySums {
    let sums = this.#sums.get(slot);
    if (sums) return sums;
    if (this.#summing.has(slot)) throw new Error(`the sum ${slot.split('\u0000').at(-1)} needs itself to be made first`);
    this.#summing.add(slot);
    try {
      sums = make();
    } finally {
      this.#summing.delete(slot);
    }
    this.#sums.set(slot, sums);
    return sums;
  }

  /**
   * Where a pass making an entity's rows in order from row 0 records the values of `fields` (by
   * index; those carried already are left out), as many rows as the budget allows of `rows`;
   * undefined when none. Call it with each row's values in turn.
   */
  recorder(entityId: string, fields: readonly number[], rows: number): ((values: readonly RowValue[]) => void) | undefined {
    const carried = this.#carried.get(entityId) ?? new Map<number, NumberColumn>();
    const fresh = fields.filter((index) => !carried.has(index));
    const capacity = fresh.length === 0 ? 0 : Math.min(rows, Math.floor((this.maxValues - this.#values) / fresh.length));
    if (capacity < MIN_CARRIED_ROWS) return undefined;
    const columns = fresh.map((index) => {
      const column = new NumberColumn(capacity);
      carried.set(index, column);
      return [index, column] as const;
    });
    this.#carried.set(entityId, carried);
    this.#values += capacity * columns.length;
    let row = 0;
    return (values) => {
      if (row++ >= capacity) return;
      for (let i = 0; i < columns.length; i++) columns[i]![1].push(values[columns[i]![0]]!);
    };
  }

  /** The columns of an entity carried so far, by field index (empty ones left out). */
  carried(entityId: string): ReadonlyMap<number, CarriedColumn> | undefined {
    const carried = this.#carried.get(entityId);
    if (!carried) return undefined;
    const full = new Map([...carried].filter(([, column]) => column.rows > 0));
    return full.size > 0 ? full : undefined;
  }

  /** Gives back an entity's carried columns (its rows were made); a pass still reading them keeps them until it ends. */
  release(entityId: string): void {
    const carried = this.#carried.get(entityId);
    if (!carried) return;
    for (const column of carried.values()) this.#values -= column.capacity;
    this.#carried.delete(entityId);
  }
}
