// The table model: what a table of an entity is (columns, keys, indexes, foreign keys), and the table
// specs of a config, built once here for generation, the runtime and files alike: columns in config
// order, primary key, unique keys and indexes with deterministic names of at most 63 characters, and
// foreign keys from `references`.
import type { FieldType } from '../contract.ts';
import type { Entity, Field, SchemaConfig } from './config-types.ts';
import { castFieldDefault, type ColumnDefault } from './field-default.ts';
import { fieldType } from './field-types/index.ts';
import { hashString } from './hash.ts';
import { compositeReferenceOf, compositeReferences } from './composite-keys.ts';

/** Column types of generated tables: the schema config's field types (FIELD_TYPES in contract.ts). */
export type ColumnType = FieldType;

export type ReferentialAction = 'restrict' | 'cascade' | 'set-null';

export interface ColumnSpec {
  /** Field id: a schema-known identifier (^[A-Za-z][A-Za-z0-9_]*$, at most 63 characters). Always quoted in SQL. */
  name: string;
  type: ColumnType;
  nullable: boolean;
  /**
   * A NOT NULL reference that closes a cycle (`references.fillAfterInsert`): created nullable, filled
   * once every row exists, then made NOT NULL with the keys. `nullable` stays false (writes need it).
   */
  fillAfterInsert?: boolean;
  /** string: varchar(maxLength) when set; otherwise text (MySQL: VARCHAR(255) when indexed, else TEXT). */
  maxLength?: number;
  /** number: digits after the decimal point → numeric(18 + precision, precision); unset → double precision. */
  precision?: number;
  /** number with a precision: total digits (the config's `digits`) in place of 18 + precision. */
  digits?: number;
  /** integer: values may exceed 32 bits → bigint. */
  big?: boolean;
  /** enum: the allowed values (PostgreSQL: text with a CHECK; MySQL: ENUM). */
  values?: string[];
  /** The column's database default (`default` in the config): what an insert that leaves the column out stores. */
  default?: ColumnDefault;
}

export interface IndexSpec {
  /** Deterministic constraint/index name, at most 63 characters. */
  name: string;
  columns: string[];
  unique: boolean;
}

export interface ForeignKeySpec {
  name: string;
  columns: string[];
  references: { table: string; columns: string[] };
  onDelete: ReferentialAction;
  onUpdate: ReferentialAction;
}

export interface TableSpec {
  /** Entity id, used as the table name. */
  name: string;
  /** Columns in the order rows are passed to `loadRows`. */
  columns: ColumnSpec[];
  /** Primary key columns; may be empty (no primary key). */
  primaryKey: string[];
  /** Unique keys (entity uniqueKeys and indexes with unique: true are both expressed as indexes). */
  indexes: IndexSpec[];
  foreignKeys: ForeignKeySpec[];
}

/**
 * The tables of a valid config (see `validateConfig`) by entity id. `rowCounts` (by entity id)
 * bound sequences, so they decide which integer columns are bigint; a reference takes its target's width.
 */
export function buildTableSpecs(config: SchemaConfig, rowCounts: ReadonlyMap<string, number>): Map<string, TableSpec> {
  const entities = new Map(config.entities.map((entity) => [entity.id, entity]));
  const big = new Map<string, boolean>();
  const isBig = (entityId: string, fieldId: string): boolean => {
    const key = `${entityId}.${fieldId}`;
    if (big.has(key)) return big.get(key)!;
    big.set(key, false); // a reference cycle of integer keys ends here
    const entity = entities.get(entityId);
    const field = entity?.fields.find((candidate) => candidate.id === fieldId);
    let result = false;
    if (entity && field?.type === 'integer') {
      const target = columnReferenceTarget(entity, field);
      result = target ? isBig(target.entity, target.field) : integerFieldIsBig(entity, field, rowCounts.get(entityId) ?? 0);
    }
    big.set(key, result);
    return result;
  };
  return new Map(config.entities.map((entity) => [entity.id, buildTableSpec(entity, rowCounts.get(entity.id) ?? 0, isBig)]));
}

const MAX_IDENTIFIER = 63;
const INT32_MIN = -2_147_483_648;
const INT32_MAX = 2_147_483_647;

/**
 * The table of an entity. `rowCount` bounds sequences; `bigFields` names integer fields of other
 * entities that are bigint (a reference takes its target's width).
 */
export function buildTableSpec(entity: Entity, rowCount: number, isBig: (entity: string, field: string) => boolean): TableSpec {
  const columns = entity.fields.map((field) => columnSpec(entity, field, rowCount, isBig));
  const primaryKey = entity.primaryKey ? [...entity.primaryKey] : [];
  return { name: entity.id, columns, primaryKey, indexes: indexSpecs(entity, primaryKey), foreignKeys: foreignKeySpecs(entity) };
}

function columnSpec(entity: Entity, field: Field, rowCount: number, isBig: (entity: string, field: string) => boolean): ColumnSpec {
  const column: ColumnSpec = { name: field.id, type: field.type, nullable: field.nullable === true, ...fieldType(field.type).columnFacets(field) };
  if (field.references?.fillAfterInsert === true && field.nullable !== true) column.fillAfterInsert = true;
  if (field.type === 'integer') {
    const target = columnReferenceTarget(entity, field);
    const big = target ? isBig(target.entity, target.field) : integerFieldIsBig(entity, field, rowCount);
    if (big) column.big = true;
  }
  const declared = castFieldDefault(field);
  if (declared && 'default' in declared) column.default = declared.default;
  return column;
}

