// Which columns identify or describe someone (person names, contact details, free text): their
// values are never copied into a learned config, whatever their counts; sds's semantic
// generators make them instead. Judged from the column's and the table's names.
import { idWords } from '../generation/rules/field-rule.ts';

export type IdentifyingKind = 'person' | 'contact' | 'free text';

const CONTACT = new Set([
  'email', 'mail', 'phone', 'mobile', 'fax', 'telephone', 'tel', 'address', 'street', 'city', 'postal', 'zip', 'postcode', 'zipcode',
  'ssn', 'passport', 'iban', 'ip', 'username', 'login', 'password', 'birth', 'birthday', 'birthdate', 'dob', 'latitude', 'longitude',
]);
const NAME_PARTS = new Set(['first', 'last', 'middle', 'full', 'given', 'family', 'sur', 'nick', 'maiden', 'display', 'contact', 'user']);
const FREE_TEXT = new Set([
  'title', 'description', 'comment', 'comments', 'note', 'notes', 'body', 'content', 'bio', 'message', 'text', 'summary', 'review', 'remark',
  'remarks', 'caption', 'subject', 'lyrics', 'details', 'firstname', 'lastname', 'surname', 'fullname',
]);
/** Tables whose plain `name` is a person's. */
const PERSON_TABLES = new Set([
  'customer', 'user', 'employee', 'person', 'people', 'member', 'contact', 'author', 'artist', 'student', 'patient', 'client', 'staff',
  'owner', 'driver', 'account', 'profile', 'actor', 'teacher', 'manager', 'seller', 'buyer', 'guest', 'passenger', 'applicant',
]);

const singular = (word: string) => (word.endsWith('ies') ? `${word.slice(0, -3)}y` : word.endsWith('s') && !word.endsWith('ss') ? word.slice(0, -1) : word);

/** The kind of identifying column `column` of `table` is, or undefined when it may be learned. */
export function identifyingKind(table: string, column: string, tableColumns: readonly string[]): IdentifyingKind | undefined {
  const words = idWords(column);
  if (words.some((word) => CONTACT.has(word))) return 'contact';
  if (['firstname', 'lastname', 'surname', 'fullname', 'forename'].includes(words.join(''))) return 'person';
  if (words.includes('name') && words.some((word) => NAME_PARTS.has(word))) return 'person';
  if (words.some((word) => FREE_TEXT.has(word))) return 'free text';
  if (words.length === 1 && words[0] === 'name') {
    const personTable = idWords(table).some((word) => PERSON_TABLES.has(singular(word)));
    const withContact = tableColumns.some((other) => idWords(other).some((word) => CONTACT.has(word)));
    if (personTable || withContact) return 'person';
  }
  return undefined;
}
