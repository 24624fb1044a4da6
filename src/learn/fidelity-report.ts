// `sds fidelity`: a config's rows, made in memory, scored against the real tables they imitate
// (fidelity.ts: column shapes, null shares, pair trends, cardinality), per table and column, with an
// overall figure, the date orders kept, the worst columns and how many generated person or contact
// values are real ones.
import type { Field, SchemaConfig } from '../model/config-types.ts';
import type { TargetConnection } from '../dialects/dialect.ts';
import type { ConnectOptions } from '../dialects/dialect.ts';
import { ScheduledRows } from '../generation/schedule.ts';
import { planGeneration } from '../generation/plan.ts';
import { connectionFailure, dialectOfUrl } from '../introspection/read-catalog.ts';
import { IntrospectionError } from '../introspection/introspection-errors.ts';
import { cardinalityScore, columnShape, correlationSimilarity, nullRateScore, rankCorrelation } from './fidelity.ts';
import { identifyingKind } from './identifying.ts';
import { isoText } from './profile-sql.ts';
import { CATEGORY_MAX } from './fit-column.ts';

export interface FidelityOptions {
  namespace?: string;
  /** Rows compared per table at most (the first of the generated, any of the real); default 100,000. */
  maxRows?: number;
  connect?: ConnectOptions;
}

export interface ColumnScore {
  table: string;
  column: string;
  metric: 'KS' | 'TVD' | 'cardinality';
  score: number;
  nullRate?: number;
}

/** A strongly correlated pair of numeric or date columns of a table: its rank correlations and their similarity. */
export interface PairScore {
  table: string;
  columns: [string, string];
  real: number;
  generated: number | null;
  score: number;
}

/** A date order every real row holding both dates keeps (`column` never before `after`), and the share of generated rows that keep it. */
export interface OrderCheck {
  table: string;
  column: string;
  after: string;
  generatedShare: number;
}

export interface FidelityReport {
  /** The mean of column shapes, pair trends and cardinality (those measured). */
  overall: number;
  columnShapes: number | null;
  /** Mean CorrelationSimilarity of the pairs whose real rank correlation is at least 0.5 in size. */
  pairTrends: number | null;
  cardinality: number | null;
  /** Mean null-share score (1 − |difference of null shares|) of the columns scored. */
  nullRates: number | null;
  tables: { table: string; realRows: number; generatedRows: number }[];
  columns: ColumnScore[];
  pairs: PairScore[];
  orderRules: OrderCheck[];
  worst: ColumnScore[];
  /** Person and contact columns: the share of generated values that are real ones. */
  privacy: { table: string; column: string; realValuesReproduced: number }[];
  skipped: string[];
}

const mean = (values: number[]) => (values.length ? values.reduce((sum, value) => sum + value, 0) / values.length : null);
const round = (value: number) => Math.round(value * 1e4) / 1e4;

export async function fidelityReport(config: SchemaConfig, url: string, options: FidelityOptions = {}): Promise<FidelityReport> {
  const dialect = dialectOfUrl(url);
  const connection = await dialect.connect(url, options.connect).catch((error: unknown) => {
    throw connectionFailure(dialect, error, true);
  });
  try {
    const namespace = options.namespace ?? (await connection.currentNamespace());
    if (namespace === undefined) throw new Error(`name the ${dialect.facts.namespaceField} of the real tables`);
    return await scoreTables(connection, namespace, config, options.maxRows ?? 100_000);
  } catch (error) {
    throw error instanceof IntrospectionError || !(error as { code?: unknown }).code ? error : connectionFailure(dialect, error);
  } finally {
    await connection.close().catch(() => {});
  }
}

