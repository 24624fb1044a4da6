// Generator versions, one entry each: what the version changes, as named features that code asks
// for (never `version >= 3`), and the rule sets its fields without a strategy are matched against.
// The table is checked against the contract's GeneratorVersion enum when compiling: a version added
// to openapi.yaml without an entry here (or an entry the contract lacks) does not type-check.
import type { components } from '../contract.ts';

/** A generator version of the contract (openapi.yaml `GeneratorVersion`). */
export type GeneratorVersion = components['schemas']['GeneratorVersion'];

/** Rule sets of field meanings (rules/field-rules.ts): `named` is version 1's, `coherent` version 2's, `meaning` version 4's, `context` version 5's. */
export type RuleSetName = 'named' | 'coherent' | 'meaning' | 'context';

export interface VersionFeatures {
  /** One line on what the version changes, for help texts and docs. */
  changes: string;
  /** Rule sets a field without a strategy is matched against, in order: the first that has a rule for it wins. */
  rules: readonly RuleSetName[];
  /**
   * Fields of a row agree (names, email and username share the row's person; places come from
   * reference data), ends of start/end pairs follow their start, text is English-like words.
   */
  coherentRows: boolean;
  /** A child's created-like time follows its referenced parent's (the parent's times are kept for it). */
  childrenAfterParents: boolean;
  /** Text in the locale's own words where faker has enough of them (else English). */
  localeText: boolean;
  /** Places of FR, AU, FI and DE carry real postal codes (the US has them wherever places do). */
  postalCodesAbroad: boolean;
  /** Generations count how many rows hold each rule (generationAudit.coherence) without being asked to. */
  auditByDefault: boolean;
  /** Two references of a row that lead to one ancestor agree on it (reference-agreement.ts). */
  agreeingReferences: boolean;
  /** Nullable columns made by default are null in a share of rows that fits their meaning (null-shares.ts). */
  nullShares: boolean;
  /**
   * Lifecycles know planned and attended stages (rules/lifecycles.ts): a scheduled time, a check-in
   * and a check-out are stages of their own (scheduled ≤ checked in ≤ started ≤ ended ≤ checked out),
   * and the stages of one visit follow each other by minutes or hours, not days.
   */
  plannedStages: boolean;
}

/** Every generator version: same version + seed + config → same rows, forever. */
export const VERSIONS = {
  1: {
    changes: 'the original values',
    rules: ['named'],
    coherentRows: false,
    childrenAfterParents: false,
    localeText: false,
    postalCodesAbroad: false,
    auditByDefault: false,
    agreeingReferences: false,
    nullShares: false,
    plannedStages: false,
  },
  2: {
    changes: 'coherent rows: names in emails, places from reference data, ordered time pairs, children after parents',
    rules: ['coherent', 'named'],
    coherentRows: true,
    childrenAfterParents: true,
    localeText: false,
    postalCodesAbroad: false,
    auditByDefault: true,
    agreeingReferences: false,
    nullShares: false,
    plannedStages: false,
  },
  3: {
    changes: "version 2, with text in the locale's language and real postal codes of FR, AU, FI, DE",
    rules: ['coherent', 'named'],
    coherentRows: true,
    childrenAfterParents: true,
    localeText: true,
    postalCodesAbroad: true,
    auditByDefault: true,
    agreeingReferences: false,
    nullShares: false,
    plannedStages: false,
  },
  4: {
    changes: 'version 3, with meanings read from names, types and lengths: money, quantities, flags, durations, codes and identifiers, lifecycles of times, agreeing references, totals that add up',
    rules: ['meaning', 'coherent', 'named'],
    coherentRows: true,
    childrenAfterParents: true,
    localeText: true,
    postalCodesAbroad: true,
    auditByDefault: true,
    agreeingReferences: true,
    nullShares: true,
    plannedStages: false,
  },
  5: {
    changes:
      "version 4, with columns read by their table's context: genres, categories, tags, media and document types, pet, product and company names, websites, domains and work emails from the row's company, scheduled times before check-in, start, end and check-out",
    rules: ['context', 'meaning', 'coherent', 'named'],
    coherentRows: true,
    childrenAfterParents: true,
    localeText: true,
    postalCodesAbroad: true,
    auditByDefault: true,
    agreeingReferences: true,
    nullShares: true,
    plannedStages: true,
  },
} as const satisfies Record<GeneratorVersion, VersionFeatures>;

/** Every generator version, oldest first. */
export const GENERATOR_VERSIONS: readonly GeneratorVersion[] = (Object.keys(VERSIONS).map(Number) as GeneratorVersion[]).sort((a, b) => a - b);

/** The features of a version. */
export function versionFeatures(version: GeneratorVersion): VersionFeatures {
  return VERSIONS[version];
}

/** Whether a version has a feature (`hasFeature(plan.version, 'localeText')`). */
export function hasFeature(version: GeneratorVersion, feature: Exclude<keyof VersionFeatures, 'changes' | 'rules'>): boolean {
  return VERSIONS[version][feature];
}
