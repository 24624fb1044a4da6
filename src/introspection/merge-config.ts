// Merging a fresh introspection into an existing config after a migration: the database decides the
// structure (tables, columns and their order, types, nullability, keys, indexes, references), the
// existing config keeps everything written by hand (labels, descriptions, generation settings and
// strategies, row counts, field settings) for whatever still exists. Each change is reported; a kept
// setting that no longer validates (a strategy for a type that changed) is dropped and reported.
import type { Entity, Field, SchemaConfig } from '../model/config-types.ts';
import { compareFieldStructure, describeDefault, describeReference } from './field-structure.ts';
import { TYPE_SPECIFIC_PROPERTIES } from '../config/field-checks.ts';
import { pointerTokens } from '../model/config-issues.ts';
import { validateConfig, type Issue } from '../config/validate-config.ts';

export type MergeChangeKind = 'table-added' | 'table-removed' | 'column-added' | 'column-removed' | 'column-changed' | 'setting-dropped';

export interface MergeChange {
  kind: MergeChangeKind;
  entity: string;
  field?: string;
  message: string;
}

export interface MergeResult {
  config: SchemaConfig;
  changes: MergeChange[];
  /** Validation errors left after dropping what no longer fits; empty when the merged config is valid. */
  errors: Issue[];
}

/** What the database decides about a field (field-structure.ts compares them); everything else of an existing field is kept. */
const STRUCTURAL = ['type', 'nullable', 'maxLength', 'precision', 'digits', 'values', 'default', 'references'] as const;
/** The facets of a type, all taken from the database when the type class changes. */
const TYPE_FACETS = ['type', 'maxLength', 'precision', 'digits', 'values', 'default'] as const;
/** Hand-written field settings the database also speaks about: the existing value wins when there is one (a config from before `digits` gains them). */
const PREFER_EXISTING = ['label', 'description', 'min', 'max', 'digits'] as const;

/**
 * Merges `fresh` (introspected) into `existing`. `partial`: `fresh` covers only some tables (a
 * `tables` selection), so the existing entities it lacks are kept as they are instead of removed.
 */
export function mergeConfigs(existing: SchemaConfig, fresh: SchemaConfig, options: { partial?: boolean } = {}): MergeResult {
  const changes: MergeChange[] = [];
  const before = new Map(existing.entities.map((entity) => [entity.id, entity]));
  const merged = new Map(
    fresh.entities.map((entity) => {
      const old = before.get(entity.id);
      if (old) return [entity.id, mergeEntity(old, entity, changes)];
      changes.push({ kind: 'table-added', entity: entity.id, message: `table ${entity.id} added` });
      return [entity.id, entity];
    }),
  );
  let entities = [...merged.values()];
  if (options.partial) {
    entities = [...existing.entities.map((entity) => merged.get(entity.id) ?? entity), ...entities.filter((entity) => !before.has(entity.id))];
  } else {
    for (const entity of existing.entities) {
      if (!merged.has(entity.id)) changes.push({ kind: 'table-removed', entity: entity.id, message: `table ${entity.id} removed: it is no longer in the database` });
    }
  }
  const config: SchemaConfig = {
    ...existing,
    ...(existing.metadata ?? fresh.metadata ? { metadata: existing.metadata ?? fresh.metadata } : {}),
    ...(existing.generationDefaults ?? fresh.generationDefaults ? { generationDefaults: existing.generationDefaults ?? fresh.generationDefaults } : {}),
    entities,
  };
  return { config, changes, errors: dropWhatNoLongerFits(config, changes) };
}

