// Value makers of generator version 5 (rule set `context`; which field gets which is field-rules.ts):
// what a column is by its table. A genre, category, tag, media or document type or pet name is a
// word of its kind (context-words.ts; `genres.name`, `media_types.name`, `pets.name`); a name is a
// company-like name on tables of organisations and places of business (`clinics.name` → `Riverside
// Veterinary Clinic`), a person's only on tables of people; websites, domains and work emails come
// from the row's company name, or from the company a person's row references. The report checks
// the same facts (vocabularyCheck, companySource).
import type { Entity, Field } from '../../model/config-types.ts';
import type { RowValue } from '../../model/row-value.ts';
import type { EntityContext, ValueProgram } from '../program.ts';
import type { RandomCursor, RandomStream } from '../random.ts';
import type { RuleMaker, RuleScope } from './field-rule.ts';
import { cursorProgram, DRAWS_PER_ATTEMPT } from '../program.ts';
import { choiceProgram } from '../values/choices.ts';
import { KeyedPermutation, RandomCursor as Cursor, streamKey } from '../random.ts';
import { singleFieldKeys } from '../../model/composite-keys.ts';
import { referenceTarget } from '../../model/table-spec.ts';
import { english, fullName, productNameText } from '../coherence/defaults.ts';
import { rowPerson } from '../coherence/person.ts';
import { twoWordName } from '../coherence/text.ts';
import { toAsciiWord } from '../values/words.ts';
import { normalizeId } from './field-rule.ts';
import { roomOf } from './room.ts';
import * as words from './context-words.ts';
import { LANGUAGE_NAMES } from './identifier-makers.ts';
import { mergedDefinitions } from '../faker-locales.ts';

const TEXT = new Set(['string', 'text']);

/** A kind of column whose values are words of a list: the columns it names and the tables whose names it holds. */
interface VocabularyKind {
  id: string;
  /** What the report says the values are checked against. */
  what: string;
  /** Column ids (normalised) of the kind in any table, matched whole or as an ending (`primary_genre`). */
  columns: readonly string[];
  /** Whether a table is of the kind (its name-like column then holds the kind's words). */
  table?: (tableWords: readonly string[], entity: Entity) => boolean;
  words: (entities: readonly Entity[]) => readonly string[];
}

const lastWordIs = (...ids: string[]) => (tableWords: readonly string[]) => ids.some((id) => tableWords.join('').endsWith(id));
const PET_WORDS = ['pet', 'animal', 'dog', 'cat', 'horse', 'puppy', 'kitten'];
const PET_FIELDS = new Set(['species', 'breed', 'microchip', 'microchipid', 'microchipnumber']);

export const VOCABULARY_KINDS = {
  'kind.mime-type': { id: 'kind.mime-type', what: 'MIME types', columns: ['mimetype', 'contenttype'], words: () => words.MIME_TYPES },
  'kind.media-type': {
    id: 'kind.media-type',
    what: 'media types',
    columns: ['mediatype', 'mediatypename', 'mediaformat'],
    table: lastWordIs('mediatype', 'mediaformat'),
    words: () => words.MEDIA_TYPES,
  },
  'kind.document-type': {
    id: 'kind.document-type',
    what: 'document types',
    columns: ['documenttype', 'doctype', 'documentkind', 'documentcategory'],
    table: lastWordIs('documenttype', 'doctype'),
    words: () => words.DOCUMENT_TYPES,
  },
  'kind.genre': { id: 'kind.genre', what: 'genres', columns: ['genre', 'genrename'], table: lastWordIs('genre'), words: (entities) => words.genresOf(words.domainOf(entities)) },
  'kind.category': {
    id: 'kind.category',
    what: 'categories',
    columns: ['category', 'categoryname'],
    table: lastWordIs('category'),
    words: (entities) => words.categoriesOf(words.domainOf(entities)),
  },
  'kind.species': { id: 'kind.species', what: 'species', columns: ['species', 'animaltype', 'pettype'], words: () => words.SPECIES },
  'kind.language': { id: 'kind.language', what: 'languages', columns: [], table: lastWordIs('language'), words: () => LANGUAGE_NAMES },
  'kind.tag': { id: 'kind.tag', what: 'tags', columns: ['tag', 'tagname'], table: lastWordIs('tag'), words: () => words.TAGS },
  'name.pet': {
    id: 'name.pet',
    what: 'pet names',
    columns: ['petname', 'animalname'],
    // Pets, or patients of a veterinary clinic (a table of patients with a species or breed).
    table: (tableWords, entity) =>
      tableWords.some((word) => PET_WORDS.includes(word)) || (tableWords.includes('patient') && entity.fields.some((field) => PET_FIELDS.has(normalizeId(field.id)))),
    words: () => words.PET_NAMES,
  },
} as const satisfies Record<string, VocabularyKind>;

