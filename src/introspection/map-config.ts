// Stage 2 of introspection: catalog model → schema config + warnings, engine-neutral. Tables become
// entities and columns fields, in the database's order and under its names; types, NOT NULL,
// comments, keys, indexes, CHECK rules and foreign keys are carried over where the config can say
// them, and everything else becomes a warning naming table.column and what was done instead.
import type { Catalog, CatalogCheck, CatalogColumn, CatalogDefault, CatalogTable, CheckRule } from '../dialects/catalog.ts';
import { dialectOfKind } from '../dialects/index.ts';
import type { Entity, Field, FieldDefault, FieldType, SchemaConfig } from '../model/config-types.ts';
import { castFieldDefault } from '../model/field-default.ts';
import { fieldType } from '../model/field-types/index.ts';
import { pointerTokens } from '../model/config-issues.ts';
import { validateConfig } from '../config/validate-config.ts';
import { configLimitIssues } from '../config/work-limits.ts';
import { introspectionErrors } from './introspection-errors.ts';
import { describeShape, mapColumnType } from './field-types.ts';
import { IdScope } from './names.ts';
import { mapPositions, mapReferences } from './map-references.ts';
import { assignRowCounts, type RowCountOptions } from './row-counts.ts';
import { Warnings, type IntrospectionWarning } from './warnings.ts';

export interface MapOptions extends RowCountOptions {
  /** Where the catalog came from, for the config's metadata (never a connection string). */
  sourceLabel?: string;
}

export interface IntrospectedConfig {
  config: SchemaConfig;
  warnings: IntrospectionWarning[];
}

/** A table as it is being mapped: its entity and where its columns went. */
export interface MappedTable {
  table: CatalogTable;
  entity: Entity;
  /** Field of each kept column, by column name. */
  fields: Map<string, Field>;
}

/** The column a field of the table was mapped from (a reference's parent key column, found by the field id it names). */
export function columnOf(table: MappedTable, fieldId: string): string | undefined {
  for (const [column, field] of table.fields) if (field.id === fieldId) return column;
  return undefined;
}

export function mapCatalog(catalog: Catalog, options: MapOptions = {}): IntrospectedConfig {
  const { config, warnings } = mapCatalogTables(catalog, options);
  return { config, warnings };
}

/** mapCatalog, with where each table and column went (the learner profiles them into the config). */
export function mapCatalogTables(catalog: Catalog, options: MapOptions = {}): IntrospectedConfig & { tables: MappedTable[] } {
  const warnings = new Warnings();
  const entityIds = new IdScope('t');
  const indexIds = new IdScope('i');
  const mapped: MappedTable[] = [];
  for (const view of catalog.views) warnings.add(view, undefined, 'a view, not a table; left out');
  for (const table of catalog.tables) {
    const entity = mapTable(table, entityIds, warnings);
    if (entity) mapped.push(entity);
  }
  for (const table of mapped) mapKeys(table, indexIds, entityIds, warnings);
  mapReferences(catalog, mapped, warnings);
  mapPositions(mapped);

  const config: SchemaConfig = {
    formatVersion: 1,
    metadata: {
      name: catalog.namespace,
      description: `Introspected from ${options.sourceLabel ?? `${dialectOfKind(catalog.engine).facts.label} ${dialectOfKind(catalog.engine).facts.namespaceField} ${catalog.namespace}`}`,
      tags: ['introspected'],
    },
    entities: mapped.map((table) => table.entity),
  };
  assignRowCounts(config, mapped, options, warnings);
  // A namespace with more tables than a config may have entities: the user picks tables (not a bug in sds).
  const overLimits = configLimitIssues(config);
  if (overLimits.length > 0) {
    throw introspectionErrors.overWorkLimits(overLimits);
  }
  const result = validateConfig(config);
  if (!result.valid) throw introspectionErrors.invalidResult(result.errors);
  // What validation warns about (a table without a primary key, a unique column with few values) concerns the database's tables too.
  for (const issue of result.warnings) {
    const [, entityIndex, part, fieldIndex] = pointerTokens(issue.path);
    const table = mapped[Number(entityIndex)];
    if (!table) continue;
    const field = part === 'fields' ? table.entity.fields[Number(fieldIndex)] : undefined;
    const column = field ? [...table.fields].find(([, candidate]) => candidate === field)?.[0] : undefined;
    warnings.add(table.table.name, column, issue.message);
  }
  return { config, warnings: warnings.list, tables: mapped };
}