function mergeEntity(old: Entity, fresh: Entity, changes: MergeChange[]): Entity {
  const oldFields = new Map(old.fields.map((field) => [field.id, field]));
  const fields = fresh.fields.map((field) => {
    const kept = oldFields.get(field.id);
    if (kept) return mergeField(fresh.id, kept, field, changes);
    changes.push({ kind: 'column-added', entity: fresh.id, field: field.id, message: `column ${fresh.id}.${field.id} added (${field.type})` });
    return field;
  });
  for (const field of old.fields) {
    if (!fresh.fields.some((candidate) => candidate.id === field.id)) {
      changes.push({ kind: 'column-removed', entity: fresh.id, field: field.id, message: `column ${fresh.id}.${field.id} removed: it is no longer in the database` });
    }
  }
  const { primaryKey, uniqueKeys, indexes } = fresh;
  const merged: Entity = { id: fresh.id, ...pick(old, ['label']), ...pick(old.description ? old : fresh, ['description']), fields };
  if (primaryKey) merged.primaryKey = primaryKey;
  if (uniqueKeys) merged.uniqueKeys = uniqueKeys;
  if (indexes) merged.indexes = indexes;
  // Composite references are structure (the database's); a hand-set pick, relation or fanOut stays with the same fields.
  if (fresh.references) {
    merged.references = fresh.references.map((reference) => {
      const before = old.references?.find((candidate) => candidate.entity === reference.entity && candidate.fields.join(',') === reference.fields.join(','));
      return before ? { ...reference, ...pick(before, ['pick', 'relation', 'fanOut', 'id']) } : reference;
    });
  }
  const generation = old.generation ?? fresh.generation;
  if (generation) merged.generation = generation;
  return merged;
}

function mergeField(entity: string, old: Field, fresh: Field, changes: MergeChange[]): Field {
  const merged: Field = { ...old };
  for (const property of PREFER_EXISTING) if (old[property] === undefined && fresh[property] !== undefined) copy(merged, fresh, property);
  // Exactly what `sds diff` reports (field-structure.ts), taken from the database.
  const structure = compareFieldStructure(old, fresh);
  const what: string[] = [];
  for (const change of structure) {
    switch (change.kind) {
      case 'type':
        // Another type class: every facet of the type comes from the database.
        for (const property of TYPE_FACETS) {
          delete merged[property];
          if (fresh[property] !== undefined) copy(merged, fresh, property);
        }
        what.push(`type ${old.type} → ${fresh.type}`);
        break;
      case 'enum-values':
        copyOrDelete(merged, fresh, 'values');
        what.push('enum values changed');
        break;
      case 'nullable':
        copyOrDelete(merged, fresh, 'nullable');
        what.push(fresh.nullable ? 'now nullable' : 'now NOT NULL');
        break;
      case 'length':
        copyOrDelete(merged, fresh, 'maxLength');
        what.push(`maxLength ${old.maxLength ?? 'none'} → ${fresh.maxLength ?? 'none'}`);
        break;
      case 'precision':
        copyOrDelete(merged, fresh, 'precision');
        copyOrDelete(merged, fresh, 'digits');
        what.push(
          old.digits !== undefined || fresh.digits !== undefined
            ? `${numeric(old)} → ${numeric(fresh)}`
            : `precision ${old.precision ?? 'none'} → ${fresh.precision ?? 'none'}`,
        );
        break;
      case 'default':
        copyOrDelete(merged, fresh, 'default');
        what.push(`default ${describeDefault(old.default)} → ${describeDefault(fresh.default)}`);
        break;
      case 'reference': {
        copyOrDelete(merged, fresh, 'references');
        // A hand-picked pick order of a reference stays with it.
        if (merged.references && old.references?.pick && old.references.entity === merged.references.entity) merged.references = { ...merged.references, pick: old.references.pick };
        const target = (field: Field) => (field.references ? `${field.references.entity}.${field.references.field}` : 'none');
        what.push(target(old) !== target(fresh) ? `reference ${target(old)} → ${target(fresh)}` : `${describeReference(old)} → ${describeReference(fresh)}`);
        break;
      }
    }
  }
  // Weights belong to the values they weigh.
  if (merged.weights && JSON.stringify(old.values) !== JSON.stringify(merged.values)) {
    delete merged.weights;
    changes.push({ kind: 'setting-dropped', entity, field: old.id, message: `${entity}.${old.id}: weights dropped, the enum values changed` });
  }
  if (what.length) changes.push({ kind: 'column-changed', entity, field: old.id, message: `${entity}.${old.id}: ${what.join(', ')}` });
  if (structure.some((change) => change.kind === 'type')) dropForType(entity, merged, changes);
  return merged;
}

