// What a seed will do to existing tables, as plain data: which differences between the config and
// the live database refuse it, and per table (parents first) the columns the generator fills, the
// columns left to the database (defaults, generated and auto-increment columns, nullable ones the
// config leaves out) and the counters to move afterwards. No SQL here: run-seed.ts executes it.
import type { SchemaConfig } from '../contract.ts';
import type { Catalog, CatalogColumn, CatalogTable } from '../dialects/catalog.ts';
import type { ColumnSpec, TableSpec } from '../model/table-spec.ts';
import { stronglyConnected } from '../model/config-graph.ts';
import type { GenerationPlan } from '../generation/plan.ts';
import { diffConfigs, type Difference } from '../introspection/diff-config.ts';
import { mapCatalog } from '../introspection/map-config.ts';
import { IDENTIFIER } from '../dialects/dialect.ts';
import { DIALECT_FACTS } from '../dialects/facts.ts';

export interface SeedTable {
  /** Entity id, which is the table's name. */
  table: string;
  rows: number;
  /** The columns loaded, in the order of `load.columns`: the entity's fields less the ones the database computes. */
  load: TableSpec;
  /** For each loaded column, its index in the generator's row (the entity's TableSpec). */
  positions: number[];
  /** Values in each of the generator's rows (the entity's columns, loaded or not). */
  width: number;
  /** Columns of the table the seed leaves to the database, each with why. */
  leftToDatabase: { column: string; because: string }[];
  /** Auto-increment columns given values by the seed: their counters are moved past them afterwards. */
  counters: string[];
  /** Nullable references filled once every row exists (self references and cycles), as generation does. */
  deferredColumns: string[];
}

export interface SeedPlan {
  namespace: string;
  /** Parents first: the load order; emptying runs in the reverse order. */
  tables: SeedTable[];
  /**
   * Tables outside the config whose foreign keys reference tables of the config: emptying those
   * would fail on their rows, or cascade into them.
   */
  referencedFrom: { table: string; references: string }[];
  /**
   * Tables whose own rows are counted and emptied with `ONLY` (PostgreSQL, every table but a
   * partitioned one): without it, a table's rows would include those of the tables inheriting it.
   */
  ownRowsOnly: Set<string>;
  /** Runs of tables a cycle of NOT NULL foreign keys closes, loaded with complete rows (see CycleMethod). */
  cycles: SeedCycle[];
}

/** Differences the seed refuses, each as `diff` words it, or none. */
export function seedDrift(config: SchemaConfig, catalog: Catalog): Difference[] {
  const live = mapCatalog(catalog).config;
  const tables = new Map(catalog.tables.map((table) => [table.name, table]));
  return diffConfigs(config, live).filter((difference) => {
    // Tables the config does not name are not the seed's: it never touches them.
    if (difference.kind === 'table-only-in-database') return false;
    // The seed gives every column of the config a value: the database's defaults are the application's.
    if (difference.kind === 'default') return false;
    // A column the config leaves out is fine when the database fills it on its own.
    if (difference.kind === 'column-only-in-database') return leftOutBecause(tables.get(difference.entity)?.columns.find((column) => column.name === difference.field)) === undefined;
    return true;
  });
}

/** Why the database fills `column` when an insert leaves it out, or undefined when it cannot. */
function leftOutBecause(column: CatalogColumn | undefined): string | undefined {
  if (!column) return undefined;
  if (column.generated !== undefined) return `generated (${column.generated})`;
  if (column.autoIncrement) return 'auto-increment';
  if (column.default !== undefined) return `default ${column.default}`;
  if (column.nullable) return 'nullable, left null';
  return undefined;
}

/** The seed's tables for a config that has no drift (seedDrift is empty) and its generation plan. */
export function planSeed(catalog: Catalog, plan: GenerationPlan): SeedPlan {
  const tables = new Map(catalog.tables.map((table) => [table.name, table]));
  const seeded = new Set(plan.entities.map((entity) => entity.id));
  const seedTables = plan.entities.map((entity): SeedTable => {
    const table = tables.get(entity.id);
    if (!table) throw new Error(`table ${entity.id} is not in ${catalog.namespace}`);
    return seedTable(entity.table, table, entity.rowCount, entity.deferredColumns);
  });
  const referencedFrom = catalog.tables
    .filter((table) => !seeded.has(table.name))
    .flatMap((table) =>
      table.foreignKeys
        .filter((key) => seeded.has(key.references.table) && (key.references.namespace === undefined || key.references.namespace === catalog.namespace))
        .map((key) => ({ table: table.name, references: key.references.table })),
    );
  const ownRowsOnly = new Set(DIALECT_FACTS[catalog.engine].tableInheritance ? catalog.tables.filter((table) => !table.partitioned).map((table) => table.name) : []);
  return { namespace: catalog.namespace, tables: seedTables, referencedFrom, ownRowsOnly, cycles: planCycles(catalog, seedTables) };
}

