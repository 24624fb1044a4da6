// The runtime facade: what the HTTP layer calls for listRows, getRow, createRow, updateRow and
// deleteRow. Each read runs parseQuery → planRead → compile → execute → shape; each write validates
// its body, runs in a transaction and drops the cached totals of the namespace it changed.
//
// Row ids: the primary key value as a string, cast by its type; a composite key's values in key
// order, comma-separated, with `\,` and `\\` for a comma and a backslash inside a value (row-id.ts).
import type { TargetConnection } from '../dialects/dialect.ts';
import type { SchemaConfig } from '../generation/config-types.ts';
import { CountCache } from './count-cache.ts';
import { executeList, executeOne, type ReadTarget, type Totals } from './execute.ts';
import { parseQuery } from './parse-query.ts';
import { planRead, type ReadPlan } from './plan.ts';
import { parseRowId } from './row-id.ts';
import { runtimeErrors } from './runtime-errors.ts';
import type { ListEnvelope, Row } from './shape.ts';
import { buildRuntimeTables, type RuntimeTables } from './tables.ts';
import { createRow, deleteRow, updateRow, type WriteTarget } from './write.ts';

export type { ListEnvelope, Row } from './shape.ts';
export { CountCache, type CountCacheOptions } from './count-cache.ts';

export interface RuntimeOptions {
  /** Cache of list totals; by default one of its own (10,000 entries, 60 s). */
  countCache?: CountCache;
}

export class Runtime {
  readonly countCache: CountCache;
  private readonly tablesByConfig = new WeakMap<SchemaConfig, RuntimeTables>();
  /** The cache keys lists used per target namespace: a write there drops their totals too. */
  private readonly cacheKeysByNamespace = new Map<string, Set<string>>();

  constructor(options: RuntimeOptions = {}) {
    this.countCache = options.countCache ?? new CountCache();
  }

  /** The runtime tables of a config, built once per config object. */
  tables(config: SchemaConfig): RuntimeTables {
    let tables = this.tablesByConfig.get(config);
    if (!tables) this.tablesByConfig.set(config, (tables = buildRuntimeTables(config)));
    return tables;
  }

  /**
   * A page of `table` as `{data, meta: {pagination: {offset, limit, total}}}`. `cacheKey` names the
   * data for the count cache (the source id): `countCache.invalidateSource(cacheKey)` drops its totals.
   */
  async list(connection: TargetConnection, namespace: string, config: SchemaConfig, table: string, rawQuery: string, cacheKey: string): Promise<ListEnvelope> {
    const target = this.readTarget(connection, namespace, config, table);
    const plan = planRead(parseQuery(rawQuery), target.table, target.tables);
    this.remember(connection, namespace, cacheKey);
    const cache = this.countCache;
    const epoch = cache.epoch(cacheKey);
    const key = (where: { sql: string; params: unknown[] }) => CountCache.key(cacheKey, `${namespace}.${table}`, where.sql, where.params);
    const totals: Totals = {
      cached: (where) => cache.get(cacheKey, key(where)),
      remember: (where, total) => cache.set(cacheKey, key(where), total, epoch),
      count: (where, count) => cache.total(cacheKey, key(where), count),
    };
    return executeList(target, plan, totals);
  }

  /** The row at `id`; the query may hold `fields` and `populate` only. */
  async get(connection: TargetConnection, namespace: string, config: SchemaConfig, table: string, id: string, rawQuery: string): Promise<Row> {
    const target = this.readTarget(connection, namespace, config, table);
    const parsed = parseQuery(rawQuery);
    for (const parameter of ['limit', 'offset'] as const) if (parsed[parameter] !== undefined) throw runtimeErrors.notForOneRow(parameter);
    if (parsed.sort.length > 0) throw runtimeErrors.notForOneRow('sort');
    if (parsed.filters.length > 0) throw runtimeErrors.notForOneRow('filters');
    const key = parseRowId(target.table, id);
    const read = planRead({ fields: parsed.fields, sort: [], filters: [], populate: parsed.populate }, target.table, target.tables);
    const filters = key.fields.map((field, index): ReadPlan['filters'][number] => ({ field, operator: '$eq', values: [key.values[index]!] }));
    const plan: ReadPlan = { ...read, filters, limit: 1 };
    return executeOne(target, plan);
  }

  /** Inserts a row: the full row and its path id (for `Location`). */
  async create(connection: TargetConnection, namespace: string, config: SchemaConfig, table: string, body: unknown): Promise<{ row: Row; id: string }> {
    const result = await createRow(this.writeTarget(connection, namespace, config, table), body);
    this.invalidate(connection, namespace);
    return result;
  }

  /** Partially updates the row at `id`: the full updated row. */
  async update(connection: TargetConnection, namespace: string, config: SchemaConfig, table: string, id: string, body: unknown): Promise<Row> {
    const row = await updateRow(this.writeTarget(connection, namespace, config, table), id, body);
    this.invalidate(connection, namespace);
    return row;
  }

  async delete(connection: TargetConnection, namespace: string, config: SchemaConfig, table: string, id: string): Promise<void> {
    await deleteRow(this.writeTarget(connection, namespace, config, table), id);
    this.invalidate(connection, namespace);
  }

  private readTarget(connection: TargetConnection, namespace: string, config: SchemaConfig, table: string): ReadTarget {
    const tables = this.tables(config);
    return { connection, namespace, table: tables.get(table), tables };
  }

  private writeTarget(connection: TargetConnection, namespace: string, config: SchemaConfig, table: string): WriteTarget {
    return this.readTarget(connection, namespace, config, table);
  }

  private remember(connection: TargetConnection, namespace: string, cacheKey: string): void {
    const name = `${connection.dialect.kind}:${namespace}`;
    let keys = this.cacheKeysByNamespace.get(name);
    if (!keys) this.cacheKeysByNamespace.set(name, (keys = new Set()));
    keys.add(cacheKey);
  }

  private invalidate(connection: TargetConnection, namespace: string): void {
    for (const cacheKey of this.cacheKeysByNamespace.get(`${connection.dialect.kind}:${namespace}`) ?? []) this.countCache.invalidateSource(cacheKey);
  }
}
