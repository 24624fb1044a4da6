// Version 4's identifiers, codes and organisation words (identifier-makers.ts), on rows made in
// memory: formats with valid check digits, distinct document numbers, codes by length; version 3
// of the same fields keeps its words.
import { describe, expect, it } from 'vitest';
import type { Field } from '../../../src/model/config-types.ts';
import { DEPARTMENTS } from '../../../src/generation/rules/identifier-makers.ts';
import { config, entity, generate } from '../../helpers/generate-in-memory.ts';

const ROWS = 300;
const FIELDS: Field[] = [
  { id: 'invoice_number', type: 'string', maxLength: 20 },
  { id: 'license_no', type: 'string', maxLength: 20 },
  { id: 'registration_number', type: 'string', maxLength: 12 },
  { id: 'microchip_id', type: 'string', maxLength: 15 },
  { id: 'sku', type: 'string', maxLength: 12 },
  { id: 'isbn', type: 'string', maxLength: 17 },
  { id: 'isbn13', type: 'string', maxLength: 13 },
  { id: 'iban', type: 'string', maxLength: 34 },
  { id: 'code', type: 'string', maxLength: 12 },
  { id: 'language', type: 'string', maxLength: 2 },
  { id: 'preferred_language', type: 'string', maxLength: 3 },
  { id: 'spoken_language', type: 'string', maxLength: 40 },
  { id: 'department', type: 'string', maxLength: 40 },
  { id: 'job_title', type: 'string', maxLength: 80 },
  { id: 'short_code', type: 'string', maxLength: 1 },
];
const schema = () => config(entity('procedures', ROWS, FIELDS));
const strings = (version: 3 | 4, field: string) => generate(schema(), { generatorVersion: version }).column('procedures', field) as string[];

const isbnCheck = (digits: string) => [...digits].reduce((sum, digit, i) => sum + Number(digit) * (i % 2 === 0 ? 1 : 3), 0) % 10 === 0;
function ibanValid(iban: string): boolean {
  const moved = `${iban.slice(4)}${iban.slice(0, 4)}`.replace(/[A-Z]/g, (char) => String(char.charCodeAt(0) - 55));
  return BigInt(moved) % 97n === 1n;
}

describe('version 4: identifiers and codes by name and length', () => {
  it.each<[string, { want: RegExp }]>([
    ['invoice_number', { want: /^INV-\d{6}$/ }],
    ['license_no', { want: /^[A-Z]{2}\d{6}$/ }],
    ['registration_number', { want: /^[A-Z]{3}-\d{4}$/ }],
    ['microchip_id', { want: /^9\d{14}$/ }],
    ['sku', { want: /^[A-Z]{3}-\d{5}$/ }],
    ['isbn', { want: /^978-\d-\d{5}-\d{3}-\d$/ }],
    ['isbn13', { want: /^978\d{10}$/ }],
    ['iban', { want: /^US\d{2}[A-Z]{4}\d{14}$/ }],
    ['code', { want: /^PRO-\d{4}$/ }],
    ['language', { want: /^(en|es|fr|de|zh|pt|ja|it|ru|ar|hi|ko|nl|sv|pl|tr)$/ }],
    ['preferred_language', { want: /^[a-z]{3}$/ }],
    ['spoken_language', { want: /^[A-Z][a-z]+$/ }],
  ])('%s has its format', (field, { want }) => {
    for (const value of strings(4, field)) expect(value, field).toMatch(want);
  });

  it('check digits hold (ISBN-13, IBAN mod 97) and document numbers and codes are distinct', () => {
    for (const value of strings(4, 'isbn')) expect(isbnCheck(value.replace(/-/g, '')), value).toBe(true);
    for (const value of strings(4, 'isbn13')) expect(isbnCheck(value), value).toBe(true);
    for (const value of strings(4, 'iban')) expect(ibanValid(value), value).toBe(true);
    for (const field of ['invoice_number', 'code']) expect(new Set(strings(4, field)).size, field).toBe(ROWS);
  });

  it('departments come from the list, job titles are not headlines, English is half the languages', () => {
    for (const value of strings(4, 'department')) expect(DEPARTMENTS).toContain(value);
    expect(new Set(strings(4, 'department')).size).toBeGreaterThan(8);
    const titles = strings(4, 'job_title');
    expect(titles.filter((title) => / the /.test(title)).length).toBe(0);
    const english = strings(4, 'language').filter((code) => code === 'en').length / ROWS;
    expect(english).toBeGreaterThan(0.4);
    expect(english).toBeLessThan(0.6);
  });

  it('a column too short for a format is left to the rules after it; version 3 keeps its words', () => {
    expect(new Set(strings(4, 'short_code').map((value) => value.length))).toEqual(new Set([1]));
    expect(strings(3, 'license_no').some((value) => /^[A-Z]{2}\d{6}$/.test(value))).toBe(false);
    expect(strings(3, 'invoice_number').some((value) => value.startsWith('INV-'))).toBe(false);
  });
});
