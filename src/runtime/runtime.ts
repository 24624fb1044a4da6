// The runtime facade: what the HTTP layer calls for listRows, getRow, createRow, updateRow and
// deleteRow. Each read runs parseQuery → planRead → compile → execute → shape; each write validates
// its body, runs in a transaction, then reports the write (onWrite) so cached totals of the source go.
//
// Row ids: the primary key value as a string, cast by its type; a composite key's values in key
// order, comma-separated, with `\,` and `\\` for a comma and a backslash inside a value (row-id.ts).
import type { TargetConnection } from '../dialects/dialect.ts';
import type { SchemaConfig } from '../model/config-types.ts';
import { CountCache } from './count-cache.ts';
import { executeList, executeOne, type Totals } from './execute.ts';
import { exportTable, requestedExport, type ExportFormat, type ExportStream } from './export.ts';
import { parseQuery } from './parse-query.ts';
import { planRead, type ReadPlan } from './plan.ts';
import { parseRowId } from './row-id.ts';
import { runtimeErrors } from './runtime-errors.ts';
import type { ListEnvelope, JsonRow } from './shape.ts';
import { plannedRowCounts } from '../generation/plan.ts';
import { buildRuntimeTables, type RuntimeTable, type RuntimeTables } from '../model/tables.ts';
import type { TableContext } from './tables.ts';
import { createRow, deleteRow, updateRow } from './write.ts';

export type { ListEnvelope, JsonRow } from './shape.ts';
export type { ExportFormat, ExportStream } from './export.ts';
export { CountCache, type CountCacheOptions } from './count-cache.ts';

/** A source's data as the runtime reaches it: its id (which keys cached totals), connection, namespace and config. */
export interface SourceData {
  id: string;
  connection: TargetConnection;
  namespace: string;
  config: SchemaConfig;
}

export interface RuntimeOptions {
  /** Cache of list totals; by default one of its own (10,000 entries, 60 s). */
  countCache?: CountCache;
  /**
   * Told after every write, with the source id. The service passes its change feed, which drops
   * the source's totals here at once (countCache is subscribed to it) and in every other process;
   * by default the runtime drops them from its own cache.
   */
  onWrite?: (sourceId: string) => void;
}

export class Runtime {
  readonly countCache: CountCache;
  private readonly tablesByConfig = new WeakMap<SchemaConfig, RuntimeTables>();
  private readonly plansByTable = new WeakMap<RuntimeTable, Map<string, ReadPlan>>();
  private readonly onWrite: (sourceId: string) => void;

  constructor(options: RuntimeOptions = {}) {
    const countCache = (this.countCache = options.countCache ?? new CountCache());
    this.onWrite = options.onWrite ?? ((sourceId) => countCache.invalidateSource(sourceId));
  }

  /** The runtime tables of a config, built once per config object. */
  tables(config: SchemaConfig): RuntimeTables {
    let tables = this.tablesByConfig.get(config);
    if (!tables) this.tablesByConfig.set(config, (tables = buildRuntimeTables(config, plannedRowCounts(config))));
    return tables;
  }

  /** A page of `table` as `{data, meta: {pagination: {offset, limit, total}}}`; totals are cached per source. */
  async list(source: SourceData, table: string, rawQuery: string): Promise<ListEnvelope> {
    const context = this.context(source, table);
    const plan = this.listPlan(context, rawQuery);
    const cache = this.countCache;
    const epoch = cache.epoch(source.id);
    const key = (where: { sql: string; params: unknown[] }) => CountCache.key(source.id, `${source.namespace}.${table}`, where.sql, where.params);
    const totals: Totals = {
      cached: (where) => cache.get(source.id, key(where)),
      remember: (where, total) => cache.set(source.id, key(where), total, epoch),
      count: (where, count) => cache.total(source.id, key(where), count),
    };
    return executeList(context, plan, totals);
  }

  /**
   * The export format a list request asks for (`format=`, or Accept: text/csv or
   * application/x-ndjson), or undefined for a JSON page: the common case is told apart without
   * parsing the query.
   */
  exportFormat(rawQuery: string, accept: string | undefined): ExportFormat | undefined {
    if (!rawQuery.includes('format') && !(accept && /csv|ndjson|jsonl/i.test(accept))) return undefined;
    return requestedExport(parseQuery(rawQuery), accept);
  }

  /** Every row of `table` the query selects, as a CSV or JSON Lines stream (export.ts). */
  export(source: SourceData, table: string, rawQuery: string, format: ExportFormat): ExportStream {
    return exportTable(this.context(source, table), parseQuery(rawQuery), format);
  }

  /** The row at `id`; the query may hold `fields` and `populate` only. */
  async get(source: SourceData, table: string, id: string, rawQuery: string): Promise<JsonRow> {
    const context = this.context(source, table);
    const parsed = parseQuery(rawQuery);
    for (const parameter of ['limit', 'offset'] as const) if (parsed[parameter] !== undefined) throw runtimeErrors.notForOneRow(parameter);
    if (parsed.sort.length > 0) throw runtimeErrors.notForOneRow('sort');
    if (parsed.filters.length > 0) throw runtimeErrors.notForOneRow('filters');
    const key = parseRowId(context.table, id);
    const read = planRead({ fields: parsed.fields, sort: [], filters: [], populate: parsed.populate }, context.table, context.tables);
    const filters = key.fields.map((field, index): ReadPlan['filters'][number] => ({ field, operator: '$eq', values: [key.values[index]!] }));
    const plan: ReadPlan = { ...read, filters, limit: 1 };
    return executeOne(context, plan);
  }

  /** Inserts a row: the full row and its path id (for `Location`). */
  async create(source: SourceData, table: string, body: unknown): Promise<{ row: JsonRow; id: string }> {
    const result = await createRow(this.context(source, table), body);
    this.onWrite(source.id);
    return result;
  }

  /** Partially updates the row at `id`: the full updated row. */
  async update(source: SourceData, table: string, id: string, body: unknown): Promise<JsonRow> {
    const row = await updateRow(this.context(source, table), id, body);
    this.onWrite(source.id);
    return row;
  }

  async delete(source: SourceData, table: string, id: string): Promise<void> {
    await deleteRow(this.context(source, table), id);
    this.onWrite(source.id);
  }

  /**
   * The plan of a list query, parsed and planned once per table and query string: clients repeat
   * their queries (pages, polling), and a plan depends on nothing else (the table objects are made
   * anew when a source's config changes). Plans are frozen, as they are shared; a query that fails
   * to plan throws each time. At most PLANS_PER_TABLE per table, the oldest dropped first.
   */
  private listPlan(context: TableContext, rawQuery: string): ReadPlan {
    let plans = this.plansByTable.get(context.table);
    if (!plans) this.plansByTable.set(context.table, (plans = new Map()));
    let plan = plans.get(rawQuery);
    if (!plan) {
      plan = deepFreeze(planRead(parseQuery(rawQuery), context.table, context.tables));
      if (plans.size >= PLANS_PER_TABLE) plans.delete(plans.keys().next().value!);
      plans.set(rawQuery, plan);
    }
    return plan;
  }

  private context(source: SourceData, table: string): TableContext {
    const tables = this.tables(source.config);
    return { connection: source.connection, namespace: source.namespace, table: tables.get(table), tables };
  }
}

const PLANS_PER_TABLE = 200;

/** `value` and everything it holds, frozen. */
function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}
