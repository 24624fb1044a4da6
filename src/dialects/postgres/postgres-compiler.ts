// PostgreSQL compile hooks of the runtime query engine: numbered placeholders with explicit casts,
// ILIKE, IS DISTINCT FROM, code-point ordering of text, and the table lock of key generation.
import { unhandledFieldType } from '../../contract.ts';
import type { ColumnSpec, ColumnType } from '../../model/table-spec.ts';
import type { RowValue } from '../../model/row-value.ts';
import type { SortDirection } from '../dialect.ts';
import { postgresParameter } from './postgres-loader.ts';
import { postgresParameterType } from './postgres-ddl.ts';

export const POSTGRES_LIKE_ESCAPE = '!';

/** Column types stored as text, which compare by collation unless told otherwise. */
const TEXTUAL = {
  string: true,
  text: true,
  enum: true,
  integer: false,
  number: false,
  boolean: false,
  date: false,
  datetime: false,
  time: false,
  uuid: false,
  json: false,
} as const satisfies Record<ColumnType, boolean>;

export function postgresPlaceholder(index: number): string {
  return `$${index}`;
}

/** `$n::type`; integers as bigint and decimals as unbounded numeric, so no filter value fails or rounds by the column's width. */
export function postgresTypedPlaceholder(index: number, column: ColumnSpec): string {
  return `$${index}::${filterParameterType(column)}`;
}

function filterParameterType(column: ColumnSpec): string {
  switch (column.type) {
    case 'integer':
      return 'bigint';
    case 'number':
      return column.precision === undefined ? 'double precision' : 'numeric';
    case 'enum':
    case 'text':
      return 'text';
    case 'string':
    case 'boolean':
    case 'date':
    case 'datetime':
    case 'time':
    case 'uuid':
    case 'json':
      return postgresParameterType(column);
  }
}

export function postgresRuntimeParameter(column: ColumnSpec, value: RowValue): unknown {
  return postgresParameter(column, value);
}

export function postgresLike(expr: string, pattern: string, caseInsensitive: boolean): string {
  return `${expr} ${caseInsensitive ? 'ILIKE' : 'LIKE'} ${pattern} ESCAPE '${POSTGRES_LIKE_ESCAPE}'`;
}

export function postgresDistinctFrom(left: string, right: string): string {
  return `${left} IS DISTINCT FROM ${right}`;
}

/** Text compares by code point ("C"), as MySQL's utf8mb4_bin does, whatever the database's collation. */
export function postgresComparable(expr: string, column: ColumnSpec): string {
  return TEXTUAL[column.type] ? `${expr} COLLATE "C"` : expr;
}

/**
 * A column's text as the runtime API renders it (src/model/render.ts, temporal.ts), for COPY: the
 * same string operations on the same driver text (the sessions are in UTC), so the bytes agree.
 * Datetimes of years 1–9999 become ISO UTC with milliseconds (to_char's MS truncates, as reading
 * the text does); any other (infinity, BC, year 10000 on) stays the text, as the API leaves it.
 */
export function postgresExportText(column: ColumnSpec, expr: string): string | undefined {
  switch (column.type) {
    case 'integer':
    case 'string':
    case 'text':
    case 'enum':
      return `${expr}::text`;
    case 'uuid':
      return `lower(${expr}::text)`;
    case 'boolean':
      return `CASE WHEN ${expr} THEN 'true' WHEN NOT ${expr} THEN 'false' END`;
    case 'datetime':
      return (
        `CASE WHEN ${expr} >= '0001-01-01 00:00:00+00' AND ${expr} < '10000-01-01 00:00:00+00' ` +
        `THEN to_char(${expr} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') ELSE ${expr}::text END`
      );
    case 'date':
      return `left(${expr}::text, 10)`;
    case 'time':
      return `left(${expr}::text, 8)`;
    case 'number':
    case 'json':
      // JavaScript's number text (exponents, digits) and JSON.stringify of sorted keys: not in SQL.
      return undefined;
  }
  return unhandledFieldType(column.type);
}

/** Dialect.formulaEscapedText: `'` before text starting with =, +, -, @, tab or CR. */
export function postgresFormulaEscapedText(text: string): string {
  return `CASE WHEN left(${text}, 1) IN ('=', '+', '-', '@', chr(9), chr(13)) THEN '''' || ${text} ELSE ${text} END`;
}

/** PostgreSQL already sorts null as the largest value (NULLS LAST ascending, NULLS FIRST descending). */
export function postgresOrderBy(expr: string, direction: SortDirection): string {
  return `${expr} ${direction === 'asc' ? 'ASC' : 'DESC'}`;
}

/** SHARE ROW EXCLUSIVE conflicts with itself and with writers, not with readers. */
export function postgresMaxKeyStatements(table: string, column: string, where?: string): string[] {
  return [`LOCK TABLE ${table} IN SHARE ROW EXCLUSIVE MODE`, `SELECT MAX(${column}) AS max FROM ${table}${where ? ` WHERE ${where}` : ''}`];
}

/** `LIMIT … OFFSET …` (standard SQL's OFFSET … FETCH would do on PostgreSQL, not on MySQL). */
export function postgresPaging(limit: string, offset: string): string {
  return `LIMIT ${limit} OFFSET ${offset}`;
}