export type VocabularyKindId = keyof typeof VOCABULARY_KINDS;

/** Whether a column is the name of its row's thing: `name`, `title`, `label`, `<table>_name` (`genre_name` of `genres`). */
function nameLike(entity: Entity, field: Field): boolean {
  const id = normalizeId(field.id);
  const tableWords = words.singularWords(entity.id);
  const last = tableWords[tableWords.length - 1] ?? '';
  return ['name', 'title', 'label', 'displayname', `${tableWords.join('')}name`, `${last}name`].includes(id);
}

/** Whether a column has the type and room for words of a list (at least 3 of them fit). */
function fitting(field: Field, list: readonly string[]): readonly string[] | undefined {
  if (!TEXT.has(field.type) || (field.format !== undefined && field.format !== 'plain')) return undefined;
  const room = roomOf(field);
  const fit = list.every((word) => word.length <= room) ? list : list.filter((word) => word.length <= room);
  return fit.length >= 3 ? fit : undefined;
}

/** The kind of a column by its name or its table, with the words it takes; undefined when it is none of them. */
export function vocabularyOf(entity: Entity, entities: readonly Entity[], field: Field, kind: VocabularyKindId): readonly string[] | undefined {
  const spec: VocabularyKind = VOCABULARY_KINDS[kind];
  const id = normalizeId(field.id);
  const byName = spec.columns.some((column) => id === column || id.endsWith(column));
  const byTable = !byName && spec.table !== undefined && nameLike(entity, field) && spec.table(words.singularWords(entity.id), entity);
  return byName || byTable ? fitting(field, spec.words(entities)) : undefined;
}

/** Whether a field is a key of its own (a unique list value per row: genres of a genres table). */
function uniqueField(entity: Entity, field: Field): boolean {
  return singleFieldKeys(entity).has(field.id) || field.generation?.uniqueValues === true;
}

/**
 * Words of a list: a pick per row; on a unique column each word once in a keyed order, then again
 * with a number (`Rock 2`) once every word is taken, so no row is left without a value.
 */
function listProgram(context: EntityContext, field: Field, stream: RandomStream, list: readonly string[]): ValueProgram {
  if (!uniqueField(context.entity, field)) {
    // Species have a known mix (dogs and cats first); other lists are drawn evenly.
    if (list === words.SPECIES) return { ...choiceProgram(stream, list, words.SPECIES_WEIGHTS), typed: true };
    return cursorProgram(stream, (cursor) => cursor.pick(list), true);
  }
  const order = new KeyedPermutation(list.length, streamKey(context.plan.seed, context.entity.id, field.id, 'context-order'));
  return { at: (row) => (row < list.length ? list[order.at(row)] : `${list[order.at(row % list.length)]} ${Math.floor(row / list.length) + 1}`), typed: true, distinct: true };
}

/** The maker of a vocabulary kind's rule. */
export const vocabularyMaker =
  (kind: VocabularyKindId): RuleMaker =>
  (context, field, stream) => {
    const list = vocabularyOf(context.entity, context.entities, field, kind);
    return list && listProgram(context, field, stream, list);
  };

/** The report's check of a vocabulary column: the value is a word of the list (or one with a number, on unique columns). */
export function vocabularyCheck(entity: Entity, entities: readonly Entity[], field: Field, kind: VocabularyKindId): { against: string; holds: (value: string) => boolean } | undefined {
  const list = vocabularyOf(entity, entities, field, kind);
  if (!list) return undefined;
  const known = new Set(list);
  return { against: VOCABULARY_KINDS[kind].what, holds: (value) => known.has(value) || known.has(value.replace(/ \d+$/, '')) };
}

