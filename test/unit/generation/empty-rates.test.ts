import { describe, expect, it } from 'vitest';
import type { Field } from '../../../src/model/config-types.ts';
import { expectRate, values } from '../../helpers/generate-in-memory.ts';

const n = 10_000;
const withEmptyRate = (field: Field, emptyRate: number): Field => ({ ...field, generation: { ...field.generation, emptyRate } });

describe('emptyRate', () => {
  it.each<[string, Field, number]>([
    ['nullable string', { id: 'nickname', type: 'string', nullable: true }, 0.3],
    ['nullable integer', { id: 'score', type: 'integer', nullable: true }, 0.05],
    ['nullable datetime', { id: 'deletedAt', type: 'datetime', nullable: true }, 0.8],
    ['nullable reference-free enum', { id: 'tier', type: 'enum', values: ['a', 'b'], nullable: true }, 0.5],
  ])('%s: null at the rate', (_name, field, rate) => {
    const generated = values(withEmptyRate(field, rate), n);
    expectRate(generated.filter((value) => value === null).length, n, rate);
    expect(generated.filter((value) => value !== null).every((value) => value !== '')).toBe(true);
  });

  // The specification: "nullable fields emit null; required fields fall back to a generated value".
  it.each<[string, Field]>([
    ['a required plain string', { id: 'memo', type: 'string' }],
    ['a required string with minLength', { id: 'memo', type: 'string', minLength: 2 }],
    ['a required email', { id: 'contact', type: 'string', format: 'email' }],
    ['a required text', { id: 'body', type: 'text' }],
    ['a required integer', { id: 'count', type: 'integer' }],
    ['a required number', { id: 'price', type: 'number', precision: 2 }],
    ['a required boolean', { id: 'flag', type: 'boolean' }],
    ['a required date', { id: 'day', type: 'date' }],
    ['a required datetime', { id: 'seenAt', type: 'datetime' }],
    ['a required time', { id: 'opensAt', type: 'time' }],
    ['a required uuid', { id: 'token', type: 'uuid' }],
    ['a required json', { id: 'prefs', type: 'json' }],
    ['a required enum', { id: 'tier', type: 'enum', values: ['a', 'b', 'c'] }],
  ])('%s is never empty: every row gets the value it would get without emptyRate', (_name, field) => {
    const generated = values(withEmptyRate(field, 0.9), 500);
    expect(generated.filter((value) => value === null || value === '')).toEqual([]);
    expect(generated).toEqual(values(field, 500));
  });

  it('emptyRate 1 empties every row; 0 none', () => {
    expect(new Set(values(withEmptyRate({ id: 'x', type: 'string', nullable: true }, 1), 100))).toEqual(new Set([null]));
    expect(values(withEmptyRate({ id: 'x', type: 'string', nullable: true }, 0), 100).includes(null)).toBe(false);
  });

  it('decides emptiness independently of the value, so values of non-empty rows stay the same', () => {
    const full = values({ id: 'x', type: 'integer', nullable: true }, 200);
    const sparse = values(withEmptyRate({ id: 'x', type: 'integer', nullable: true }, 0.5), 200);
    sparse.forEach((value, i) => value !== null && expect(value).toBe(full[i]));
  });
});
