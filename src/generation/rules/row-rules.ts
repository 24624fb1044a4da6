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
  audit: 'references-agree' | 'null-share';
}

export const REFERENCES_AGREE: RowRule = {
  id: 'reference.agree',
  what:
    "two references of a row whose parents lead up to one ancestor through references of the same name (an invoice's `owner_id` and its visit's pet's `owner_id`) agree: the one with the longer way up is picked, the other among the parents under its ancestor (a plain random many-to-one reference, not part of a key, of an entity other than interactions such as `comments`, `likes`, `reviews`; where no parent is under that ancestor, the row keeps its own pick and the report counts it)",
  feature: 'agreeingReferences',
  audit: 'references-agree',
};

export const NULL_SHARE: RowRule = {
  id: 'null.share',
  what:
    'a nullable field made by default (no strategy, no `emptyRate`) is null in a share of rows by its name: `middle_name` 60%, `suffix` 90%, `address_line2`, `fax` 70–80%, `notes` 50%, `website` 40%, `deleted_at`, `archived_at` 90%, others 10%; never keys, references, columns other entities reference, formulas by name and their inputs, or other times (their lifecycle decides)',
  feature: 'nullShares',
  audit: 'null-share',
};

/** Every rule across fields, in the order docs/field-rules.md lists them. */
export const ROW_RULES: readonly RowRule[] = [REFERENCES_AGREE, NULL_SHARE];