// Names of organisations and places of business.

/** Table words of organisations: their names end like companies' (`Hughes Group`). */
const COMPANY_WORDS = ['company', 'organization', 'organisation', 'org', 'vendor', 'supplier', 'brand', 'manufacturer', 'business', 'merchant', 'publisher', 'employer', 'partner', 'carrier', 'airline', 'agency', 'firm', 'label', 'bank', 'insurer', 'distributor', 'shipper', 'tenant', 'account'];
/** Table words of places of business: their names end in what they are (`Riverside Clinic`). */
const PLACE_WORDS = ['clinic', 'hospital', 'practice', 'pharmacy', 'hotel', 'store', 'shop', 'restaurant', 'cafe', 'gym', 'salon', 'branch', 'office', 'warehouse', 'school', 'university', 'college', 'library', 'museum', 'theater', 'theatre', 'cinema', 'venue', 'dealership', 'garage', 'bakery', 'spa', 'studio', 'laboratory', 'lab', 'center', 'centre', 'facility', 'depot', 'station', 'resort', 'farm', 'kennel'];
const CAPITAL = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);
/** What a place of business of a veterinary config is called. */
const VET_KINDS: Record<string, readonly string[]> = {
  clinic: ['Veterinary Clinic', 'Animal Clinic', 'Pet Clinic'],
  hospital: ['Animal Hospital', 'Veterinary Hospital'],
  practice: ['Veterinary Practice'],
};

export interface Organisation {
  /** How its names end: a company's endings, or what the place is (`Clinic`, `Veterinary Clinic`). */
  endings: readonly string[];
  /** A company (its people's rows have work emails there) rather than a place of business (whose customers' rows do not). */
  company: boolean;
}

/** The organisation a table's rows are (by the last of its words that names one), if any. */
export function organisationOf(entity: Entity, entities: readonly Entity[]): Organisation | undefined {
  const tableWords = words.singularWords(entity.id);
  for (let i = tableWords.length - 1; i >= 0; i--) {
    const word = tableWords[i]!;
    if (PLACE_WORDS.includes(word)) {
      const vet = entities.some((other) => vocabularyTable(other, 'name.pet'));
      return { endings: (vet ? VET_KINDS[word] : undefined) ?? [CAPITAL(word)], company: false };
    }
    if (COMPANY_WORDS.includes(word)) return { endings: words.COMPANY_ENDINGS, company: true };
  }
  return undefined;
}

function vocabularyTable(entity: Entity, kind: VocabularyKindId): boolean {
  const spec: VocabularyKind = VOCABULARY_KINDS[kind];
  return spec.table?.(words.singularWords(entity.id), entity) ?? false;
}

/** Whether a field is its organisation's name: a name-like column (`name`, `clinic_name`, `legal_name`) of an organisation's table. */
export function organisationName(entity: Entity, entities: readonly Entity[], field: Field): Organisation | undefined {
  if (!TEXT.has(field.type) || (field.format !== undefined && field.format !== 'plain') || roomOf(field) < 12) return undefined;
  const id = normalizeId(field.id);
  if (!nameLike(entity, field) && !['companyname', 'businessname', 'legalname', 'tradingname', 'organizationname', 'organisationname'].includes(id)) return undefined;
  if (id === 'title' || id === 'label') return undefined;
  return organisationOf(entity, entities);
}

/** A name of an organisation: a surname or a place-like word, then its ending (`Hughes Group`, `Riverside Veterinary Clinic`). */
export const organisationMaker: RuleMaker = (context, field, stream) => {
  const organisation = organisationName(context.entity, context.entities, field);
  if (!organisation) return undefined;
  const room = roomOf(field);
  const surnames = context.words.lastNames;
  const shortest = [...organisation.endings].sort((a, b) => a.length - b.length)[0]!;
  return cursorProgram(stream, (cursor) => {
    const first = cursor.chance(0.5) ? cursor.pick(surnames) : cursor.pick(words.NAME_PREFIXES);
    const name = `${first} ${cursor.pick(organisation.endings)}`;
    if (name.length <= room) return name;
    // A narrow column: the shortest ending, after the shortest word that leaves room for it.
    const short = `${first} ${shortest}`;
    return short.length <= room ? short : `${SHORTEST_PREFIX} ${shortest}`;
  });
};

