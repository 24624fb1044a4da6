// Drift: a schema config compared with the config introspected from a live database. Reports
// tables and columns missing on either side, each field's structure as field-structure.ts compares it
// (type classes, enum values, nullability, lengths, precision, defaults, references with their
// actions: what `init --merge` applies), composite references, primary keys and unique keys, each as
// data and as a sentence.
import type { CompositeReference, Entity, Field, SchemaConfig } from '../model/config-types.ts';
import { compareFieldStructure, describeDefault, describeReference } from './field-structure.ts';

export type DifferenceKind =
  | 'table-only-in-database'
  | 'table-only-in-config'
  | 'column-only-in-database'
  | 'column-only-in-config'
  | 'type'
  | 'nullable'
  | 'length'
  | 'precision'
  | 'default'
  | 'primary-key'
  | 'unique-key-only-in-database'
  | 'unique-key-only-in-config'
  | 'reference'
  | 'composite-reference';

export interface Difference {
  kind: DifferenceKind;
  /** Entity id (table name). */
  entity: string;
  field?: string;
  /** What the config says, when it says something. */
  config?: unknown;
  /** What the database says, when it says something. */
  database?: unknown;
  message: string;
}

/** Every difference between `config` and `database` (a config introspected from the live database). */
export function diffConfigs(config: SchemaConfig, database: SchemaConfig): Difference[] {
  const differences: Difference[] = [];
  const live = new Map(database.entities.map((entity) => [entity.id, entity]));
  const declared = new Set(config.entities.map((entity) => entity.id));
  for (const entity of config.entities) {
    const actual = live.get(entity.id);
    if (!actual) {
      differences.push({ kind: 'table-only-in-config', entity: entity.id, message: `table ${entity.id} is in the config but not in the database` });
      continue;
    }
    differences.push(...diffEntity(entity, actual));
  }
  for (const entity of database.entities) {
    if (!declared.has(entity.id)) {
      differences.push({ kind: 'table-only-in-database', entity: entity.id, message: `table ${entity.id} is in the database but not in the config` });
    }
  }
  return differences;
}

function diffEntity(entity: Entity, actual: Entity): Difference[] {
  const differences: Difference[] = [];
  const at = entity.id;
  const liveFields = new Map(actual.fields.map((field) => [field.id, field]));
  for (const field of entity.fields) {
    const live = liveFields.get(field.id);
    if (!live) {
      differences.push({ kind: 'column-only-in-config', entity: at, field: field.id, message: `column ${at}.${field.id} is in the config but not in the database` });
      continue;
    }
    differences.push(...diffField(at, field, live));
  }
  for (const field of actual.fields) {
    if (!entity.fields.some((candidate) => candidate.id === field.id)) {
      differences.push({ kind: 'column-only-in-database', entity: at, field: field.id, message: `column ${at}.${field.id} is in the database but not in the config` });
    }
  }
  const configKey = entity.primaryKey ?? [];
  const liveKey = actual.primaryKey ?? [];
  if (configKey.join(',') !== liveKey.join(',')) {
    differences.push({
      kind: 'primary-key',
      entity: at,
      config: configKey,
      database: liveKey,
      message: `${at}: primary key ${columns(configKey)} in the config, ${columns(liveKey)} in the database`,
    });
  }
  const configUnique = uniqueKeys(entity);
  const liveUnique = uniqueKeys(actual);
  for (const [key, fields] of liveUnique) {
    if (!configUnique.has(key)) differences.push({ kind: 'unique-key-only-in-database', entity: at, database: fields, message: `${at}: unique key ${columns(fields)} is in the database but not in the config` });
  }
  for (const [key, fields] of configUnique) {
    if (!liveUnique.has(key)) differences.push({ kind: 'unique-key-only-in-config', entity: at, config: fields, message: `${at}: unique key ${columns(fields)} is in the config but not in the database` });
  }
  differences.push(...diffCompositeReferences(entity, actual));
  return differences;
}

