// Defaults chosen by a field's id (case, `_` and `-` ignored): `email`, `firstName`, `city`,
// `price`, `createdAt`… Each applies to the field types it suits; ids ending in a known name
// (`contactEmail`, `unitPrice`, `orderStatus`) count too. Field bounds (min, max, precision) win.
import type { Field, FieldType } from '../model/config-types.ts';
import type { EntityContext, ValueProgram } from './program.ts';
import type { RandomCursor, RandomStream } from './random.ts';
import type { LocaleWords } from './values/words.ts';
import { composerProgram, cursorProgram, fakerProgram } from './program.ts';
import { randomFloatProgram, randomIntProgram } from './values/numbers.ts';
import { afterFieldProgram, dateRangeProgram } from './values/date-programs.ts';
import { choiceProgram } from './values/choices.ts';
import { capitalize, paragraphText, sentenceText, wordsText } from './values/strings.ts';
import { hexText, ipv4Text, uuidProgram } from './values/tokens.ts';

type Make = (context: EntityContext, field: Field, stream: RandomStream) => ValueProgram;
interface NamedDefault {
  types: readonly FieldType[];
  make: Make;
}

const TEXT: FieldType[] = ['string', 'text'];
const NUMERIC: FieldType[] = ['integer', 'number'];
const DATES: FieldType[] = ['date', 'datetime'];

const words = (make: (cursor: RandomCursor, words: LocaleWords) => string): Make => (context, _field, stream) =>
  cursorProgram(stream, (cursor) => make(cursor, context.words));
const composed = (method: string): Make => (context, _field, stream) => composerProgram(context, method, stream);
const faker = (method: string): Make => (context, _field, stream) => fakerProgram(context, method, [], stream);

/** Integers or numbers in [min, max] (the field's own bounds win), `precision` decimals for numbers. */
export function numericDefault(field: Field, stream: RandomStream, min: number, max: number, precision: number): ValueProgram {
  let low = field.min ?? min;
  let high = field.max ?? max;
  if (low > high) [low, high] = field.min !== undefined ? [low, low + (max - min)] : [high - (max - min), high];
  return field.type === 'integer' ? randomIntProgram(stream, low, high) : randomFloatProgram(stream, low, high, field.precision ?? precision);
}

const numeric = (min: number, max: number, precision: number): Make => (_context, field, stream) => numericDefault(field, stream, min, max, precision);
const dates = (from: string, to: string): Make => (context, field, stream) =>
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

const createdAt = dates('-2y', 'now');
const CREATED = ['createdat', 'created', 'createdon', 'datecreated', 'creationdate', 'insertedat'];

const updatedAt: Make = (context, field, stream) => {
  const fallback = createdAt(context, field, stream);
  const index = context.entity.fields.findIndex(
    (other) => other !== field && DATES.includes(other.type) && CREATED.includes(normalizeId(other.id)) && other.generation?.strategy?.kind !== 'template' && other.generation?.strategy?.kind !== 'formula',
  );
  if (index < 0) return fallback;
  return afterFieldProgram(stream, field.type, index, context.referenceMs, context.plan.timezone, fallback);
};

