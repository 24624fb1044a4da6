// Value makers of the `named` rule set (generator version 1's defaults by field id: `email`,
// `firstName`, `city`, `price`, `createdAt`…; which field gets which is rules/field-rules.ts).
// Field bounds (min, max, precision) win over a maker's range.
import type { Field, FieldType } from '../model/config-types.ts';
import type { EntityContext, ValueProgram } from './program.ts';
import type { RandomCursor, RandomStream } from './random.ts';
import type { LocaleWords } from './values/words.ts';
import { composerProgram, cursorProgram, fakerProgram } from './program.ts';
import { randomFloatProgram, randomIntProgram, rangeWithinDigits } from './values/numbers.ts';
import { afterFieldProgram, dateRangeProgram } from './values/date-programs.ts';

export type Make = (context: EntityContext, field: Field, stream: RandomStream) => ValueProgram;

const DATES: FieldType[] = ['date', 'datetime'];

export const words = (make: (cursor: RandomCursor, words: LocaleWords) => string): Make => (context, _field, stream) =>
  cursorProgram(stream, (cursor) => make(cursor, context.words));
export const composed = (method: string): Make => (context, _field, stream) => composerProgram(context, method, stream);
export const faker = (method: string): Make => (context, _field, stream) => fakerProgram(context, method, [], stream);

/** Integers or numbers in [min, max] (the field's own bounds win), `precision` decimals for numbers. */
export function numericDefault(field: Field, stream: RandomStream, min: number, max: number, precision: number): ValueProgram {
  let low = field.min ?? min;
  let high = field.max ?? max;
  if (low > high) [low, high] = field.min !== undefined ? [low, low + (max - min)] : [high - (max - min), high];
  [low, high] = rangeWithinDigits(field, low, high);
  return field.type === 'integer' ? randomIntProgram(stream, low, high) : randomFloatProgram(stream, low, high, field.precision ?? precision);
}

export const numeric = (min: number, max: number, precision: number): Make => (_context, field, stream) => numericDefault(field, stream, min, max, precision);
export const dates = (from: string, to: string): Make => (context, field, stream) =>
  dateRangeProgram(stream, field.type, { from, to }, context.referenceMs, context.plan.timezone, field.weekdaysOnly === true);

export function emailText(cursor: RandomCursor, words: LocaleWords): string {
  const first = words.firstNamesAscii[Math.floor(cursor.float() * words.firstNamesAscii.length)] || 'user';
  const last = words.lastNamesAscii[Math.floor(cursor.float() * words.lastNamesAscii.length)] || 'mail';
  const style = cursor.u32() % 4;
  const local =
    style === 0 ? `${first}.${last}` : style === 1 ? `${first}${last}${cursor.int(1, 99)}` : style === 2 ? `${first}_${last}` : `${first[0]}${last}${cursor.int(1, 999)}`;
  return `${local}@${cursor.pick(words.emailDomains)}`;
}

export function urlText(cursor: RandomCursor, words: LocaleWords): string {
  return `https://${cursor.pick(words.loremAscii)}-${cursor.pick(words.loremAscii)}.${cursor.pick(words.domainSuffixes)}`;
}

export function slugText(cursor: RandomCursor, words: LocaleWords): string {
  let slug = cursor.pick(words.loremAscii);
  for (let i = cursor.int(1, 3); i > 0; i--) slug += `-${cursor.pick(words.loremAscii)}`;
  return slug;
}

export function usernameText(cursor: RandomCursor, words: LocaleWords): string {
  const first = words.firstNamesAscii[Math.floor(cursor.float() * words.firstNamesAscii.length)] || 'user';
  const last = words.lastNamesAscii[Math.floor(cursor.float() * words.lastNamesAscii.length)] || '';
  return `${first}${cursor.pick(['_', '.', ''])}${last}${cursor.int(1, 999)}`;
}

export const createdAt = dates('-2y', 'now');
export const CREATED = ['createdat', 'created', 'createdon', 'datecreated', 'creationdate', 'insertedat'];

export const updatedAt: Make = (context, field, stream) => {
  const fallback = createdAt(context, field, stream);
  const index = context.entity.fields.findIndex(
    (other) => other !== field && DATES.includes(other.type) && CREATED.includes(normalizeId(other.id)) && other.generation?.strategy?.kind !== 'template' && other.generation?.strategy?.kind !== 'formula',
  );
  if (index < 0) return fallback;
  return afterFieldProgram(stream, field.type, index, context.referenceMs, context.plan.timezone, fallback);
};

export function normalizeId(id: string): string {
  return id.toLowerCase().replace(/[_-]/g, '');
}
