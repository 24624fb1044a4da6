// What a seed will do to existing tables, as plain data: which differences between the config and
// the live database refuse it, and per table (parents first) the columns the generator fills, the
// columns left to the database (defaults, generated and auto-increment columns, nullable ones the
// config leaves out) and the counters to move afterwards. No SQL here: run-seed.ts executes it.
import type { SchemaConfig } from '../contract.ts';
import type { Catalog, CatalogColumn, CatalogTable } from '../dialects/catalog.ts';
import type { ColumnSpec, TableSpec } from '../model/table-spec.ts';
import type { GenerationPlan } from '../generation/plan.ts';
import { diffConfigs, type Difference } from '../introspection/diff-config.ts';
import { mapCatalog } from '../introspection/map-config.ts';

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
  return { namespace: catalog.namespace, tables: seedTables, referencedFrom };
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