async function scoreTables(connection: TargetConnection, namespace: string, config: SchemaConfig, maxRows: number): Promise<FidelityReport> {
  const q = (name: string) => connection.dialect.quoteIdentifier(name);
  const plan = planGeneration(config);
  const scheduled = ScheduledRows.of(config, plan);
  const generated = new Map<string, Map<string, unknown[]>>();
  for (const entityPlan of plan.entities) {
    const names = entityPlan.table.columns.map((column) => column.name);
    const columns = new Map(names.map((name) => [name, [] as unknown[]]));
    let count = 0;
    for (const batch of scheduled.batches(entityPlan.id, 1000)) {
      for (const row of batch) {
        if (count++ >= maxRows) continue;
        names.forEach((name, i) => columns.get(name)!.push(row[i]));
      }
    }
    generated.set(entityPlan.id, columns);
  }
  const report: FidelityReport = { overall: 0, columnShapes: null, pairTrends: null, cardinality: null, nullRates: null, tables: [], columns: [], pairs: [], orderRules: [], worst: [], privacy: [], skipped: [] };
  const realColumn = async (table: string, column: string) =>
    (await connection.query<{ v: unknown }>(`SELECT ${q(column)} AS v FROM ${q(namespace)}.${q(table)} LIMIT ${maxRows}`, [])).map((row) => row.v);
  for (const entity of config.entities) {
    const columns = generated.get(entity.id);
    if (!columns) continue;
    let realRows: number;
    try {
      const [row] = await connection.query<{ n: unknown }>(`SELECT count(*) AS n FROM ${q(namespace)}.${q(entity.id)}`, []);
      realRows = Number(row?.n ?? 0);
    } catch {
      report.skipped.push(`${entity.id}: no such table in ${namespace}`);
      continue;
    }
    report.tables.push({ table: entity.id, realRows, generatedRows: plan.entities.find((candidate) => candidate.id === entity.id)?.rowCount ?? 0 });
    const keys = new Set(entity.primaryKey ?? []);
    const fieldIds = entity.fields.map((field) => field.id);
    for (const field of entity.fields) {
      const synthetic = columns.get(field.id);
      if (!synthetic || keys.has(field.id)) continue;
      const real = normalize(field, await realColumn(entity.id, field.id).catch(() => undefined));
      if (!real) {
        report.skipped.push(`${entity.id}.${field.id}: not in the database`);
        continue;
      }
      const mine = normalize(field, synthetic)!;
      const kind = identifyingKind(entity.id, field.id, fieldIds);
      if (kind === 'person' || kind === 'contact') {
        const realSet = new Set(real.filter((value) => value !== null).map(String));
        const present = mine.filter((value) => value !== null);
        report.privacy.push({ table: entity.id, column: field.id, realValuesReproduced: round(present.length ? present.filter((value) => realSet.has(String(value))).length / present.length : 0) });
        continue;
      }
      const nullRate = round(nullRateScore(real, mine));
      if (field.references) {
        const parent = generated.get(field.references.entity)?.get(field.references.field);
        const realParents = await realColumn(field.references.entity, field.references.field).catch(() => undefined);
        if (parent && realParents) {
          const score = cardinalityScore({ parents: realParents.map(String), children: real.map((value) => (value === null ? null : String(value))) }, { parents: parent.map(String), children: mine.map((value) => (value === null ? null : String(value))) });
          report.columns.push({ table: entity.id, column: field.id, metric: 'cardinality', score: round(score), nullRate });
        }
        continue;
      }
      const numeric = ['integer', 'number', 'date', 'datetime'].includes(field.type);
      if (!numeric && new Set(real).size > CATEGORY_MAX) continue;
      if (!numeric && !['boolean', 'string', 'text', 'enum'].includes(field.type)) continue;
      const score = columnShape(numeric ? 'numeric' : 'categorical', real, mine);
      report.columns.push({ table: entity.id, column: field.id, metric: numeric ? 'KS' : 'TVD', score: round(score), nullRate });
    }
    await scorePairs(connection, `${q(namespace)}.${q(entity.id)}`, entity, columns, maxRows, report);
  }
  const shapes = mean(report.columns.filter((entry) => entry.metric !== 'cardinality').map((entry) => entry.score));
  const cardinality = mean(report.columns.filter((entry) => entry.metric === 'cardinality').map((entry) => entry.score));
  report.columnShapes = shapes === null ? null : round(shapes);
  report.cardinality = cardinality === null ? null : round(cardinality);
  const pairTrends = mean(report.pairs.map((pair) => pair.score));
  const nullRates = mean(report.columns.flatMap((entry) => (entry.nullRate === undefined ? [] : [entry.nullRate])));
  report.pairTrends = pairTrends === null ? null : round(pairTrends);
  report.nullRates = nullRates === null ? null : round(nullRates);
  report.overall = round(mean([shapes, pairTrends, cardinality].filter((value): value is number => value !== null)) ?? 0);
  report.worst = [...report.columns].sort((a, b) => a.score - b.score).slice(0, 5);
  return report;
}

