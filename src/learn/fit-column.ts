// Stage 2 of learning: a column's profile (aggregates read from the database) → the field's
// generation and what the privacy report says about it. Pure: no database, table-driven tests.
import type { Field, FieldGeneration } from '../model/config-types.ts';
import type { IdentifyingKind } from './identifying.ts';

/** Numbers with at most this many distinct values are learned as their values, not as quantiles. */
export const NUMERIC_CHOICES_MAX = 20;
/** Text with at most this many distinct values (each repeated) is a category. */
export const CATEGORY_MAX = 100;
/** Quantiles read per number or date column: 0%, 1%, …, 100%. */
export const QUANTILES = 101;
/** Decimals kept at most when a double column shows more. */
const MAX_DECIMALS = 6;

/** What the database answered about one column: aggregates and values held by at least k rows only. */
export interface ColumnProfile {
  /** Rows profiled (the table's, or its sample's). */
  rows: number;
  nonNull: number;
  distinct: number;
  /** Values with their counts, each held by at least `minCount` rows (a lookup: every value), most frequent first. */
  frequent?: { value: string | number | boolean; count: number }[];
  /** Order statistics equally spaced in probability, smallest first (numbers; dates as ISO text). */
  quantiles?: (number | string)[];
  /** Rows holding true (booleans). */
  trueCount?: number;
}

export interface ColumnFacts {
  field: Field;
  profile: ColumnProfile;
  minCount: number;
  /** Person, contact or free-text column: never copied. */
  identifying?: IdentifyingKind;
  /** A label column of a small lookup table: copied whole. */
  lookup?: boolean;
  /** The column is unique on its own (a unique key). */
  unique?: boolean;
}

export type CopyRule = 'aggregates' | 'min-count' | 'lookup' | 'never-copied' | 'not-learned';

/** One column of the privacy report: what was learned and which values were copied under which rule. */
export interface ColumnReport {
  table: string;
  column: string;
  learned: string;
  rule: CopyRule;
  /** Values copied into the config (min-count or lookup). */
  copied?: (string | number | boolean)[];
  /** Distinct values left out because fewer than minCount rows held them. */
  dropped?: number;
  nullShare?: number;
}

export interface FittedColumn {
  generation?: FieldGeneration;
  report: Omit<ColumnReport, 'table' | 'column'>;
}

const round = (value: number, digits = 4) => Math.round(value * 10 ** digits) / 10 ** digits;

/** The generation of a field from its profile; undefined generation keeps sds's own default. */
export function fitColumn(facts: ColumnFacts): FittedColumn {
  const { field, profile } = facts;
  const nullShare = profile.rows > 0 ? round(1 - profile.nonNull / profile.rows) : 0;
  const emptyRate = field.nullable && nullShare > 0 ? { emptyRate: nullShare } : {};
  const withNulls = (fitted: FittedColumn): FittedColumn => {
    const generation = fitted.generation || Object.keys(emptyRate).length ? { ...fitted.generation, ...emptyRate } : undefined;
    return { ...(generation && { generation }), report: { ...fitted.report, ...(nullShare > 0 && { nullShare }) } };
  };
  if (profile.nonNull === 0) return withNulls({ report: { learned: 'no values: kept sds’s generator', rule: 'not-learned' } });
  if (facts.identifying) return withNulls({ report: { learned: `${facts.identifying}: kept sds’s generator`, rule: 'never-copied' } });
  switch (field.type) {
    case 'integer':
    case 'number':
      return withNulls(fitNumber(facts));
    case 'date':
    case 'datetime':
      return withNulls(fitDate(facts));
    case 'boolean': {
      const trueRate = round((profile.trueCount ?? 0) / profile.nonNull);
      return withNulls({ generation: { strategy: { kind: 'randomBoolean', trueRate } }, report: { learned: `true in ${trueRate} of rows`, rule: 'aggregates' } });
    }
    case 'string':
    case 'text':
    case 'enum':
      return withNulls(fitCategory(facts));
    default:
      return withNulls({ report: { learned: `${field.type}: kept sds’s generator`, rule: 'not-learned' } });
  }
}