const SHORTEST_PREFIX = [...words.NAME_PREFIXES].sort((a, b) => a.length - b.length)[0]!;

/** The report's check of an organisation's name: it ends in one of its endings. */
export function organisationCheck(entity: Entity, entities: readonly Entity[], field: Field): { against: string; holds: (value: string) => boolean } | undefined {
  const organisation = organisationName(entity, entities, field);
  if (!organisation) return undefined;
  return { against: `names ending in ${organisation.endings.slice(0, 3).join(', ')}${organisation.endings.length > 3 ? '…' : ''}`, holds: (value) => organisation.endings.some((ending) => value.endsWith(` ${ending}`)) };
}

// Other bare names: by what the table's rows are.

/** Table words of people (singular): a bare name there is a person's. */
const PEOPLE_WORDS = new Set([
  'user', 'person', 'people', 'customer', 'author', 'employee', 'member', 'contact', 'student', 'teacher', 'patient', 'client', 'staff',
  'driver', 'player', 'subscriber', 'guest', 'candidate', 'applicant', 'owner', 'manager', 'agent', 'actor', 'artist', 'vet',
  'veterinarian', 'doctor', 'nurse', 'worker', 'physician', 'instructor', 'professor', 'technician', 'volunteer', 'visitor',
  'passenger', 'buyer', 'seller', 'reviewer', 'attendee', 'participant', 'speaker', 'musician', 'composer', 'director', 'writer',
  'editor', 'admin', 'administrator', 'representative', 'rep', 'assignee', 'recipient', 'sender', 'tutor', 'coach', 'athlete',
]);
const PERSON_FIELDS = new Set(['firstname', 'givenname', 'forename', 'lastname', 'surname', 'familyname', 'gender', 'sex', 'birthdate', 'dateofbirth', 'dob']);
const PRODUCT_WORDS = ['product', 'item', 'good', 'sku', 'article', 'merchandise', 'variant', 'listing'];

export type NameKind = 'person' | 'product' | 'thing';

/** What a bare `name` (or `<table>_name`) of a table that is no organisation, pet or kind holds: a person's name only on tables of people. */
export function nameKindOf(entity: Entity, field: Field): NameKind | undefined {
  const id = normalizeId(field.id);
  const tableWords = words.singularWords(entity.id);
  if (!TEXT.has(field.type) || (id !== 'name' && id !== `${tableWords.join('')}name`)) return undefined;
  if (tableWords.some((word) => PEOPLE_WORDS.has(word)) || entity.fields.some((other) => other !== field && PERSON_FIELDS.has(normalizeId(other.id)))) return 'person';
  if (tableWords.some((word) => PRODUCT_WORDS.includes(word))) return 'product';
  return 'thing';
}

const twoWords = english((w, c) => twoWordName(w, c));

/** A bare name by its table: a person's full name on people's tables, a product's on products', else two words. */
export const nameByTable: RuleMaker = (context, field, stream) => {
  switch (nameKindOf(context.entity, field)) {
    case 'person':
      return fullName(context, field, stream);
    case 'product':
      return productNameText(context, field, stream);
    case 'thing':
      return twoWords(context, field, stream);
    case undefined:
      return undefined;
  }
};

/** The report's check of a bare name, by the kind its table chose (`against`): the value has that kind's two or more words (a shape, not a proof of the kind). */
export function nameByTableCheck(entity: Entity, field: Field): { against: string; holds: (value: string) => boolean } | undefined {
  const kind = nameKindOf(entity, field);
  if (!kind) return undefined;
  const wordCount = (value: string) => value.split(' ').length;
  if (kind === 'person') return { against: "people's names", holds: (value) => wordCount(value) >= 2 };
  return { against: kind === 'product' ? 'product names' : 'two-word names', holds: (value) => wordCount(value) >= 2 };
}

// The web of a company: its website, domain and the emails of its people.

