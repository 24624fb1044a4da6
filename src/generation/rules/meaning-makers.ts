// Value makers of the `meaning` rule set (generator version 4; which field gets which is
// field-rules.ts): sizes that fit what a number means (a unit price has cents and is small, a
// salary is large, a quantity is mostly 1), flags in the column's own shape, durations in the unit
// its name states, codes that fit the column's length, and past-tense times that stay in the past.
// A field's own bounds (min, max) win: the makers decline and the field keeps version 3's value.
import { getCountryData, type TCountryCode } from 'countries-list';
import type { Field } from '../../model/config-types.ts';
import type { RandomCursor } from '../random.ts';
import type { RuleMaker } from './field-rule.ts';
import { cursorProgram } from '../program.ts';
import { place } from '../coherence/defaults.ts';
import { localeCountry, placesOf } from '../coherence/places.ts';
import { laterProgram, pairStart } from '../coherence/time.ts';
import { idWords } from './field-rule.ts';
import { roomOf } from './room.ts';

/** A number between low and high, uniform in its logarithm: as many values from 1 to 10 as from 10 to 100. */
function logUniform(cursor: RandomCursor, low: number, high: number): number {
  return Math.exp(Math.log(low) + cursor.float() * (Math.log(high) - Math.log(low)));
}

const cents = (value: number) => Math.round(value * 100) / 100;

/** A maker of numbers from a draw (whole numbers for integer fields); declines a field with its own bounds. */
const numbers =
  (draw: (cursor: RandomCursor, integer: boolean) => number): RuleMaker =>
  (_context, field, stream) => {
    if (field.min !== undefined || field.max !== undefined) return undefined;
    const integer = field.type === 'integer';
    // Draws are whole numbers or whole cents: for integers and decimals of 2+ places they are the stored value already (no rounding pass).
    const typed = integer || field.precision === undefined || field.precision >= 2;
    return cursorProgram(stream, (cursor) => draw(cursor, integer), typed);
  };

/** Unit and list prices: mostly under 50, ending in .99, .49, .95 or .00 (integer fields: whole units). */
export const unitPrice = numbers((cursor, integer) => {
  const whole = Math.floor(logUniform(cursor, 1, 250));
  if (integer) return whole;
  const ending = cursor.pick([0.99, 0.99, 0.99, 0.49, 0.95, 0]);
  return ending === 0 ? whole : cents(whole - 1 + ending);
});

/** Amounts, totals, costs, fees, balances: 2 to 2000, median about 60, with cents. */
export const amount = numbers((cursor, integer) => (integer ? Math.round(logUniform(cursor, 2, 2000)) : cents(logUniform(cursor, 2, 2000))));

/** Yearly salaries: 25 000 to 200 000 in steps of 500. */
export const salary = numbers((cursor) => Math.round(logUniform(cursor, 25_000, 200_000) / 500) * 500);

/** Quantities: small positive whole numbers, mostly 1. */
export const quantity = numbers((cursor) => {
  const u = cursor.float();
  if (u < 0.6) return 1;
  if (u < 0.8) return 2;
  if (u < 0.88) return 3;
  if (u < 0.95) return cursor.int(4, 5);
  if (u < 0.99) return cursor.int(6, 10);
  return cursor.int(11, 50);
});

/** Duration ranges by the unit a field's last word names. */
export const DURATION_UNITS: Record<string, [number, number]> = {
  ms: [2_000, 900_000],
  msec: [2_000, 900_000],
  millis: [2_000, 900_000],
  milliseconds: [2_000, 900_000],
  sec: [5, 7_200],
  secs: [5, 7_200],
  seconds: [5, 7_200],
  mins: [1, 240],
  minutes: [1, 240],
  hours: [1, 72],
  hrs: [1, 72],
  days: [1, 30],
  nights: [1, 14],
  weeks: [1, 12],
  months: [1, 24],
};

/** A duration in the unit of the field's name (log-uniform in its range; whole numbers but for number fields of a fine unit). */
export const duration: RuleMaker = (context, field, stream, next) => {
  const words = idWords(field.id);
  const range = DURATION_UNITS[words[words.length - 1]!];
  if (!range) return undefined;
  return numbers((cursor) => Math.max(range[0], Math.round(logUniform(cursor, range[0], range[1]))))(context, field, stream, next);
};

