// Coherent defaults of generator version 2 and later for fields without a strategy, matched by field id (case,
// `_` and `-` ignored; ids ending in a listed name such as `contactEmail` or `billingCity` count too).
// Fields of one row share the row's person (names, email, username, gender) and place (country to
// time zone); end fields of time pairs follow their start; child times follow their parent's.
// Ids matched here win over version 1's named defaults; other ids keep version 1's (named-defaults.ts).
import type { Field, FieldType } from '../../model/config-types.ts';
import type { EntityContext, ValueProgram } from '../program.ts';
import { DRAWS_PER_ATTEMPT, composerProgram } from '../program.ts';
import { RandomCursor, type RandomStream } from '../random.ts';
import { genderSource, rowPerson, personEmail, personUsername, type Person } from './person.ts';
import type { RowValue } from '../../model/row-value.ts';
import { rowPlace, placePhone, type Place } from './places.ts';
import { englishParagraph, englishSentence, productName, tagsText, textWords, titleText, twoWordName, type TextWords } from './text.ts';
import { laterProgram, normalizeId, pairStart, parentTimeLink, parentTimeLookup } from './time.ts';

const TEXT: FieldType[] = ['string', 'text'];
const NUMBER: FieldType[] = ['number'];

type Make = (context: EntityContext, field: Field, stream: RandomStream) => ValueProgram | undefined;

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
const person = (make: (person: Person, cursor: RandomCursor, attempt: number, context: EntityContext) => unknown, ownRetries = false) =>
  rowProgram(rowPerson, make, ownRetries, personDeps);
const place = (make: (place: Place) => unknown): Make => rowProgram(rowPlace, (subject) => make(subject));
const english = (make: (words: TextWords, cursor: RandomCursor, field: Field) => string): Make => (context, field, stream) => {
  const words = textWords(context);
  const cursor = new RandomCursor(stream);
  return { at: (row, _values, attempt) => make(words, cursor.reset(row, attempt * DRAWS_PER_ATTEMPT), field) };
};

const email = person((subject, cursor, attempt, context) => personEmail(subject, cursor, context.words.emailDomains, attempt), true);
const phone = rowProgram(rowPlace, (subject, cursor) => placePhone(subject, cursor), true);
const fullName = person((subject) => `${subject.first} ${subject.last}`);
const prose = english((words, cursor, field) => (field.type === 'text' ? englishParagraph(words, cursor, cursor.int(2, 5)) : englishSentence(words, cursor)));

/** Entities whose rows are people, companies or products (by id, singular or plural): what a bare `name` is. */
const PERSON_ENTITIES = ['user', 'people', 'person', 'customer', 'author', 'employee', 'member', 'contact', 'student', 'teacher', 'patient', 'client', 'staff', 'driver', 'player', 'profile', 'subscriber', 'buyer', 'seller', 'guest', 'visitor', 'candidate', 'applicant', 'owner', 'manager', 'agent'];
const COMPANY_ENTITIES = ['compan', 'organization', 'organisation', 'org', 'vendor', 'supplier', 'brand', 'manufacturer', 'business', 'merchant', 'publisher', 'employer', 'partner', 'tenant'];
const PRODUCT_ENTITIES = ['product', 'item', 'good', 'sku', 'article', 'merchandise', 'variant', 'listing'];

export interface Rule {
  ids: string[];
  types: FieldType[];
  what: string;
  make: Make;
}

