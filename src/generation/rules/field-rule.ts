// What a field-meaning rule is: the names it matches, the context and types it needs, its value
// maker per rule set, and the audit check that proves it. The table itself is field-rules.ts; which
// rule a field gets is choose-rule.ts, asked by both the generator and the coherence report.
import type { Entity, Field, FieldType } from '../../model/config-types.ts';
import type { EntityContext, ValueProgram } from '../program.ts';
import type { RandomStream } from '../random.ts';
import type { GeneratorVersion, RuleSetName } from '../versions.ts';
import type { Place } from '../coherence/places.ts';

/** Rule sets in the order they were introduced: a rule's `also` takes effect from its set on. */
export const RULE_SETS: readonly RuleSetName[] = ['named', 'coherent', 'meaning', 'context'];

/**
 * Makes the program of a field. `next` makes the program the field would get without this rule's
 * set (the next set's rule, else the type's plain default): time rules fall back to it on rows
 * whose earlier side is missing. Undefined: the rule does not apply after all; the next one is tried.
 */
export type RuleMaker = (context: EntityContext, field: Field, stream: RandomStream, next: () => ValueProgram) => ValueProgram | undefined;

/** Where a field is: what context predicates of rules look at. */
export interface RuleScope {
  entity: Entity;
  /** Every entity of the config. */
  entities: readonly Entity[];
  /** Reference columns of the entity filled after every row exists. */
  deferred: readonly string[];
  version: GeneratorVersion;
}

/** The check the coherence report runs for the fields a rule made (report.ts). */
export type RuleAudit =
  | { kind: 'names-in-email' }
  /** `of`: the reference value the field shows; `phone`: compared by calling (and area) code; `postal`: only where the reference data has postal codes. */
  | { kind: 'place-in-reference'; of: (place: Place) => string | undefined; phone?: boolean; postal?: boolean }
  | { kind: 'time-pair-ordered' }
  | { kind: 'child-after-parent' }
  /** The field equals the arithmetic its row's fields state (row-formulas.ts), to the cent. */
  | { kind: 'row-formula' }
  /** A parent's field equals the sum of its children's lines (row-formulas.ts linesSumOf), to the cent. */
  | { kind: 'lines-sum' }
  /** Version 4's lifecycle of a date column (rules/lifecycles.ts): its earlier columns, status, parents, window and the reference date. */
  | { kind: 'lifecycle' }
  /** Version 5: the value is a word of its kind (context-makers.ts `check`: a genre, a pet name, a name ending as its organisation's). */
  | { kind: 'in-vocabulary'; check: (entity: Entity, entities: readonly Entity[], field: Field) => { against: string; holds: (value: string) => boolean } | undefined }
  /** Version 5: a website, domain or email holds the domain of its row's company name, or of the company its reference points at. */
  | { kind: 'from-company' };

export interface FieldRule {
  /** Stable id, counted by the report and listed in docs/field-rules.md (`person.email`, `place.city`). */
  id: string;
  /** What the rule makes, one line (docs/field-rules.md). */
  what: string;
  /** Field ids matched whole, normalised (case, `_` and `-` ignored): `emailaddress`. */
  names?: readonly string[];
  /** Names matched at the end of a longer id too: `email` matches `contactEmail`, `billing_email`. */
  endings?: readonly string[];
  /** Word parts (snake or camel case): the id's first word is one of these and more words follow (`is_active`, `hasChildren`). */
  firstWords?: readonly string[];
  /** Word parts: the id's last word is one of these and more words precede it (`unit_price`, `durationMs`). */
  lastWords?: readonly string[];
  /** Formats of `string` fields the rule makes whatever their id (`format: email`). */
  formats?: readonly string[];
  /** Table context: the rule applies only where this holds (a time pair's start exists, a parent has a created time). */
  when?: (scope: RuleScope, field: Field) => boolean;
  /** Field types it applies to. */
  types: readonly FieldType[];
  /** What else a field must be (an enum with a female and a male value). */
  fits?: (field: Field) => boolean;
  /** Consulted only when no rule of any set of the version matched by context, format or name (text of no known meaning). */
  fallback?: boolean;
  /** What the rule gained in a later set: names, endings and types it matches from that set on (earlier sets kept matching without them). */
  also?: { set: RuleSetName; names?: readonly string[]; endings?: readonly string[]; types?: readonly FieldType[] };
  /** Value maker per rule set: the rule belongs to the sets it has a maker for. */
  make: Partial<Record<RuleSetName, RuleMaker>>;
  audit?: RuleAudit;
}

/** The id without case, `_` and `-`: how rules match names. */
export function normalizeId(id: string): string {
  return id.toLowerCase().replace(/[_-]/g, '');
}

/** Words of an id, lower-case: `validTo` → valid, to; `end_date` → end, date; `durationMS` → duration, ms. */
export function idWords(id: string): string[] {
  return id
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[\s_-]+/)
    .filter(Boolean)
    .map((word) => word.toLowerCase());
}

/** How a rule matches in one set: its names, endings and types with what it gained by then. */
export interface RuleMatch {
  names: readonly string[];
  endings: readonly string[];
  types: readonly FieldType[];
}

export function ruleMatch(rule: FieldRule, set: RuleSetName): RuleMatch {
  const gained = rule.also && RULE_SETS.indexOf(set) >= RULE_SETS.indexOf(rule.also.set) ? rule.also : undefined;
  return {
    names: [...(rule.names ?? []), ...(gained?.names ?? [])],
    endings: [...(rule.endings ?? []), ...(gained?.endings ?? [])],
    types: [...rule.types, ...(gained?.types ?? [])],
  };
}
