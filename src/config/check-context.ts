// What the semantic checks of a config share: where issues go, entity look-ups, planned row counts,
// keys, and how field types relate.
import { unhandledFieldType } from '../contract.ts';
import type { Entity, Field, FieldType, SchemaConfig } from '../model/config-types.ts';
import type { Issue } from '../model/config-issues.ts';
import type { RowCountBounds } from '../model/config-graph.ts';
import { pointer } from '../model/config-issues.ts';
import { didYouMean } from '../suggest.ts';
import { resolveRowCount } from '../model/config-graph.ts';
import { parseDateBound } from '../generation/date-bounds.ts';

export interface CheckContext {
  config: SchemaConfig;
  errors: Issue[];
  warnings: Issue[];
  /** First entity of each id, with its index (entities that stand in for broken ones left out). */
  entities: Map<string, { entity: Entity; index: number }>;
  /** Stand-ins for structurally broken entities and fields (see repair-config.ts): not checked. */
  opaque: WeakSet<Entity | Field>;
  /** Ids of the entities that stand in for broken ones (`''` for one without an id): naming them is no error, but nothing is checked. */
  opaqueEntityIds: Set<string>;
}

/** The context of a sound config, or of a repaired one (see repair-config.ts). */
export function createContext(
  config: SchemaConfig,
  repaired: { opaque: WeakSet<Entity | Field>; opaqueEntityNames: Set<string> } = { opaque: new WeakSet(), opaqueEntityNames: new Set() },
): CheckContext {
  const entities = new Map<string, { entity: Entity; index: number }>();
  config.entities.forEach((entity, index) => {
    if (!repaired.opaque.has(entity) && !entities.has(entity.id)) entities.set(entity.id, { entity, index });
  });
  return { config, errors: [], warnings: [], entities, opaque: repaired.opaque, opaqueEntityIds: repaired.opaqueEntityNames };
}

/** Where a field sits, for messages and pointers. */
export interface FieldSite {
  entity: Entity;
  entityIndex: number;
  field: Field;
  fieldIndex: number;
  /** JSON pointer to the field. */
  path: string;
  /** `entity.field`, as messages name it. */
  name: string;
}

export function fieldSite(entity: Entity, entityIndex: number, field: Field, fieldIndex: number): FieldSite {
  const path = pointer('entities', entityIndex, 'fields', fieldIndex);
  return { entity, entityIndex, field, fieldIndex, path, name: `${entity.id}.${field.id}` };
}

export function plannedRows(context: CheckContext, entity: Entity): RowCountBounds {
  return resolveRowCount(entity, context.config.generationDefaults);
}

/**
 * Resolves `{entity, field}` named at `path` (a pointer to the object holding them); records an
 * error and returns undefined when either does not exist. A target that stands in for a broken
 * entity or field resolves to undefined without an error: the structural error speaks for it.
 */
export function resolveTarget(
  context: CheckContext,
  target: { entity: string; field: string },
  path: string,
): { entity: Entity; field: Field } | undefined {
  const found = context.entities.get(target.entity);
  // An entity without an id may be the one meant: then an unknown entity name is no error yet.
  if (!found && (context.opaqueEntityIds.has(target.entity) || context.opaqueEntityIds.has(''))) return undefined;
  if (!found) {
    const ids = [...context.entities.keys()];
    context.errors.push({
      path: `${path}/entity`,
      message: `entity "${target.entity}" does not exist${didYouMean(target.entity, ids)}; use one of: ${ids.join(', ')}`,
    });
    return undefined;
  }
  const field = found.entity.fields.find((candidate) => candidate.id === target.field);
  if (!field) {
    const ids = found.entity.fields.map((candidate) => candidate.id);
    context.errors.push({
      path: `${path}/field`,
      message: `entity "${target.entity}" has no field "${target.field}"${didYouMean(target.field, ids)}; use one of: ${ids.join(', ')}`,
    });
    return undefined;
  }
  if (context.opaque.has(field)) return undefined;
  return { entity: found.entity, field };
}

/** Why `value` cannot be stored in `field` ("an integer"), or undefined when it can. */
export function valueMismatch(field: Field, value: unknown): string | undefined {
  if (value === null) return field.nullable ? undefined : 'a non-null value (the field is not nullable)';
  switch (field.type) {
    case 'string':
    case 'text':
      if (typeof value !== 'string') return 'a string';
      return field.maxLength !== undefined && value.length > field.maxLength
        ? `a string of at most ${field.maxLength} characters (maxLength)`
        : undefined;
    case 'integer':
      return Number.isInteger(value) ? undefined : 'an integer';
    case 'number':
      return typeof value === 'number' ? undefined : 'a number';
    case 'boolean':
      return typeof value === 'boolean' ? undefined : 'a boolean';
    case 'date':
      return typeof value === 'string' && isCalendarDate(value) ? undefined : 'a date such as "2024-01-31"';
    case 'datetime':
      return typeof value === 'string' && isDateTime(value) ? undefined : 'a datetime such as "2024-01-31T12:00:00Z"';
    case 'time':
      return typeof value === 'string' && /^([01][0-9]|2[0-3]):[0-5][0-9](:[0-5][0-9](\.[0-9]{1,6})?)?$/.test(value)
        ? undefined
        : 'a time such as "13:45:00"';
    case 'uuid':
      return typeof value === 'string' && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value)
        ? undefined
        : 'a UUID such as "1b4e28ba-2fa1-11d2-883f-0016d3cca427"';
    case 'json':
      return undefined;
    case 'enum':
      return typeof value === 'string' && (field.values ?? []).includes(value)
        ? undefined
        : `one of its values: ${(field.values ?? []).map((v) => JSON.stringify(v)).join(', ')}`;
  }  return unhandledFieldType(field.type);
}

function isCalendarDate(text: string): boolean {
  return /^[0-9]{4}-[0-9]{2}-[0-9]{2}$/.test(text) && isDateTime(text);
}

function isDateTime(text: string): boolean {
  return parseDateBound(text)?.kind === 'absolute';
}