/** Field ids of the coherent defaults (README: "Field matching"). */
export const RULES: Rule[] = [
  { ids: ['firstname', 'givenname', 'forename'], types: TEXT, what: "the row's person: first name (follows the gender field)", make: person((p) => p.first) },
  { ids: ['lastname', 'surname', 'familyname'], types: TEXT, what: "the row's person: last name", make: person((p) => p.last) },
  { ids: ['middlename'], types: TEXT, what: "the row's person: a middle name", make: person((p) => p.middle) },
  { ids: ['fullname', 'displayname', 'contactname', 'customername', 'authorname'], types: TEXT, what: "the row's person: first and last name", make: fullName },
  { ids: ['email', 'emailaddress', 'mail'], types: TEXT, what: "built from the row's person's names (also `format: email`)", make: email },
  { ids: ['username', 'login', 'handle', 'nickname', 'screenname'], types: TEXT, what: "built from the row's person's names", make: person((p, c, attempt) => personUsername(p, c, attempt), true) },
  {
    ids: ['gender', 'sex'],
    types: TEXT,
    what: "the row's person's sex: `female` or `male` (enums: their matching values); with a strategy, the names follow it",
    make: person((p) => p.sex),
  },
  { ids: ['country', 'countryname'], types: TEXT, what: "the row's place: country name", make: place((p) => p.country) },
  { ids: ['countrycode', 'countryiso'], types: TEXT, what: "the row's place: ISO 3166 alpha-2 code", make: place((p) => p.countryCode) },
  { ids: ['state', 'province', 'region'], types: TEXT, what: "the row's place: state or province", make: place((p) => p.state) },
  { ids: ['statecode', 'stateabbr', 'provincecode'], types: TEXT, what: "the row's place: state code (US: `NY`; version 3 DE: `SN`)", make: place((p) => p.stateCode) },
  { ids: ['city', 'town'], types: TEXT, what: "the row's place: city", make: place((p) => p.city) },
  {
    ids: ['zip', 'zipcode', 'postalcode', 'postcode'],
    types: TEXT,
    what: "the row's place: postal code (US ZIP codes; version 3 also FR, AU, FI, DE; elsewhere the locale's pattern)",
    make: (context, field, stream) => {
      const zip = composerProgram(context, 'location.zipCode', stream);
      const of = rowPlace(context);
      return { at: (row, values, attempt) => of(row, attempt).postalCode ?? zip.at(row, values, attempt) };
    },
  },
  { ids: ['latitude', 'lat'], types: NUMBER, what: "the row's place: latitude", make: place((p) => p.latitude) },
  { ids: ['longitude', 'lng', 'lon', 'long'], types: NUMBER, what: "the row's place: longitude", make: place((p) => p.longitude) },
  { ids: ['phone', 'phonenumber', 'mobile', 'mobilephone', 'telephone', 'tel', 'cellphone', 'fax'], types: TEXT, what: "`+<calling code of the row's country> …` (version 3 DE: and the city's area code; also `format: phone`)", make: phone },
  { ids: ['currency', 'currencycode'], types: TEXT, what: "the row's place: its country's currency (ISO 4217)", make: place((p) => p.currency) },
  { ids: ['timezone', 'tz'], types: TEXT, what: "the row's place: IANA time zone", make: place((p) => p.timeZone) },
  { ids: ['title', 'headline', 'subject', 'heading'], types: TEXT, what: 'an English-like headline (version 3: the locale’s own words where it has them)', make: english((w, c) => titleText(w, c)) },
  { ids: ['productname'], types: TEXT, what: 'a product name (`Rustic Wooden Chair`)', make: english((w, c) => productName(w, c)) },
  {
    ids: ['description', 'summary', 'bio', 'about', 'body', 'content', 'comment', 'comments', 'notes', 'note', 'message', 'review', 'details'],
    types: TEXT,
    what: 'English-like sentences, or the locale’s own words in version 3 where it has them (one for `string`, 2–5 for `text`)',
    make: prose,
  },
  { ids: ['tags', 'keywords', 'labels'], types: TEXT, what: 'comma-separated nouns (English; version 3: the locale’s own where it has them)', make: english((w, c) => tagsText(w, c)) },
  {
    ids: ['name'],
    types: TEXT,
    what: "by entity: a person's full name (people-like entities, or when the row has other person fields), a company name, a product name, else two English words",
    make: (context, field, stream) => {
      const entity = normalizeId(context.entity.id);
      const personFields = context.entity.fields.some((other) => other !== field && !other.generation?.strategy && PERSON_IDS.has(normalizeId(other.id)));
      if (personFields || PERSON_ENTITIES.some((word) => entity.includes(word))) return fullName(context, field, stream);
      if (COMPANY_ENTITIES.some((word) => entity.includes(word))) return composerProgram(context, 'company.name', stream);
      if (PRODUCT_ENTITIES.some((word) => entity.includes(word))) return english((w, c) => productName(w, c))(context, field, stream);
      return english((w, c) => twoWordName(w, c))(context, field, stream);
    },
  },
];