/** Flags that are usually on (`active`, `enabled`…) and usually off (`deleted`, `locked`…); others are even. */
const USUALLY_ON = new Set(['active', 'enabled', 'visible', 'verified', 'published', 'approved', 'available', 'valid', 'confirmed', 'subscribed']);
const USUALLY_OFF = new Set(['deleted', 'archived', 'locked', 'banned', 'blocked', 'disabled', 'suspended', 'hidden', 'expired', 'cancelled', 'canceled', 'removed']);

/** The share of rows whose flag is on, by the flag's last word. */
function onShare(field: Field): number {
  const word = idWords(field.id).at(-1) ?? '';
  return USUALLY_ON.has(word) ? 0.85 : USUALLY_OFF.has(word) ? 0.1 : 0.5;
}

/** Integer flags hold 0 or 1; one-character strings `Y` or `N`; other fields are not flags. */
export const flag: RuleMaker = (_context, field, stream) => {
  const share = onShare(field);
  if (field.type === 'integer') return cursorProgram(stream, (cursor) => (cursor.float() < share ? 1 : 0));
  if (field.type === 'string' && roomOf(field) === 1) return cursorProgram(stream, (cursor) => (cursor.float() < share ? 'Y' : 'N'));
  return undefined;
};

const alpha3 = new Map<string, string>();
/** ISO 3166 alpha-3 of an alpha-2 code (`US` → `USA`). */
function alpha3Of(code: string): string {
  let found = alpha3.get(code);
  if (found === undefined) alpha3.set(code, (found = getCountryData(code as TCountryCode)?.iso3 ?? code));
  return found;
}

/** The row's place's country as a code that fills the column: alpha-2 in 2 characters, alpha-3 in 3. */
export const countryCode: RuleMaker = (context, field, stream) =>
  roomOf(field) === 3 ? place((p) => alpha3Of(p.countryCode))(context, field, stream) : place((p) => p.countryCode)(context, field, stream);

/**
 * The row's place's state or province code in a column of 2 or 3 characters, where every place of
 * the locale's country has a code that fits (US `NY`, DE `SN`); elsewhere the field keeps version 3's value.
 */
export const stateCode: RuleMaker = (context, field, stream) => {
  const room = roomOf(field);
  const places = placesOf(localeCountry(context.plan.locale), context.version);
  if (places.length === 0 || places.some((p) => p.stateCode.length === 0 || p.stateCode.length > room)) return undefined;
  return place((p) => p.stateCode)(context, field, stream);
};

/** Words of a time that has happened: a participle (`ended`, `returned`, `paid`) or a birth or death. */
const PAST_WORDS = new Set(['paid', 'born', 'sent', 'done', 'built', 'made', 'died', 'death', 'birth', 'left', 'quit', 'sold', 'bought', 'won', 'lost']);
export function pastTense(id: string): boolean {
  return idWords(id).some((word) => (word.length > 3 && word.endsWith('ed')) || PAST_WORDS.has(word));
}

/** The past-tense end of a start/end pair (`returned_at` after `rented_at`): after its start and never after now. */
export const pastPairEnd: RuleMaker = (context, field, stream, next) => {
  const start = pairStart(context.entity, field);
  if (start < 0) return undefined;
  return laterProgram({
    stream,
    type: field.type,
    earlier: (_row, values) => values[start],
    deps: [start],
    referenceMs: context.referenceMs,
    zone: context.plan.timezone,
    weekdaysOnly: field.weekdaysOnly === true,
    minSpanDays: 0,
    fallback: next(),
  });
};

/** Words of a year that happened long ago (a founding), of a birth, else of recent activity (a release, a model year). */
const FOUNDING_YEAR = new Set(['founded', 'established', 'incorporated', 'built', 'opened', 'since', 'founding', 'construction', 'constructed', 'started', 'start']);
const BIRTH_YEAR = new Set(['birth', 'born']);

