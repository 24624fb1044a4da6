// Checks of keys made of several fields: an entity's composite references (fields exist, as many as
// the target's, the target is a key of its entity in order, types match) and sequences counted
// `within` other fields of the row.
import type { CompositeReference, Entity } from '../model/config-types.ts';
import type { CheckContext } from './check-context.ts';
import { plannedRows } from './check-context.ts';
import { sameTypeFamily } from '../model/field-types/index.ts';
import { pointer } from '../model/config-issues.ts';
import { didYouMean } from '../suggest.ts';
import { isKeyInOrder, isKeySet, keyGroups } from '../model/composite-keys.ts';

export function checkCompositeReferences(context: CheckContext, entity: Entity, entityIndex: number): void {
  const claimed = new Map<string, number>();
  entity.references?.forEach((reference, i) => checkCompositeReference(context, entity, entityIndex, reference, i, claimed));
}

function checkCompositeReference(context: CheckContext, entity: Entity, entityIndex: number, reference: CompositeReference, i: number, claimed: Map<string, number>): void {
  const path = pointer('entities', entityIndex, 'references', i);
  const error = (at: string, message: string) => context.errors.push({ path: path + at, message });
  const name = `references[${i}] of entity "${entity.id}"`;
  const ids = entity.fields.map((field) => field.id);
  let sound = true;
  reference.fields.forEach((id, j) => {
    if (!ids.includes(id)) {
      error(`/fields/${j}`, `${name} names unknown field "${id}"${didYouMean(id, ids)}; use one of: ${ids.join(', ')}`);
      sound = false;
    } else if (reference.fields.indexOf(id) < j) {
      error(`/fields/${j}`, `${name} lists "${id}" twice; remove the duplicate`);
      sound = false;
    } else if (claimed.has(id)) {
      error(`/fields/${j}`, `field "${id}" is already part of references[${claimed.get(id)}] of entity "${entity.id}"; a field takes its value from one composite reference`);
      sound = false;
    } else claimed.set(id, i);
  });
  const found = context.entities.get(reference.entity);
  if (!found) {
    if (context.opaqueEntityIds.has(reference.entity) || context.opaqueEntityIds.has('')) return;
    const entities = [...context.entities.keys()];
    error('/entity', `entity "${reference.entity}" does not exist${didYouMean(reference.entity, entities)}; use one of: ${entities.join(', ')}`);
    return;
  }
  const target = found.entity;
  if (target.id === entity.id) {
    // A self reference is filled once every row exists, through nullable fields only.
    const required = reference.fields.filter((id) => entity.fields.find((field) => field.id === id)?.nullable !== true);
    if (required.length) {
      error('/entity', `${name} points at its own entity, which is filled once every row exists, so its fields must be nullable; make ${required.join(', ')} nullable`);
      return;
    }
  }
  if (reference.targetFields.length !== reference.fields.length) {
    error('/targetFields', `${name} has ${reference.fields.length} fields but ${reference.targetFields.length} targetFields; give one target field per field, in the same order`);
    sound = false;
  }
  const targetIds = target.fields.map((field) => field.id);
  reference.targetFields.forEach((id, j) => {
    if (!targetIds.includes(id)) {
      error(`/targetFields/${j}`, `entity "${target.id}" has no field "${id}"${didYouMean(id, targetIds)}; use one of: ${targetIds.join(', ')}`);
      sound = false;
    }
  });
  if (!sound) return;
  // set-null on delete or on update (as on a one-field reference) writes null into every field.
  for (const [action, when] of [['onDelete', 'the referenced row is deleted'], ['onUpdate', 'the referenced key changes']] as const) {
    if (reference[action] !== 'set-null') continue;
    const required = reference.fields.filter((id) => entity.fields.find((field) => field.id === id)?.nullable !== true);
    if (required.length) {
      error(
        `/${action}`,
        `${name} sets its fields to null when ${when}, but ${required.join(', ')} ${required.length === 1 ? 'is' : 'are'} not nullable; make ${required.length === 1 ? 'it' : 'them'} nullable, or use "restrict" or "cascade"`,
      );
    }
  }
  if (!isKeyInOrder(target, reference.targetFields)) {
    const inOrder = keyGroups(target).find((key) => isKeySet({ ...target, primaryKey: key, uniqueKeys: [], indexes: [] }, reference.targetFields));
    error(
      '/targetFields',
      inOrder
        ? `targetFields (${reference.targetFields.join(', ')}) of ${name} are a key of "${target.id}" in another order; list them as the key does: ${JSON.stringify(inOrder)} (and fields to match)`
        : `targetFields (${reference.targetFields.join(', ')}) of ${name} are neither the primary key nor a unique key of "${target.id}"; ` +
            `add ${JSON.stringify(reference.targetFields)} to the uniqueKeys of "${target.id}"`,
    );
  }
  reference.fields.forEach((id, j) => {
    const fieldIndex = ids.indexOf(id);
    const field = entity.fields[fieldIndex]!;
    const targetField = target.fields.find((candidate) => candidate.id === reference.targetFields[j])!;
    if (!sameTypeFamily(field.type, targetField.type)) {
      context.errors.push({
        path: pointer('entities', entityIndex, 'fields', fieldIndex, 'type'),
        message: `${entity.id}.${id} is ${field.type} but the field it references through ${name}, ${target.id}.${targetField.id}, is ${targetField.type}; change ${entity.id}.${id} to "${targetField.type}"`,
      });
    }
    const strategy = field.generation?.strategy;
    if (strategy && !field.references) {
      context.warnings.push({
        path: pointer('entities', entityIndex, 'fields', fieldIndex, 'generation', 'strategy'),
        message: `${entity.id}.${id} takes its values from ${target.id} through ${name}; its "${strategy.kind}" strategy is not used, remove it`,
      });
    }
  });
  const fanOut = reference.fanOut;
  if (fanOut?.kind === 'bounded' && fanOut.min > fanOut.max) error('/fanOut/max', `fanOut min (${fanOut.min}) of ${name} is greater than its max (${fanOut.max}); make min ≤ max`);
  if (fanOut && fanOut.kind !== 'uniform' && (reference.relation === 'one-to-one' || reference.pick === 'sequential')) {
    error('/fanOut/kind', `fanOut "${fanOut.kind}" of ${name} cannot apply with ${reference.relation === 'one-to-one' ? 'a one-to-one relation' : 'sequential picks'}; remove the fanOut or make the reference a random many-to-one one`);
  }
  if (reference.relation === 'one-to-one') {
    const rows = plannedRows(context, entity).max;
    const parents = plannedRows(context, target).min;
    if (rows > parents) {
      context.warnings.push({
        path: `${path}/relation`,
        message: `one-to-one ${name} → ${target.id}: "${entity.id}" plans up to ${rows} rows but "${target.id}" may have only ${parents}; "${entity.id}" will get fewer rows`,
      });
    }
  }
}

/** `within` of a sequence: other fields of the same entity, each named once. */
export function checkSequenceWithin(context: CheckContext, entity: Entity, fieldId: string, within: readonly string[], path: string): void {
  const ids = entity.fields.map((field) => field.id);
  within.forEach((id, j) => {
    const at = `${path}/within/${j}`;
    if (id === fieldId) context.errors.push({ path: at, message: `sequence of ${entity.id}.${fieldId} counts within itself; name the fields that group its rows (e.g. the parent reference)` });
    else if (!ids.includes(id)) context.errors.push({ path: at, message: `within names unknown field "${id}" of entity "${entity.id}"${didYouMean(id, ids)}; use one of: ${ids.filter((other) => other !== fieldId).join(', ')}` });
    else if (within.indexOf(id) < j) context.errors.push({ path: at, message: `within lists "${id}" twice; remove the duplicate` });
  });
}
