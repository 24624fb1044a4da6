// Value rendering: driver values and cast or generated values (see RowValue) → JSON, as the runtime
// API answers them and files and previews write them. Values are normalised by column type, so both
// databases answer the same JSON for the same data: integers and numbers as numbers (integers beyond
// 2^53 as strings), booleans as booleans, dates in the field's output format, datetimes as ISO UTC
// with milliseconds, times as HH:mm:ss, json as JSON values.
import { fieldType, type Reader } from './field-types/index.ts';
import { readInteger } from './field-types/integer.ts';
import type { RowValue } from './row-value.ts';
import type { RuntimeColumn } from './tables.ts';

export { sortedKeys } from './field-types/json.ts';

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

const readers = new WeakMap<RuntimeColumn, Reader>();

/** The reader of a column's driver values (built once per column, by its type's descriptor). */
export function columnReader(column: RuntimeColumn): Reader {
  let reader = readers.get(column);
  if (!reader) readers.set(column, (reader = fieldType(column.type).reader(column)));
  return reader;
}

/** A cast runtime value (see cast.ts) as its JSON rendering, e.g. for a row that was just written. */
export function renderValue(column: RuntimeColumn, value: RowValue): JsonValue {
  return valueRenderer(column)(value);
}

/** renderValue for one column, for rendering many values (generated rows written to files). */
export function valueRenderer(column: RuntimeColumn): (value: RowValue) => JsonValue {
  const read = columnReader(column);
  return (value) => (value === null ? null : typeof value === 'bigint' ? readInteger(value.toString()) : read(value));
}
