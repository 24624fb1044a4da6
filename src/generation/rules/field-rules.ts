// The one table of field meanings: per rule, the names it matches, the context and types it needs,
// its value maker per rule set (`named`: version 1; `coherent`: versions 2 and 3) and the check the
// coherence report runs on what it made. The generator (defaults.ts) and the report (coherence/
// report.ts) both choose rules from here (choose-rule.ts); docs/field-rules.md lists every id.
// A rule's makers never change once a version uses them: a new meaning is a new rule set.
import type { FieldType } from '../config-types.ts';
import type { FieldRule, RuleMaker } from './field-rule.ts';
import { cursorProgram } from '../program.ts';
import { choiceProgram } from '../values/choices.ts';
import { capitalize, paragraphText, sentenceText, wordsText } from '../values/strings.ts';
import { hexText, ipv4Text, uuidProgram } from '../values/tokens.ts';
import * as v1 from '../named-defaults.ts';
import * as v2 from '../coherence/defaults.ts';
import { parentTimeLink, pairStart } from '../coherence/time.ts';
import { hasFeature } from '../versions.ts';

const TEXT: FieldType[] = ['string', 'text'];
const NUMERIC: FieldType[] = ['integer', 'number'];
const DATES: FieldType[] = ['date', 'datetime'];

/** Plain strings up to this many characters (after prefix and suffix) are codes rather than words. */
export const CODE_LENGTH = 10;

/** A maker of a set that ignores `next`. */
const plain = (make: v1.Make | v2.Make): RuleMaker => (context, field, stream) => make(context, field, stream);

const description: v1.Make = (context, field, stream) =>
  cursorProgram(stream, (cursor) => (field.type === 'text' ? paragraphText(context.words.loremWords, cursor, cursor.int(2, 5)) : sentenceText(context.words.loremWords, cursor)));

