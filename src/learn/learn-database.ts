// Learning, the pipeline: introspect (read-catalog → map-config) → profile each table with
// aggregate queries (profile-sql.ts) → fit each column (fit-column.ts) → a config that records
// what it learned, plus the privacy report. Only counts, order statistics and values held by at
// least minCount rows (a lookup's labels: all) leave the database.
import type { Field, SchemaConfig } from '../model/config-types.ts';
import type { TargetConnection } from '../dialects/dialect.ts';
import type { IntrospectOptions, IntrospectionWarning } from '../introspection/introspect.ts';
import { columnOf, mapCatalogTables, type MappedTable } from '../introspection/map-config.ts';
import { connectionFailure, dialectOfUrl, readNamespace } from '../introspection/read-catalog.ts';
import { IntrospectionError, introspectionErrors } from '../introspection/introspection-errors.ts';
import { validateConfig } from '../config/validate-config.ts';
import { fitColumn, NUMERIC_CHOICES_MAX, CATEGORY_MAX, type ColumnProfile, type ColumnReport } from './fit-column.ts';
import { identifyingKind } from './identifying.ts';
import { learnDateOrder, startParentOrders, type OrderRule, type ParentOrders } from './learn-order.ts';
import { learnFormulas, type FormulaRule } from './learn-formulas.ts';
import { learnChildrenSums, type ChildrenSumRule } from './learn-children-sums.ts';
import { learnCorrelations, type CorrelationRule } from './learn-correlations.ts';
import { TableProfiler, type TableStats } from './profile-sql.ts';
import { TextProfiler } from './profile-text.ts';
import { fitText } from './fit-text.ts';
import { idWords } from '../generation/rules/field-rule.ts';

/** Tables of at most this many rows, referenced by others and without person or contact columns, are lookups. */
export const LOOKUP_MAX_ROWS = 1000;
export const DEFAULT_MIN_COUNT = 5;
/** Tables with more rows are profiled on a sample of about this many. */
export const DEFAULT_SAMPLE_ROWS = 20_000;

export interface LearnOptions extends IntrospectOptions {
  /** Factor of every table's row count; default 1. */
  scale?: number;
  /** A value is copied only when at least this many rows hold it; default 5. */
  minCount?: number;
  /** Copy the labels of small lookup tables whole; default true. */
  lookups?: boolean;
  /** Tables with more rows are profiled on a sample of about this many; default 20,000 (DEFAULT_SAMPLE_ROWS). */
  sampleRows?: number;
  /** The time recorded in `learned.learnedAt`; default now. */
  now?: Date;
  /**
   * Longest any profiling statement may run (PostgreSQL statement_timeout, MariaDB
   * max_statement_time, MySQL max_execution_time on the profiling session); default none. A
   * statement cut short fails the learning with an `invalid` IntrospectionError that says so.
   */
  statementTimeoutMs?: number;
}

/** The statement limit of learning over HTTP: a request must not hold a database (or a worker) for minutes. */
export const HTTP_STATEMENT_TIMEOUT_MS = 30_000;

export interface TableReport {
  table: string;
  rows: number;
  rowCount: number;
  /** Rows profiled when the table was sampled. */
  sampled?: number;
  /** Children per parent learned for these reference columns. */
  fanOut?: { column: string; parents: number; histogramBins: number }[];
  /** Date columns that never come before another date of their row or of their parent. */
  orderRules?: OrderRule[];
  /** Numeric columns every row keeps equal to a sum or product of two others. */
  formulas?: FormulaRule[];
  /** Numeric columns every row keeps equal to the sum over its children of a column, or of the product of two. */
  childrenSums?: ChildrenSumRule[];
  /** Numeric columns that follow another by a Gaussian copula at its rank correlation. */
  correlations?: CorrelationRule[];
}

export interface PrivacyReport {
  minCount: number;
  scale: number;
  lookups: boolean;
  tables: TableReport[];
  columns: ColumnReport[];
}

export interface LearnedConfig {
  config: SchemaConfig;
  warnings: IntrospectionWarning[];
  report: PrivacyReport;
}