const ENTRIES: [string[], NamedDefault][] = [
  [['email', 'emailaddress', 'mail'], { types: TEXT, make: words(emailText) }],
  [['firstname', 'givenname', 'forename'], { types: TEXT, make: words((cursor, w) => cursor.pick(w.firstNames)) }],
  [['lastname', 'surname', 'familyname'], { types: TEXT, make: composed('person.lastName') }],
  [['middlename'], { types: TEXT, make: composed('person.middleName') }],
  [['fullname', 'name', 'displayname', 'contactname', 'customername', 'authorname'], { types: TEXT, make: composed('person.fullName') }],
  [['username', 'login', 'handle', 'nickname', 'screenname'], { types: TEXT, make: words(usernameText) }],
  [['phone', 'phonenumber', 'mobile', 'mobilephone', 'telephone', 'tel', 'cellphone', 'fax'], { types: TEXT, make: composed('phone.number') }],
  [['city', 'town'], { types: TEXT, make: composed('location.city') }],
  [['country', 'countryname'], { types: TEXT, make: words((cursor, w) => cursor.pick(w.countries)) }],
  [['countrycode', 'countryiso'], { types: TEXT, make: faker('location.countryCode') }],
  [['state', 'province', 'region'], { types: TEXT, make: composed('location.state') }],
  [['street', 'streetaddress', 'address', 'address1', 'addressline1'], { types: TEXT, make: composed('location.streetAddress') }],
  [['zip', 'zipcode', 'postalcode', 'postcode'], { types: TEXT, make: faker('location.zipCode') }],
  [['company', 'companyname', 'organization', 'organisation', 'employer'], { types: TEXT, make: composed('company.name') }],
  [['jobtitle', 'job', 'occupation', 'position'], { types: TEXT, make: composed('person.jobTitle') }],
  [['url', 'website', 'homepage', 'link'], { types: TEXT, make: words(urlText) }],
  [['avatar', 'avatarurl', 'image', 'imageurl', 'photo', 'photourl', 'picture', 'thumbnail'], { types: TEXT, make: faker('image.avatar') }],
  [['title', 'headline', 'subject', 'heading'], { types: TEXT, make: words((cursor, w) => capitalize(wordsText(w.loremWords, cursor, cursor.int(2, 6)))) }],
  [
    ['description', 'bio', 'summary', 'about', 'body', 'content', 'comment', 'notes', 'note', 'message'],
    {
      types: TEXT,
      make: (context, field, stream) =>
        cursorProgram(stream, (cursor) =>
          field.type === 'text' ? paragraphText(context.words.loremWords, cursor, cursor.int(2, 5)) : sentenceText(context.words.loremWords, cursor),
        ),
    },
  ],
  [['slug'], { types: TEXT, make: words(slugText) }],
  [['color', 'colour'], { types: TEXT, make: words((cursor, w) => cursor.pick(w.colors)) }],
  [['currency', 'currencycode'], { types: TEXT, make: faker('finance.currencyCode') }],
  [['ip', 'ipaddress', 'ipv4'], { types: TEXT, make: words((cursor) => ipv4Text(cursor)) }],
  [['ipv6'], { types: TEXT, make: faker('internet.ipv6') }],
  [['gender', 'sex'], { types: TEXT, make: composed('person.sex') }],
  [['timezone', 'tz'], { types: TEXT, make: faker('location.timeZone') }],
  [['domain', 'domainname', 'hostname'], { types: TEXT, make: words((cursor, w) => `${cursor.pick(w.loremAscii)}.${cursor.pick(w.domainSuffixes)}`) }],
  [['password', 'passwordhash', 'token', 'apikey', 'secret', 'hash'], { types: TEXT, make: words((cursor) => hexText(cursor, 64)) }],
  [['id', 'uuid', 'guid'], { types: TEXT, make: (_context, _field, stream) => uuidProgram(stream) }],
  [
    ['status'],
    { types: TEXT, make: (_context, _field, stream) => choiceProgram(stream, ['active', 'inactive', 'pending', 'archived'], [60, 20, 15, 5]) },
  ],
  [['price', 'amount', 'cost', 'total', 'subtotal', 'balance', 'salary', 'fee', 'revenue'], { types: NUMERIC, make: numeric(1, 1000, 2) }],
  [['quantity', 'qty', 'count', 'stock', 'units'], { types: NUMERIC, make: numeric(1, 100, 0) }],
  [['age'], { types: NUMERIC, make: numeric(18, 90, 0) }],
  [['rating', 'stars'], { types: NUMERIC, make: numeric(1, 5, 1) }],
  [['score', 'percent', 'percentage'], { types: NUMERIC, make: numeric(0, 100, 2) }],
  [['latitude', 'lat'], { types: ['number'], make: numeric(-90, 90, 6) }],
  [['longitude', 'lng', 'lon', 'long'], { types: ['number'], make: numeric(-180, 180, 6) }],
  [['year'], { types: ['integer'], make: (context, field, stream) => numericDefault(field, stream, 1950, new Date(context.referenceMs).getUTCFullYear(), 0) }],
  [CREATED, { types: DATES, make: createdAt }],
  [['publishedat', 'postedat', 'publishedon', 'lastloginat', 'lastseenat'], { types: DATES, make: createdAt }],
  [['updatedat', 'modifiedat', 'updated', 'modified', 'lastmodified', 'updatedon', 'editedat'], { types: DATES, make: updatedAt }],
  [['birthdate', 'dateofbirth', 'dob', 'birthday', 'born'], { types: DATES, make: dates('-90y', '-18y') }],
  [['expiresat', 'expirydate', 'expirationdate', 'duedate', 'dueat', 'deadline'], { types: DATES, make: dates('now', '+1y') }],
];

const BY_NAME = new Map<string, NamedDefault[]>();
for (const [names, entry] of ENTRIES) for (const name of names) BY_NAME.set(name, [...(BY_NAME.get(name) ?? []), entry]);

// Ids ending in one of these names (`contactEmail`, `unitPrice`) get its default.
const SUFFIXES = ['email', 'phone', 'city', 'country', 'url', 'address', 'zipcode', 'postalcode', 'price', 'amount', 'total', 'cost', 'quantity', 'count', 'title', 'description', 'slug', 'color', 'status', 'rating', 'createdat', 'updatedat', 'firstname', 'lastname', 'fullname', 'username', 'ipaddress', 'currency', 'date']
  .filter((name) => BY_NAME.has(name))
  .sort((a, b) => b.length - a.length);

export function normalizeId(id: string): string {
  return id.toLowerCase().replace(/[_-]/g, '');
}

/** The default program that a field's id suggests, or undefined when the id suggests none for its type. */
export function namedDefault(context: EntityContext, field: Field, stream: RandomStream): ValueProgram | undefined {
  const id = normalizeId(field.id);
  const suffix = SUFFIXES.find((name) => id.length > name.length && id.endsWith(name));
  for (const name of [id, suffix]) {
    const entry = name === undefined ? undefined : BY_NAME.get(name)?.find((candidate) => candidate.types.includes(field.type));
    if (entry) return entry.make(context, field, stream);
  }
  return undefined;
}
