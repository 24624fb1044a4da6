// `sds fidelity`: a config's rows, made in memory, scored against the real tables they imitate
// (fidelity.ts: column shapes, null shares, cardinality), per table and column, with an overall
// figure, the worst columns and how many generated person or contact values are real ones.
import type { Field, SchemaConfig } from '../model/config-types.ts';
import type { TargetConnection } from '../dialects/dialect.ts';
import type { ConnectOptions } from '../dialects/dialect.ts';
import { DataGenerator } from '../generation/generator.ts';
import { planGeneration } from '../generation/plan.ts';
import { connectionFailure, dialectOfUrl } from '../introspection/read-catalog.ts';
import { IntrospectionError } from '../introspection/introspection-errors.ts';
import { cardinalityScore, columnShape, nullRateScore } from './fidelity.ts';
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

export interface FidelityReport {
  overall: number;
  columnShapes: number | null;
  cardinality: number | null;
  tables: { table: string; realRows: number; generatedRows: number }[];
  columns: ColumnScore[];
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
  const generator = new DataGenerator(config, plan);
  const generated = new Map<string, Map<string, unknown[]>>();
  for (const entityPlan of plan.entities) {
    const names = entityPlan.table.columns.map((column) => column.name);
    const columns = new Map(names.map((name) => [name, [] as unknown[]]));
    let count = 0;
    for (const batch of generator.rows(entityPlan.id, 1000)) {
      for (const row of batch) {
        if (count++ >= maxRows) continue;
        names.forEach((name, i) => columns.get(name)!.push(row[i]));
      }
    }
    generated.set(entityPlan.id, columns);
  }
  const report: FidelityReport = { overall: 0, columnShapes: null, cardinality: null, tables: [], columns: [], worst: [], privacy: [], skipped: [] };
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
  }
  const shapes = mean(report.columns.filter((entry) => entry.metric !== 'cardinality').map((entry) => entry.score));
  const cardinality = mean(report.columns.filter((entry) => entry.metric === 'cardinality').map((entry) => entry.score));
  report.columnShapes = shapes === null ? null : round(shapes);
  report.cardinality = cardinality === null ? null : round(cardinality);
  report.overall = round(mean([shapes, cardinality].filter((value): value is number => value !== null)) ?? 0);
  report.worst = [...report.columns].sort((a, b) => a.score - b.score).slice(0, 5);
  return report;
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
