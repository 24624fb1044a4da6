// Generator version 4's first meaning rules (rule set `meaning`), on rows made in memory: money,
// quantities, flags, durations, country and currency codes, past-tense pair ends. Version 3 of the
// same config keeps its values (its digests are pinned elsewhere); here it shows the difference.
import { countries } from 'countries-list';
import { describe, expect, it } from 'vitest';
import type { Field } from '../../../src/model/config-types.ts';
import { ruleOf } from '../../../src/generation/rules/choose-rule.ts';
import { pastTense } from '../../../src/generation/rules/meaning-makers.ts';
import { placesOf } from '../../../src/generation/coherence/places.ts';
import { config, entity, generate, REFERENCE_DATE } from '../../helpers/generate-in-memory.ts';

const ROWS = 600;
const FIELDS: Field[] = [
  { id: 'unit_price', type: 'number', precision: 2 },
  { id: 'listPrice', type: 'number' },
  { id: 'total', type: 'number', precision: 2 },
  { id: 'tax_amount', type: 'number', precision: 2 },
  { id: 'salary', type: 'integer' },
  { id: 'quantity', type: 'integer' },
  { id: 'is_active', type: 'integer' },
  { id: 'active', type: 'string', maxLength: 1 },
  { id: 'is_deleted', type: 'integer' },
  { id: 'milliseconds', type: 'integer' },
  { id: 'duration_seconds', type: 'number' },
  { id: 'rental_days', type: 'integer' },
  { id: 'country', type: 'string', maxLength: 2 },
  { id: 'billing_country', type: 'string', maxLength: 3 },
  { id: 'currency', type: 'string', maxLength: 3 },
  { id: 'state', type: 'string', maxLength: 2 },
  { id: 'city', type: 'string' },
  { id: 'startedAt', type: 'datetime' },
  { id: 'endedAt', type: 'datetime' },
  { id: 'opened_on', type: 'date' },
  { id: 'closed_on', type: 'date' },
  { id: 'bounded_price', type: 'number', min: 500, max: 600 },
];
const schema = () => config(entity('lines', ROWS, FIELDS));
const column = (version: 3 | 4, field: string) => generate(schema(), { generatorVersion: version }).column('lines', field);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const share = (values: unknown[], test: (value: unknown) => boolean) => values.filter(test).length / values.length;

