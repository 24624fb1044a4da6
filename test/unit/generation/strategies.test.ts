import { describe, expect, it } from 'vitest';
import type { Field } from '../../../src/model/config-types.ts';
import { config, entity, expectRate, generate, values } from '../../helpers/generate-in-memory.ts';

const strategy = (id: string, type: Field['type'], kind: object, extra: Partial<Field> = {}): Field =>
  ({ id, type, generation: { strategy: kind }, ...extra }) as Field;

describe('strategies', () => {
  it('literal: every row gets the value, in the field type', () => {
    expect(new Set(values(strategy('x', 'string', { kind: 'literal', value: 'same' }), 50))).toEqual(new Set(['same']));
    expect(new Set(values(strategy('x', 'integer', { kind: 'literal', value: 7 }), 50))).toEqual(new Set([7]));
    expect(new Set(values(strategy('x', 'json', { kind: 'literal', value: { a: [1] } }), 5)).size).toBe(1);
    expect(values(strategy('x', 'json', { kind: 'literal', value: { a: [1] } }), 1)).toEqual([{ a: [1] }]);
    expect(values(strategy('x', 'date', { kind: 'literal', value: '2024-02-29' }), 1)).toEqual(['2024-02-29']);
    expect(values(strategy('x', 'datetime', { kind: 'literal', value: '2024-02-29T10:00:00+01:00' }), 1)).toEqual(['2024-02-29T09:00:00.000Z']);
  });

  it('sequence: start + i·step, as numbers or (with prefix) text', () => {
    expect(values(strategy('x', 'integer', { kind: 'sequence', start: 10, step: 5 }), 4)).toEqual([10, 15, 20, 25]);
    expect(values(strategy('x', 'integer', { kind: 'sequence' }), 3)).toEqual([1, 2, 3]);
    expect(values(strategy('x', 'number', { kind: 'sequence', start: 0.1, step: 0.1 }), 3)).toEqual([0.1, 0.2, 0.3]);
    expect(values(strategy('x', 'integer', { kind: 'sequence', start: 3, step: -2 }), 3)).toEqual([3, 1, -1]);
    expect(values(strategy('x', 'string', { kind: 'sequence', start: 1 }, { prefix: 'INV-', suffix: '/25' }), 3)).toEqual(['INV-1/25', 'INV-2/25', 'INV-3/25']);
  });

  it('randomInt: integers within the strategy bounds, else the field bounds, covering them', () => {
    const own = values(strategy('x', 'integer', { kind: 'randomInt', min: -3, max: 3 }), 2000);
    expect(new Set(own)).toEqual(new Set([-3, -2, -1, 0, 1, 2, 3]));
    const field = values(strategy('x', 'integer', { kind: 'randomInt' }, { min: 100, max: 105 }), 2000);
    expect(new Set(field)).toEqual(new Set([100, 101, 102, 103, 104, 105]));
    const defaults = values(strategy('x', 'integer', { kind: 'randomInt' }), 2000) as number[];
    expect(Math.min(...defaults)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...defaults)).toBeLessThanOrEqual(1000);
  });

  it('randomFloat: numbers within bounds with at most `precision` decimals', () => {
    const floats = values(strategy('x', 'number', { kind: 'randomFloat', min: 1.005, max: 2.5, precision: 2 }), 3000) as number[];
    for (const value of floats) {
      expect(value).toBeGreaterThanOrEqual(1.005);
      expect(value).toBeLessThanOrEqual(2.5);
      expect(String(value)).toMatch(/^\d+(\.\d{1,2})?$/);
    }
    expect(Math.min(...floats)).toBe(1.01);
    expect(Math.max(...floats)).toBe(2.5);
    const fieldPrecision = values(strategy('x', 'number', { kind: 'randomFloat', min: 0, max: 1 }, { precision: 4 }), 500) as number[];
    expect(fieldPrecision.some((value) => /\.\d{3,4}$/.test(String(value)))).toBe(true);
    expect(fieldPrecision.every((value) => /^\d(\.\d{1,4})?$/.test(String(value)))).toBe(true);
    const whole = values(strategy('x', 'number', { kind: 'randomFloat', min: -10, max: 10, precision: 0 }), 500) as number[];
    expect(whole.every(Number.isInteger)).toBe(true);
  });

  it('randomBoolean: true at trueRate (strategy, else field, else 0.5)', () => {
    const n = 10_000;
    const count = (list: unknown[]) => list.filter((value) => value === true).length;
    expectRate(count(values(strategy('x', 'boolean', { kind: 'randomBoolean', trueRate: 0.2 }), n)), n, 0.2);
    expectRate(count(values(strategy('x', 'boolean', { kind: 'randomBoolean' }, { trueRate: 0.9 }), n)), n, 0.9);
    expectRate(count(values(strategy('x', 'boolean', { kind: 'randomBoolean' }), n)), n, 0.5);
    expect(count(values(strategy('x', 'boolean', { kind: 'randomBoolean', trueRate: 1 }), 100))).toBe(100);
    expect(count(values(strategy('x', 'boolean', { kind: 'randomBoolean', trueRate: 0 }), 100))).toBe(0);
  });

  it('weightedChoice: each choice at its weight share', () => {
    const n = 10_000;
    const picked = values(
      strategy('x', 'string', { kind: 'weightedChoice', choices: [{ value: 'a', weight: 1 }, { value: 'b', weight: 3 }, { value: 'c', weight: 6 }] }),
      n,
    );
    expectRate(picked.filter((value) => value === 'a').length, n, 0.1);
    expectRate(picked.filter((value) => value === 'b').length, n, 0.3);
    expectRate(picked.filter((value) => value === 'c').length, n, 0.6);
    const numbers = values(strategy('x', 'integer', { kind: 'weightedChoice', choices: [{ value: 5, weight: 1 }, { value: 9, weight: 1 }] }), 200);
    expect(new Set(numbers)).toEqual(new Set([5, 9]));
  });

  it('faker: calls module.method with args, deterministically', () => {
    const ints = values(strategy('x', 'integer', { kind: 'faker', method: 'number.int', args: [{ min: 10, max: 20 }] }), 300) as number[];
    expect(ints.every((value) => Number.isInteger(value) && value >= 10 && value <= 20)).toBe(true);
    expect(new Set(ints).size).toBe(11);
    const words = values(strategy('x', 'string', { kind: 'faker', method: 'lorem.words', args: [3] }), 20) as string[];
    expect(words.every((value) => value.split(' ').length === 3)).toBe(true);
    const names = values(strategy('x', 'string', { kind: 'faker', method: 'person.fullName' }), 50) as string[];
    expect(names.every((value) => /\S+ \S+/.test(value))).toBe(true);
    expect(values(strategy('x', 'string', { kind: 'faker', method: 'animal.dog' }), 30)).toEqual(values(strategy('x', 'string', { kind: 'faker', method: 'animal.dog' }), 30));
    const dates = values(strategy('x', 'datetime', { kind: 'faker', method: 'date.past' }), 50) as string[];
    for (const value of dates) {
      expect(value).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      expect(Date.parse(value)).toBeLessThanOrEqual(Date.parse('2025-06-15T00:00:00Z'));
      expect(Date.parse(value)).toBeGreaterThanOrEqual(Date.parse('2024-06-15T00:00:00Z'));
    }
    expect((values(strategy('x', 'date', { kind: 'faker', method: 'date.past' }), 5) as string[]).every((value) => /^\d{4}-\d{2}-\d{2}$/.test(value))).toBe(true);
    expect((values(strategy('x', 'uuid', { kind: 'faker', method: 'string.uuid' }), 5) as string[]).every((value) => value.length === 36)).toBe(true);
  });

  it('faker: fails loudly when a method gives what the type cannot hold', () => {
    expect(() => values(strategy('x', 'datetime', { kind: 'faker', method: 'lorem.word' }), 1)).toThrow(/items\.x got ".*", which is not a datetime/);
  });

  it('template: fills {{field}} from the same row and {{faker.module.method}}', () => {
    const schema = config(
      entity('people', 100, [
        { id: 'handle', type: 'string', generation: { strategy: { kind: 'template', template: '{{ firstName }}.{{lastName}}@example.com' } } },
        { id: 'firstName', type: 'string' },
        { id: 'lastName', type: 'string' },
        { id: 'tag', type: 'string', generation: { strategy: { kind: 'template', template: '#{{id}}-{{faker.string.alpha}}{{nickname}}' } } },
        { id: 'nickname', type: 'string', nullable: true, generation: { emptyRate: 1 } },
      ]),
    );
    for (const row of generate(schema).objects('people')) {
      expect(row.handle).toBe(`${row.firstName}.${row.lastName}@example.com`);
      expect(row.tag).toMatch(new RegExp(`^#${row.id}-[A-Za-z]$`));
    }
  });

  it('dateRange: dates and datetimes between from and to, inclusive, relative to the reference date', () => {
    const dates = values(strategy('x', 'date', { kind: 'dateRange', from: '2024-01-30', to: '2024-02-02' }), 500);
    expect(new Set(dates)).toEqual(new Set(['2024-01-30', '2024-01-31', '2024-02-01', '2024-02-02']));
    const relative = values(strategy('x', 'date', { kind: 'dateRange', from: '-3d', to: 'now' }), 500);
    expect(new Set(relative)).toEqual(new Set(['2025-06-12', '2025-06-13', '2025-06-14', '2025-06-15']));
    const times = values(strategy('x', 'datetime', { kind: 'dateRange', from: '2024-01-01T10:00:00Z', to: '+1y' }), 500) as string[];
    for (const value of times) {
      expect(Date.parse(value)).toBeGreaterThanOrEqual(Date.parse('2024-01-01T10:00:00Z'));
      expect(Date.parse(value)).toBeLessThanOrEqual(Date.parse('2026-06-15T00:00:00Z'));
    }
    const defaults = values(strategy('x', 'datetime', { kind: 'dateRange' }), 500) as string[];
    expect(defaults.every((value) => value >= '2024-06-15' && value <= '2025-06-15T00:00:00.000Z')).toBe(true);
    const wholeDay = values(strategy('x', 'datetime', { kind: 'dateRange', from: '2024-03-01', to: '2024-03-01' }), 200) as string[];
    expect(wholeDay.every((value) => value.startsWith('2024-03-01T'))).toBe(true);
    expect(wholeDay.some((value) => value >= '2024-03-01T12')).toBe(true);
  });

  it('reference strategy: values of another entity’s field, at random or in order', () => {
    const schema = config(
      entity('codes', 5, [{ id: 'code', type: 'string', maxLength: 8 }], { uniqueKeys: [['code']] }),
      entity('uses', 40, [
        { id: 'anyCode', type: 'string', generation: { strategy: { kind: 'reference', entity: 'codes', field: 'code' } } },
        { id: 'nextCode', type: 'string', generation: { strategy: { kind: 'reference', entity: 'codes', field: 'code', pick: 'sequential' } } },
      ]),
    );
    const run = generate(schema);
    const codes = run.column('codes', 'code');
    expect(new Set(codes).size).toBe(5);
    expect(run.column('uses', 'anyCode').every((code) => codes.includes(code))).toBe(true);
    expect(run.column('uses', 'nextCode')).toEqual(Array.from({ length: 40 }, (_, i) => codes[i % 5]));
  });
});