/** The domain of a company's name: its words in ASCII without legal endings, joined (`Hughes Group` → hughesgroup.com). */
export function companyDomain(name: string): string {
  const parts = name
    .split(/[^\p{L}\p{N}]+/u)
    .map((word) => toAsciiWord(word))
    .filter((word) => word.length > 0 && !LEGAL.has(word));
  let slug = parts.join('');
  if (slug.length > 24) slug = parts.slice(0, 2).join('');
  return `${slug || 'company'}.com`;
}
const LEGAL = new Set(['inc', 'llc', 'ltd', 'co', 'corp', 'corporation', 'plc', 'gmbh', 'ag', 'sa', 'and', 'the', 'of']);

/** Table words of people who work at a place of business (a vet's email is at their clinic's domain). */
const STAFF_WORDS = new Set(['employee', 'staff', 'vet', 'veterinarian', 'doctor', 'nurse', 'physician', 'worker', 'agent', 'technician', 'instructor', 'teacher', 'professor', 'manager', 'rep', 'representative', 'clerk', 'cashier', 'stylist', 'trainer', 'pharmacist', 'dentist', 'therapist', 'receptionist']);

/** Columns that name a company in any table (`customers.company_name`). */
const COMPANY_COLUMNS = new Set(['company', 'companyname', 'businessname', 'organization', 'organisation', 'organizationname', 'organisationname', 'employer', 'employername']);

/** Where the company of a row is: a column of the row, or a column of the organisation a reference points at. */
export type CompanySource = { kind: 'row'; index: number } | { kind: 'parent'; reference: number; parent: string; parentKey: string; name: Field };

/** The company name a row's web columns are made from, if it has one. */
export function companySource(entity: Entity, entities: readonly Entity[], self: Field): CompanySource | undefined {
  const own = entity.fields.findIndex((field) => field !== self && (COMPANY_COLUMNS.has(normalizeId(field.id)) || organisationName(entity, entities, field) !== undefined));
  if (own >= 0 && TEXT.has(entity.fields[own]!.type)) return { kind: 'row', index: own };
  const staff = words.singularWords(entity.id).some((word) => STAFF_WORDS.has(word));
  for (const [reference, field] of entity.fields.entries()) {
    const target = referenceTarget(field);
    if (!target || target.entity === entity.id) continue;
    const parent = entities.find((candidate) => candidate.id === target.entity);
    // A company's people work there; a clinic's, hotel's or store's rows are its customers unless the row is staff.
    const works = (organisation: Organisation | undefined) => organisation !== undefined && (organisation.company || staff);
    const name = parent?.fields.find((candidate) => works(organisationName(parent, entities, candidate)) && !candidate.generation?.strategy);
    if (parent && name) return { kind: 'parent', reference, parent: parent.id, parentKey: target.field, name };
  }
  return undefined;
}

const WEBSITE_COLUMNS = new Set(['website', 'websiteurl', 'web', 'site', 'url', 'homepage', 'homepageurl', 'weburl', 'siteurl', 'companywebsite', 'companyurl']);
const DOMAIN_COLUMNS = new Set(['domain', 'domainname', 'emaildomain', 'companydomain', 'webdomain']);
const EMAIL_COLUMNS = new Set(['email', 'emailaddress', 'mail', 'workemail', 'businessemail', 'companyemail', 'contactemail', 'officeemail', 'supportemail', 'infoemail', 'billingemail', 'salesemail']);

export type WebKind = 'website' | 'domain' | 'email';

/** What a web column of a row with a company is: its website, its domain, or an email at its domain. Emails only on organisations' rows (of the row's company) and people's (their employer's). */
export function webKindOf(scope: RuleScope, field: Field): WebKind | undefined {
  if (!TEXT.has(field.type)) return undefined;
  const id = normalizeId(field.id);
  const format = field.format ?? 'plain';
  const kind: WebKind | undefined =
    WEBSITE_COLUMNS.has(id) && (format === 'plain' || format === 'url') ? 'website' : DOMAIN_COLUMNS.has(id) && format === 'plain' ? 'domain' : EMAIL_COLUMNS.has(id) && (format === 'plain' || format === 'email') ? 'email' : undefined;
  if (!kind || roomOf(field) < 16) return undefined;
  const source = companySource(scope.entity, scope.entities, field);
  if (!source) return undefined;
  // A person's own website or domain is not their employer's; a row's company column names a company it deals with, not whose emails it has.
  if (source.kind === 'parent' && kind !== 'email') return undefined;
  return kind;
}