describe('generator version 4: meanings by name, type and length', () => {
  const v4 = generate(schema(), { generatorVersion: 4 });
  const values = (field: string) => v4.column('lines', field);
  const numbers = (field: string) => values(field) as number[];

  it('prices are small with cents that end like prices; amounts and salaries have their own sizes', () => {
    for (const field of ['unit_price', 'listPrice']) {
      const prices = numbers(field);
      expect(Math.min(...prices), field).toBeGreaterThan(0);
      expect(median(prices), field).toBeLessThan(50);
      expect(share(prices, (price) => [99, 49, 95, 0].includes(Math.round((price as number) * 100) % 100)), field).toBe(1);
    }
    // `total` sits beside a quantity and a unit price: it is their product (row-formulas.test.ts).
    for (const row of v4.objects('lines')) expect(Math.round((row.total as number) * 100)).toBe((row.quantity as number) * Math.round((row.unit_price as number) * 100));
    for (const field of ['tax_amount']) {
      const amounts = numbers(field);
      expect(Math.min(...amounts)).toBeGreaterThanOrEqual(2);
      expect(Math.max(...amounts)).toBeLessThanOrEqual(2000);
      expect(median(amounts)).toBeGreaterThan(20);
      expect(median(amounts)).toBeLessThan(200);
    }
    const salaries = numbers('salary');
    expect(share(salaries, (salary) => (salary as number) >= 25_000 && (salary as number) <= 200_000 && (salary as number) % 500 === 0)).toBe(1);
    expect(median(column(3, 'unit_price') as number[])).toBeGreaterThan(100);
  });

  it('quantities are small positive whole numbers, mostly 1', () => {
    const quantities = numbers('quantity');
    expect(share(quantities, (q) => Number.isInteger(q) && (q as number) >= 1 && (q as number) <= 50)).toBe(1);
    expect(share(quantities, (q) => q === 1)).toBeGreaterThan(0.5);
    expect(median(column(3, 'quantity') as number[])).toBeGreaterThan(20);
  });

  it('flags are 0/1 in integers and Y/N in one character, on as often as their word says', () => {
    expect(new Set(values('is_active'))).toEqual(new Set([0, 1]));
    expect(share(values('is_active'), (v) => v === 1)).toBeGreaterThan(0.75);
    expect(share(values('is_deleted'), (v) => v === 1)).toBeLessThan(0.2);
    expect(new Set(values('active'))).toEqual(new Set(['Y', 'N']));
  });

  it('durations are in the unit of their name', () => {
    const within = (field: string, low: number, high: number) => expect(share(values(field), (v) => (v as number) >= low && (v as number) <= high), field).toBe(1);
    within('milliseconds', 2_000, 900_000);
    within('duration_seconds', 5, 7_200);
    within('rental_days', 1, 30);
    expect(median(numbers('milliseconds'))).toBeGreaterThan(10_000);
  });

  it('country and state columns of 2 and 3 characters hold codes of the row’s place, currencies ISO 4217', () => {
    const alpha2 = new Set(Object.keys(countries));
    expect(share(values('country'), (code) => alpha2.has(code as string))).toBe(1);
    expect(new Set(values('country'))).toEqual(new Set(['US'])); // locale en: places of the US
    expect(new Set(values('billing_country'))).toEqual(new Set(['USA']));
    expect(new Set(values('currency'))).toEqual(new Set(['USD']));
    const states = new Set(Object.values(values('state')));
    expect(states.size).toBeGreaterThan(20);
    expect([...states].every((state) => /^[A-Z]{2}$/.test(state as string))).toBe(true);
    // The state is the row's city's: every (state, city) pair is one of the reference places.
    const pairs = new Set(placesOf('US', 4).map((place) => `${place.stateCode}|${place.city}`));
    expect(v4.objects('lines').every((row) => pairs.has(`${row.state}|${row.city}`))).toBe(true);
    // Version 3 cut the country's name to the column's length.
    expect(column(3, 'country').every((code) => code === 'US')).toBe(false);
    expect(column(3, 'state').every((state) => /^[A-Z]{2}$/.test(state as string))).toBe(false);
  });

  it('past-tense ends of pairs follow their start and never pass the reference date', () => {
    const now = Date.parse(`${REFERENCE_DATE}T00:00:00Z`);
    const rows = v4.objects('lines');
    for (const row of rows) {
      expect(Date.parse(row.endedAt as string)).toBeGreaterThanOrEqual(Date.parse(row.startedAt as string));
      expect(row.closed_on as string >= (row.opened_on as string)).toBe(true);
      if (Date.parse(row.startedAt as string) <= now) expect(Date.parse(row.endedAt as string)).toBeLessThanOrEqual(now);
      if ((row.opened_on as string) <= REFERENCE_DATE) expect(row.closed_on as string <= REFERENCE_DATE).toBe(true);
    }
    // Version 3 gave ends 30 days of room past their start, into the future.
    const v3 = generate(schema(), { generatorVersion: 3 }).objects('lines');
    expect(v3.some((row) => Date.parse(row.endedAt as string) > now)).toBe(true);
  });

  it("leaves a field's own bounds to win", () => {
    expect(share(values('bounded_price'), (v) => (v as number) >= 500 && (v as number) <= 600)).toBe(1);
  });

  it('reads past tense and word parts as documented', () => {
    expect(['endedAt', 'closed_on', 'returned_at', 'paid_at', 'born'].filter((id) => !pastTense(id))).toEqual([]);
    expect(['endDate', 'due_at', 'expiresAt', 'validTo', 'starts_at'].filter((id) => pastTense(id))).toEqual([]);
    const scope = (field: Field) => ({ entity: { ...entity('t', 1, [field]) }, entities: [], deferred: [], version: 4 as const });
    const rule = (field: Field) => ruleOf(scope(field), field)?.id;
    expect(rule({ id: 'hasChildren', type: 'integer' })).toBe('flag.on-off');
    expect(rule({ id: 'hasChildren', type: 'string', maxLength: 1 })).toBe('flag.on-off');
    expect(rule({ id: 'hasChildren', type: 'string' })).toBe('text.words');
    // Words, not letters: `account` is no count of version 4 (version 1's ending `count` still takes it).
    expect(rule({ id: 'account', type: 'integer' })).toBe('number.quantity');
    expect(rule({ id: 'line_quantity', type: 'integer' })).toBe('number.small-quantity');
    expect(rule({ id: 'country', type: 'string', maxLength: 40 })).toBe('place.country');
    expect(rule({ id: 'email', type: 'string' })).toBe('person.email');
  });
});
