// Value makers of the `coherent` rule set (generator versions 2 and 3; which field gets which is
// rules/field-rules.ts). Fields of one row share the row's person (names, email, username, gender)
// and place (country to time zone); end fields of time pairs follow their start; child times
// follow their parent's.
import type { Field } from '../../model/config-types.ts';
import type { EntityContext, ValueProgram } from '../program.ts';
import { DRAWS_PER_ATTEMPT, composerProgram, cursorProgram } from '../program.ts';
import { RandomCursor, type RandomStream } from '../random.ts';
import { genderSource, rowPerson, personEmail, personUsername, type Person } from './person.ts';
import type { RowValue } from '../../model/row-value.ts';
import { rowPlace, placePhone, type Place } from './places.ts';
import { englishParagraph, englishSentence, productName, shortPhrase, tagsText, textWords, titleText, twoWordName, type TextWords } from './text.ts';
import { laterProgram, normalizeId, pairStart, parentTimeLink, parentTimeLookup } from './time.ts';

export type Make = (context: EntityContext, field: Field, stream: RandomStream) => ValueProgram | undefined;

/** A program of the row's person or place and a cursor of the field's own stream (reset per row and attempt). */
function rowProgram<T>(
  of: (context: EntityContext) => (row: number, attempt?: number, values?: readonly RowValue[]) => T,
  make: (subject: T, cursor: RandomCursor, attempt: number, context: EntityContext) => unknown,
  ownRetries = false,
  deps: (context: EntityContext) => number[] = () => [],
): Make {
  return (context, _field, stream) => {
    const subject = of(context);
    const cursor = new RandomCursor(stream);
    const needs = deps(context);
    // A unique field whose value was taken retries with another person or place (that row's field
    // then leaves the row's), unless the program makes retries differ itself (emails add digits).
    return {
      at: (row, values, attempt) => make(subject(row, ownRetries ? 0 : attempt, values), cursor.reset(row, attempt * DRAWS_PER_ATTEMPT), attempt, context),
      ...(needs.length > 0 ? { deps: needs } : {}),
    };
  };
}
/** A person's fields read the gender field when a strategy sets it. */
const personDeps = (context: EntityContext) => {
  const gender = genderSource(context);
  return gender >= 0 ? [gender] : [];
};
export const person = (make: (person: Person, cursor: RandomCursor, attempt: number, context: EntityContext) => unknown, ownRetries = false) =>
  rowProgram(rowPerson, make, ownRetries, personDeps);
export const place = (make: (place: Place) => unknown): Make => rowProgram(rowPlace, (subject) => make(subject));
export const english = (make: (words: TextWords, cursor: RandomCursor, field: Field) => string): Make => (context, field, stream) => {
  const words = textWords(context);
  const cursor = new RandomCursor(stream);
  return { at: (row, _values, attempt) => make(words, cursor.reset(row, attempt * DRAWS_PER_ATTEMPT), field) };
};

export const email = person((subject, cursor, attempt, context) => personEmail(subject, cursor, context.words.emailDomains, attempt), true);
export const phone = rowProgram(rowPlace, (subject, cursor) => placePhone(subject, cursor), true);
export const fullName = person((subject) => `${subject.first} ${subject.last}`);
export const username = person((p, c, attempt) => personUsername(p, c, attempt), true);
/** The row's place's postal code where the reference data has one, else one of the locale's pattern. */
export const postalCode: Make = (context, field, stream) => {
  const zip = composerProgram(context, 'location.zipCode', stream);
  const of = rowPlace(context);
  return { at: (row, values, attempt) => of(row, attempt).postalCode ?? zip.at(row, values, attempt) };
};
/** Text of no known meaning: English-like paragraphs for `text`, a short phrase for strings (version 3: the locale's own words where it has them). */
export const englishText: Make = (context, field, stream) => {
  const words = textWords(context);
  if (field.type === 'text') return cursorProgram(stream, (cursor) => englishParagraph(words, cursor, cursor.int(1, 4)));
  return cursorProgram(stream, (cursor) => shortPhrase(words, cursor));
};
export const prose = english((words, cursor, field) => (field.type === 'text' ? englishParagraph(words, cursor, cursor.int(2, 5)) : englishSentence(words, cursor)));