/** A config learned from the tables of a live database, its introspection warnings and the privacy report. */
export async function learnDatabase(url: string, options: LearnOptions = {}): Promise<LearnedConfig> {
  const dialect = dialectOfUrl(url);
  const timeout = options.statementTimeoutMs;
  const connect = timeout ? { ...options.connect, queryTimeoutMs: timeout } : options.connect;
  const connection = await dialect.connect(url, connect).catch((error: unknown) => {
    throw connectionFailure(dialect, error, true);
  });
  try {
    const catalog = await readNamespace(connection, options);
    const mapped = mapCatalogTables(catalog, options);
    const database = databaseLabel(url, catalog.namespace, dialect.facts.namespaceField === 'schema');
    // One transaction: one session for every statement, where a big table's sample is read once
    // into a temporary table, and one view of the data (PostgreSQL) for all of them.
    return await connection.transaction(async (tx) => {
      const profiler = new TableProfiler(connection, catalog.namespace, options.sampleRows ?? DEFAULT_SAMPLE_ROWS, tx);
      try {
        return await learnTables(connection, profiler, database, mapped, options);
      } finally {
        await profiler.close();
      }
    });
  } catch (error) {
    if (timeout && !(error instanceof IntrospectionError) && dialect.mapError(error).kind === 'timeout') {
      throw new IntrospectionError(
        'invalid',
        `A profiling statement ran longer than ${timeout / 1000} s, the limit of learning here; learn fewer tables (tables), or run sds init --learn, which has no limit`,
      );
    }
    throw error instanceof IntrospectionError ? error : connectionFailure(dialect, error);
  } finally {
    await connection.close().catch(() => {});
  }
}

