// Writes as { sql, params } for one dialect: INSERT, UPDATE and DELETE addressed by primary key
// (with RETURNING where the dialect supports it), and the key reads that stand in for it elsewhere.
import type { SqlHooks } from '../dialects/dialect.ts';
import type { RowValue } from '../model/row-value.ts';
import { columnList, knownColumn, qualifiedTable, SqlParams, type CompiledQuery } from './compile.ts';
import type { RowKey } from './row-id.ts';
import type { RuntimeTable } from '../model/tables.ts';

function keyCondition(dialect: SqlHooks, table: RuntimeTable, key: RowKey, params: SqlParams): string {
  return key.fields.map((field, index) => `${dialect.quoteIdentifier(field)} = ${params.typed(knownColumn(table, field), key.values[index]!)}`).join(' AND ');
}

function returning(dialect: SqlHooks, names: string[]): string {
  return dialect.capabilities.supportsReturning ? ` RETURNING ${columnList(dialect, names)}` : '';
}

const allColumns = (table: RuntimeTable) => table.columns.map((column) => column.name);

/** INSERT of `values` (RETURNING every column where supported). */
export function compileInsert(dialect: SqlHooks, namespace: string, table: RuntimeTable, values: Map<string, RowValue>): CompiledQuery {
  const params = new SqlParams(dialect);
  const names = [...values.keys()];
  const placeholders = names.map((name) => params.typed(knownColumn(table, name), values.get(name)!));
  return {
    sql: `INSERT INTO ${qualifiedTable(dialect, namespace, table.name)} (${columnList(dialect, names)}) VALUES (${placeholders.join(', ')})${returning(dialect, allColumns(table))}`,
    params: params.values,
  };
}

/** UPDATE of the row at `key` (RETURNING every column where supported). */
export function compileUpdate(dialect: SqlHooks, namespace: string, table: RuntimeTable, key: RowKey, values: Map<string, RowValue>): CompiledQuery {
  const params = new SqlParams(dialect);
  const assignments = [...values].map(([name, value]) => `${dialect.quoteIdentifier(name)} = ${params.typed(knownColumn(table, name), value)}`);
  const where = keyCondition(dialect, table, key, params);
  return {
    sql: `UPDATE ${qualifiedTable(dialect, namespace, table.name)} SET ${assignments.join(', ')} WHERE ${where}${returning(dialect, allColumns(table))}`,
    params: params.values,
  };
}

/** DELETE of the row at `key` (RETURNING its key where supported, to tell a missing row). */
export function compileDelete(dialect: SqlHooks, namespace: string, table: RuntimeTable, key: RowKey): CompiledQuery {
  const params = new SqlParams(dialect);
  const where = keyCondition(dialect, table, key, params);
  return { sql: `DELETE FROM ${qualifiedTable(dialect, namespace, table.name)} WHERE ${where}${returning(dialect, key.fields)}`, params: params.values };
}

/** SELECT of `fields` of the row at `key`; `forUpdate` locks it for the rest of the transaction. */
export function compileSelectByKey(dialect: SqlHooks, namespace: string, table: RuntimeTable, key: RowKey, fields: string[], forUpdate = false): CompiledQuery {
  const params = new SqlParams(dialect);
  const where = keyCondition(dialect, table, key, params);
  return {
    sql: `SELECT ${columnList(dialect, fields)} FROM ${qualifiedTable(dialect, namespace, table.name)} WHERE ${where}${forUpdate ? ' FOR UPDATE' : ''}`,
    params: params.values,
  };
}

/** Statements that serialise key generation and read the current largest key as `max`. */
export function compileMaxKey(dialect: SqlHooks, namespace: string, table: RuntimeTable, column: string): string[] {
  return dialect.maxKeyStatements(qualifiedTable(dialect, namespace, table.name), dialect.quoteIdentifier(column));
}

/** compileMaxKey among the rows whose `within` columns hold `values` (a line number within its order). */
export function compileMaxWithin(dialect: SqlHooks, namespace: string, table: RuntimeTable, column: string, within: string[], values: RowValue[]): { statements: string[]; params: unknown[] } {
  const params = new SqlParams(dialect);
  const where = within.map((name, i) => `${dialect.quoteIdentifier(name)} = ${params.typed(knownColumn(table, name), values[i]!)}`).join(' AND ');
  return { statements: dialect.maxKeyStatements(qualifiedTable(dialect, namespace, table.name), dialect.quoteIdentifier(column), where), params: params.values };
}