function seedTable(spec: TableSpec, table: CatalogTable, rows: number, deferredColumns: string[]): SeedTable {
  const live = new Map(table.columns.map((column) => [column.name, column]));
  const columns: ColumnSpec[] = [];
  const positions: number[] = [];
  const leftToDatabase: SeedTable['leftToDatabase'] = [];
  const counters: string[] = [];
  spec.columns.forEach((column, position) => {
    const catalogColumn = live.get(column.name);
    // A generated column takes no value: the database computes it from the row.
    if (catalogColumn?.generated !== undefined) {
      leftToDatabase.push({ column: column.name, because: `generated (${catalogColumn.generated})` });
      return;
    }
    columns.push(column);
    positions.push(position);
    if (catalogColumn?.autoIncrement) counters.push(column.name);
  });
  const configured = new Set(spec.columns.map((column) => column.name));
  for (const column of table.columns) {
    if (configured.has(column.name)) continue;
    leftToDatabase.push({ column: column.name, because: leftOutBecause(column) ?? 'not in the config' });
  }
  return {
    table: spec.name,
    rows,
    load: { ...spec, columns },
    positions,
    width: spec.columns.length,
    leftToDatabase,
    counters,
    deferredColumns,
  };
}

/**
 * How a run of tables closed by a cycle of NOT NULL foreign keys loads without touching the schema:
 * every row complete (the columns pointing forward computed from the key pools of the tables loaded
 * after, never read back), and the checks of the references that point forward handled per engine.
 */
export type CycleMethod =
  /** PostgreSQL, every such foreign key DEFERRABLE: `SET CONSTRAINTS … DEFERRED`, checked at commit. */
  | 'deferred-constraints'
  /**
   * PostgreSQL, some not deferrable: each table COPYed into a temporary table, then one INSERT
   * statement (a WITH of INSERTs) moves them all; a foreign key that is not deferrable is checked at
   * the end of its statement, when every row of the run exists.
   */
  | 'one-statement'
  /** MySQL/MariaDB: `foreign_key_checks = 0` for the seed's session while the run loads, back on after, then every foreign key of the run checked by SQL. */
  | 'checks-off';

export interface SeedCycle {
  /** The tables loaded together, in load order: the cycle's, and any the plan puts between them. */
  tables: string[];
  /** The NOT NULL columns that point to rows loaded later (`table.column`). */
  columns: string[];
  method: CycleMethod;
  /** The foreign keys set DEFERRED (deferred-constraints). */
  constraints: { table: string; name: string }[];
}

/**
 * The runs of tables a cycle of NOT NULL foreign keys closes: each strongly connected set of the
 * seeded tables' foreign keys that holds a NOT NULL deferred column, widened to the tables between
 * its first and last in load order (so a table between them finds its parents).
 */
function planCycles(catalog: Catalog, tables: SeedTable[]): SeedCycle[] {
  const order = new Map(tables.map((table, index) => [table.table, index]));
  const catalogTables = new Map(catalog.tables.map((table) => [table.name, table]));
  const references = (name: string): string[] =>
    (catalogTables.get(name)?.foreignKeys ?? [])
      .filter((key) => order.has(key.references.table) && (key.references.namespace === undefined || key.references.namespace === catalog.namespace))
      .map((key) => key.references.table);
  const components = stronglyConnected(tables.map((table) => table.table), references);
  const spans: [number, number][] = [];
  for (const component of components) {
    const closed = component.some((name) => notNullDeferred(tables[order.get(name)!]!).length > 0);
    if (!closed) continue;
    const indexes = component.map((name) => order.get(name)!);
    spans.push([Math.min(...indexes), Math.max(...indexes)]);
  }
  spans.sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const span of spans) {
    const last = merged[merged.length - 1];
    if (last && span[0] <= last[1]) last[1] = Math.max(last[1], span[1]);
    else merged.push([...span]);
  }
  return merged.map(([from, to]) => {
    const run = tables.slice(from, to + 1);
    const forward = run.flatMap((table) =>
      table.deferredColumns.flatMap((column) =>
        (catalogTables.get(table.table)?.foreignKeys ?? []).filter((key) => key.columns.includes(column)).map((key) => ({ table: table.table, key })),
      ),
    );
    const viaConstraints = DIALECT_FACTS[catalog.engine].notNullCycles === 'constraints';
    const deferrable = viaConstraints && forward.every(({ key }) => key.deferrable && IDENTIFIER.test(key.name));
    return {
      tables: run.map((table) => table.table),
      columns: run.flatMap((table) => notNullDeferred(table).map((column) => `${table.table}.${column}`)),
      method: viaConstraints ? (deferrable ? 'deferred-constraints' : 'one-statement') : 'checks-off',
      constraints: deferrable ? [...new Map(forward.map(({ table, key }) => [`${table}.${key.name}`, { table, name: key.name }])).values()] : [],
    };
  });
}

/** The NOT NULL columns of a table filled after insert in sds's own namespaces (`fillAfterInsert`). */
export function notNullDeferred(table: SeedTable): string[] {
  return table.deferredColumns.filter((column) => table.load.columns.find((candidate) => candidate.name === column)?.fillAfterInsert);
}
