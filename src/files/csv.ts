// CSV (RFC 4180): a header row of field ids, then one line per row, fields separated by commas and
// lines by CRLF. A field is quoted when it holds a comma, a quote (doubled), CR or LF, or is the empty
// string; NULL is an empty, unquoted field, so `""` and NULL stay apart (as PostgreSQL's CSV does).
import type { ColumnSpec } from '../dialects/dialect.ts';
import { unhandledFieldType } from '../contract.ts';
import type { JsonValue } from '../runtime/shape.ts';

const NEEDS_QUOTES = /[",\r\n]/;

/** A text as one CSV field. */
export function csvField(text: string): string {
  if (text === '') return '""';
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** The header line. */
export function csvHeader(columns: readonly ColumnSpec[]): string {
  return `${columns.map((column) => csvField(column.name)).join(',')}\r\n`;
}

/** A non-null value's CSV text, by column type: json as JSON text, everything else as the API renders it. */
function fieldEncoder(column: ColumnSpec): (value: JsonValue) => string {
  switch (column.type) {
    case 'json':
      return (value) => csvField(JSON.stringify(value));
    case 'integer':
    case 'number':
    case 'boolean':
      return (value) => String(value);
    case 'string':
    case 'text':
    case 'enum':
    case 'date':
    case 'datetime':
    case 'time':
    case 'uuid':
      return (value) => csvField(String(value));
  }
  return unhandledFieldType(column.type);
}

/** One row (rendered values in column order) as a CSV line. */
export function csvRowEncoder(columns: readonly ColumnSpec[]): (values: readonly JsonValue[]) => string {
  const encoders = columns.map(fieldEncoder);
  const count = encoders.length;
  return (values) => {
    let line = '';
    for (let index = 0; index < count; index++) {
      const value = values[index];
      if (index > 0) line += ',';
      if (value !== null && value !== undefined) line += encoders[index]!(value);
    }
    return `${line}\r\n`;
  };
}
