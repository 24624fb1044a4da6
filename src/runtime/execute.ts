// Stage 4 of a runtime read: runs compiled plans on a target connection. One query for the page,
// a total from the count cache (or from a short page, or COUNT(*)), and one batched query per
// populated field for the whole page (WHERE key IN (…)), never one per row.
import type { RowValue } from '../model/row-value.ts';
import type { SqlExecutor, TargetConnection } from '../dialects/dialect.ts';
import { AppError } from '../errors.ts';
import { castJson } from '../model/cast.ts';
import { compileList, compileOne, compilePopulate, type CompiledQuery } from './compile.ts';
import type { PlannedPopulate, ReadPlan } from './plan.ts';
import { runtimeErrors } from './runtime-errors.ts';
import { listEnvelope, shapeRow, type ListEnvelope, type JsonRow } from './shape.ts';
import type { JsonValue } from '../model/render.ts';
import type { TableContext } from './tables.ts';


/** Supplies the total of a WHERE: from a cache, or by calling `count`. */
export interface Totals {
  cached(where: CompiledQuery): number | undefined;
  remember(where: CompiledQuery, total: number): void;
  count(where: CompiledQuery, count: () => Promise<number>): Promise<number>;
}

/** A page of rows and the total matching the filters. */
export async function executeList(context: TableContext, plan: ReadPlan, totals: Totals): Promise<ListEnvelope> {
  const { connection, namespace, table } = context;
  const compiled = compileList(connection.dialect, namespace, plan, table);
  const count = () => readRows(connection, compiled.count, context).then((rows) => Number(rows[0]?.total ?? 0));
  const cached = totals.cached(compiled.where);
  if (plan.limit === 0) return listEnvelope([], plan.offset, plan.limit, cached ?? (await totals.count(compiled.where, count)));
  const raw = await readRows(connection, compiled.rows, context);
  let total = cached;
  if (total === undefined) {
    // A short page that is not past the end tells the total without counting.
    if (raw.length < plan.limit && (raw.length > 0 || plan.offset === 0)) {
      total = plan.offset + raw.length;
      totals.remember(compiled.where, total);
    } else {
      total = await totals.count(compiled.where, count);
    }
  }
  const rows = raw.map((row) => shapeRow(table, row, plan.fields));
  await populate(context, plan.populate, rows);
  return listEnvelope(rows, plan.offset, plan.limit, total);
}

/** The row a plan's filters on the whole primary key read, or AppError 404. */
export async function executeOne(context: TableContext, plan: ReadPlan): Promise<JsonRow> {
  const [raw] = await readRows(context.connection, compileOne(context.connection.dialect, context.namespace, plan, context.table), context);
  if (!raw) throw runtimeErrors.rowNotFound();
  const row = shapeRow(context.table, raw, plan.fields);
  await populate(context, plan.populate, [row]);
  return row;
}

/**
 * Replaces each populated field's value by the referenced row (or null), or for a composite
 * reference adds the row under its name: one query per populated name.
 */
async function populate(context: TableContext, plans: PlannedPopulate[], rows: JsonRow[]): Promise<void> {
  for (const plan of plans) {
    const referenced = context.tables.get(plan.table);
    const keyColumns = plan.keys.map((name) => referenced.byName.get(name)!);
    // The key values of a row (cast by the referenced columns), or undefined when one is null.
    const keyOf = (row: JsonRow, columns: string[]): RowValue[] | undefined => {
      const values: RowValue[] = [];
      for (let i = 0; i < columns.length; i++) {
        const value = row[columns[i]!];
        const cast = value === null || value === undefined ? undefined : castJson(keyColumns[i]!, value);
        if (cast === undefined || cast === null) return undefined;
        values.push(cast);
      }
      return values;
    };
    const keys = new Map<string, RowValue[]>();
    // Each row's key text, read once (its columns do not change before its field is replaced below).
    const rowKeys: Array<string | undefined> = [];
    for (const row of rows) {
      const values = keyOf(row, plan.columns);
      const text = values && tupleText(values);
      rowKeys.push(text);
      if (values) keys.set(text!, values);
    }
    const found = new Map<string, JsonRow>();
    if (keys.size > 0) {
      const query = compilePopulate(context.connection.dialect, context.namespace, plan, referenced, [...keys.values()]);
      const read = [...plan.fields, ...plan.keys.filter((name) => !plan.fields.includes(name))];
      for (const raw of await readRows(context.connection, query, { ...context, table: referenced })) {
        const full = shapeRow(referenced, raw, read);
        const values = keyOf(full, plan.keys);
        if (values) found.set(tupleText(values), projection(full, plan.fields));
      }
    }
    for (let i = 0; i < rows.length; i++) {
      const text = rowKeys[i];
      rows[i]![plan.field] = text === undefined ? null : (found.get(text) ?? null);
    }
  }
}

function tupleText(values: RowValue[]): string {
  return values.length === 1 ? keyText(values[0]!) : values.map(keyText).join('\u0000');
}

function keyText(value: RowValue): string {
  return typeof value === 'string' ? `s${value}` : `v${String(value)}`;
}

function projection(row: JsonRow, fields: string[]): JsonRow {
  const projected: JsonRow = {};
  for (const field of fields) projected[field] = row[field] as JsonValue;
  return projected;
}

/** Runs a read; a missing namespace or table and an unreachable server become AppErrors. */
async function readRows(executor: SqlExecutor & Pick<TargetConnection, 'dialect'>, query: CompiledQuery, context: TableContext): Promise<Array<Record<string, unknown>>> {
  try {
    return await executor.query(query.sql, query.params);
  } catch (error) {
    throw readError(context, error);
  }
}

/** A failed read as the AppError it answers (missing table, unreachable or slow server, refused value), or itself. */
export function readError(context: Pick<TableContext, 'connection' | 'table'>, error: unknown): unknown {
  if (error instanceof AppError) return error;
  const mapped = context.connection.dialect.mapError(error, context.table.spec);
  if (mapped.kind === 'undefined_table') return runtimeErrors.unknownTable(context.table.name, []);
  if (mapped.kind === 'connection') return runtimeErrors.targetUnavailable();
  if (mapped.kind === 'timeout') return runtimeErrors.targetTimeout();
  if (mapped.kind === 'invalid_value') return runtimeErrors.rejectedValue(mapped.message);
  return error;
}