const PERSON_IDS = new Set(['firstname', 'givenname', 'forename', 'lastname', 'surname', 'familyname', 'email', 'emailaddress', 'username', 'gender', 'sex']);

const BY_ID = new Map<string, Rule>();
for (const rule of RULES) for (const id of rule.ids) BY_ID.set(id, rule);
/** Ids ending in one of these (`contactEmail`, `billingCity`, `homePhone`) get its rule. */
const SUFFIXES = ['email', 'phone', 'city', 'country', 'countrycode', 'state', 'zipcode', 'postalcode', 'currency', 'timezone', 'title', 'description', 'firstname', 'lastname', 'fullname', 'username', 'productname']
  .sort((a, b) => b.length - a.length);

/** The rule a field's id matches for its type, if any. */
export function ruleOf(field: Field): Rule | undefined {
  const id = normalizeId(field.id);
  const suffix = SUFFIXES.find((name) => id.length > name.length && id.endsWith(name));
  for (const name of [id, suffix]) {
    const rule = name === undefined ? undefined : BY_ID.get(name);
    if (rule?.types.includes(field.type)) return rule;
  }
  return undefined;
}

/**
 * The version-2 program of a field without a strategy, or undefined when version 1's default
 * stands (then the caller falls back to it). `fallback` makes version 1's default of the field.
 */
export function coherentDefault(context: EntityContext, field: Field, stream: RandomStream, fallback: () => ValueProgram): ValueProgram | undefined {
  if (field.type === 'date' || field.type === 'datetime') return timeDefault(context, field, stream, fallback);
  if (field.type === 'string' && field.format === 'email') return email(context, field, stream);
  if (field.type === 'string' && field.format === 'phone') return phone(context, field, stream);
  if (field.type === 'string' && field.format !== undefined && field.format !== 'plain') return undefined;
  if (field.type === 'enum') return genderEnum(context, field, stream);
  return ruleOf(field)?.make(context, field, stream);
}

const FEMALE = /^(f|female|woman|w|girl|femme|weiblich)$/i;
const MALE = /^(m|male|man|boy|homme|männlich)$/i;

/** An enum gender/sex field with a female and a male value shows the row's person's sex. */
function genderEnum(context: EntityContext, field: Field, stream: RandomStream): ValueProgram | undefined {
  if (!['gender', 'sex'].includes(normalizeId(field.id))) return undefined;
  const values = field.values ?? [];
  const female = values.find((value) => FEMALE.test(String(value)));
  const male = values.find((value) => MALE.test(String(value)));
  if (female === undefined || male === undefined) return undefined;
  return { ...person((p) => (p.sex === 'female' ? female : male))(context, field, stream)!, typed: true };
}

function timeDefault(context: EntityContext, field: Field, stream: RandomStream, fallback: () => ValueProgram): ValueProgram | undefined {
  const common = { stream, type: field.type, referenceMs: context.referenceMs, zone: context.plan.timezone, weekdaysOnly: field.weekdaysOnly === true };
  const start = pairStart(context.entity, field);
  if (start >= 0) {
    return laterProgram({ ...common, earlier: (_row, values) => values[start], deps: [start], minSpanDays: 30, fallback: fallback() });
  }
  const link = parentTimeLink(context.entity, field, context.entities, context.plan.deferredColumns);
  if (!link) return undefined;
  const keys = context.keyPool(link.parent, link.parentKey);
  const times = context.keyPool(link.parent, link.parentTime);
  if (!keys || !times) return undefined;
  const lookup = parentTimeLookup(keys, times);
  return laterProgram({ ...common, earlier: (_row, values) => lookup(values[link.reference]), deps: [link.reference], minSpanDays: 0, fallback: fallback() });
}