/** Local parts of an organisation's own addresses. */
const ROLES = ['info', 'contact', 'hello', 'office', 'support', 'sales', 'admin', 'team'];

/** Websites, domains and work emails from the row's company (or the company its reference points at). */
export const webOfCompany: RuleMaker = (context, field, stream, next) => {
  const scope = { entity: context.entity, entities: context.entities, deferred: context.plan.deferredColumns, version: context.version };
  const kind = webKindOf(scope, field);
  const source = kind && companySource(context.entity, context.entities, field);
  if (!kind || !source) return undefined;
  const domains = new Map<string, string>();
  const domainOf = (name: RowValue | undefined): string | undefined => {
    if (typeof name !== 'string' || name.length === 0) return undefined;
    let domain = domains.get(name);
    if (domain === undefined) {
      if (domains.size > 10_000) domains.clear();
      domains.set(name, (domain = companyDomain(name)));
    }
    return domain;
  };
  let read: (values: readonly RowValue[]) => string | undefined;
  let deps: number[];
  if (source.kind === 'row') {
    read = (values) => domainOf(values[source.index]);
    deps = [source.index];
  } else {
    const lookup = context.parentValue({ field: context.entity.fields[source.reference]!, target: { entity: source.parent, field: source.parentKey } }, source.name.id);
    if (!lookup) return undefined;
    read = (values) => {
      const key = values[source.reference];
      return key === null || key === undefined ? undefined : domainOf(lookup(key) ?? undefined);
    };
    deps = [source.reference];
  }
  const room = roomOf(field);
  // Rows without a company (a null name or reference), or whose value would not fit, keep the next rule's value.
  const fallback = next();
  deps = [...new Set([...deps, ...(fallback.deps ?? [])])];
  const person = kind === 'email' && (source.kind === 'parent' || context.entity.fields.some((other) => PERSON_FIELDS.has(normalizeId(other.id)))) ? rowPerson(context) : undefined;
  const cursor = new Cursor(stream);
  const make = (row: number, values: readonly RowValue[], attempt: number, c: RandomCursor): string | null => {
    const domain = read(values);
    if (domain === undefined) return null;
    if (kind === 'domain') return domain;
    if (kind === 'website') return `https://www.${domain}`;
    const local = person ? localPart(person(row, 0, values), attempt) : attempt === 0 ? c.pick(ROLES) : `${c.pick(ROLES)}${attempt + 1}`;
    return `${local}@${domain}`;
  };
  return {
    at: (row, values, attempt) => {
      const value = make(row, values, attempt, cursor.reset(row, attempt * DRAWS_PER_ATTEMPT));
      return value !== null && value.length <= room ? value : fallback.at(row, values, attempt);
    },
    deps,
  };
};

/** `first.last` of a person's ASCII names (with a number on a retry), or their initial and last name where the first is not ASCII. */
function localPart(person: { firstAscii: string; lastAscii: string }, attempt: number): string {
  const base = person.firstAscii && person.lastAscii ? `${person.firstAscii}.${person.lastAscii}` : person.lastAscii || person.firstAscii || 'team';
  return attempt === 0 ? base : `${base}${attempt + 1}`;
}

// Staff's titles.

/** Whether a field is a staff member's `title` (`employees.title`): their job, not a headline. */
export function staffTitle(entity: Entity, field: Field): boolean {
  return TEXT.has(field.type) && normalizeId(field.id) === 'title' && roomOf(field) >= 12 && words.singularWords(entity.id).some((word) => STAFF_WORDS.has(word));
}

let jobTypes: Set<string> | undefined;

/** The report's check of a staff title: it ends in a job of faker's English list (`… Officer`, `… Engineer`). */
export function staffTitleCheck(entity: Entity, _entities: readonly Entity[], field: Field): { against: string; holds: (value: string) => boolean } | undefined {
  if (!staffTitle(entity, field)) return undefined;
  jobTypes ??= new Set((mergedDefinitions('en').person?.job_type ?? []) as string[]);
  const known = jobTypes;
  return { against: 'job titles', holds: (value) => known.has(value.slice(value.lastIndexOf(' ') + 1)) };
}
