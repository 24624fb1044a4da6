// Rules that are not one field's meaning but hold across a row's fields and references (generator
// version 4): each has an id the report counts and docs/field-rules.md lists, beside the field rules.
import type { VersionFeatures } from '../versions.ts';

export interface RowRule {
  /** Stable id, counted by the report (`ruleId`) and listed in docs/field-rules.md. */
  id: string;
  /** What the rule does, one line. */
  what: string;
  /** The version feature that turns it on (versions.ts). */
  feature: Exclude<keyof VersionFeatures, 'changes' | 'rules'>;
  /** The report's check (`generationAudit.coherence[].rule`). */
  audit: 'references-agree';
}

export const REFERENCES_AGREE: RowRule = {
  id: 'reference.agree',
  what:
    "two references of a row whose parents lead up to one ancestor through references of the same name (an invoice's `owner_id` and its visit's pet's `owner_id`) agree: the one with the longer way up is picked, the other among the parents under its ancestor (a plain random many-to-one reference, not part of a key; where no parent is under that ancestor, the row keeps its own pick and the report counts it)",
  feature: 'agreeingReferences',
  audit: 'references-agree',
};

/** Every rule across fields, in the order docs/field-rules.md lists them. */
export const ROW_RULES: readonly RowRule[] = [REFERENCES_AGREE];
