// The person of a row (generator version 2): one sex, first, middle and last name drawn once per row
// from the row's own stream, so a row's firstName, lastName, fullName, email, username and gender agree.
// The person depends on (seed, entity, row) alone: adding or removing a field never changes it.
import type { RowValue } from '../../model/row-value.ts';
import type { EntityContext } from '../program.ts';
import { RandomCursor, RandomStream, streamKey } from '../random.ts';
import { toAsciiWord } from '../values/words.ts';

export interface Person {
  sex: 'female' | 'male';
  first: string;
  middle: string;
  last: string;
  /** Lower-case ASCII forms ('' when the locale writes names in another script). */
  firstAscii: string;
  lastAscii: string;
}

interface NameLists {
  female: readonly string[];
  male: readonly string[];
  last: readonly string[];
  /** toAsciiWord of each name, index for index: made once per locale instead of twice per row. */
  femaleAscii: readonly string[];
  maleAscii: readonly string[];
  lastAscii: readonly string[];
}

const PLAIN = /^[A-Za-z]+$/;
const listCache = new Map<string, NameLists>();

/**
 * The locale's names by sex. In Latin-script locales only names written in plain letters are kept,
 * so an email or username holds the name exactly (lower-cased) and that can be checked in SQL.
 */
function nameLists(context: EntityContext): NameLists {
  let lists = listCache.get(context.plan.locale);
  if (lists) return lists;
  const patterns = context.words.patterns;
  const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : []);
  const byKey = (path: string[], key: string): string[] => {
    const value = patterns.entry(path);
    if (Array.isArray(value)) return strings(value);
    if (value && typeof value === 'object') return strings((value as Record<string, unknown>)[key] ?? (value as Record<string, unknown>).generic);
    return [];
  };
  const plain = (names: string[], fallback: readonly string[]): readonly string[] => {
    const kept = names.filter((name) => PLAIN.test(name));
    if (kept.length >= Math.max(20, names.length / 2)) return kept;
    return names.length > 0 ? names : fallback;
  };
  const female = plain(byKey(['person', 'first_name'], 'female'), context.words.firstNames);
  const male = plain(byKey(['person', 'first_name'], 'male'), context.words.firstNames);
  const last = plain(byKey(['person', 'last_name'], 'generic'), context.words.lastNames);
  lists = { female, male, last, femaleAscii: female.map(toAsciiWord), maleAscii: male.map(toAsciiWord), lastAscii: last.map(toAsciiWord) };
  listCache.set(context.plan.locale, lists);
  return lists;
}

const FEMALE = /^(f|female|woman|w|girl|femme|weiblich)$/i;
const MALE = /^(m|male|man|boy|homme|männlich)$/i;

/**
 * Index of the row's gender or sex field when a strategy sets it (the names then follow its value);
 * -1 when there is none or it has no strategy (then it shows the person's own sex).
 */
export function genderSource(context: EntityContext): number {
  return context.entity.fields.findIndex(
    (field) => ['gender', 'sex'].includes(field.id.toLowerCase().replace(/[_-]/g, '')) && field.generation?.strategy !== undefined && !field.references,
  );
}

const people = new WeakMap<EntityContext, (row: number, attempt?: number, values?: readonly RowValue[]) => Person>();

/**
 * The person of each row of the entity (the last row's person is kept: fields of a row ask in turn).
 * `attempt` > 0 (a unique field's value was taken) gives another person for that field alone.
 */
export function rowPerson(context: EntityContext): (row: number, attempt?: number, values?: readonly RowValue[]) => Person {
  let person = people.get(context);
  if (person) return person;
  const lists = nameLists(context);
  const cursor = new RandomCursor(new RandomStream(streamKey(context.plan.seed, context.entity.id, '$person')));
  let lastRow = -1;
  let last: Person | undefined;
  const gender = genderSource(context);
  const draw = (row: number, attempt: number, values: readonly RowValue[] | undefined): Person => {
    cursor.reset(row, attempt * 8);
    const drawn = cursor.chance(0.5) ? 'female' : 'male';
    // Without a gender strategy (the usual case) there is nothing to read: the drawn sex stands.
    const given = gender >= 0 && values ? String(values[gender] ?? '') : '';
    const sex = given === '' ? drawn : FEMALE.test(given) ? 'female' : MALE.test(given) ? 'male' : drawn;
    const firsts = sex === 'female' ? lists.female : lists.male;
    const first = cursor.index(firsts.length);
    const middle = cursor.pick(firsts);
    const lastName = cursor.index(lists.last.length);
    return {
      sex,
      first: firsts[first]!,
      middle,
      last: lists.last[lastName]!,
      firstAscii: (sex === 'female' ? lists.femaleAscii : lists.maleAscii)[first]!,
      lastAscii: lists.lastAscii[lastName]!,
    };
  };
  person = (row, attempt = 0, values) => {
    if (attempt > 0) return draw(row, attempt, values);
    if (row !== lastRow) {
      last = draw(row, 0, values);
      lastRow = row;
    }
    return last!;
  };
  people.set(context, person);
  return person;
}

/**
 * An email built from the person's names: first.last, firstlast42, first_last or flast123 at a free
 * mail domain of the locale. `attempt` > 0 (a unique email was taken) always adds digits.
 */
export function personEmail(person: Person, cursor: RandomCursor, domains: readonly string[], attempt: number): string {
  const first = person.firstAscii || 'user';
  const last = person.lastAscii || 'mail';
  const style = cursor.u32() % 4;
  const digits = attempt > 0 ? String(cursor.int(1, 10 ** Math.min(2 + attempt, 9))) : '';
  const local =
    style === 0
      ? `${first}.${last}${digits}`
      : style === 1
        ? `${first}${last}${digits || cursor.int(1, 99)}`
        : style === 2
          ? `${first}_${last}${digits}`
          : `${first[0]}${last}${digits || cursor.int(1, 999)}`;
  return `${local}@${cursor.pick(domains)}`;
}

/** A username built from the person's names: first.last, first_last7, firstlast or flast42. */
export function personUsername(person: Person, cursor: RandomCursor, attempt: number): string {
  const first = person.firstAscii || 'user';
  const last = person.lastAscii || '';
  const style = cursor.u32() % 4;
  const digits = attempt > 0 ? String(cursor.int(1, 10 ** Math.min(2 + attempt, 9))) : '';
  if (style === 0) return `${first}.${last}${digits}`;
  if (style === 1) return `${first}_${last}${digits || cursor.int(1, 99)}`;
  if (style === 2) return `${first}${last}${digits}`;
  return `${first[0]}${last}${digits || cursor.int(1, 999)}`;
}

/**
 * Whether an email or username is built from these names: it starts with the first name's initial and
 * holds the last name (both lower-cased). The coherence report and the SQL tests count this rule.
 */
export function derivedFromNames(value: string, first: string, last: string): boolean {
  const text = value.toLowerCase();
  return first.length > 0 && last.length > 0 && text.startsWith(first[0]!.toLowerCase()) && text.includes(last.toLowerCase());
}