/** `database.schema` where namespaces are schemas (the URL's database name only, nothing else of it), else the database. */
function databaseLabel(url: string, namespace: string, schemas: boolean): string {
  const name = decodeURIComponent(new URL(url).pathname.replace(/^\//, ''));
  return schemas && name ? `${name}.${namespace}` : namespace;
}

async function learnTables(
  connection: TargetConnection,
  profiler: TableProfiler,
  database: string,
  introspected: ReturnType<typeof mapCatalogTables>,
  options: LearnOptions,
): Promise<LearnedConfig> {
  const { config, warnings, tables } = introspected;
  const minCount = options.minCount ?? DEFAULT_MIN_COUNT;
  const scale = options.scale ?? 1;
  const lookups = options.lookups ?? true;
  const report: PrivacyReport = { minCount, scale, lookups, tables: [], columns: [] };
  const byEntity = new Map(tables.map((table) => [table.entity.id, table]));
  const referenced = new Set(tables.flatMap((table) => table.entity.fields.flatMap((field) => (field.references && field.references.entity !== table.entity.id ? [field.references.entity] : []))));
  const texts = new TextProfiler(connection, profiler);
  const rowsOf = new Map<string, number>();
  const counting = tables.map((table) => profiler.countBeside(table.table.name));
  for (const promise of counting) promise.catch(() => {});
  for (const [i, table] of tables.entries()) rowsOf.set(table.entity.id, await profiler.count(table.table.name, integerKey(table), referenceColumns(table), counting[i]));
  const fanOuts = startFanOuts(profiler, tables, byEntity, rowsOf);
  const parentOrders = new Map<string, ParentOrders[]>();

  for (const table of tables) {
    const rows = rowsOf.get(table.entity.id)!;
    const columns = [...table.fields].map(([column, field]) => ({ column, field }));
    const columnNames = columns.map((entry) => entry.column);
    const kinds = new Map(columns.map(({ column }) => [column, identifyingKind(table.table.name, column, columnNames)]));
    const lookup = lookups && referenced.has(table.entity.id) && rows <= LOOKUP_MAX_ROWS && ![...kinds.values()].some((kind) => kind === 'person' || kind === 'contact');
    const keys = new Set(table.entity.primaryKey ?? []);
    const unique = new Set([...(table.entity.uniqueKeys ?? []).filter((key) => key.length === 1).map((key) => key[0]!), ...(keys.size === 1 ? keys : [])]);
    // A lookup whose labels are copied keeps its rows: its labels are the table.
    const tableReport: TableReport = { table: table.table.name, rows, rowCount: lookup ? rows : Math.round(rows * scale) };
    table.entity.generation = { ...table.entity.generation, rowCount: tableReport.rowCount };
    report.tables.push(tableReport);
    const profiled = columns.filter(({ field }) => !keys.has(field.id) && PROFILED.has(field.type));
    const stats = await profileStats(profiler, table.table.name, rows, profiled.map(({ column, field }) => ({ column, boolean: field.type === 'boolean' })));
    if (stats.sampled !== undefined) tableReport.sampled = stats.sampled;
    for (const [i, { column, field }] of profiled.entries()) {
      const counted = stats.columns[i];
      if (!counted) {
        report.columns.push({ table: table.table.name, column, learned: 'the database cannot count its distinct values: kept sds’s generator', rule: 'not-learned' });
        continue;
      }
      const profile: ColumnProfile = { rows: stats.rows, ...counted };
      const kind = kinds.get(column);
      if (field.references) {
        await learnReference(fanOuts, table, field, column, profile, byEntity, rows, tableReport, report);
        continue;
      }
      const isLookup = lookup && (field.type === 'string' || field.type === 'text' || field.type === 'enum') && kind !== 'person' && kind !== 'contact';
      const identifying = isLookup ? undefined : kind;
      if (!identifying && profile.nonNull > 0) {
        const numeric = field.type === 'integer' || field.type === 'number';
        const text = field.type === 'string' || field.type === 'text' || field.type === 'enum';
        const wantsValues = isLookup || (numeric && profile.distinct <= NUMERIC_CHOICES_MAX) || (text && !unique.has(field.id) && profile.distinct <= CATEGORY_MAX && profile.nonNull >= 2 * profile.distinct);
        if (wantsValues) profile.frequent = await profiler.frequent(table.table.name, column, isLookup ? 1 : minCount, stats.sampled !== undefined);
        const wantsQuantiles = (numeric && !(profile.distinct <= NUMERIC_CHOICES_MAX && profile.frequent?.length)) || field.type === 'date' || field.type === 'datetime';
        if (wantsQuantiles) profile.quantiles = await profiler.quantiles(table.table.name, column, profile.nonNull, field.type, stats.sampled !== undefined, minCount);
      }
      const fitted = fitColumn({ field, profile, minCount, identifying, lookup: isLookup, unique: unique.has(field.id) });
      applyGeneration(field, fitted.generation);
      const entry: ColumnReport = { table: table.table.name, column, ...fitted.report };
      report.columns.push(entry);
      const styled = (field.type === 'string' || field.type === 'text') && !fitted.generation?.strategy && profile.nonNull >= minCount;
      if (styled) await learnTextStyle(texts, table, field, column, identifying, profile.nonNull, minCount, entry);
    }
    parentOrders.set(table.entity.id, startParentOrders(profiler, table, byEntity));
  }
  for (const table of tables) {
    const tableReport = report.tables.find((entry) => entry.table === table.table.name);
    const rules = await learnDateOrder(profiler, table, byEntity, minCount, report.columns, parentOrders.get(table.entity.id));
    if (rules.length > 0 && tableReport) tableReport.orderRules = rules;
    const formulas = await learnFormulas(profiler, table, minCount, report.columns, identifyingColumns(table));
    if (formulas.length > 0 && tableReport) tableReport.formulas = formulas;
  }
  // Sums over children once every table's same-row formulas are known (a parent's total may be its subtotal plus tax).
  for (const table of tables) {
    const tableReport = report.tables.find((entry) => entry.table === table.table.name);
    const sums = await learnChildrenSums(profiler, table, tables, minCount, report.columns, identifyingColumns(table));
    if (sums.length > 0 && tableReport) tableReport.childrenSums = sums;
    const correlations = await learnCorrelations(profiler, table, minCount, report.columns);
    if (correlations.length > 0 && tableReport) tableReport.correlations = correlations;
  }
  config.learned = { database, engine: connection.dialect.kind, learnedAt: (options.now ?? new Date()).toISOString(), minCount, scale };
  config.metadata = { ...config.metadata, tags: [...(config.metadata?.tags ?? []), 'learned'] };
  const result = validateConfig(config);
  if (!result.valid) throw introspectionErrors.invalidResult(result.errors);
  return { config, warnings, report };
}

/**
 * The table's counts in one scan; when the database refuses it (a type without equality, such as
 * xml, under a mapped type), column by column, leaving out the ones it refuses.
 */
async function profileStats(profiler: TableProfiler, table: string, rows: number, columns: { column: string; boolean: boolean }[]): Promise<Omit<TableStats, 'columns'> & { columns: (TableStats['columns'][number] | undefined)[] }> {
  try {
    return await profiler.stats(table, rows, columns);
  } catch (error) {
    const each: (TableStats | undefined)[] = [];
    // One after the other: the statements share a session.
    for (const column of columns) each.push(await profiler.stats(table, rows, [column]).catch(() => undefined));
    const first = each.find((stats) => stats !== undefined);
    if (!first && columns.length > 0) throw error;
    return { rows: first?.rows ?? rows, ...(first?.sampled !== undefined && { sampled: first.sampled }), columns: each.map((stats) => stats?.columns[0]) };
  }
}

/** Person and contact columns: they keep sds's generators, whatever they add up to (no formula or sum is learned for them). */
function identifyingColumns(table: MappedTable): Set<string> {
  const names = [...table.fields.keys()];
  return new Set(names.filter((column) => identifyingKind(table.table.name, column, names) !== undefined));
}

/** The table's single-column references to another table (its sample's joins to parents use them). */
function referenceColumns(table: MappedTable): string[] {
  return [...table.fields].flatMap(([column, field]) => (field.references && field.references.entity !== table.entity.id ? [column] : []));
}

type FanOut = { children: number; weight: number }[];

/**
 * Starts reading the children per parent of every reference that may get a fan-out: each reads its
 * whole child table, so they run beside the profiling session's statements on the samples
 * (TableProfiler.childrenPerParent). Keyed by `table.column`; a failure is kept for the reference's
 * turn (and never left unhandled).
 */
function startFanOuts(profiler: TableProfiler, tables: MappedTable[], byEntity: Map<string, MappedTable>, rowsOf: Map<string, number>): Map<string, Promise<FanOut>> {
  const fanOuts = new Map<string, Promise<FanOut>>();
  for (const table of tables) {
    if (!(rowsOf.get(table.entity.id)! > 0)) continue;
    const keys = new Set(table.entity.primaryKey ?? []);
    for (const [column, field] of table.fields) {
      // The references learnTables profiles (and so asks for).
      const target = !keys.has(field.id) && PROFILED.has(field.type) ? fanOutTarget(table, field, byEntity) : undefined;
      if (!target) continue;
      const read = profiler.childrenPerParent(target.parent.table.name, target.parentColumn, table.table.name, column);
      read.catch(() => {});
      fanOuts.set(`${table.table.name}.${column}`, read);
    }
  }
  return fanOuts;
}

/** The parent of a reference whose children per parent are learned: to another table, not one-to-one, not sequential. */
function fanOutTarget(table: MappedTable, field: Field, byEntity: Map<string, MappedTable>): { parent: MappedTable; parentColumn: string } | undefined {
  const references = field.references;
  if (!references || references.entity === table.entity.id || references.relation === 'one-to-one' || references.pick === 'sequential') return undefined;
  const parent = byEntity.get(references.entity);
  const parentColumn = parent && columnOf(parent, references.field);
  return parent && parentColumn ? { parent, parentColumn } : undefined;
}

/** The table's primary key column when it is a single integer column (a MySQL sample is read in ranges of it). */
function integerKey(table: MappedTable): string | undefined {
  const key = table.table.primaryKey?.columns;
  if (key?.length !== 1) return undefined;
  return table.fields.get(key[0]!)?.type === 'integer' ? key[0] : undefined;
}

/** The style of a text column sds's generators make (never its values): case, lengths of free text, an email's domains and formats. */
async function learnTextStyle(texts: TextProfiler, table: MappedTable, field: Field, column: string, kind: ReturnType<typeof identifyingKind>, nonNull: number, minCount: number, entry: ColumnReport): Promise<void> {
  const words = idWords(column);
  const isEmail = words.includes('email') || words.includes('mail');
  const columns = [...table.fields.keys()];
  const nameColumn = (parts: string[]) => columns.find((other) => identifyingKind(table.table.name, other, columns) === 'person' && idWords(other).some((word) => parts.includes(word)));
  const [first, last] = [nameColumn(['first', 'given', 'forename', 'firstname']), nameColumn(['last', 'surname', 'family', 'lastname'])];
  const fitted = fitText({
    kind,
    minCount,
    cases: isEmail ? undefined : await texts.cases(table.table.name, column),
    ...(kind === 'free text' && { lengths: await texts.lengths(table.table.name, column, nonNull, minCount) }),
    ...(isEmail && { email: await texts.emails(table.table.name, column, minCount, first && last ? { first, last } : undefined) }),
  });
  if (!fitted.strategy) return;
  field.generation = { ...field.generation, strategy: fitted.strategy };
  entry.learned = `${entry.learned.replace(/: kept sds’s generator$/, '')}: sds’s generator in the observed ${fitted.learned}`;
  const domains = fitted.strategy.email?.domains?.map((domain) => domain.value);
  if (domains?.length) entry.copied = [...(entry.copied ?? []), ...domains];
}

const PROFILED = new Set<Field['type']>(['integer', 'number', 'boolean', 'date', 'datetime', 'string', 'text', 'enum']);


/** Replaces the field's strategy and empty rate with the fitted ones (other options stay). */
function applyGeneration(field: Field, generation: Field['generation']): void {
  if (!generation) return;
  field.generation = { ...field.generation, ...generation };
}

/**
 * A reference's share of nulls and its children per parent (parents without children included) as
 * an empirical fan-out; a nullable reference's nulls go into the fan-out's `empty` share, so they
 * are not taken out of the parents' children.
 */
async function learnReference(
  fanOuts: Map<string, Promise<FanOut>>,
  table: MappedTable,
  field: Field,
  column: string,
  profile: ColumnProfile,
  byEntity: Map<string, MappedTable>,
  rows: number,
  tableReport: TableReport,
  report: PrivacyReport,
): Promise<void> {
  const references = field.references!;
  const nullShare = profile.rows > 0 ? Math.round((1 - profile.nonNull / profile.rows) * 1e4) / 1e4 : 0;
  const emptyRate = field.nullable && nullShare > 0 ? nullShare : 0;
  const entry: ColumnReport = { table: table.table.name, column, learned: `reference to ${references.entity}`, rule: 'aggregates', ...(nullShare > 0 && { nullShare }) };
  report.columns.push(entry);
  const started = fanOutTarget(table, field, byEntity) && fanOuts.get(`${table.table.name}.${column}`);
  const histogram = started && rows > 0 && profile.nonNull > 0 ? await started : [];
  if (histogram.length === 0) {
    if (emptyRate > 0) field.generation = { ...field.generation, emptyRate };
    entry.learned += nullShare > 0 ? ': share of nulls' : '';
    return;
  }
  references.fanOut = { kind: 'empirical', histogram: histogram as [(typeof histogram)[number], ...typeof histogram], ...(emptyRate > 0 && { empty: emptyRate }) };
  entry.learned += `: children per parent (${histogram.length} counts, ${histogram[0]!.children}–${histogram.at(-1)!.children})${emptyRate > 0 ? `, ${emptyRate} of rows null` : ''}`;
  (tableReport.fanOut ??= []).push({ column, parents: histogram.reduce((sum, bin) => sum + bin.weight, 0), histogramBins: histogram.length });
}