function copyOrDelete<K extends keyof Field>(target: Field, source: Field, key: K): void {
  if (source[key] === undefined) delete target[key];
  else target[key] = source[key];
}

/** After a change of type class: the settings of the old type and its strategy go. */
function dropForType(entity: string, field: Field, changes: MergeChange[]): void {
  for (const [property, types] of Object.entries(TYPE_SPECIFIC_PROPERTIES)) {
    const key = property as keyof Field;
    if (field[key] === undefined || types.includes(field.type) || STRUCTURAL.includes(key as (typeof STRUCTURAL)[number])) continue;
    delete field[key];
    changes.push({ kind: 'setting-dropped', entity, field: field.id, message: `${entity}.${field.id}: ${property} dropped, it does not apply to ${field.type}` });
  }
  const strategy = field.generation?.strategy;
  if (strategy && strategy.kind !== 'faker' && strategy.kind !== 'template' && strategy.kind !== 'literal') {
    delete field.generation!.strategy;
    changes.push({ kind: 'setting-dropped', entity, field: field.id, message: `${entity}.${field.id}: strategy ${strategy.kind} dropped, the type changed to ${field.type}` });
  }
}

/**
 * Validates the merged config and drops each part of a field's generation settings an error points
 * into (a template naming a removed field, a reference strategy to a removed table…), a few times over.
 */
function dropWhatNoLongerFits(config: SchemaConfig, changes: MergeChange[]): Issue[] {
  for (let pass = 0; pass < 3; pass++) {
    const { errors } = validateConfig(config);
    if (errors.length === 0) return [];
    let dropped = false;
    for (const error of errors) {
      const [top, entityIndex, part, fieldIndex, setting, key] = pointerTokens(error.path);
      if (top !== 'entities' || part !== 'fields' || setting !== 'generation') continue;
      const entity = config.entities[Number(entityIndex)];
      const field = entity?.fields[Number(fieldIndex)];
      const generation = field?.generation;
      if (!entity || !field || !generation) continue;
      const what = key === 'strategy' && generation.strategy ? `strategy ${generation.strategy.kind}` : key ?? 'generation settings';
      if (key === 'strategy' || key === 'emptyRate' || key === 'uniqueValues') delete generation[key];
      else delete field.generation;
      if (field.generation && Object.keys(field.generation).length === 0) delete field.generation;
      dropped = true;
      changes.push({ kind: 'setting-dropped', entity: entity.id, field: field.id, message: `${entity.id}.${field.id}: ${what} dropped: ${error.message}` });
    }
    if (!dropped) return errors;
  }
  return validateConfig(config).errors;
}

function copy<K extends keyof Field>(target: Field, source: Field, key: K): void {
  target[key] = source[key];
}

function pick<T extends object, K extends keyof T>(source: T, keys: readonly K[]): Partial<Pick<T, K>> {
  const picked: Partial<Pick<T, K>> = {};
  for (const key of keys) if (source[key] !== undefined) picked[key] = source[key];
  return picked;
}

export function describeChanges(changes: MergeChange[]): string {
  return changes.map((change) => change.message).join('\n');
}

/** decimal(7,2), or `precision 2` / `none` without total digits. */
function numeric(field: Field): string {
  if (field.digits !== undefined) return `decimal(${field.digits},${field.type === 'integer' ? 0 : (field.precision ?? 0)})`;
  return `precision ${field.precision ?? 'none'}`;
}
