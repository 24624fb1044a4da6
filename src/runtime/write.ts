// Runtime writes: create, update and delete one row, each validated against the table schema and
// run in one transaction. Without RETURNING (MySQL), a write is followed by a read in the same
// transaction. Driver errors are mapped once by the dialect and become 409/400 here.
//
// Missing keys on create: a uuid key is randomUUID(); an integer key is MAX(key) + 1, read in the
// insert's transaction under a lock that serialises creators of the table (dialect.maxKeyStatements).
// Generated tables get no identity or auto-increment column: their keys come from the generator
// (sequences with any start and step, random integers), a database sequence would have to be
// re-synchronised after every load, and sources generated before would not have one. Creators in
// one process take turns per table; a deadlock between processes (InnoDB's locking read of the max)
// is retried.
import { randomUUID } from 'node:crypto';
import type { DriverError, SqlExecutor, TargetConnection } from '../dialects/dialect.ts';
import type { RowValue } from '../model/row-value.ts';
import { AppError } from '../errors.ts';
import { compileDelete, compileInsert, compileMaxKey, compileMaxWithin, compileSelectByKey, compileUpdate } from './compile-write.ts';
import { formatRowId, parseRowId, type RowKey } from './row-id.ts';
import { runtimeErrors } from './runtime-errors.ts';
import { fieldType } from '../model/field-types/index.ts';
import { renderValue } from '../model/render.ts';
import { shapeRow, type JsonRow } from './shape.ts';
import type { RuntimeTable, RuntimeTables } from '../model/tables.ts';
import type { TableContext } from './tables.ts';
import { generatedKey, validateBody } from './validate-body.ts';


const allFields = (table: RuntimeTable) => table.columns.map((column) => column.name);

/** Inserts a row; resolves to the full row and its path id. */
export async function createRow(context: TableContext, body: unknown): Promise<{ row: JsonRow; id: string }> {
  const { connection, namespace, table } = context;
  const dialect = connection.dialect;
  const values = validateBody(table, body, 'create');
  const key = generatedKey(table);
  const fill = key && !values.has(key.name) ? fieldType(key.type).generatedKey : undefined;
  if (key && fill === 'random-uuid') values.set(key.name, randomUUID());
  const counted = fill === 'next-integer' ? key : undefined;
  // Without RETURNING and without a key to read the row back by, the answer is the values written:
  // defaults are written out then, as the database would have filled them.
  if (!dialect.capabilities.supportsReturning && table.primaryKey.length === 0) fillDefaults(table, values);
  // Positions within a group the body leaves out (validateBody checked the group is given).
  const positions = table.columns.filter((column) => column.within && !values.has(column.name));
  const insert = () =>
    connection.transaction(async (tx) => {
      if (counted) values.set(counted.name, await nextIntegerKey(tx, context, counted.name));
      for (const column of positions) values.set(column.name, await nextPosition(tx, context, column.name, column.within!, values));
      const statement = compileInsert(dialect, namespace, table, values);
      const returned = await tx.query(statement.sql, statement.params);
      if (dialect.capabilities.supportsReturning) return shapeRow(table, returned[0]!, allFields(table));
      if (table.primaryKey.length === 0) return renderValues(table, values);
      return readBack(tx, context, keyOf(table, values));
    });
  // Creators counting up keys of one table take turns in this process; across processes the
  // database lock orders them (and a deadlock it breaks is retried).
  const row = await mapWriteErrors(context, 'changed', counted || positions.length > 0 ? () => inTurn(connection, `${namespace}.${table.name}`, insert) : insert);
  return { row, id: table.primaryKey.length > 0 ? formatRowId(table, row) : '' };
}