/** The entity and field a field takes its values from, through `references` or a reference strategy. */
export function referenceTarget(field: Field): { entity: string; field: string } | undefined {
  const strategy = field.generation?.strategy;
  return field.references ?? (strategy?.kind === 'reference' ? strategy : undefined);
}

/** The column a field's values come from: its composite reference's target field first, else referenceTarget. */
function columnReferenceTarget(entity: Entity, field: Field): { entity: string; field: string } | undefined {
  const composite = compositeReferenceOf(entity, field.id);
  if (composite) return { entity: composite.reference.entity, field: composite.reference.targetFields[composite.position]! };
  return referenceTarget(field);
}

/** Whether values of an integer field (not a reference) may leave the 32-bit range. */
export function integerFieldIsBig(entity: Entity, field: Field, rowCount: number): boolean {
  const outside = (...values: number[]) => values.some((value) => value < INT32_MIN || value > INT32_MAX);
  if (field.min !== undefined && field.max !== undefined) return outside(field.min, field.max);
  const strategy = field.generation?.strategy;
  switch (strategy?.kind) {
    case 'sequence': {
      const start = strategy.start ?? 1;
      return outside(start, start + Math.max(0, rowCount - 1) * (strategy.step ?? 1));
    }
    case 'randomInt':
      return outside(strategy.min ?? field.min ?? 0, strategy.max ?? field.max ?? 1000);
    case 'formula':
    case 'childrenSum':
      // Products and sums of other fields can leave the 32-bit range: bounded by min and max only.
      return true;
    case 'literal':
      return typeof strategy.value === 'number' && outside(strategy.value);
    case 'weightedChoice':
      return strategy.choices.some((choice) => typeof choice.value === 'number' && outside(choice.value));
    case 'faker':
      // faker.number.int() reaches Number.MAX_SAFE_INTEGER unless the field bounds it.
      return field.min === undefined && field.max === undefined ? true : outside(field.min ?? 0, field.max ?? 0);
    case undefined:
      if (entity.primaryKey?.includes(field.id)) return outside(Math.ceil(field.min ?? 1) + rowCount);
      return outside(field.min ?? 0, field.max ?? 0);
    // Not integers, or bounded by the parent's key.
    case 'randomFloat':
    case 'randomBoolean':
    case 'template':
    case 'dateRange':
    case 'reference':
    case 'styledText':
      return false;
  }
}

function indexSpecs(entity: Entity, primaryKey: string[]): IndexSpec[] {
  const specs: IndexSpec[] = [];
  const sameColumns = (a: string[], b: string[]) => a.length === b.length && a.every((column, i) => column === b[i]);
  const add = (name: string, columns: string[], unique: boolean) => {
    if (unique && sameColumns(columns, primaryKey)) return;
    if (specs.some((spec) => spec.unique === unique && sameColumns(spec.columns, columns))) return;
    let unused = name;
    for (let n = 2; specs.some((spec) => spec.name === unused); n++) unused = constraintName(`${name}${n}`, '');
    specs.push({ name: unused, columns: [...columns], unique });
  };
  for (const columns of entity.uniqueKeys ?? []) add(constraintName(`${entity.id}_${columns.join('_')}`, 'key'), columns, true);
  for (const index of entity.indexes ?? []) {
    const unique = index.unique === true;
    add(index.id ?? constraintName(`${entity.id}_${index.fields.join('_')}`, unique ? 'key' : 'idx'), index.fields, unique);
  }
  return specs;
}

function foreignKeySpecs(entity: Entity): ForeignKeySpec[] {
  const single = entity.fields.flatMap((field): ForeignKeySpec[] => {
    const reference = field.references;
    if (!reference) return [];
    return [
      {
        name: constraintName(`${entity.id}_${field.id}`, 'fkey'),
        columns: [field.id],
        references: { table: reference.entity, columns: [reference.field] },
        onDelete: reference.onDelete ?? 'restrict',
        onUpdate: reference.onUpdate ?? 'restrict',
      },
    ];
  });
  const composite = compositeReferences(entity).map((reference) => ({
    name: reference.id ?? constraintName(`${entity.id}_${reference.fields.join('_')}`, 'fkey'),
    columns: [...reference.fields],
    references: { table: reference.entity, columns: [...reference.targetFields] },
    onDelete: reference.onDelete ?? 'restrict',
    onUpdate: reference.onUpdate ?? 'restrict',
  }));
  return [...single, ...composite];
}

/**
 * `${base}_${suffix}`, or when longer than 63 characters, the base cut short plus a hash of the
 * whole name, so distinct long names stay distinct and the same name is always chosen.
 */
export function constraintName(base: string, suffix: string): string {
  const name = suffix ? `${base}_${suffix}` : base;
  if (name.length <= MAX_IDENTIFIER) return name;
  const hash = hashString(name).toString(36).padStart(7, '0');
  const tail = suffix ? `_${hash}_${suffix}` : `_${hash}`;
  return `${base.slice(0, MAX_IDENTIFIER - tail.length)}${tail}`;
}
