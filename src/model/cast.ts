// Casting client values to a column's type: query-string and path texts (filters, ids) and JSON
// body values. Every cast value has one canonical form (see RowValue in row-value.ts), which the
// dialects turn into bind parameters; undefined means the value does not fit the column.
import { unhandledFieldType } from '../contract.ts';
import type { RowValue } from './row-value.ts';
import type { ColumnSpec } from './table-spec.ts';
import { parseDate, parseDatetime, parseTime } from './temporal.ts';

const INTEGER = /^[+-]?\d{1,20}$/;
const NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;
const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** A 64-bit integer: a number when exact in a double, else a bigint. */
export function castInteger(text: string): number | bigint | undefined {
  if (!INTEGER.test(text)) return undefined;
  const value = BigInt(text);
  if (value < INT64_MIN || value > INT64_MAX) return undefined;
  const number = Number(value);
  return Number.isSafeInteger(number) ? number : value;
}

/** Text as PostgreSQL can store it: no NUL characters (MySQL could, so both refuse them). */
function storableText(text: string): string | undefined {
  return text.includes('\0') ? undefined : text;
}

/** Casts a query-string or path text; booleans accept true/false/1/0, dates any output format. */
export function castText(column: ColumnSpec, text: string): RowValue | undefined {
  switch (column.type) {
    case 'string':
    case 'text':
      return storableText(text);
    case 'enum':
      return column.values?.includes(text) ? text : undefined;
    case 'integer':
      return castInteger(text);
    case 'number': {
      if (!NUMBER.test(text)) return undefined;
      const value = Number(text);
      return Number.isFinite(value) ? value : undefined;
    }
    case 'boolean': {
      const lower = text.toLowerCase();
      return lower === 'true' || lower === '1' ? true : lower === 'false' || lower === '0' ? false : undefined;
    }
    case 'date':
      return parseDate(text);
    case 'datetime':
      return parseDatetime(text);
    case 'time':
      return parseTime(text);
    case 'uuid':
      return UUID.test(text) ? text.toLowerCase() : undefined;
    case 'json':
      return undefined;
  }
  return unhandledFieldType(column.type);
}

/** Casts a JSON body value; integers beyond 2^53 must come as strings (a JSON number has lost them). */
export function castJson(column: ColumnSpec, value: unknown): RowValue | undefined {
  switch (column.type) {
    case 'integer':
      if (typeof value === 'number') return Number.isSafeInteger(value) ? value : undefined;
      return typeof value === 'string' ? castInteger(value) : undefined;
    case 'number':
      if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
      return typeof value === 'string' ? castText(column, value) : undefined;
    case 'boolean':
      return typeof value === 'boolean' ? value : undefined;
    case 'json':
      return storableJson(value) ? (value as RowValue) : undefined;
    case 'string':
    case 'text':
    case 'enum':
    case 'date':
    case 'datetime':
    case 'time':
    case 'uuid':
      return typeof value === 'string' ? castText(column, value) : undefined;
  }
  return unhandledFieldType(column.type);
}

/** Any JSON value without NUL characters in its strings or keys (PostgreSQL's jsonb refuses \u0000). */
function storableJson(value: unknown, depth = 0): boolean {
  if (depth > 256) return false;
  if (value === null || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  if (typeof value === 'string') return !value.includes('\0');
  if (Array.isArray(value)) return value.every((item) => storableJson(item, depth + 1));
  if (typeof value === 'object') return Object.entries(value).every(([key, item]) => !key.includes('\0') && storableJson(item, depth + 1));
  return false;
}

/** What a type expects, for messages: "an integer", "a date (YYYY-MM-DD)". */
export function expectation(column: ColumnSpec): string {
  switch (column.type) {
    case 'string':
    case 'text':
      return 'a string without NUL characters';
    case 'enum':
      return `one of ${(column.values ?? []).map((value) => JSON.stringify(value)).join(', ')}`;
    case 'integer':
      return 'an integer (64-bit; beyond 2^53 as a string)';
    case 'number':
      return 'a finite number';
    case 'boolean':
      return 'true or false';
    case 'date':
      return 'a date (YYYY-MM-DD)';
    case 'datetime':
      return 'an ISO 8601 datetime (e.g. 2024-01-31T12:00:00Z)';
    case 'time':
      return 'a time (HH:mm:ss)';
    case 'uuid':
      return 'a UUID';
    case 'json':
      return 'a JSON value';
  }
}
