// Names of a row's referenced rows, as formulas (`product.price`) and dateRange `after`
// (`customer.createdAt`) write them: a reference field's id, that id without a trailing `Id`/`_id`,
// or the referenced entity's id when one reference field alone points at it.
import type { Entity, Field } from '../model/config-types.ts';
import { referenceTarget } from '../model/table-spec.ts';
import { didYouMean } from '../suggest.ts';

export interface RowReference {
  /** The reference field of the row (holds the parent's key). */
  field: Field;
  /** The referenced entity and key field. */
  target: { entity: string; field: string };
}

export type ResolvedReference = { ok: true; reference: RowReference } | { ok: false; message: string };

/** The names a reference field answers to. */
function namesOf(field: Field, target: { entity: string }, soleReferenceTo: boolean): string[] {
  const names = [field.id];
  const stripped = field.id.replace(/(?:_id|Id|ID)$/, '');
  if (stripped !== field.id && stripped.length > 0) names.push(stripped);
  if (soleReferenceTo) names.push(target.entity);
  return names;
}

/** The reference fields of an entity and their names. */
export function rowReferences(entity: Entity): { reference: RowReference; names: string[] }[] {
  const references = entity.fields.flatMap((field) => {
    const target = referenceTarget(field);
    return target ? [{ field, target: { entity: target.entity, field: target.field } }] : [];
  });
  return references.map((reference) => ({
    reference,
    names: namesOf(reference.field, reference.target, references.filter((other) => other.target.entity === reference.target.entity).length === 1),
  }));
}

/** The reference a name stands for in `entity`, or why none does. */
export function resolveRowReference(entity: Entity, name: string): ResolvedReference {
  const all = rowReferences(entity);
  const exact = all.find((candidate) => candidate.reference.field.id === name);
  if (exact) return { ok: true, reference: exact.reference };
  const matches = all.filter((candidate) => candidate.names.includes(name));
  if (matches.length === 1) return { ok: true, reference: matches[0]!.reference };
  if (matches.length > 1) {
    return { ok: false, message: `"${name}" names several references of entity "${entity.id}" (${matches.map((m) => m.reference.field.id).join(', ')}); use the reference field's id` };
  }
  const known = [...new Set(all.flatMap((candidate) => candidate.names))];
  return {
    ok: false,
    message: known.length
      ? `"${name}" names no reference of entity "${entity.id}"${didYouMean(name, known)}; use one of: ${known.join(', ')}`
      : `"${name}" names no reference: entity "${entity.id}" has no reference fields`,
  };
}
