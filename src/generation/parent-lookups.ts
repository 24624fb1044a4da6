// Reading a field of the referenced row by the reference's key value (formulas' `product.price`,
// dateRange `after`). Key → row is arithmetic when the parent's keys step evenly (integer ids),
// else a Map built once; recomputable parent columns are read into an array once, converted
// (e.g. ISO text → milliseconds) once per converter, so a child row costs a few array reads.
import type { RowValue } from '../model/row-value.ts';
import type { KeyPool } from './program.ts';
import type { RowReference } from './row-references.ts';
import { IndexedKeyPool } from './key-pools.ts';

/** Parents up to this many rows have the columns children read cached (a few MB per column). */
const CACHE_ROWS = 2_000_000;

export type ParentConverter<T> = (value: RowValue) => T;

export class ParentLookups {
  readonly #pools: ReadonlyMap<string, KeyPool>;
  readonly #indexes = new Map<string, (key: RowValue) => number | undefined>();
  readonly #columns = new Map<string, Map<ParentConverter<unknown> | undefined, unknown[]>>();

  /** `pools`: parents' columns by row index, keyed `entity.field` (filled as parents are generated). */
  constructor(pools: ReadonlyMap<string, KeyPool>) {
    this.#pools = pools;
  }

  /**
   * The (converted) value of `fieldId` of the row `reference` points at, by key value; undefined
   * for a key of no row. The function itself is undefined while the parent is not generated.
   */
  lookup<T = RowValue>(reference: RowReference, fieldId: string, convert?: ParentConverter<T>): ((key: RowValue) => T | undefined) | undefined {
    const { entity, field } = reference.target;
    const keys = this.#pools.get(`${entity}.${field}`);
    const values = this.#pools.get(`${entity}.${fieldId}`);
    if (!keys || !values) return undefined;
    const rowOf = this.#index(`${entity}.${field}`, keys);
    const column = this.#column(`${entity}.${fieldId}`, values, convert as ParentConverter<unknown> | undefined) as T[] | undefined;
    if (column) {
      return (key) => {
        const row = rowOf(key);
        return row === undefined ? undefined : column[row];
      };
    }
    const read = convert ?? ((value: RowValue) => value as T);
    return (key) => {
      const row = rowOf(key);
      return row === undefined ? undefined : read(values.at(row));
    };
  }

  #index(name: string, keys: KeyPool): (key: RowValue) => number | undefined {
    let index = this.#indexes.get(name);
    if (!index) this.#indexes.set(name, (index = rowIndexOf(keys)));
    return index;
  }

  #column(name: string, values: KeyPool, convert: ParentConverter<unknown> | undefined): unknown[] | undefined {
    // Stored columns are read as they are; recomputing costs the parent's whole program per child.
    if (!(values instanceof IndexedKeyPool) || values.size > CACHE_ROWS) return undefined;
    let byConverter = this.#columns.get(name);
    if (!byConverter) this.#columns.set(name, (byConverter = new Map()));
    let column = byConverter.get(convert);
    if (column) return column;
    const raw = byConverter.get(undefined) ?? Array.from({ length: values.size }, (_, row) => values.at(row));
    byConverter.set(undefined, raw);
    column = convert ? raw.map((value) => convert(value as RowValue)) : raw;
    byConverter.set(convert, column);
    return column;
  }
}

/**
 * Key value → row index of a parent's key column: arithmetic when the keys step evenly (integer
 * ids), else a Map built once (the first row of a key wins).
 */
export function rowIndexOf(keys: KeyPool): (key: RowValue) => number | undefined {
  const size = keys.size;
  const first = size > 0 ? keys.at(0) : null;
  const step = size > 1 ? (keys.at(1) as number) - (first as number) : 1;
  let arithmetic = typeof first === 'number' && Number.isSafeInteger(first) && Number.isSafeInteger(step) && step !== 0;
  for (let row = 2; arithmetic && row < size; row++) arithmetic = keys.at(row) === (first as number) + row * step;
  if (arithmetic) {
    const start = first as number;
    return (key) => {
      if (typeof key !== 'number') return undefined;
      const row = (key - start) / step;
      return Number.isInteger(row) && row >= 0 && row < size ? row : undefined;
    };
  }
  const rows = new Map<RowValue, number>();
  for (let row = 0; row < size; row++) {
    const key = keys.at(row);
    if (key !== null && !rows.has(key)) rows.set(key, row);
  }
  return (key) => rows.get(key);
}
