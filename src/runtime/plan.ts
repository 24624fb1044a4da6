// Stage 2 of a runtime read: ParsedQuery + table schema → ReadPlan, in small passes (projection,
// filters, order, range, relations; PostgREST's readPlan). Only names found in the schema survive,
// every value is cast to its column's type, and the plan holds no SQL.
import type { RowValue } from '../model/row-value.ts';
import type { SortDirection } from '../dialects/dialect.ts';
import { castText } from '../model/cast.ts';
import { fieldType } from '../model/field-types/index.ts';
import { appliesTo, operatorSpec, type FilterOperator } from './operators.ts';
import type { ParsedQuery } from './parse-query.ts';
import { runtimeErrors } from './runtime-errors.ts';
import type { RuntimeTable, RuntimeTables } from '../model/tables.ts';

export const DEFAULT_LIMIT = 25;
export const MAX_LIMIT = 1000;

export interface PlannedFilter {
  field: string;
  operator: FilterOperator;
  /** Cast values: one for scalar operators, one or more for $in/$notIn; $null holds true or false. */
  values: RowValue[];
}

export interface PlannedSort {
  field: string;
  direction: SortDirection;
}

export interface PlannedPopulate {
  /** The reference field whose value is replaced by the referenced row, or the name a composite reference's row goes under. */
  field: string;
  /** The referenced table and its key column (the first of `keys`). */
  table: string;
  key: string;
  /** The row's columns that hold the key, and the referenced key columns, in the same order (one each for a reference field). */
  columns: string[];
  keys: string[];
  /** A composite reference: the row gets the referenced row under `field`, its key columns stay. */
  composite: boolean;
  /** The populated row's fields, in response order. */
  fields: string[];
}

export interface ReadPlan {
  table: string;
  /** Response fields in order: the projection, then populated fields it left out. */
  fields: string[];
  filters: PlannedFilter[];
  /** The requested order, then the primary key, so pages are stable. */
  sort: PlannedSort[];
  limit: number;
  offset: number;
  populate: PlannedPopulate[];
}

/** Plans a list read of `table`; `tables` resolves populate targets. */
export function planRead(parsed: ParsedQuery, table: RuntimeTable, tables: RuntimeTables): ReadPlan {
  const populate = parsed.populate.map((entry) => planPopulate(entry.field, entry.fields, table, tables));
  const fields = planFields(parsed.fields, table, 'fields');
  // The key columns are read too: a reference field's value is then replaced, a composite reference's row added.
  for (const entry of populate) for (const column of entry.columns) if (!fields.includes(column)) fields.push(column);
  return {
    table: table.name,
    fields,
    filters: parsed.filters.map((filter) => planFilter(filter.field, filter.operator, filter.values, table, filter.parameter)),
    sort: planSort(parsed.sort, table),
    limit: planLimit(parsed.limit),
    offset: planOffset(parsed.offset),
    populate,
  };
}

/** A whole-table read for an export: projection, filters and order as a list's; no page unless asked. */
export interface ExportPlan {
  table: string;
  fields: string[];
  filters: PlannedFilter[];
  sort: PlannedSort[];
  /** Rows at most, when `limit` was given (no maximum); undefined: every matching row. */
  limit: number | undefined;
  offset: number;
}

/** Plans an export of `table`: like planRead, without populate and without the page's limit. */
export function planExport(parsed: ParsedQuery, table: RuntimeTable): ExportPlan {
  if (parsed.populate.length > 0) throw runtimeErrors.notExportable('populate');
  return {
    table: table.name,
    fields: planFields(parsed.fields, table, 'fields'),
    filters: parsed.filters.map((filter) => planFilter(filter.field, filter.operator, filter.values, table, filter.parameter)),
    sort: planSort(parsed.sort, table),
    limit: parsed.limit === undefined ? undefined : planExportLimit(parsed.limit),
    offset: planOffset(parsed.offset),
  };
}

function planExportLimit(text: string): number {
  const limit = /^\d{1,15}$/.test(text) ? Number(text) : NaN;
  if (Number.isNaN(limit)) throw runtimeErrors.invalidLimit(text, Number.MAX_SAFE_INTEGER);
  return limit;
}

/** The named columns (deduplicated, in order), or every column when none are named. */
function planFields(names: string[] | undefined, table: RuntimeTable, where: string): string[] {
  if (names === undefined) return table.columns.map((column) => column.name);
  const fields: string[] = [];
  for (const name of names) {
    if (!table.byName.has(name)) throw runtimeErrors.unknownField(name, where, table.byName.keys());
    if (!fields.includes(name)) fields.push(name);
  }
  return fields;
}

