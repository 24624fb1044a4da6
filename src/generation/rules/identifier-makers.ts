// Value makers of generator version 4 for identifiers, codes and words of organisations (which field
// gets which is field-rules.ts): document numbers by row (`INV-000042`), licence, registration,
// microchip, SKU, ISBN and IBAN formats with their check digits where they have one, a table's own
// codes, ISO 639 language codes by length, departments. A maker declines a column too short for
// its format; the field then keeps the next rule's value.
import type { RuleMaker } from './field-rule.ts';
import type { RandomCursor } from '../random.ts';
import type { ValueProgram } from '../program.ts';
import { cursorProgram } from '../program.ts';
import { localeCountry } from '../coherence/places.ts';
import { idWords } from './field-rule.ts';
import { roomOf } from './room.ts';

const LETTERS = 'ABCDEFGHJKLMNPRSTUVWXYZ'; // no I, O, Q: they read as digits
const letters = (cursor: RandomCursor, count: number) => {
  let text = '';
  for (let i = 0; i < count; i++) text += LETTERS[cursor.index(LETTERS.length)];
  return text;
};
const digits = (cursor: RandomCursor, count: number) => {
  let text = '';
  for (let i = 0; i < count; i++) text += String(cursor.index(10));
  return text;
};

/** A program of one format when the column has room for `length` characters; else the maker declines. */
const formatted =
  (length: number, make: (cursor: RandomCursor) => string): RuleMaker =>
  (_context, field, stream) =>
    roomOf(field) >= length ? cursorProgram(stream, make, true) : undefined;

/** Prefixes of document numbers by the word before `number`/`no` (`invoice_no` → INV). */
const DOCUMENT_PREFIXES: Record<string, string> = {
  invoice: 'INV',
  order: 'ORD',
  po: 'PO',
  purchase: 'PO',
  receipt: 'RCP',
  booking: 'BKG',
  reservation: 'RES',
  confirmation: 'CNF',
  ticket: 'TKT',
  quote: 'QTE',
  credit: 'CRN',
  shipment: 'SHP',
};

/** Document numbers, one per row in row order (`INV-000042`): distinct by construction. */
export const documentNumber: RuleMaker = (_context, field) => {
  const prefix = idWords(field.id).map((word) => DOCUMENT_PREFIXES[word]).find((found) => found !== undefined) ?? 'NO';
  const width = 6;
  if (roomOf(field) < prefix.length + 1 + width) return undefined;
  const program: ValueProgram = { at: (row) => `${prefix}-${String(row + 1).padStart(width, '0')}`, typed: true, distinct: true };
  return program;
};

/** A table's own code (`procedures.code` → `PRO-0042`), one per row: distinct by construction. */
export const tableCode: RuleMaker = (context, field) => {
  const prefix = context.entity.id.replace(/[^A-Za-z]/g, '').slice(0, 3).toUpperCase() || 'C';
  const width = 4;
  if (roomOf(field) < prefix.length + 1 + width) return undefined;
  const program: ValueProgram = { at: (row) => `${prefix}-${String(row + 1).padStart(width, '0')}`, typed: true, distinct: true };
  return program;
};

/** Licence and permit numbers: two letters and six digits (`KX482913`). */
export const licenseNumber = formatted(8, (cursor) => letters(cursor, 2) + digits(cursor, 6));

/** Registrations (of a vehicle, a company): three letters, a dash, four digits (`KTX-4821`). */
export const registrationNumber = formatted(8, (cursor) => `${letters(cursor, 3)}-${digits(cursor, 4)}`);

/** Microchips: ISO 11784's 15 digits, a manufacturer's 9xx code first. */
export const microchipNumber = formatted(15, (cursor) => `9${digits(cursor, 2)}${digits(cursor, 12)}`);

/** Stock-keeping units: three letters, a dash, five digits (`KTX-04821`). */
export const skuCode = formatted(9, (cursor) => `${letters(cursor, 3)}-${digits(cursor, 5)}`);