function mapTable(table: CatalogTable, entityIds: IdScope, warnings: Warnings): MappedTable | undefined {
  const id = entityIds.claim(table.name);
  if (id !== table.name) warnings.add(table.name, undefined, `the name is not an sds identifier (letters, digits, _); the entity is "${id}"`);
  const fieldIds = new IdScope('c');
  const fields = new Map<string, Field>();
  for (const column of table.columns) {
    const field = mapColumn(table, column, fieldIds, warnings);
    if (field) fields.set(column.name, field);
  }
  for (const note of table.unsupported) warnings.add(table.name, undefined, note);
  if (fields.size === 0) {
    warnings.add(table.name, undefined, 'no column has a schema-config type; the table is left out');
    return undefined;
  }
  const entity: Entity = { id, ...(table.comment ? { description: table.comment } : {}), fields: [...fields.values()] };
  const mapped: MappedTable = { table, entity, fields };
  for (const check of table.checks) applyCheck(mapped, check, warnings);
  // A default that does not fit its field once the CHECKs shaped it (out of bounds, not an enum value) is left out.
  for (const [column, field] of fields) {
    const declared = castFieldDefault(field);
    if (declared && 'problem' in declared) {
      delete field.default;
      warnings.add(table.name, column, `${declared.problem.replace(/; .*$/, '')}: the default is not carried over`);
    }
  }
  return mapped;
}

function mapColumn(table: CatalogTable, column: CatalogColumn, fieldIds: IdScope, warnings: Warnings): Field | undefined {
  const { shape, note } = mapColumnType(column.type, column.declared);
  if (note) warnings.add(table.name, column.name, note);
  if (!shape) return undefined;
  const id = fieldIds.claim(column.name);
  if (id !== column.name) warnings.add(table.name, column.name, `the name is not an sds identifier (letters, digits, _); the field is "${id}"`);
  const field: Field = { id, ...shape };
  if (column.nullable) field.nullable = true;
  if (column.comment) field.description = column.comment;
  if (column.domain) field.description ??= `Domain ${column.domain}`;
  if (column.generated !== undefined) {
    warnings.add(table.name, column.name, `generated column (${column.generated}): its values are generated like any ${describeShape(shape)}, not computed`);
  }
  // The runtime API generates a missing lone primary key of some types (integers, uuids) itself.
  const generatedKey = table.primaryKey?.columns.length === 1 && table.primaryKey.columns[0] === column.name && fieldType(shape.type).generatedKey !== undefined;
  if (column.default !== undefined && !generatedKey) {
    const declared = column.defaultValue && configDefault(column.defaultValue, shape.type);
    if (declared) field.default = declared;
    else warnings.add(table.name, column.name, `default ${column.default} is not carried over: sds declares literals and the functions now, current_date and uuid; runtime inserts must give a value`);
    const onUpdate = / ON UPDATE (.+)$/.exec(column.default)?.[1];
    if (declared && onUpdate) warnings.add(table.name, column.name, `ON UPDATE ${onUpdate} is not carried over: runtime updates change only the fields they name`);
  }
  // A counting column that is not the primary key (those count up anyway) keeps counting.
  if (column.autoIncrement && shape.type === 'integer' && !table.primaryKey?.columns.includes(column.name)) {
    field.generation = { strategy: { kind: 'sequence', start: 1, step: 1 } };
  }
  return field;
}

/** A catalog default as the config declares it for a field of `type`; undefined when it cannot be one. */
function configDefault(value: CatalogDefault, type: FieldType): FieldDefault | undefined {
  if ('function' in value) return { function: value.function === 'now' && type === 'date' ? 'current_date' : value.function };
  const text = value.literal;
  switch (type) {
    case 'integer':
    case 'number': {
      const number = Number(text);
      return text.trim() !== '' && Number.isFinite(number) ? { value: number } : undefined;
    }
    case 'boolean':
      return /^(?:true|t|1|yes|on)$/i.test(text) ? { value: true } : /^(?:false|f|0|no|off)$/i.test(text) ? { value: false } : undefined;
    case 'json':
      try {
        const parsed = JSON.parse(text) as unknown;
        return parsed === null ? undefined : { value: parsed as Extract<FieldDefault, { value: unknown }>['value'] };
      } catch {
        return undefined;
      }
    case 'string':
    case 'text':
    case 'enum':
    case 'date':
    case 'datetime':
    case 'time':
    case 'uuid':
      return { value: text };
  }
}

/** CHECK rules onto fields: IN lists → enum values (or choices), bounds → min/max, IS NOT NULL → not nullable. */
function applyCheck(mapped: MappedTable, check: CatalogCheck, warnings: Warnings): void {
  const { table } = mapped;
  const unknown = check.rules?.find((rule) => !table.columns.some((column) => column.name === rule.column));
  if (!check.rules || unknown) {
    const domain = check.column === undefined ? '' : ` of domain ${table.columns.find((column) => column.name === check.column)?.domain}`;
    warnings.add(table.name, check.column, `${check.expression}${domain}: this CHECK cannot be expressed in the config; generated rows are not checked against it`);
    return;
  }
  for (const [column, rules] of groupRules(check.rules)) {
    const field = mapped.fields.get(column);
    if (!field) continue;
    const refused = applyRules(field, rules);
    if (refused) warnings.add(table.name, column, `${check.expression}: ${refused}; generated rows are not checked against it`);
  }
}

function groupRules(rules: CheckRule[]): Map<string, CheckRule[]> {
  const byColumn = new Map<string, CheckRule[]>();
  for (const rule of rules) byColumn.set(rule.column, [...(byColumn.get(rule.column) ?? []), rule]);
  return byColumn;
}

