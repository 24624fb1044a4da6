// Value rendering: driver values and cast or generated values (see RowValue) → JSON, as the runtime
// API answers them and files and previews write them. Values are normalised by column type, so both
// databases answer the same JSON for the same data: integers and numbers as numbers (integers beyond
// 2^53 as strings), booleans as booleans, dates in the field's output format, datetimes as ISO UTC
// with milliseconds, times as HH:mm:ss, json as JSON values.
import { unhandledFieldType } from '../contract.ts';
import type { RowValue } from './row-value.ts';
import type { RuntimeColumn } from './tables.ts';
import { readDate, readDatetime, readTime, renderDate } from './temporal.ts';

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

type Reader = (raw: unknown) => JsonValue;

const readers = new WeakMap<RuntimeColumn, Reader>();

/** The reader of a column's driver values (built once per column). */
export function columnReader(column: RuntimeColumn): Reader {
  let reader = readers.get(column);
  if (!reader) readers.set(column, (reader = buildReader(column)));
  return reader;
}

function buildReader(column: RuntimeColumn): Reader {
  const nullable = (read: Reader): Reader => (raw) => (raw === null || raw === undefined ? null : read(raw));
  switch (column.type) {
    case 'integer':
      return nullable(readInteger);
    case 'number':
      return nullable((raw) => (typeof raw === 'number' ? raw : Number(raw)));
    case 'boolean':
      return nullable((raw) => raw === true || raw === 1 || raw === '1' || raw === 't' || raw === 'true');
    case 'date': {
      const format = column.outputFormat;
      return nullable((raw) => renderDate(readDate(raw), format));
    }
    case 'datetime':
      return nullable(readDatetime);
    case 'time':
      return nullable(readTime);
    case 'uuid':
      return nullable((raw) => String(raw).toLowerCase());
    case 'json':
      // Both drivers parse json columns (pg: jsonb; mysql2: JSON, and MariaDB's via its extended metadata).
      return (raw) => (raw === undefined ? null : sortedKeys(raw as JsonValue));
    case 'string':
    case 'text':
    case 'enum':
      return nullable((raw) => (typeof raw === 'string' ? raw : String(raw)));
  }
  return unhandledFieldType(column.type);
}

/** A number when exact, else the digits as a string (JSON numbers lose integers beyond 2^53). */
function readInteger(raw: unknown): JsonValue {
  if (typeof raw === 'number') return raw;
  const text = String(raw);
  const number = Number(text);
  return Number.isSafeInteger(number) ? number : text;
}

/**
 * Object keys in code-unit order at every depth: jsonb keeps its own key order and MySQL keeps the
 * written one, so without this the same document would read differently from each database.
 */
export function sortedKeys(value: JsonValue): JsonValue {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (value === null || typeof value !== 'object') return value;
  const sorted: { [key: string]: JsonValue } = {};
  for (const key of Object.keys(value).sort()) {
    // A "__proto__" key (legal in JSON) must stay a key, not become the object's prototype.
    if (key === '__proto__') Object.defineProperty(sorted, key, { value: sortedKeys(value[key]!), enumerable: true, writable: true, configurable: true });
    else sorted[key] = sortedKeys(value[key]!);
  }
  return sorted;
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