/** Real rank correlations this strong (in size) make a pair scored for its trend. */
const STRONG = 0.5;
/** Most numeric and date columns of a table compared pairwise. */
const MAX_PAIR_COLUMNS = 12;

/**
 * Pair trends and date orders of a table: its numeric and date columns (no keys, references or
 * identifying columns) read row by row, real beside generated.
 */
async function scorePairs(connection: TargetConnection, table: string, entity: SchemaConfig['entities'][number], generated: Map<string, unknown[]>, maxRows: number, report: FidelityReport): Promise<void> {
  const keys = new Set(entity.primaryKey ?? []);
  const fieldIds = entity.fields.map((field) => field.id);
  const fields = entity.fields
    .filter((field) => ['integer', 'number', 'date', 'datetime'].includes(field.type) && !keys.has(field.id) && !field.references && generated.has(field.id) && !identifyingKind(entity.id, field.id, fieldIds))
    .slice(0, MAX_PAIR_COLUMNS);
  if (fields.length < 2) return;
  const q = (name: string) => connection.dialect.quoteIdentifier(name);
  const rows = await connection.query<Record<string, unknown>>(`SELECT ${fields.map((field, i) => `${q(field.id)} AS c${i}`).join(', ')} FROM ${table} LIMIT ${maxRows}`, []).catch(() => undefined);
  if (!rows) return;
  const real = fields.map((field, i) => normalize(field, rows.map((row) => row[`c${i}`]))!);
  const mine = fields.map((field) => normalize(field, generated.get(field.id)!)!);
  for (let i = 0; i < fields.length; i++) {
    for (let j = i + 1; j < fields.length; j++) {
      const correlation = rankCorrelation(real[i]!, real[j]!);
      if (correlation !== null && Math.abs(correlation) >= STRONG) {
        const synthetic = rankCorrelation(mine[i]!, mine[j]!);
        const score = synthetic === null ? 0 : correlationSimilarity(correlation, synthetic);
        report.pairs.push({ table: entity.id, columns: [fields[i]!.id, fields[j]!.id], real: round(correlation), generated: synthetic === null ? null : round(synthetic), score: round(score) });
      }
      const [a, b] = [fields[i]!, fields[j]!];
      if ((a.type === 'date' || a.type === 'datetime') && a.type === b.type) {
        for (const [earlier, later, x, y] of [[a, b, real[i]!, real[j]!], [b, a, real[j]!, real[i]!]] as const) {
          if (!keepsOrder(x, y)) continue;
          const [gx, gy] = earlier === a ? [mine[i]!, mine[j]!] : [mine[j]!, mine[i]!];
          report.orderRules.push({ table: entity.id, column: later.id, after: earlier.id, generatedShare: round(orderShare(gx, gy)) });
        }
      }
    }
  }
}

/** Whether every row holding both keeps x ≤ y, with x < y in some (and at least 10 such rows). */
function keepsOrder(x: readonly unknown[], y: readonly unknown[]): boolean {
  let [both, strict] = [0, 0];
  for (let i = 0; i < x.length; i++) {
    if (x[i] === null || y[i] === null) continue;
    const [a, b] = [String(x[i]), String(y[i])];
    if (a > b) return false;
    both++;
    if (a < b) strict++;
  }
  return both >= 10 && strict > 0;
}

/** The share of rows holding both that keep x ≤ y (1 when none holds both). */
function orderShare(x: readonly unknown[], y: readonly unknown[]): number {
  let [both, kept] = [0, 0];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    if (x[i] === null || y[i] === null) continue;
    both++;
    if (String(x[i]) <= String(y[i])) kept++;
  }
  return both ? kept / both : 1;
}

/** Driver values as generated ones look: numbers as numbers, dates as ISO text, booleans as booleans. */
function normalize(field: Field, values: unknown[] | undefined): unknown[] | undefined {
  if (!values) return undefined;
  switch (field.type) {
    case 'integer':
    case 'number':
      return values.map((value) => (value === null || value === undefined ? null : Number(value)));
    case 'date':
    case 'datetime':
      return values.map((value) => (value === null || value === undefined ? null : isoText(value, field.type)));
    case 'boolean':
      return values.map((value) => (value === null || value === undefined ? null : value === true || value === 1 || value === '1' || value === 't' || value === 'true'));
    default:
      return values.map((value) => (value === undefined ? null : value));
  }
}