/** `parameter`: where the filter was written (`where` or the filters forms), for the messages. */
export function planFilter(field: string, operator: FilterOperator, texts: string[], table: RuntimeTable, parameter: 'filters' | 'where' = 'filters'): PlannedFilter {
  const column = table.byName.get(field);
  if (!column) throw runtimeErrors.unknownField(field, parameter, table.byName.keys());
  const where = `${parameter}.${field}.${operator}`;
  const { operand } = operatorSpec(operator);
  if (operand === 'boolean') {
    const text = texts[0]!.toLowerCase();
    if (text !== 'true' && text !== 'false') throw runtimeErrors.invalidNullTest(texts[0]!, field);
    return { field, operator, values: [text === 'true'] };
  }
  if (!appliesTo(operator, column.type)) throw runtimeErrors.operatorNotApplicable(operator, column.type, field);
  const textual = operand === 'text';
  const values = texts.map((text) => {
    const value = textual ? castText({ ...column, type: 'text' }, text) : castText(column, text);
    if (value === undefined) throw runtimeErrors.invalidValue(text, column.type, field, where, !textual && column.type === 'enum' ? column.values : undefined);
    return value;
  });
  return { field, operator, values };
}

function planSort(terms: ParsedQuery['sort'], table: RuntimeTable): PlannedSort[] {
  const sort: PlannedSort[] = [];
  for (const term of terms) {
    const column = table.byName.get(term.field);
    if (!column) throw runtimeErrors.unknownField(term.field, 'sort', table.byName.keys());
    if (!fieldType(column.type).sortable) throw runtimeErrors.notSortable(column.type, column.name);
    const direction = term.direction === undefined ? 'asc' : term.direction.toLowerCase();
    if (direction !== 'asc' && direction !== 'desc') throw runtimeErrors.unknownDirection(term.direction!, `${term.field}:${term.direction}`);
    if (!sort.some((planned) => planned.field === column.name)) sort.push({ field: column.name, direction });
  }
  // Ties broken by the primary key (or, without one, by every sortable column): stable pages.
  const tieBreakers = table.primaryKey.length > 0 ? table.primaryKey : table.columns.filter((column) => fieldType(column.type).sortable);
  for (const column of tieBreakers) {
    if (!sort.some((planned) => planned.field === column.name)) sort.push({ field: column.name, direction: 'asc' });
  }
  return sort;
}

function planLimit(text: string | undefined): number {
  if (text === undefined) return DEFAULT_LIMIT;
  const limit = /^\d{1,7}$/.test(text) ? Number(text) : NaN;
  if (!(limit <= MAX_LIMIT)) throw runtimeErrors.invalidLimit(text, MAX_LIMIT);
  return limit;
}

function planOffset(text: string | undefined): number {
  if (text === undefined) return 0;
  const offset = /^\d{1,15}$/.test(text) ? Number(text) : NaN;
  if (Number.isNaN(offset)) throw runtimeErrors.invalidOffset(text);
  return offset;
}

export function planPopulate(field: string, projection: string[] | undefined, table: RuntimeTable, tables: RuntimeTables): PlannedPopulate {
  const column = table.byName.get(field);
  const composite = column ? undefined : table.compositeReferences.get(field);
  const compositeTarget = composite && tables.find(composite.table);
  if (composite && compositeTarget) {
    const fields = planFields(projection, compositeTarget, `populate.${field}.fields`);
    return { field, table: compositeTarget.name, key: composite.targetColumns[0]!, columns: composite.columns, keys: composite.targetColumns, composite: true, fields };
  }
  if (!column) throw unknownPopulate(field, table, tables);
  const references = table.columns.filter((candidate) => candidate.references).map((candidate) => candidate.name);
  const target = column.references ? tables.find(column.references.table) : undefined;
  if (!column.references || !target) throw runtimeErrors.notReference(field, references);
  const key = column.references.column;
  return { field, table: target.name, key, columns: [field], keys: [key], composite: false, fields: planFields(projection, target, `populate.${field}.fields`) };
}

/** An unknown populate name; when it names a table whose rows reference this one, say how to read those. */
function unknownPopulate(field: string, table: RuntimeTable, tables: RuntimeTables) {
  const child = tables.find(field) ?? tables.find(tables.names.find((name) => name.toLowerCase() === field.toLowerCase()) ?? '');
  const column = child?.columns.find((candidate) => candidate.references?.table === table.name);
  if (child && column) return runtimeErrors.populateFromParent(field, table.name, child.name, column.name);
  return runtimeErrors.unknownField(field, 'populate', table.byName.keys());
}