/** Applies the rules of one column; answers why not, when the field's type cannot take them. */
function applyRules(field: Field, rules: CheckRule[]): string | undefined {
  for (const rule of rules) {
    if (rule.op === 'not-null') {
      delete field.nullable;
      continue;
    }
    if (rule.op === 'in') {
      const refused = applyValues(field, rule.values);
      if (refused) return refused;
      continue;
    }
    if (field.type !== 'integer' && field.type !== 'number') return `bounds on a ${field.type} field cannot be expressed`;
    applyBound(field, rule.op, rule.value);
  }
  return undefined;
}

function applyValues(field: Field, values: Array<string | number>): string | undefined {
  if (field.type === 'string' || field.type === 'text' || field.type === 'enum') {
    const strings = [...new Set(values.map(String))];
    const kept = field.type === 'enum' ? (field.values ?? []).filter((value) => strings.includes(value)) : strings;
    if (kept.length === 0) return 'no allowed value';
    delete field.maxLength;
    field.type = 'enum';
    field.values = kept;
    return undefined;
  }
  if ((field.type === 'integer' || field.type === 'number') && values.every((value) => Number.isFinite(Number(value)))) {
    const [first, ...rest] = [...new Set(values.map(Number))].map((value) => ({ value, weight: 1 }));
    if (!first) return 'no allowed value';
    if (field.type === 'integer' && ![first, ...rest].every((choice) => Number.isInteger(choice.value))) return 'values that are not integers';
    field.generation = { ...field.generation, strategy: { kind: 'weightedChoice', choices: [first, ...rest] } };
    return undefined;
  }
  return `a list of allowed values on a ${field.type} field cannot be expressed`;
}

/** `x > 0` on an integer is min 1; on a number, the next step of its precision (or 0 itself when it has none). */
function applyBound(field: Field, op: '>=' | '>' | '<=' | '<', value: number): void {
  const step = field.type === 'integer' ? 1 : field.precision !== undefined ? 10 ** -field.precision : 0;
  const round = (n: number) => Number(n.toFixed(field.precision ?? 10));
  if (op === '>=' || op === '>') {
    const min = field.type === 'integer' ? (op === '>' ? Math.floor(value) + 1 : Math.ceil(value)) : round(op === '>' ? value + step : value);
    field.min = field.min === undefined ? min : Math.max(field.min, min);
  } else {
    const max = field.type === 'integer' ? (op === '<' ? Math.ceil(value) - 1 : Math.floor(value)) : round(op === '<' ? value - step : value);
    field.max = field.max === undefined ? max : Math.min(field.max, max);
  }
}

/** Primary key, unique keys and indexes: plain ones onto the entity, the rest as warnings. */
function mapKeys(mapped: MappedTable, indexIds: IdScope, entityIds: IdScope, warnings: Warnings): void {
  const { table, entity, fields } = mapped;
  const ids = (columns: string[]) => (columns.every((column) => fields.has(column)) ? columns.map((column) => fields.get(column)!.id) : undefined);
  if (table.primaryKey) {
    const primaryKey = ids(table.primaryKey.columns);
    if (primaryKey) entity.primaryKey = primaryKey;
    else warnings.add(table.name, undefined, `primary key (${table.primaryKey.columns.join(', ')}) has a column that is left out; the entity has no primary key`);
  }
  const same = (a: string[], b: string[] | undefined) => b !== undefined && a.length === b.length && a.every((id, i) => id === b[i]);
  for (const index of table.indexes) {
    const label = `${index.unique ? 'unique ' : ''}index ${index.name} (${index.columns.join(', ') || '…'})`;
    if (index.unsupported) {
      warnings.add(table.name, undefined, `${label} is ${describeIndexProblem(index.unsupported)}, which the config cannot express; left out`);
      continue;
    }
    const fieldIds = ids(index.columns);
    if (!fieldIds) {
      warnings.add(table.name, undefined, `${label} has a column that is left out; the index is left out too`);
      continue;
    }
    if (index.unique) {
      if (same(fieldIds, entity.primaryKey) || entity.uniqueKeys?.some((key) => same(fieldIds, key))) continue;
      (entity.uniqueKeys ??= []).push(fieldIds);
      continue;
    }
    if (entity.indexes?.some((other) => same(fieldIds, other.fields))) continue;
    // Index names share one namespace per database: a name used twice, or not an identifier, is left to sds.
    const keepName = /^[A-Za-z][A-Za-z0-9_]*$/.test(index.name) && index.name.length <= 63 && !indexIds.has(index.name) && !entityIds.has(index.name);
    if (keepName) indexIds.claim(index.name);
    (entity.indexes ??= []).push({ ...(keepName ? { id: index.name } : {}), fields: fieldIds });
  }
}

function describeIndexProblem(problem: string): string {
  switch (problem) {
    case 'partial':
      return 'partial (WHERE …)';
    case 'expression':
      return 'on an expression';
    case 'prefix':
      return 'on column prefixes';
    default:
      return `of ${problem}`;
  }
}
