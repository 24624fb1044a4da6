// MySQL compile hooks of the runtime query engine: `?` placeholders, LOWER() LIKE LOWER() for
// case-insensitive matching, <=> for null-aware inequality, enums ordered by value, nulls last.
import type { ColumnSpec, ColumnType } from '../../model/table-spec.ts';
import type { RowValue } from '../../model/row-value.ts';
import type { SortDirection } from '../dialect.ts';
import { mysqlValue } from './mysql-loader.ts';

export const MYSQL_LIKE_ESCAPE = '!';

/** How the runtime binds and compares a column of each type on MySQL. */
interface MysqlRuntimeType {
  /** A non-null runtime value as a mysql2 parameter. */
  parameter(column: ColumnSpec, value: Exclude<RowValue, null>): unknown;
  /** ENUM columns compare and sort by member position: as text (CHAR) they do by value, like PostgreSQL's text enums. */
  comparedAsText: boolean;
}

const plain: MysqlRuntimeType = { parameter: (column, value) => mysqlValue(column, value), comparedAsText: false };

const MYSQL_RUNTIME_TYPES = {
  string: plain,
  text: plain,
  // Integers beyond 2^53 stay bigint: mysql2 writes them as exact numeric literals, where a string
  // would be compared with the column as a double.
  integer: { parameter: (column, value) => (typeof value === 'bigint' ? value : mysqlValue(column, value)), comparedAsText: false },
  number: plain,
  boolean: plain,
  date: plain,
  datetime: plain,
  time: plain,
  uuid: plain,
  json: plain,
  enum: { ...plain, comparedAsText: true },
} as const satisfies Record<ColumnType, MysqlRuntimeType>;

export function mysqlPlaceholder(): string {
  return '?';
}

/** A runtime value as a mysql2 parameter (MYSQL_RUNTIME_TYPES). */
export function mysqlRuntimeParameter(column: ColumnSpec, value: RowValue): unknown {
  return value === null ? null : MYSQL_RUNTIME_TYPES[column.type].parameter(column, value);
}

/** utf8mb4_bin is case-sensitive: lower both sides for the case-insensitive form. */
export function mysqlLike(expr: string, pattern: string, caseInsensitive: boolean): string {
  return caseInsensitive
    ? `LOWER(${expr}) LIKE LOWER(${pattern}) ESCAPE '${MYSQL_LIKE_ESCAPE}'`
    : `${expr} LIKE ${pattern} ESCAPE '${MYSQL_LIKE_ESCAPE}'`;
}

export function mysqlDistinctFrom(left: string, right: string): string {
  return `NOT (${left} <=> ${right})`;
}

/** A column as it compares and sorts the same as on PostgreSQL (enums by value, not position). */
export function mysqlComparable(expr: string, column: ColumnSpec): string {
  return MYSQL_RUNTIME_TYPES[column.type].comparedAsText ? `CAST(${expr} AS CHAR)` : expr;
}

/** MySQL sorts null first ascending; `expr IS NULL` first puts it last, as PostgreSQL does. */
export function mysqlOrderBy(expr: string, direction: SortDirection, nullable: boolean): string {
  const order = direction === 'asc' ? 'ASC' : 'DESC';
  return nullable ? `${expr} IS NULL ${order}, ${expr} ${order}` : `${expr} ${order}`;
}

/** A locking read of the max takes a next-key lock on the index's end: concurrent creators wait. */
export function mysqlMaxKeyStatements(table: string, column: string, where?: string): string[] {
  return [`SELECT MAX(${column}) AS max FROM ${table}${where ? ` WHERE ${where}` : ''} FOR UPDATE`];
}

/** `LIMIT … OFFSET …` (standard SQL's OFFSET … FETCH would do on PostgreSQL, not on MySQL). */
export function mysqlPaging(limit: string, offset: string): string {
  return `LIMIT ${limit} OFFSET ${offset}`;
}
