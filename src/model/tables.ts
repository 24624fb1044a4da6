// The tables of a schema config as reads, writes, files and previews see them: one RuntimeTable per
// entity, its TableSpec (the one generation creates) plus what values need beyond the DDL (output
// formats, lengths, references).
import { AppError, quoted } from '../errors.ts';
import { didYouMean } from '../suggest.ts';
import type { SchemaConfig } from './config-types.ts';
import { fieldType } from './field-types/index.ts';
import { buildTableSpecs, type ColumnSpec, type TableSpec } from './table-spec.ts';
import { compositeReferenceNames } from './composite-keys.ts';
import type { DateOutputFormat } from './temporal.ts';

export interface RuntimeColumn extends ColumnSpec {
  /** date fields: how values are rendered (`iso` 2024-01-31, `slash` 01/31/2024, `sql` 2024-01-31 00:00:00). */
  outputFormat: DateOutputFormat;
  /** string and text fields: length bounds in characters, checked on writes. */
  minLength?: number;
  maxLength?: number;
  /** integer and number fields: value bounds (inclusive), checked on writes. */
  min?: number;
  max?: number;
  /** The referenced table and column, for reference fields (`references` in the config). */
  references?: { table: string; column: string };
  /**
   * A sequence counted within other columns (a line number within its order), part of the primary
   * key: create numbers a new row after the others of its group when the body leaves it out.
   */
  within?: { columns: string[]; start: number; step: number };
}

export interface RuntimeTable {
  name: string;
  spec: TableSpec;
  columns: RuntimeColumn[];
  /** Columns by name; only names found here ever reach SQL. */
  byName: Map<string, RuntimeColumn>;
  /** Primary key columns in key order; empty when the entity declares none. */
  primaryKey: RuntimeColumn[];
  /** Composite references (entity-level `references`) by the name `populate` knows them by. */
  compositeReferences: Map<string, { columns: string[]; table: string; targetColumns: string[] }>;
}

export interface RuntimeTables {
  names: string[];
  /** The table, or AppError 404 `Table "x" not found (did you mean "users"?)`. */
  get(name: string): RuntimeTable;
  find(name: string): RuntimeTable | undefined;
}

/** AppError 404 naming a table that is not one of `known`, with a "did you mean" hint. */
export const unknownTable = (name: string, known: string[]) => new AppError(404, `Table ${quoted(name)} not found${didYouMean(name, known)}`);

/**
 * Builds the tables of a valid config (see `validateConfig`). `rowCounts` by entity id decide which
 * integer columns are bigint, as in buildTableSpecs (generation's `plannedRowCounts(config)`).
 */
export function buildRuntimeTables(config: SchemaConfig, rowCounts: ReadonlyMap<string, number>): RuntimeTables {
  const specs = buildTableSpecs(config, rowCounts);
  const tables = new Map<string, RuntimeTable>();
  for (const entity of config.entities) {
    const spec = specs.get(entity.id)!;
    const fields = new Map(entity.fields.map((field) => [field.id, field]));
    const columns = spec.columns.map((column): RuntimeColumn => {
      const field = fields.get(column.name);
      const runtime: RuntimeColumn = { ...column, outputFormat: field?.outputFormat ?? 'iso' };
      if (field && fieldType(field.type).lengthBounds) {
        if (field.minLength !== undefined) runtime.minLength = field.minLength;
        if (field.maxLength !== undefined) runtime.maxLength = field.maxLength;
      }
      if (field && fieldType(field.type).valueBounds) {
        if (field.min !== undefined) runtime.min = field.min;
        if (field.max !== undefined) runtime.max = field.max;
      }
      if (field?.references) runtime.references = { table: field.references.entity, column: field.references.field };
      const strategy = field?.generation?.strategy;
      if (strategy?.kind === 'sequence' && strategy.within && field?.type === 'integer' && spec.primaryKey.includes(column.name)) {
        runtime.within = { columns: [...strategy.within], start: strategy.start ?? 1, step: strategy.step ?? 1 };
      }
      return runtime;
    });
    const byName = new Map(columns.map((column) => [column.name, column]));
    const primaryKey = spec.primaryKey.map((name) => byName.get(name)!);
    const compositeReferences = new Map(
      [...compositeReferenceNames(entity)].map(([name, reference]) => [name, { columns: [...reference.fields], table: reference.entity, targetColumns: [...reference.targetFields] }]),
    );
    tables.set(entity.id, { name: entity.id, spec, columns, byName, primaryKey, compositeReferences });
  }
  const names = config.entities.map((entity) => entity.id).filter((name) => tables.has(name));
  return {
    names,
    find: (name) => tables.get(name),
    get(name) {
      const table = tables.get(name);
      if (!table) throw unknownTable(name, names);
      return table;
    },
  };
}