export const FIELD_RULES: readonly FieldRule[] = [
  // People: one person per row from version 2 on.
  {
    id: 'person.first-name',
    what: "the row's person: first name (follows the gender field)",
    names: ['firstname', 'givenname', 'forename'],
    endings: ['firstname'],
    types: TEXT,
    make: { named: plain(v1.words((cursor, w) => cursor.pick(w.firstNames))), coherent: plain(v2.person((p) => p.first)) },
  },
  {
    id: 'person.last-name',
    what: "the row's person: last name",
    names: ['lastname', 'surname', 'familyname'],
    endings: ['lastname'],
    types: TEXT,
    make: { named: plain(v1.composed('person.lastName')), coherent: plain(v2.person((p) => p.last)) },
  },
  {
    id: 'person.middle-name',
    what: "the row's person: a middle name",
    names: ['middlename'],
    types: TEXT,
    make: { named: plain(v1.composed('person.middleName')), coherent: plain(v2.person((p) => p.middle)) },
  },
  {
    id: 'person.full-name',
    what: "the row's person: first and last name",
    names: ['fullname', 'displayname', 'contactname', 'customername', 'authorname'],
    endings: ['fullname'],
    types: TEXT,
    make: { named: plain(v1.composed('person.fullName')), coherent: plain(v2.fullName) },
  },
  {
    id: 'entity.name',
    what: "a bare `name`, by entity: a person's full name (people-like entities, or rows with other person fields), a company name, a product name, else two words",
    names: ['name'],
    types: TEXT,
    make: { named: plain(v1.composed('person.fullName')), coherent: plain(v2.entityName) },
  },
  {
    id: 'person.email',
    what: "an email built from the row's person's names (also `format: email`)",
    names: ['email', 'emailaddress', 'mail'],
    endings: ['email'],
    formats: ['email'],
    types: TEXT,
    make: { named: plain(v1.words(v1.emailText)), coherent: plain(v2.email) },
    audit: { kind: 'names-in-email' },
  },
  {
    id: 'person.username',
    what: "a username built from the row's person's names",
    names: ['username', 'login', 'handle', 'nickname', 'screenname'],
    endings: ['username'],
    types: TEXT,
    make: { named: plain(v1.words(v1.usernameText)), coherent: plain(v2.username) },
    audit: { kind: 'names-in-email' },
  },
  {
    id: 'person.gender',
    what: "the row's person's sex: `female` or `male` (enums: their values that mean them); with a strategy, the names follow it",
    names: ['gender', 'sex'],
    types: TEXT,
    also: { set: 'coherent', types: ['enum'] },
    fits: (field) => field.type !== 'enum' || v2.hasFemaleAndMale(field),
    make: { named: plain(v1.composed('person.sex')), coherent: plain(v2.sex) },
  },
  // Places: one place of the reference data per row from version 2 on.
  {
    id: 'place.country',
    what: "the row's place: country name",
    names: ['country', 'countryname'],
    endings: ['country'],
    types: TEXT,
    make: { named: plain(v1.words((cursor, w) => cursor.pick(w.countries))), coherent: plain(v2.place((p) => p.country)) },
    audit: { kind: 'place-in-reference', of: (place) => place.country },
  },
  {
    id: 'place.country-code',
    what: "the row's place: ISO 3166 alpha-2 code",
    names: ['countrycode', 'countryiso'],
    also: { set: 'coherent', endings: ['countrycode'] },
    types: TEXT,
    make: { named: plain(v1.faker('location.countryCode')), coherent: plain(v2.place((p) => p.countryCode)) },
    audit: { kind: 'place-in-reference', of: (place) => place.countryCode },
  },
  {
    id: 'place.state',
    what: "the row's place: state or province",
    names: ['state', 'province', 'region'],
    also: { set: 'coherent', endings: ['state'] },
    types: TEXT,
    make: { named: plain(v1.composed('location.state')), coherent: plain(v2.place((p) => p.state)) },
    audit: { kind: 'place-in-reference', of: (place) => place.state },
  },
  {
    id: 'place.state-code',
    what: "the row's place: state code (US: `NY`; version 3 DE: `SN`)",
    names: ['statecode', 'stateabbr', 'provincecode'],
    types: TEXT,
    make: { coherent: plain(v2.place((p) => p.stateCode)) },
  },
  {
    id: 'place.city',
    what: "the row's place: city",
    names: ['city', 'town'],
    endings: ['city'],
    types: TEXT,
    make: { named: plain(v1.composed('location.city')), coherent: plain(v2.place((p) => p.city)) },
    audit: { kind: 'place-in-reference', of: (place) => place.city },
  },
  {
    id: 'place.postal-code',
    what: "the row's place: postal code (US ZIP codes; version 3 also FR, AU, FI, DE; elsewhere the locale's pattern)",
    names: ['zip', 'zipcode', 'postalcode', 'postcode'],
    endings: ['zipcode', 'postalcode'],
    types: TEXT,
    make: { named: plain(v1.faker('location.zipCode')), coherent: plain(v2.postalCode) },
    audit: { kind: 'place-in-reference', of: (place) => place.postalCode, postal: true },
  },
  {
    id: 'place.latitude',
    what: "the row's place: latitude",
    names: ['latitude', 'lat'],
    types: ['number'],
    make: { named: plain(v1.numeric(-90, 90, 6)), coherent: plain(v2.place((p) => p.latitude)) },
  },
  {
    id: 'place.longitude',
    what: "the row's place: longitude",
    names: ['longitude', 'lng', 'lon', 'long'],
    types: ['number'],
    make: { named: plain(v1.numeric(-180, 180, 6)), coherent: plain(v2.place((p) => p.longitude)) },
  },
  {
    id: 'place.phone',
    what: "`+<calling code of the row's country> …` (version 3 DE: and the city's area code; also `format: phone`)",
    names: ['phone', 'phonenumber', 'mobile', 'mobilephone', 'telephone', 'tel', 'cellphone', 'fax'],
    endings: ['phone'],
    formats: ['phone'],
    types: TEXT,
    make: { named: plain(v1.composed('phone.number')), coherent: plain(v2.phone) },
    audit: {
      kind: 'place-in-reference',
      of: (place) => (place.areaCode === undefined ? `+${place.phonePrefix}` : `+${place.phonePrefix} ${place.areaCode}`),
      phone: true,
    },
  },
  {
    id: 'place.currency',
    what: "the row's place: its country's currency (ISO 4217)",
    names: ['currency', 'currencycode'],
    endings: ['currency'],
    types: TEXT,
    make: { named: plain(v1.faker('finance.currencyCode')), coherent: plain(v2.place((p) => p.currency)) },
  },
  {
    id: 'place.time-zone',
    what: "the row's place: IANA time zone",
    names: ['timezone', 'tz'],
    also: { set: 'coherent', endings: ['timezone'] },
    types: TEXT,
    make: { named: plain(v1.faker('location.timeZone')), coherent: plain(v2.place((p) => p.timeZone)) },
  },
  {
    id: 'place.street',
    what: 'a street address',
    names: ['street', 'streetaddress', 'address', 'address1', 'addressline1'],
    endings: ['address'],
    types: TEXT,
    make: { named: plain(v1.composed('location.streetAddress')) },
  },
  // Organisations and work.
  {
    id: 'company.name',
    what: 'a company name',
    names: ['company', 'companyname', 'organization', 'organisation', 'employer'],
    types: TEXT,
    make: { named: plain(v1.composed('company.name')) },
  },
  {
    id: 'person.job-title',
    what: 'a job title',
    names: ['jobtitle', 'job', 'occupation', 'position'],
    types: TEXT,
    make: { named: plain(v1.composed('person.jobTitle')) },
  },
  // Text.
  {
    id: 'text.title',
    what: 'an English-like headline (version 3: the locale’s own words where it has them; version 1: lorem)',
    names: ['title', 'headline', 'subject', 'heading'],
    endings: ['title'],
    types: TEXT,
    make: { named: plain(v1.words((cursor, w) => capitalize(wordsText(w.loremWords, cursor, cursor.int(2, 6))))), coherent: plain(v2.title) },
  },
  {
    id: 'text.product-name',
    what: 'a product name (`Rustic Wooden Chair`)',
    names: ['productname'],
    endings: ['productname'],
    types: TEXT,
    make: { coherent: plain(v2.productNameText) },
  },
  {
    id: 'text.description',
    what: 'English-like sentences, or the locale’s own words in version 3 where it has them (one for `string`, 2–5 for `text`; version 1: lorem)',
    names: ['description', 'bio', 'summary', 'about', 'body', 'content', 'comment', 'notes', 'note', 'message'],
    endings: ['description'],
    also: { set: 'coherent', names: ['comments', 'review', 'details'] },
    types: TEXT,
    make: { named: plain(description), coherent: plain(v2.prose) },
  },
  {
    id: 'text.tags',
    what: 'comma-separated nouns (English; version 3: the locale’s own where it has them)',
    names: ['tags', 'keywords', 'labels'],
    types: TEXT,
    make: { coherent: plain(v2.tags) },
  },
  {
    id: 'text.words',
    what: 'other `text` fields and plain strings longer than 10 characters: English-like words and sentences (version 3: the locale’s own where it has them)',
    types: TEXT,
    fallback: true,
    when: (_scope, field) => field.type === 'text' || ((field.format === undefined || field.format === 'plain') && roomOf(field) > CODE_LENGTH),
    make: { coherent: plain(v2.englishText) },
  },
  // The web and tokens.
  {
    id: 'web.url',
    what: 'an https URL (also `format: url`)',
    names: ['url', 'website', 'homepage', 'link'],
    endings: ['url'],
    formats: ['url'],
    types: TEXT,
    make: { named: plain(v1.words(v1.urlText)) },
  },
  {
    id: 'web.image',
    what: 'an avatar image URL',
    names: ['avatar', 'avatarurl', 'image', 'imageurl', 'photo', 'photourl', 'picture', 'thumbnail'],
    types: TEXT,
    make: { named: plain(v1.faker('image.avatar')) },
  },
  {
    id: 'web.slug',
    what: 'a slug of 2–4 words (also `format: slug`)',
    names: ['slug'],
    endings: ['slug'],
    formats: ['slug'],
    types: TEXT,
    make: { named: plain(v1.words(v1.slugText)) },
  },
  {
    id: 'web.domain',
    what: 'a domain name',
    names: ['domain', 'domainname', 'hostname'],
    types: TEXT,
    make: { named: plain(v1.words((cursor, w) => `${cursor.pick(w.loremAscii)}.${cursor.pick(w.domainSuffixes)}`)) },
  },
  {
    id: 'web.ipv4',
    what: 'an IPv4 address',
    names: ['ip', 'ipaddress', 'ipv4'],
    endings: ['ipaddress'],
    types: TEXT,
    make: { named: plain(v1.words((cursor) => ipv4Text(cursor))) },
  },
  { id: 'web.ipv6', what: 'an IPv6 address', names: ['ipv6'], types: TEXT, make: { named: plain(v1.faker('internet.ipv6')) } },
  {
    id: 'token.secret',
    what: '64 hex digits',
    names: ['password', 'passwordhash', 'token', 'apikey', 'secret', 'hash'],
    types: TEXT,
    make: { named: plain(v1.words((cursor) => hexText(cursor, 64))) },
  },
  { id: 'token.uuid', what: 'a UUID in a text field', names: ['id', 'uuid', 'guid'], types: TEXT, make: { named: plain((_context, _field, stream) => uuidProgram(stream)) } },
  { id: 'misc.color', what: 'a colour name', names: ['color', 'colour'], endings: ['color'], types: TEXT, make: { named: plain(v1.words((cursor, w) => cursor.pick(w.colors))) } },
  {
    id: 'misc.status',
    what: '`active` 60%, `inactive` 20%, `pending` 15%, `archived` 5%',
    names: ['status'],
    endings: ['status'],
    types: TEXT,
    make: { named: plain((_context, _field, stream) => choiceProgram(stream, ['active', 'inactive', 'pending', 'archived'], [60, 20, 15, 5])) },
  },
  // Numbers.
  {
    id: 'number.money',
    what: '1–1000 with cents',
    names: ['price', 'amount', 'cost', 'total', 'subtotal', 'balance', 'salary', 'fee', 'revenue'],
    endings: ['price', 'amount', 'total', 'cost'],
    types: NUMERIC,
    make: { named: plain(v1.numeric(1, 1000, 2)) },
  },
  {
    id: 'number.quantity',
    what: '1–100',
    names: ['quantity', 'qty', 'count', 'stock', 'units'],
    endings: ['quantity', 'count'],
    types: NUMERIC,
    make: { named: plain(v1.numeric(1, 100, 0)) },
  },
  { id: 'number.age', what: '18–90', names: ['age'], types: NUMERIC, make: { named: plain(v1.numeric(18, 90, 0)) } },
  { id: 'number.rating', what: '1–5 (one decimal for numbers)', names: ['rating', 'stars'], endings: ['rating'], types: NUMERIC, make: { named: plain(v1.numeric(1, 5, 1)) } },
  { id: 'number.score', what: '0–100 (two decimals for numbers)', names: ['score', 'percent', 'percentage'], types: NUMERIC, make: { named: plain(v1.numeric(0, 100, 2)) } },
  {
    id: 'number.year',
    what: '1950 to the reference year',
    names: ['year'],
    types: ['integer'],
    make: { named: plain((context, field, stream) => v1.numericDefault(field, stream, 1950, new Date(context.referenceMs).getUTCFullYear(), 0)) },
  },
  // Time. Context rules first: they win over names in their set.
  {
    id: 'time.pair-end',
    what: 'the end of a start/end pair (`endDate`, `validTo`, `closedAt`…): not before its start',
    types: DATES,
    when: (scope, field) => pairStart(scope.entity, field) >= 0,
    make: { coherent: v2.pairEnd },
    audit: { kind: 'time-pair-ordered' },
  },
  {
    id: 'time.after-parent',
    what: "a child's created-like time (`createdAt`, `publishedAt`, `orderDate`…): not before its referenced parent's created-like time",
    types: DATES,
    when: (scope, field) => hasFeature(scope.version, 'childrenAfterParents') && parentTimeLink(scope.entity, field, scope.entities, scope.deferred) !== undefined,
    make: { coherent: v2.afterParent },
    audit: { kind: 'child-after-parent' },
  },
  { id: 'time.created', what: 'within the last 2 years', names: v1.CREATED, endings: ['createdat'], types: DATES, make: { named: plain(v1.createdAt) } },
  {
    id: 'time.published',
    what: 'within the last 2 years',
    names: ['publishedat', 'postedat', 'publishedon', 'lastloginat', 'lastseenat'],
    types: DATES,
    make: { named: plain(v1.createdAt) },
  },
  {
    id: 'time.updated',
    what: 'after the created-like field of the row (within the last 2 years without one)',
    names: ['updatedat', 'modifiedat', 'updated', 'modified', 'lastmodified', 'updatedon', 'editedat'],
    endings: ['updatedat'],
    types: DATES,
    make: { named: plain(v1.updatedAt) },
  },
  { id: 'time.birth', what: '18 to 90 years before the reference date', names: ['birthdate', 'dateofbirth', 'dob', 'birthday', 'born'], types: DATES, make: { named: plain(v1.dates('-90y', '-18y')) } },
  {
    id: 'time.due',
    what: 'within the year after the reference date',
    names: ['expiresat', 'expirydate', 'expirationdate', 'duedate', 'dueat', 'deadline'],
    types: DATES,
    make: { named: plain(v1.dates('now', '+1y')) },
  },
];

/** Characters a plain string has for its value, after its prefix and suffix. */
export function roomOf(field: { maxLength?: number; prefix?: string; suffix?: string }): number {
  return (field.maxLength ?? Number.POSITIVE_INFINITY) - (field.prefix?.length ?? 0) - (field.suffix?.length ?? 0);
}
