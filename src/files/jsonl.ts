// JSON Lines: one JSON object per line, keys in column order, values exactly as the runtime API
// renders them (a file of a source's table and a page of its rows agree value for value).
import { unhandledFieldType } from '../contract.ts';
import type { ColumnSpec } from '../model/table-spec.ts';
import type { RowValue, RowValues } from '../model/row-value.ts';
import { valueRenderer, type JsonValue } from '../model/render.ts';
import type { RuntimeColumn } from '../model/tables.ts';
import { numberText } from './number-text.ts';

/** One row (rendered values in column order) as a line of JSON. */
export function jsonlRowEncoder(columns: readonly ColumnSpec[]): (values: readonly JsonValue[]) => string {
  const keys = jsonlKeys(columns);
  const count = keys.length;
  return (values) => {
    let line = '';
    for (let index = 0; index < count; index++) line += keys[index]! + JSON.stringify(values[index] ?? null);
    return `${count === 0 ? '{' : ''}${line}}\n`;
  };
}

/** Each column's key with what goes before it: field ids are identifiers, so they need no escaping. */
function jsonlKeys(columns: readonly ColumnSpec[]): string[] {
  return columns.map((column, index) => `${index === 0 ? '{' : ','}"${column.name}":`);
}

/**
 * One row of column values (as the generator makes them, or as a read casts them back) as the line
 * jsonlRowEncoder makes of their rendering (render.ts valueRenderer). The types rows hold most
 * (numbers, booleans, strings, null) are rendered inline, everything else through valueRenderer.
 */
export function jsonlValuesEncoder(columns: readonly RuntimeColumn[]): (values: RowValues) => string {
  const keys = jsonlKeys(columns);
  const cells = columns.map(jsonCell);
  const count = keys.length;
  return (values) => {
    let line = count === 0 ? '{' : '';
    for (let index = 0; index < count; index++) line += keys[index]! + cells[index]!(values[index] ?? null);
    return `${line}}\n`;
  };
}

/** What JSON.stringify escapes in a string: quote, backslash, control characters, and (lone) surrogates. */
const JSON_ESCAPES = /[\u0000-\u001f"\\\ud800-\udfff]/;

/** JSON.stringify(text): a string with nothing to escape (most) is only quoted, twice as fast. */
function jsonString(text: string): string {
  return JSON_ESCAPES.test(text) ? JSON.stringify(text) : `"${text}"`;
}

function jsonCell(column: RuntimeColumn): (value: RowValue) => string {
  const render = valueRenderer(column);
  const rendered = (value: RowValue) => (value === null ? 'null' : JSON.stringify(render(value)));
  switch (column.type) {
    case 'integer':
    case 'number':
      // JSON has no NaN or Infinity: JSON.stringify writes null for them.
      return (value) => (typeof value === 'number' && Number.isFinite(value) ? numberText(value) : rendered(value));
    case 'boolean':
      return (value) => (value === true ? 'true' : value === false ? 'false' : rendered(value));
    case 'string':
    case 'text':
    case 'enum':
      return (value) => (typeof value === 'string' ? jsonString(value) : rendered(value));
    case 'json':
    case 'date':
    case 'datetime':
    case 'time':
    case 'uuid':
      return rendered;
  }
  return unhandledFieldType(column.type);
}