/** Partially updates the row at `id`; resolves to the full updated row. */
export async function updateRow(context: TableContext, id: string, body: unknown): Promise<JsonRow> {
  const { connection, namespace, table } = context;
  const dialect = connection.dialect;
  const key = parseRowId(table, id);
  const values = validateBody(table, body, 'update');
  const update = compileUpdate(dialect, namespace, table, key, values);
  return mapWriteErrors(context, 'changed', async () => {
    if (dialect.capabilities.supportsReturning) {
      const [row] = await connection.query(update.sql, update.params);
      if (!row) throw runtimeErrors.rowNotFound();
      return shapeRow(table, row, allFields(table));
    }
    return connection.transaction(async (tx) => {
      await lockRow(tx, context, key);
      await tx.query(update.sql, update.params);
      // The key may have changed with the body.
      const newKey: RowKey = { fields: key.fields, values: key.fields.map((field, index) => (values.has(field) ? values.get(field)! : key.values[index]!)) };
      return readBack(tx, context, newKey);
    });
  });
}

/** Deletes the row at `id`; rows referencing it follow their onDelete (restrict → 409). */
export async function deleteRow(context: TableContext, id: string): Promise<void> {
  const { connection, namespace, table } = context;
  const key = parseRowId(table, id);
  const remove = compileDelete(connection.dialect, namespace, table, key);
  await mapWriteErrors(context, 'deleted', async () => {
    if (connection.dialect.capabilities.supportsReturning) {
      const deleted = await connection.query(remove.sql, remove.params);
      if (deleted.length === 0) throw runtimeErrors.rowNotFound();
      return;
    }
    await connection.transaction(async (tx) => {
      await lockRow(tx, context, key);
      await tx.query(remove.sql, remove.params);
    });
  });
}

const turns = new WeakMap<TargetConnection, Map<string, Promise<unknown>>>();

/** Runs `work` after every earlier call with the same connection and key has settled. */
async function inTurn<T>(connection: TargetConnection, key: string, work: () => Promise<T>): Promise<T> {
  let queues = turns.get(connection);
  if (!queues) turns.set(connection, (queues = new Map()));
  const previous = queues.get(key) ?? Promise.resolve();
  const current = previous.catch(() => {}).then(work);
  queues.set(key, current);
  try {
    return await current;
  } finally {
    if (queues.get(key) === current) queues.delete(key);
  }
}

async function nextIntegerKey(tx: SqlExecutor, context: TableContext, column: string): Promise<RowValue> {
  let rows: Array<{ max?: unknown }> = [];
  for (const statement of compileMaxKey(context.connection.dialect, context.namespace, context.table, column)) rows = await tx.query(statement, []);
  const max = rows[0]?.max;
  const next = max === null || max === undefined ? 1n : BigInt(String(max)) + 1n;
  return Number.isSafeInteger(Number(next)) ? Number(next) : next;
}

/** The next position in the row's group: the group's largest + step, or start for the first row. */
async function nextPosition(tx: SqlExecutor, context: TableContext, column: string, within: { columns: string[]; start: number; step: number }, values: Map<string, RowValue>): Promise<RowValue> {
  const { statements, params } = compileMaxWithin(context.connection.dialect, context.namespace, context.table, column, within.columns, within.columns.map((name) => values.get(name) ?? null));
  let rows: Array<{ max?: unknown }> = [];
  // The last statement reads the max (and holds the placeholders); those before it lock.
  for (const [i, statement] of statements.entries()) rows = await tx.query(statement, i === statements.length - 1 ? params : []);
  const max = rows[0]?.max;
  return max === null || max === undefined ? within.start : Number(max) + within.step;
}

/** Locks the row at `key` for the transaction, or 404. */
async function lockRow(tx: SqlExecutor, context: TableContext, key: RowKey): Promise<void> {
  const select = compileSelectByKey(context.connection.dialect, context.namespace, context.table, key, key.fields, true);
  if ((await tx.query(select.sql, select.params)).length === 0) throw runtimeErrors.rowNotFound();
}