/** Composite references, matched by their fields: missing on either side, or pointing elsewhere or acting otherwise. */
function diffCompositeReferences(entity: Entity, actual: Entity): Difference[] {
  const at = entity.id;
  const key = (reference: CompositeReference) => [...reference.fields].sort().join(',');
  const live = new Map((actual.references ?? []).map((reference) => [key(reference), reference]));
  const declared = new Set((entity.references ?? []).map(key));
  const differences: Difference[] = [];
  for (const reference of entity.references ?? []) {
    const other = live.get(key(reference));
    if (describeComposite(reference) === (other && describeComposite(other))) continue;
    differences.push({
      kind: 'composite-reference',
      entity: at,
      config: reference,
      database: other ?? null,
      message: `${at}${columns(reference.fields)}: ${describeComposite(reference)} in the config, ${other ? describeComposite(other) : 'no foreign key'} in the database`,
    });
  }
  for (const [id, reference] of live) {
    if (!declared.has(id)) differences.push({ kind: 'composite-reference', entity: at, config: null, database: reference, message: `${at}${columns(reference.fields)}: no foreign key in the config, ${describeComposite(reference)} in the database` });
  }
  return differences;
}

function describeComposite(reference: CompositeReference): string {
  return `references ${reference.entity}${columns(reference.targetFields)} (on delete ${reference.onDelete ?? 'restrict'}, on update ${reference.onUpdate ?? 'restrict'})`;
}

function diffField(entity: string, field: Field, live: Field): Difference[] {
  const name = `${entity}.${field.id}`;
  return compareFieldStructure(field, live).map((change): Difference => {
    const { config, database } = change;
    const difference = { entity, field: field.id, config, database };
    switch (change.kind) {
      case 'type':
        return { ...difference, kind: 'type', message: `${name}: type ${field.type} in the config, ${live.type} in the database` };
      case 'enum-values':
        return { ...difference, kind: 'type', message: `${name}: enum values ${list(field.values)} in the config, ${list(live.values)} in the database` };
      case 'nullable': {
        const state = (nullable: boolean | undefined) => (nullable ? 'nullable' : 'NOT NULL');
        return { ...difference, kind: 'nullable', message: `${name}: ${state(field.nullable)} in the config, ${state(live.nullable)} in the database` };
      }
      case 'length': {
        const length = (value: unknown) => (value === null ? 'no maxLength' : `maxLength ${String(value)}`);
        return { ...difference, kind: 'length', message: `${name}: ${length(config)} in the config, ${length(database)} in the database` };
      }
      case 'precision': {
        const precision = (value: unknown) => (value === null ? 'no precision (double)' : typeof value === 'string' ? value : `precision ${String(value)}`);
        return { ...difference, kind: 'precision', message: `${name}: ${precision(config)} in the config, ${precision(database)} in the database` };
      }
      case 'default':
        return { ...difference, kind: 'default', message: `${name}: default ${describeDefault(config)} in the config, ${describeDefault(database)} in the database` };
      case 'reference':
        return { ...difference, kind: 'reference', message: `${name}: ${describeReference(field) ?? 'no reference'} in the config, ${describeReference(live) ?? 'no reference'} in the database` };
    }
  });
}

/** Unique keys (uniqueKeys and unique indexes), keyed by their sorted field ids; the primary key's own columns left out. */
function uniqueKeys(entity: Entity): Map<string, string[]> {
  const keys = new Map<string, string[]>();
  const primary = [...(entity.primaryKey ?? [])].sort().join(',');
  const add = (fields: string[]) => {
    const key = [...fields].sort().join(',');
    if (key !== primary) keys.set(key, fields);
  };
  for (const fields of entity.uniqueKeys ?? []) add(fields);
  for (const index of entity.indexes ?? []) if (index.unique) add(index.fields);
  return keys;
}

function columns(fields: string[]): string {
  return fields.length ? `(${fields.join(', ')})` : 'none';
}

function list(values: string[] | undefined): string {
  return `(${(values ?? []).join(', ')})`;
}

/** The differences as text, one line each. */
export function describeDifferences(differences: Difference[]): string {
  return differences.map((difference) => difference.message).join('\n');
}
