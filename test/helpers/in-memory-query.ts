// A plain in-memory evaluation of the runtime's query semantics over rows as the API returns them:
// the reference the databases' answers are compared with.
import type { FilterOperator } from '../../src/runtime/operators.ts';
import type { JsonValue } from '../../src/model/render.ts';
import type { JsonRow } from '../../src/runtime/shape.ts';
import type { RuntimeColumn, RuntimeTable } from '../../src/model/tables.ts';
import { parseDate } from '../../src/model/temporal.ts';

export interface MemoryFilter {
  field: string;
  operator: FilterOperator;
  /** Values as they would be written in the query string. */
  values: string[];
}

/** Code-point order, as PostgreSQL's "C" collation and MySQL's utf8mb4_bin compare. */
export function compareText(a: string, b: string): number {
  const left = Array.from(a, (character) => character.codePointAt(0)!);
  const right = Array.from(b, (character) => character.codePointAt(0)!);
  for (let index = 0; index < Math.min(left.length, right.length); index++) {
    if (left[index] !== right[index]) return left[index]! - right[index]!;
  }
  return left.length - right.length;
}

/** A value (rendered by the API, or written in a query) in a form that compares by its type. */
function comparable(column: RuntimeColumn, value: JsonValue | string): string | number | boolean {
  switch (column.type) {
    case 'integer':
    case 'number':
      return Number(value);
    case 'boolean':
      return value === true || value === 'true' || value === '1';
    case 'date':
      return parseDate(String(value)) ?? String(value);
    case 'datetime':
      return new Date(String(value)).getTime();
    case 'time':
      return String(value).length === 5 ? `${value}:00` : String(value);
    case 'uuid':
      return String(value).toLowerCase();
    default:
      return String(value);
  }
}

function compare(column: RuntimeColumn, a: JsonValue, b: JsonValue | string): number {
  const left = comparable(column, a);
  const right = comparable(column, b);
  if (typeof left === 'string' && typeof right === 'string') return compareText(left, right);
  return left < right ? -1 : left > right ? 1 : 0;
}

export function matches(table: RuntimeTable, row: JsonRow, filter: MemoryFilter): boolean {
  const column = table.byName.get(filter.field)!;
  const value = row[filter.field] ?? null;
  const [first = ''] = filter.values;
  const text = value === null ? '' : String(value);
  switch (filter.operator) {
    case '$eq':
      return value !== null && compare(column, value, first) === 0;
    case '$ne':
      return value === null || compare(column, value, first) !== 0;
    case '$gt':
      return value !== null && compare(column, value, first) > 0;
    case '$gte':
      return value !== null && compare(column, value, first) >= 0;
    case '$lt':
      return value !== null && compare(column, value, first) < 0;
    case '$lte':
      return value !== null && compare(column, value, first) <= 0;
    case '$in':
      return value !== null && filter.values.some((each) => compare(column, value, each) === 0);
    case '$notIn':
      return value === null || filter.values.every((each) => compare(column, value, each) !== 0);
    case '$contains':
      return value !== null && text.includes(first);
    case '$containsi':
      return value !== null && text.toLowerCase().includes(first.toLowerCase());
    case '$startsWith':
      return value !== null && text.startsWith(first);
    case '$endsWith':
      return value !== null && text.endsWith(first);
    case '$null':
      return (value === null) === (first.toLowerCase() === 'true');
  }
}

/** Sorts like the runtime: each key in turn, null as the largest value, then the primary key ascending. */
export function sortRows(table: RuntimeTable, rows: JsonRow[], sort: Array<{ field: string; direction: 'asc' | 'desc' }>): JsonRow[] {
  const keys = [...sort];
  for (const column of table.primaryKey) if (!keys.some((key) => key.field === column.name)) keys.push({ field: column.name, direction: 'asc' });
  return [...rows].sort((a, b) => {
    for (const { field, direction } of keys) {
      const column = table.byName.get(field)!;
      const left = a[field] ?? null;
      const right = b[field] ?? null;
      let order: number;
      if (left === null || right === null) order = left === right ? 0 : left === null ? 1 : -1;
      else order = compare(column, left, right as JsonValue);
      if (order !== 0) return direction === 'asc' ? order : -order;
    }
    return 0;
  });
}
