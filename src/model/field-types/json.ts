// json: any JSON value (jsonb / JSON), rendered with its object keys sorted; only `$null` filters it.
import type { JsonValue } from '../render.ts';
import type { RowValue } from '../row-value.ts';
import { noFacets, type FieldTypeDescriptor, type Reader } from './field-type.ts';

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

// Both drivers parse json columns (pg: jsonb; mysql2: JSON, and MariaDB's via its extended metadata).
const readJson: Reader = (raw) => (raw === undefined ? null : sortedKeys(raw as JsonValue));

export const jsonType = {
  columnFacets: noFacets,
  castText: () => undefined,
  castJson: (_column, value) => (storableJson(value) ? (value as RowValue) : undefined),
  expectation: () => 'a JSON value',
  reader: () => readJson,
  filters: 'none',
  lengthBounds: false,
  valueBounds: false,
  sortable: false,
  tsType: 'JsonValue',
  filterInput: 'text',
  family: 'json',
} as const satisfies FieldTypeDescriptor;