/** A year by what it dates: foundings 2–120 years back (most within decades), births 18–90 years back, others within the last 30 years. */
export const yearOf: RuleMaker = (context, field, stream, next) => {
  const words = idWords(field.id);
  const now = new Date(context.referenceMs).getUTCFullYear();
  const back: (cursor: RandomCursor) => number = words.some((word) => FOUNDING_YEAR.has(word))
    ? (cursor) => Math.round(logUniform(cursor, 2, 120))
    : words.some((word) => BIRTH_YEAR.has(word))
      ? (cursor) => cursor.int(18, 90)
      : (cursor) => Math.floor(logUniform(cursor, 1, 31)) - 1;
  return numbers((cursor) => now - back(cursor))(context, field, stream, next);
};

/** Counts and sizes of things (`fleet_size`, `room_count`, `num_items`): 1 to 500, most under 50; points 10 to 20 000. */
export const count = numbers((cursor) => Math.round(logUniform(cursor, 1, 500)));
export const points = numbers((cursor) => Math.round(logUniform(cursor, 10, 20_000)));

/** Children-like counts of a party (`children`, `infants`): 0 in 60% of rows, rarely over 2. */
const DEPENDENTS = new Set(['children', 'kids', 'infants', 'dependents', 'numchildren', 'childcount', 'numkids']);
/** Tables whose capacity is a few people (a room, a table, a vehicle); elsewhere a capacity is of a venue. */
const SMALL_PLACES = ['room', 'table', 'vehicle', 'car', 'cabin', 'suite', 'bed', 'seat', 'boat', 'tent', 'unit', 'apartment'];

/** People of a party or a place: adults and guests 1–4 (mostly 2), children 0–3 (mostly 0), a room's capacity 1–6, a venue's 10–500. */
export const people: RuleMaker = (context, field, stream, next) => {
  const id = field.id.toLowerCase().replace(/[_-]/g, '');
  if (DEPENDENTS.has(id)) return numbers((cursor) => pickWeighted(cursor, [0, 1, 2, 3], [60, 25, 12, 3]))(context, field, stream, next);
  if (id.includes('capacity') && !SMALL_PLACES.some((word) => context.entity.id.toLowerCase().includes(word))) return numbers((cursor) => Math.round(logUniform(cursor, 10, 500)))(context, field, stream, next);
  return numbers((cursor) => pickWeighted(cursor, [1, 2, 3, 4, 5, 6], [28, 45, 12, 10, 3, 2]))(context, field, stream, next);
};

function pickWeighted(cursor: RandomCursor, values: readonly number[], weights: readonly number[]): number {
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  let u = cursor.float() * total;
  for (let i = 0; i < values.length; i++) if ((u -= weights[i]!) < 0) return values[i]!;
  return values[values.length - 1]!;
}

/** Levels: a school grade 1–12, a floor 1–30 (mostly low), a semester 1–8, other levels and tiers 1–5. */
export const level: RuleMaker = (context, field, stream, next) => {
  const words = idWords(field.id);
  const has = (...names: string[]) => words.some((word) => names.includes(word));
  const range: [number, number] = has('grade') || words.join('') === 'yearlevel' ? [1, 12] : has('floor', 'storey', 'story') ? [1, 30] : has('semester', 'term') ? [1, 8] : [1, 5];
  return numbers((cursor) => (has('floor', 'storey', 'story') ? Math.min(range[1], Math.floor(logUniform(cursor, 1, range[1] + 1))) : cursor.int(range[0], range[1])))(context, field, stream, next);
};

/** A grade point average: 2.00 to 4.00, most above 3. */
export const gpa = numbers((cursor) => cents(2 + 2 * Math.sqrt(cursor.float())));

/** Course credits: 1 to 6, mostly 3. */
export const credits = numbers((cursor) => pickWeighted(cursor, [1, 2, 3, 4, 5, 6], [8, 12, 50, 20, 6, 4]));

/** Years of experience or tenure: 0 to 35, most under 10. */
export const yearsOf = numbers((cursor) => Math.floor(logUniform(cursor, 1, 36)) - 1);

