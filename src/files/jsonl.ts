// JSON Lines: one JSON object per line, keys in column order, values exactly as the runtime API
// renders them (a file of a source's table and a page of its rows agree value for value).
import type { ColumnSpec } from '../dialects/dialect.ts';
import type { JsonValue } from '../runtime/shape.ts';

/** One row (rendered values in column order) as a line of JSON. */
export function jsonlRowEncoder(columns: readonly ColumnSpec[]): (values: readonly JsonValue[]) => string {
  // Keys are field ids (identifiers), so they need no escaping; values go through JSON.stringify.
  const keys = columns.map((column, index) => `${index === 0 ? '{' : ','}"${column.name}":`);
  const count = keys.length;
  return (values) => {
    let line = '';
    for (let index = 0; index < count; index++) line += keys[index]! + JSON.stringify(values[index] ?? null);
    return `${count === 0 ? '{' : ''}${line}}\n`;
  };
}
