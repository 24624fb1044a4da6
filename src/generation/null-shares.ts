// Nulls in nullable columns (generator version 4): a nullable field made by default (no strategy,
// no emptyRate of its own) is left null in a share of rows that fits what it is: a middle name
// often, a second address line or a fax mostly, a deletion time nearly always, anything else in one
// row of ten. Keys, references, columns other entities reference, formulas and their inputs, and
// times (their lifecycle decides when they are empty) always get values.
import type { Entity, Field } from '../model/config-types.ts';
import type { GeneratorVersion } from './versions.ts';
import { hasFeature } from './versions.ts';
import { referenceTarget } from '../model/table-spec.ts';
import { normalizeId } from './rules/field-rule.ts';
import { lineInputs, linesSumOf, rowFormulaOf } from './rules/row-formulas.ts';

/** Share of nulls of a nullable column whose meaning says more than the default. */
export const NULL_SHARES: Readonly<Record<string, number>> = {
  middlename: 0.6,
  middleinitial: 0.6,
  suffix: 0.9,
  namesuffix: 0.9,
  nickname: 0.7,
  address2: 0.7,
  addressline2: 0.7,
  street2: 0.7,
  apartment: 0.7,
  suite: 0.7,
  fax: 0.8,
  faxnumber: 0.8,
  phone2: 0.7,
  secondaryphone: 0.7,
  mobile: 0.3,
  notes: 0.5,
  note: 0.5,
  comment: 0.5,
  comments: 0.5,
  remarks: 0.5,
  instructions: 0.6,
  website: 0.4,
  homepage: 0.4,
  deletedat: 0.9,
  deletedon: 0.9,
  archivedat: 0.9,
  removedat: 0.9,
};

/** Share of nulls of any other nullable column made by default. */
export const DEFAULT_NULL_SHARE = 0.1;

const TIMES = new Set(['date', 'datetime', 'time']);

/** Whether another field of the row or another entity reads this one (formulas by name, references). */
function readByOthers(entity: Entity, entities: readonly Entity[], field: Field): boolean {
  const index = entity.fields.indexOf(field);
  if (entity.fields.some((other) => other !== field && rowFormulaOf(entity, other)?.terms.some((term) => term.index === index))) return true;
  // A line of a parent's lines sum (an invoice line's quantity and unit price).
  for (const parent of entities) {
    for (const total of parent.fields) {
      const sum = parent !== entity ? linesSumOf(parent, total, entities) : undefined;
      if (sum?.child === entity.id && lineInputs(sum.line).includes(index)) return true;
    }
  }
  return entities.some((other) => other.fields.some((candidate) => {
    const target = referenceTarget(candidate);
    return target?.entity === entity.id && target.field === field.id;
  }));
}

/** The share of rows a field of `version` is left null in by default (0: never). */
export function defaultNullShare(version: GeneratorVersion, entity: Entity, entities: readonly Entity[], field: Field): number {
  if (!hasFeature(version, 'nullShares') || !field.nullable) return 0;
  if (field.generation?.strategy || field.generation?.emptyRate !== undefined || referenceTarget(field)) return 0;
  const keys = [entity.primaryKey ?? [], ...(entity.uniqueKeys ?? []), ...(entity.indexes ?? []).filter((index) => index.unique).map((index) => index.fields)];
  if (keys.some((key) => key.includes(field.id)) || field.generation?.uniqueValues) return 0;
  const share = NULL_SHARES[normalizeId(field.id)];
  // Times are left to their lifecycle unless their name says they are mostly empty (`deleted_at`).
  if (TIMES.has(field.type) && share === undefined) return 0;
  if (rowFormulaOf(entity, field) || linesSumOf(entity, field, entities) || readByOthers(entity, entities, field)) return 0;
  return share ?? DEFAULT_NULL_SHARE;
}
