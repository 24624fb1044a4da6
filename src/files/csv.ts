// CSV (RFC 4180): a header row of field ids, then one line per row, fields separated by commas and
// lines by CRLF. A field is quoted when it holds a comma, a quote (doubled), CR or LF, or is the empty
// string; NULL is an empty, unquoted field, so `""` and NULL stay apart (as PostgreSQL's CSV does).
// Runtime exports escape text a spreadsheet would run as a formula (CsvOptions); files sds writes for
// its own user (sds generate --out) are left as generated.
import type { ColumnSpec } from '../model/table-spec.ts';
import type { RowValue, RowValues } from '../model/row-value.ts';
import { unhandledFieldType } from '../contract.ts';
import { valueRenderer, type JsonValue } from '../model/render.ts';
import type { RuntimeColumn } from '../model/tables.ts';
import { numberText } from './number-text.ts';

const NEEDS_QUOTES = /[",\r\n]/;

export interface CsvOptions {
  /**
   * Text-typed cells (string, text, enum) that begin with `=`, `+`, `-`, `@`, tab or CR get a `'`
   * in front (OWASP's CSV injection advice), so that a spreadsheet shows them instead of running
   * them as formulas. Numbers, booleans, dates, UUIDs and JSON are never changed: a negative number
   * stays a number. Default: false.
   */
  formulaEscape?: boolean;
}

/** The first characters that make a spreadsheet read a cell as a formula (OWASP). */
const FORMULA_START = /^[=+\-@\t\r]/;

/** A text that a spreadsheet would run as a formula, with `'` in front; any other as it is. */
export function formulaEscaped(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

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
function fieldEncoder(column: ColumnSpec, options: CsvOptions = {}): (value: JsonValue) => string {
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
      return options.formulaEscape ? (value) => csvField(formulaEscaped(String(value))) : (value) => csvField(String(value));
    case 'date':
    case 'datetime':
    case 'time':
    case 'uuid':
      return (value) => csvField(String(value));
  }
  return unhandledFieldType(column.type);
}

/** Whether a column's cells are escaped by CsvOptions.formulaEscape: the text types. */
export function formulaEscapedType(type: ColumnSpec['type']): boolean {
  return type === 'string' || type === 'text' || type === 'enum';
}

/** One row (rendered values in column order) as a CSV line. */
export function csvRowEncoder(columns: readonly ColumnSpec[], options: CsvOptions = {}): (values: readonly JsonValue[]) => string {
  const encoders = columns.map((column) => fieldEncoder(column, options));
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

/**
 * One row of column values (as the generator makes them, or as a read casts them back) as the CSV
 * line csvRowEncoder makes of their rendering (render.ts valueRenderer). The types rows hold most
 * (numbers, booleans, strings) are rendered inline, everything else through valueRenderer.
 */
export function csvValuesEncoder(columns: readonly RuntimeColumn[]): (values: RowValues) => string {
  const cells = columns.map(csvCell);
  const count = cells.length;
  return (values) => {
    let line = count > 0 ? cells[0]!(values[0] ?? null) : '';
    for (let index = 1; index < count; index++) line += `,${cells[index]!(values[index] ?? null)}`;
    return `${line}\r\n`;
  };
}

function csvCell(column: RuntimeColumn): (value: RowValue) => string {
  const render = valueRenderer(column);
  const field = fieldEncoder(column);
  const rendered = (value: RowValue) => {
    const json = render(value);
    return json === null ? '' : field(json);
  };
  switch (column.type) {
    case 'integer':
    case 'number':
      return (value) => (typeof value === 'number' ? numberText(value) : rendered(value));
    case 'boolean':
      return (value) => (value === true ? 'true' : value === false ? 'false' : rendered(value));
    case 'string':
    case 'text':
    case 'enum':
      return (value) => (typeof value === 'string' ? csvField(value) : rendered(value));
    case 'json':
    case 'date':
    case 'datetime':
    case 'time':
    case 'uuid':
      return rendered;
  }
  return unhandledFieldType(column.type);
}