/** ISBN-13 with its check digit, hyphenated where the column has room (`978-1-49207-312-4`). */
export const isbn: RuleMaker = (context, field, stream, next) => {
  const hyphens = roomOf(field) >= 17;
  return formatted(13, (cursor) => {
    const body = `978${digits(cursor, 9)}`;
    let sum = 0;
    for (let i = 0; i < 12; i++) sum += Number(body[i]) * (i % 2 === 0 ? 1 : 3);
    const check = String((10 - (sum % 10)) % 10);
    return hyphens ? `${body.slice(0, 3)}-${body[3]}-${body.slice(4, 9)}-${body.slice(9, 12)}-${check}` : body + check;
  })(context, field, stream, next);
};

/** The remainder modulo 97 of a long decimal string (an IBAN's check). */
function mod97(text: string): number {
  let remainder = 0;
  for (let i = 0; i < text.length; i += 7) remainder = Number(String(remainder) + text.slice(i, i + 7)) % 97;
  return remainder;
}

/** IBAN-like account numbers of the locale's country: country, ISO 13616 check digits, a bank code of four letters, 14 digits. */
export const iban: RuleMaker = (context, field, stream, next) => {
  const country = localeCountry(context.plan.locale);
  return formatted(22, (cursor) => {
    const account = letters(cursor, 4) + digits(cursor, 14);
    const numeric = [...`${account}${country}00`].map((char) => (char >= 'A' ? String(char.charCodeAt(0) - 55) : char)).join('');
    return `${country}${String(98 - mod97(numeric)).padStart(2, '0')}${account}`;
  })(context, field, stream, next);
};

/** ISO 639 languages, most spoken first: alpha-2, alpha-3 (639-2/T) and the English name. */
const LANGUAGES: readonly [string, string, string][] = [
  ['en', 'eng', 'English'],
  ['es', 'spa', 'Spanish'],
  ['fr', 'fra', 'French'],
  ['de', 'deu', 'German'],
  ['zh', 'zho', 'Chinese'],
  ['pt', 'por', 'Portuguese'],
  ['ja', 'jpn', 'Japanese'],
  ['it', 'ita', 'Italian'],
  ['ru', 'rus', 'Russian'],
  ['ar', 'ara', 'Arabic'],
  ['hi', 'hin', 'Hindi'],
  ['ko', 'kor', 'Korean'],
  ['nl', 'nld', 'Dutch'],
  ['sv', 'swe', 'Swedish'],
  ['pl', 'pol', 'Polish'],
  ['tr', 'tur', 'Turkish'],
];
/** The English names of the languages (version 5's `languages.name`). */
export const LANGUAGE_NAMES: readonly string[] = LANGUAGES.map(([, , name]) => name);
/** Half the rows in English, the rest spread over the others. */
const language = (cursor: RandomCursor) => (cursor.float() < 0.5 ? LANGUAGES[0]! : LANGUAGES[1 + cursor.index(LANGUAGES.length - 1)]!);

/** A language: its ISO 639-1 code in 2 characters, ISO 639-2 in 3, else its English name. */
export const languageCode: RuleMaker = (_context, field, stream) => {
  const room = roomOf(field);
  if (room < 2) return undefined;
  const which = room === 2 ? 0 : room === 3 ? 1 : 2;
  return cursorProgram(stream, (cursor) => language(cursor)[which], true);
};

/** Departments of a company. */
export const DEPARTMENTS = [
  'Engineering',
  'Sales',
  'Marketing',
  'Finance',
  'Human Resources',
  'Operations',
  'Customer Support',
  'Legal',
  'Product',
  'IT',
  'Research',
  'Procurement',
  'Facilities',
  'Quality Assurance',
] as const;

export const department: RuleMaker = (_context, _field, stream) => cursorProgram(stream, (cursor) => cursor.pick(DEPARTMENTS));