function fitNumber(facts: ColumnFacts): FittedColumn {
  const { field, profile } = facts;
  const integer = field.type === 'integer';
  if (profile.distinct <= NUMERIC_CHOICES_MAX && (profile.frequent?.length ?? 0) > 0) return choices(facts, 'values');
  const quantiles = (profile.quantiles ?? []).map(Number).filter(Number.isFinite);
  if (quantiles.length < 2) return { report: { learned: 'too few values: kept sds’s generator', rule: 'not-learned' } };
  const clamped = quantiles.map((value) => Math.min(field.max ?? Number.POSITIVE_INFINITY, Math.max(field.min ?? Number.NEGATIVE_INFINITY, value)));
  const [min, max] = [clamped[0]!, clamped.at(-1)!];
  const distribution = { kind: 'empirical' as const, quantiles: clamped as [number, number, ...number[]] };
  if (integer) {
    const [low, high] = [Math.ceil(min), Math.floor(max)];
    return { generation: { strategy: { kind: 'randomInt', min: low, max: Math.max(low, high), distribution } }, report: { learned: `integers ${low}–${high}, ${QUANTILES - 1}-quantile distribution`, rule: 'aggregates' } };
  }
  const observed = Math.min(MAX_DECIMALS, Math.max(0, ...quantiles.map(decimalsOf)));
  const precision = field.precision === undefined ? observed : Math.min(field.precision, observed);
  return {
    generation: { strategy: { kind: 'randomFloat', min, max, precision, distribution } },
    report: { learned: `numbers ${min}–${max} with ${precision} decimals, ${QUANTILES - 1}-quantile distribution`, rule: 'aggregates' },
  };
}

function fitDate(facts: ColumnFacts): FittedColumn {
  const quantiles = (facts.profile.quantiles ?? []).map(String);
  if (quantiles.length < 2) return { report: { learned: 'too few values: kept sds’s generator', rule: 'not-learned' } };
  return {
    generation: { strategy: { kind: 'dateRange', quantiles: quantiles as [string, string, ...string[]] } },
    report: { learned: `${facts.field.type}s ${quantiles[0]} to ${quantiles.at(-1)}, ${QUANTILES - 1}-quantile distribution`, rule: 'aggregates' },
  };
}

function fitCategory(facts: ColumnFacts): FittedColumn {
  const { profile } = facts;
  if (facts.lookup) return choices(facts, 'lookup labels');
  const repeated = profile.nonNull >= 2 * profile.distinct;
  if (profile.distinct > CATEGORY_MAX || !repeated || facts.unique) return { report: { learned: 'text with many distinct values: kept sds’s generator', rule: 'not-learned' } };
  if ((profile.frequent?.length ?? 0) === 0) return { report: { learned: `no value held by ${facts.minCount} rows: kept sds’s generator`, rule: 'min-count', dropped: profile.distinct } };
  return choices(facts, 'categories');
}

/** A weightedChoice of the values the database let out (held by ≥ minCount rows, or a lookup's labels). */
function choices(facts: ColumnFacts, what: string): FittedColumn {
  const frequent = facts.profile.frequent ?? [];
  const numeric = facts.field.type === 'integer' || facts.field.type === 'number';
  const choicesList = frequent.map(({ value, count }) => ({ value: numeric ? Number(value) : value, weight: count }));
  const copied = choicesList.map((choice) => choice.value);
  const dropped = facts.lookup ? 0 : Math.max(0, facts.profile.distinct - frequent.length);
  const unique = facts.lookup && (facts.unique || facts.profile.distinct === facts.profile.nonNull);
  const generation: FieldGeneration = { strategy: { kind: 'weightedChoice', choices: choicesList as [(typeof choicesList)[number], ...typeof choicesList] } };
  if (unique) generation.uniqueValues = true;
  return {
    generation,
    report: { learned: `${what}: ${copied.length} with their frequencies`, rule: facts.lookup ? 'lookup' : 'min-count', copied, ...(dropped > 0 && { dropped }) },
  };
}

function decimalsOf(value: number): number {
  if (Number.isInteger(value)) return 0;
  const text = String(Number(value.toPrecision(12)));
  const dot = text.indexOf('.');
  return dot < 0 || text.includes('e') ? 0 : text.length - dot - 1;
}
