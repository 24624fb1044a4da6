// Which fields of referenced rows an entity's programs read (formulas' `reference.field`, dateRange
// `after`): the generator keeps those columns of the parents by row, with a key → row index.
import type { Entity, Field } from '../../model/config-types.ts';
import type { RowReference } from '../row-references.ts';
import { resolveRowReference } from '../row-references.ts';
import { checkFormula } from './check-formula.ts';
import { parseFormula } from './parse-formula.ts';

export interface ParentRead {
  reference: RowReference;
  /** Id of the parent's field that is read. */
  field: string;
}

/** The parent fields the fields of `entity` read (unresolvable names are the validator's to report). */
export function parentReads(entity: Entity, entityById: (id: string) => Entity | undefined): ParentRead[] {
  const reads: ParentRead[] = [];
  for (const field of entity.fields) reads.push(...fieldParentReads(entity, field, entityById));
  return reads;
}

export function fieldParentReads(entity: Entity, field: Field, entityById: (id: string) => Entity | undefined): ParentRead[] {
  const strategy = field.generation?.strategy;
  if (strategy?.kind === 'formula') {
    const parsed = parseFormula(strategy.expression);
    if (!parsed.ok) return [];
    const checked = checkFormula(parsed.node, { entity, field, entityById });
    return [...checked.uses.members.values()].map((member) => ({ reference: member.reference, field: member.field.id }));
  }
  if (strategy?.kind === 'dateRange' && strategy.after) {
    const [name = '', parentField = ''] = strategy.after.split('.');
    const resolved = resolveRowReference(entity, name);
    return resolved.ok ? [{ reference: resolved.reference, field: parentField }] : [];
  }
  return [];
}
