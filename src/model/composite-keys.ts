// Keys of several fields: an entity's key groups (primary key, unique keys, unique indexes) and its
// composite references (entity-level `references`), as every layer above reads them.
import type { CompositeReference, Entity } from './config-types.ts';

/** The field groups an entity keeps unique: its primary key, unique keys and unique indexes. */
export function keyGroups(entity: Entity): string[][] {
  const groups: string[][] = [];
  if (entity.primaryKey?.length) groups.push(entity.primaryKey);
  for (const key of entity.uniqueKeys ?? []) groups.push(key);
  for (const index of entity.indexes ?? []) if (index.unique) groups.push(index.fields);
  return groups;
}

/** Fields that are unique on their own: a one-field primary key, unique key or unique index. */
export function singleFieldKeys(entity: Entity): Set<string> {
  // A field listed twice is still one field (and reported as a duplicate by validation).
  return new Set(keyGroups(entity).flatMap((key) => (new Set(key).size === 1 ? [key[0]!] : [])));
}

/** Whether `fields` are exactly a key of `entity`, in the key's order. */
export function isKeyInOrder(entity: Entity, fields: readonly string[]): boolean {
  return keyGroups(entity).some((key) => key.length === fields.length && key.every((id, i) => id === fields[i]));
}

/** Whether the fields are a key of `entity` in any order. */
export function isKeySet(entity: Entity, fields: readonly string[]): boolean {
  const wanted = new Set(fields);
  return keyGroups(entity).some((key) => key.length === wanted.size && key.every((id) => wanted.has(id)));
}

/** The entity's composite references (`references`), none when it has none. */
export function compositeReferences(entity: Entity | undefined): CompositeReference[] {
  return entity?.references ?? [];
}

/**
 * The name each composite reference answers to in `populate`: its `id`, else its entity's id, else
 * (when a field or another reference has that name) `<entity>_<fields joined by _>`.
 */
export function compositeReferenceNames(entity: Entity): Map<string, CompositeReference> {
  const taken = new Set(entity.fields.map((field) => field.id));
  const names = new Map<string, CompositeReference>();
  for (const reference of compositeReferences(entity)) {
    let name = reference.id ?? reference.entity;
    if (taken.has(name) || names.has(name)) name = `${reference.entity}_${reference.fields.join('_')}`;
    if (taken.has(name) || names.has(name)) continue;
    names.set(name, reference);
  }
  return names;
}

/** The composite reference a field belongs to (the first one), if any. */
export function compositeReferenceOf(entity: Entity, fieldId: string): { reference: CompositeReference; index: number; position: number } | undefined {
  const references = compositeReferences(entity);
  for (let index = 0; index < references.length; index++) {
    const position = references[index]!.fields.indexOf(fieldId);
    if (position >= 0) return { reference: references[index]!, index, position };
  }
  return undefined;
}
