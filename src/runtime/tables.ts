// The runtime's view of a schema config: one RuntimeTable per entity, its TableSpec (as generation
// builds it) plus what reads and writes need beyond the DDL (output formats, lengths, references).
import type { ColumnSpec, TableSpec, TargetConnection } from '../dialects/dialect.ts';
import type { SchemaConfig } from '../generation/config-types.ts';
import { planGeneration } from '../generation/plan.ts';
import { runtimeErrors } from './runtime-errors.ts';

export type DateOutputFormat = 'iso' | 'slash' | 'sql';

export interface RuntimeColumn extends ColumnSpec {
  /** date fields: how values are rendered (`iso` 2024-01-31, `slash` 01/31/2024, `sql` 2024-01-31 00:00:00). */
  outputFormat: DateOutputFormat;
  /** string and text fields: length bounds in characters, checked on writes. */
  minLength?: number;
  maxLength?: number;
  /** The referenced table and column, for reference fields (`references` in the config). */
  references?: { table: string; column: string };
}

export interface RuntimeTable {
  name: string;
  spec: TableSpec;
  columns: RuntimeColumn[];
  /** Columns by name; only names found here ever reach SQL. */
  byName: Map<string, RuntimeColumn>;
  /** Primary key columns in key order; empty when the entity declares none. */
  primaryKey: RuntimeColumn[];
}

export interface RuntimeTables {
  names: string[];
  /** The table, or AppError 404 `Table "x" not found (did you mean "users"?)`. */
  get(name: string): RuntimeTable;
  find(name: string): RuntimeTable | undefined;
}

/** A table of a source with where its rows live: what each read and write stage runs against. */
export interface TableContext {
  connection: TargetConnection;
  /** The PostgreSQL schema or MySQL database holding the source's tables. */
  namespace: string;
  table: RuntimeTable;
  /** Every table of the source, for populate and foreign-key messages. */
  tables: RuntimeTables;
}

/** Builds the tables of a valid config (see `validateConfig`). */
export function buildRuntimeTables(config: SchemaConfig): RuntimeTables {
  const plan = planGeneration(config);
  const entities = new Map(config.entities.map((entity) => [entity.id, entity]));
  const tables = new Map<string, RuntimeTable>();
  for (const { id, table: spec } of plan.entities) {
    const fields = new Map((entities.get(id)?.fields ?? []).map((field) => [field.id, field]));
    const columns = spec.columns.map((column): RuntimeColumn => {
      const field = fields.get(column.name);
      const runtime: RuntimeColumn = { ...column, outputFormat: field?.outputFormat ?? 'iso' };
      if (field && (field.type === 'string' || field.type === 'text')) {
        if (field.minLength !== undefined) runtime.minLength = field.minLength;
        if (field.maxLength !== undefined) runtime.maxLength = field.maxLength;
      }
      if (field?.references) runtime.references = { table: field.references.entity, column: field.references.field };
      return runtime;
    });
    const byName = new Map(columns.map((column) => [column.name, column]));
    const primaryKey = spec.primaryKey.map((name) => byName.get(name)!);
    tables.set(id, { name: id, spec, columns, byName, primaryKey });
  }
  const names = config.entities.map((entity) => entity.id).filter((name) => tables.has(name));
  return {
    names,
    find: (name) => tables.get(name),
    get(name) {
      const table = tables.get(name);
      if (!table) throw runtimeErrors.unknownTable(name, names);
      return table;
    },
  };
}