/** Entities whose rows are people, companies or products (by id, singular or plural): what a bare `name` is. */
const PERSON_ENTITIES = ['user', 'people', 'person', 'customer', 'author', 'employee', 'member', 'contact', 'student', 'teacher', 'patient', 'client', 'staff', 'driver', 'player', 'profile', 'subscriber', 'buyer', 'seller', 'guest', 'visitor', 'candidate', 'applicant', 'owner', 'manager', 'agent'];
const COMPANY_ENTITIES = ['compan', 'organization', 'organisation', 'org', 'vendor', 'supplier', 'brand', 'manufacturer', 'business', 'merchant', 'publisher', 'employer', 'partner', 'tenant'];
const PRODUCT_ENTITIES = ['product', 'item', 'good', 'sku', 'article', 'merchandise', 'variant', 'listing'];

/** A product name (`Rustic Wooden Chair`). */
export const productNameText = english((w, c) => productName(w, c));
/** Comma-separated nouns. */
export const tags = english((w, c) => tagsText(w, c));
/** An English-like headline. */
export const title = english((w, c) => titleText(w, c));

/** A bare `name`: a person's full name (people-like entities, or rows with other person fields), a company name, a product name, else two words. */
export const entityName: Make = (context, field, stream) => {
  const entity = normalizeId(context.entity.id);
  const personFields = context.entity.fields.some((other) => other !== field && !other.generation?.strategy && PERSON_IDS.has(normalizeId(other.id)));
  if (personFields || PERSON_ENTITIES.some((word) => entity.includes(word))) return fullName(context, field, stream);
  if (COMPANY_ENTITIES.some((word) => entity.includes(word))) return composerProgram(context, 'company.name', stream);
  if (PRODUCT_ENTITIES.some((word) => entity.includes(word))) return productNameText(context, field, stream);
  return english((w, c) => twoWordName(w, c))(context, field, stream);
};

const PERSON_IDS = new Set(['firstname', 'givenname', 'forename', 'lastname', 'surname', 'familyname', 'email', 'emailaddress', 'username', 'gender', 'sex']);

const FEMALE = /^(f|female|woman|w|girl|femme|weiblich)$/i;
const MALE = /^(m|male|man|boy|homme|männlich)$/i;

const femaleMale = (field: Field) => {
  const values = field.values ?? [];
  return { female: values.find((value) => FEMALE.test(String(value))), male: values.find((value) => MALE.test(String(value))) };
};

/** Whether an enum field has a value meaning female and one meaning male (then it shows the row's person's sex). */
export function hasFemaleAndMale(field: Field): boolean {
  const { female, male } = femaleMale(field);
  return female !== undefined && male !== undefined;
}

/** The row's person's sex: `female` or `male`, or an enum's values that mean them. */
export const sex: Make = (context, field, stream) => {
  if (field.type !== 'enum') return person((p) => p.sex)(context, field, stream);
  const { female, male } = femaleMale(field);
  if (female === undefined || male === undefined) return undefined;
  return { ...person((p) => (p.sex === 'female' ? female : male))(context, field, stream)!, typed: true };
};

const timeCommon = (context: EntityContext, field: Field, stream: RandomStream) => ({
  stream,
  type: field.type,
  referenceMs: context.referenceMs,
  zone: context.plan.timezone,
  weekdaysOnly: field.weekdaysOnly === true,
});

/** The end of a start/end pair: after its start (at least 30 days' room); `fallback` where the start is null. */
export function pairEnd(context: EntityContext, field: Field, stream: RandomStream, fallback: () => ValueProgram): ValueProgram | undefined {
  const start = pairStart(context.entity, field);
  if (start < 0) return undefined;
  return laterProgram({ ...timeCommon(context, field, stream), earlier: (_row, values) => values[start], deps: [start], minSpanDays: 30, fallback: fallback() });
}

/** A child's time: after its referenced parent's created-like time; `fallback` where the reference names no row. */
export function afterParent(context: EntityContext, field: Field, stream: RandomStream, fallback: () => ValueProgram): ValueProgram | undefined {
  const common = timeCommon(context, field, stream);
  const link = parentTimeLink(context.entity, field, context.entities, context.plan.deferredColumns);
  if (!link) return undefined;
  const keys = context.keyPool(link.parent, link.parentKey);
  const times = context.keyPool(link.parent, link.parentTime);
  if (!keys || !times) return undefined;
  const lookup = parentTimeLookup(keys, times);
  return laterProgram({ ...common, earlier: (_row, values) => lookup(values[link.reference]), deps: [link.reference], minSpanDays: 0, fallback: fallback() });
}
