// Casting client values to a column's type: query-string and path texts (filters, ids) and JSON
// body values. Every cast value has one canonical form (see RowValue in row-value.ts), which the
// dialects turn into bind parameters; undefined means the value does not fit the column. Each
// type's rules are its descriptor's (field-types/).
import { fieldType } from './field-types/index.ts';
import type { RowValue } from './row-value.ts';
import type { ColumnSpec } from './table-spec.ts';

export { castInteger } from './field-types/integer.ts';

/** Casts a query-string or path text; booleans accept true/false/1/0, dates any output format. */
export function castText(column: ColumnSpec, text: string): RowValue | undefined {
  return fieldType(column.type).castText(column, text);
}

/** Casts a JSON body value; integers beyond 2^53 must come as strings (a JSON number has lost them). */
export function castJson(column: ColumnSpec, value: unknown): RowValue | undefined {
  return fieldType(column.type).castJson(column, value);
}

/** What a type expects, for messages: "an integer", "a date (YYYY-MM-DD)". */
export function expectation(column: ColumnSpec): string {
  return fieldType(column.type).expectation(column);
}
