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