async function readBack(tx: SqlExecutor, context: TableContext, key: RowKey): Promise<JsonRow> {
  const select = compileSelectByKey(context.connection.dialect, context.namespace, context.table, key, allFields(context.table));
  const [row] = await tx.query(select.sql, select.params);
  if (!row) throw new Error(`Row written to "${context.table.name}" cannot be read back`);
  return shapeRow(context.table, row, allFields(context.table));
}

function keyOf(table: RuntimeTable, values: Map<string, RowValue>): RowKey {
  return { fields: table.primaryKey.map((column) => column.name), values: table.primaryKey.map((column) => values.get(column.name)!) };
}

function fillDefaults(table: RuntimeTable, values: Map<string, RowValue>): void {
  for (const column of table.columns) {
    const declared = column.default;
    if (!declared || values.has(column.name)) continue;
    if ('value' in declared) values.set(column.name, declared.value);
    else if (declared.function === 'uuid') values.set(column.name, randomUUID());
    else values.set(column.name, declared.function === 'now' ? new Date().toISOString() : new Date().toISOString().slice(0, 10));
  }
}

function renderValues(table: RuntimeTable, values: Map<string, RowValue>): JsonRow {
  return Object.fromEntries(table.columns.map((column) => [column.name, renderValue(column, values.get(column.name) ?? null)]));
}

/** Attempts of a write whose transaction lost a deadlock (InnoDB picks a victim among concurrent key generators). */
const MAX_ATTEMPTS = 8;

/**
 * Runs a write, again when the database rolled it back for a deadlock; driver errors become
 * AppErrors (409 for key conflicts, 400 for refused values).
 */
async function mapWriteErrors<T>(context: TableContext, change: 'changed' | 'deleted', work: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (error instanceof AppError) throw error;
      const mapped = context.connection.dialect.mapError(error, context.table.spec);
      if (mapped.kind === 'serialization_failure' && attempt < MAX_ATTEMPTS) {
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 5 * 2 ** attempt));
        continue;
      }
      throw appError(context, change, error, mapped);
    }
  }
}

/** The AppError of a mapped driver error, or the error itself when unexpected (a 500). */
function appError(context: TableContext, change: 'changed' | 'deleted', error: unknown, mapped: DriverError): unknown {
  switch (mapped.kind) {
    case 'unique_violation':
      return runtimeErrors.uniqueViolation(mapped.columns);
    case 'foreign_key_violation': {
      const found = findForeignKey(context.tables, mapped.constraint);
      if (mapped.referenced) return runtimeErrors.stillReferenced(found?.table ?? mapped.table, found?.foreignKey.columns, change);
      const foreignKey = found?.foreignKey ?? context.table.spec.foreignKeys.find((candidate) => sameColumns(candidate.columns, mapped.columns));
      if (foreignKey) return runtimeErrors.missingReference(foreignKey.columns, foreignKey.references.table, foreignKey.references.columns);
      return new AppError(409, mapped.message);
    }
    case 'not_null_violation':
    case 'check_violation':
    case 'invalid_value':
      return runtimeErrors.rejectedValue(mapped.message);
    case 'undefined_table':
      return runtimeErrors.unknownTable(context.table.name, []);
    case 'connection':
      return runtimeErrors.targetUnavailable();
    case 'timeout':
      return runtimeErrors.targetTimeout();
    // Retries ran out, or nothing a request could cause: a 500.
    case 'serialization_failure':
    case 'other':
      return error;
  }
}

function findForeignKey(tables: RuntimeTables, constraint: string | undefined) {
  if (!constraint) return undefined;
  for (const name of tables.names) {
    const foreignKey = tables.get(name).spec.foreignKeys.find((candidate) => candidate.name === constraint);
    if (foreignKey) return { table: name, foreignKey };
  }
  return undefined;
}

function sameColumns(a: string[], b: string[] | undefined): boolean {
  return b !== undefined && a.length === b.length && a.every((column, index) => column === b[index]);
}