/** Ranges of measures by the unit their name ends in (log-uniform within). */
export const MEASURE_UNITS: Record<string, [number, number]> = {
  kg: [0.2, 500],
  kgs: [0.2, 500],
  kilograms: [0.2, 500],
  g: [5, 5_000],
  grams: [5, 5_000],
  lb: [0.5, 1_000],
  lbs: [0.5, 1_000],
  pounds: [0.5, 1_000],
  oz: [0.5, 100],
  km: [1, 5_000],
  kilometers: [1, 5_000],
  kilometres: [1, 5_000],
  miles: [1, 3_000],
  mi: [1, 3_000],
  m: [0.5, 1_000],
  meters: [0.5, 1_000],
  metres: [0.5, 1_000],
  cm: [1, 300],
  mm: [1, 1_000],
  sqft: [200, 200_000],
  sqm: [20, 20_000],
  m2: [20, 20_000],
  liters: [0.5, 1_000],
  litres: [0.5, 1_000],
  ml: [5, 2_000],
  weight: [0.2, 100],
  distance: [1, 2_000],
  height: [1, 300],
  length: [1, 300],
  width: [1, 300],
  depth: [1, 300],
};
const TEMPERATURE_WORDS = new Set(['temp', 'temperature']);

/** A measure in the unit of its name (`weight_kg`, `distance_km`, `area_sqft`), a temperature in °C (−20 to 40) or °F (0 to 100). */
export const measure: RuleMaker = (context, field, stream, next) => {
  const words = idWords(field.id);
  const last = words[words.length - 1]!;
  if (words.some((word) => TEMPERATURE_WORDS.has(word))) {
    const [low, high] = last === 'f' || last === 'fahrenheit' ? [0, 100] : [-20, 40];
    return numbers((cursor, integer) => (integer ? cursor.int(low, high) : Math.round((low + cursor.float() * (high - low)) * 10) / 10))(context, field, stream, next);
  }
  const range = MEASURE_UNITS[last];
  if (!range) return undefined;
  return numbers((cursor, integer) => (integer ? Math.max(1, Math.round(logUniform(cursor, range[0], range[1]))) : cents(logUniform(cursor, range[0], range[1]))))(context, field, stream, next);
};

/** Words of a rate that is a price per period (`nightly_rate`, `hourly_rate`) and the range of that price. */
const PRICE_RATES: Record<string, [number, number]> = {
  hourly: [15, 150],
  hour: [15, 150],
  daily: [40, 400],
  day: [40, 400],
  nightly: [60, 600],
  night: [60, 600],
  room: [60, 600],
  weekly: [200, 2_000],
  week: [200, 2_000],
  monthly: [500, 5_000],
  month: [500, 5_000],
  base: [20, 500],
  flat: [20, 500],
};
const PERCENT_RATES = new Set(['interest', 'tax', 'vat', 'commission', 'apr', 'apy', 'discount', 'growth', 'churn', 'inflation']);

/** A rate: a price per period (`nightly_rate` 60–600), a percentage of money (`tax_rate` 1–25), a ratio 0–1, else a share 40–100 (`attendance_rate`). */
export const rate: RuleMaker = (context, field, stream, next) => {
  const words = idWords(field.id);
  const last = words[words.length - 1]!;
  const price = words.map((word) => PRICE_RATES[word]).find((range) => range !== undefined);
  if (price && last === 'rate') return numbers((cursor, integer) => (integer ? Math.round(logUniform(cursor, price[0], price[1])) : cents(logUniform(cursor, price[0], price[1]))))(context, field, stream, next);
  if (words.some((word) => PERCENT_RATES.has(word))) return numbers((cursor) => cents(logUniform(cursor, 1, 25)))(context, field, stream, next);
  if (words.includes('exchange')) return numbers((cursor) => Math.round(logUniform(cursor, 0.5, 2) * 10_000) / 10_000)(context, field, stream, next);
  if (last === 'ratio') return numbers((cursor, integer) => (integer ? cursor.int(0, 1) : cents(cursor.float())))(context, field, stream, next);
  return numbers((cursor) => cents(100 - 60 * cursor.float() ** 2))(context, field, stream, next);
};
