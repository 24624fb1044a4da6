// Structural repair of a schema config that failed its JSON Schema, so that the semantic checks can
// still run on every part that is sound: each unit the structural issues point into (a field, an
// entity, a key list, one generation setting) is replaced by something well-formed and marked, and
// the semantic issues found inside a marked unit are dropped (the structural issue already speaks).
import type { Entity, Field, SchemaConfig } from '../model/config-types.ts';
import type { Issue } from '../model/config-issues.ts';
import { pointer, pointerTokens } from '../model/config-issues.ts';
import { matchesConfigSchema } from './config-schema.ts';

/** A structurally sound stand-in for a config, and what was replaced in it. */
export interface RepairedConfig {
  config: SchemaConfig;
  /**
   * Fields and entities that stand in for broken ones: they keep their id when it is valid (and a
   * field its nullability) so that other parts may name them, but nothing else of them is checked,
   * and checks that would look into them (a reference's target type) are skipped.
   */
  opaque: WeakSet<Entity | Field>;
  /** What other parts call the broken entities: their ids as written, valid or not, and '' for one without an id. */
  opaqueEntityNames: Set<string>;
  /** JSON pointers of the replaced units: semantic issues at or under them are dropped. */
  broken: string[];
}

const IDENTIFIER = /^[A-Za-z][A-Za-z0-9_]{0,62}$/;

/**
 * Repairs `input` around the units `structural` points into; undefined when nothing semantic can be
 * checked (the config is not an object with an `entities` array).
 */
export function repairConfig(input: unknown, structural: readonly Issue[]): RepairedConfig | undefined {
  if (!isObject(input) || !Array.isArray(input.entities)) return undefined;
  const opaque = new WeakSet<Entity | Field>();
  const broken = new Set<string>();
  const entities: unknown[] = [...input.entities];
  const copied = new Set<number>();
  const entityAt = (i: number): Record<string, unknown> | undefined => {
    const entity = entities[i];
    if (!isObject(entity)) return undefined;
    if (!copied.has(i)) {
      copied.add(i);
      entities[i] = { ...entity, fields: Array.isArray(entity.fields) ? [...entity.fields] : entity.fields };
    }
    return entities[i] as Record<string, unknown>;
  };
  let generationDefaults = isObject(input.generationDefaults) ? { ...input.generationDefaults } : input.generationDefaults;
  const brokenEntities = new Set<number>();

  for (const issue of structural) {
    const tokens = pointerTokens(issue.path);
    const [top, second, third, fourth] = tokens;
    if (top === 'generationDefaults') {
      if (second === undefined || !isObject(generationDefaults)) {
        generationDefaults = undefined;
        broken.add(pointer('generationDefaults'));
      } else {
        delete generationDefaults[second];
        broken.add(pointer('generationDefaults', second));
      }
      continue;
    }
    if (top !== 'entities') continue; // formatVersion, metadata, unknown top-level properties: nothing semantic
    const index = Number(second);
    if (second === undefined || !Number.isInteger(index) || index >= entities.length) return undefined;
    const entity = entityAt(index);
    if (!entity || third === undefined || third === 'id' || (third === 'fields' && (fourth === undefined || !Array.isArray(entity.fields)))) {
      brokenEntities.add(index);
      continue;
    }
    if (third === 'fields') {
      const fieldIndex = Number(fourth);
      const fields = entity.fields as unknown[];
      if (!Number.isInteger(fieldIndex) || fieldIndex >= fields.length) {
        brokenEntities.add(index);
        continue;
      }
      repairField(fields, fieldIndex, tokens[4], opaque);
      const property = tokens[4] === undefined || tokens[4] === 'id' || tokens[4] === 'type' ? [] : [tokens[4]];
      broken.add(pointer('entities', index, 'fields', fieldIndex, ...property));
    } else if (third === 'generation' && fourth !== undefined && isObject(entity.generation)) {
      entity.generation = { ...entity.generation };
      delete (entity.generation as Record<string, unknown>)[fourth];
      broken.add(pointer('entities', index, 'generation', fourth));
    } else if (third === 'primaryKey' || third === 'uniqueKeys' || third === 'indexes') {
      // An empty list: nothing to check, and no "has no primaryKey" warning for a key that is there.
      entity[third] = [];
      broken.add(pointer('entities', index, third));
    } else {
      // label, description, generation as a whole, or an unknown property: none is needed to check the rest.
      delete entity[third];
      broken.add(pointer('entities', index, third));
    }
  }

  const opaqueEntityNames = new Set<string>();
  for (const index of brokenEntities) {
    const original = entities[index];
    // The name other parts use for it, valid or not ('' when it has none; see resolveTarget).
    const name = isObject(original) && typeof original.id === 'string' ? original.id : '';
    opaqueEntityNames.add(name);
    const standIn: Entity = { id: IDENTIFIER.test(name) ? name : `broken_entity_${index}`, fields: [] };
    opaque.add(standIn);
    entities[index] = standIn;
    broken.add(pointer('entities', index));
  }

  const config: Record<string, unknown> = { ...input, entities };
  if (generationDefaults === undefined) delete config.generationDefaults;
  else config.generationDefaults = generationDefaults;
  // The semantic checks rely on the config's shape: a repair that missed something checks nothing more.
  if (!matchesConfigSchema(config)) return undefined;
  return { config: config as unknown as SchemaConfig, opaque, opaqueEntityNames, broken: [...broken] };
}

/** Whether `path` is one of `broken` or lies under one of them. */
export function isUnderBroken(path: string, broken: readonly string[]): boolean {
  return broken.some((unit) => path === unit || path.startsWith(`${unit}/`));
}

// A broken id or type (or a field that is no object) makes the field opaque; any other broken
// property is removed and the rest of the field is checked as usual.
function repairField(fields: unknown[], fieldIndex: number, property: string | undefined, opaque: WeakSet<Entity | Field>): void {
  const original = fields[fieldIndex];
  if (opaque.has(original as Field)) return;
  if (property !== undefined && property !== 'id' && property !== 'type' && isObject(original)) {
    const copy = { ...original };
    delete copy[property];
    fields[fieldIndex] = copy;
    return;
  }
  const field = isObject(original) ? original : {};
  const id = typeof field.id === 'string' && IDENTIFIER.test(field.id) ? field.id : `broken_field_${fieldIndex}`;
  const standIn: Field = { id, type: 'json', nullable: field.nullable === true };
  opaque.add(standIn);
  fields[fieldIndex] = standIn;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
