import { describe, expect, it } from 'vitest';
import type { Field } from '../../../src/model/config-types.ts';
import { SeenSet } from '../../../src/generation/uniqueness.ts';
import { config, entity, generate } from '../../helpers/generate-in-memory.ts';

const unique = (field: Field): Field => ({ ...field, generation: { ...field.generation, uniqueValues: true } });

describe('uniqueValues on countable pools', () => {
  it('draws enum values without replacement; an exhausted pool inserts fewer rows and warns', () => {
    const run = generate(config(entity('users', 10, [unique({ id: 'role', type: 'enum', values: ['admin', 'editor', 'viewer'] })])));
    expect(run.column('users', 'role').sort()).toEqual(['admin', 'editor', 'viewer']);
    expect(run.generator.produced.get('users')).toBe(3);
    expect(run.warnings).toEqual([
      { path: '/entities/0/fields/1/generation/uniqueValues', message: 'pool of 3 values for users.role is exhausted after 3 rows; inserted 3 of 10 planned rows' },
    ]);
  });

  it('keeps later entities generating after an exhausted pool', () => {
    const run = generate(
      config(
        entity('roles', 5, [unique({ id: 'name', type: 'string', generation: { strategy: { kind: 'weightedChoice', choices: [{ value: 'a', weight: 1 }, { value: 'b', weight: 9 }] } } })]),
        entity('logs', 7, [{ id: 'roleId', type: 'integer', references: { entity: 'roles', field: 'id' } }]),
      ),
    );
    expect(run.generator.produced.get('roles')).toBe(2);
    expect(run.generator.produced.get('logs')).toBe(7);
    expect(run.column('logs', 'roleId').every((id) => id === 1 || id === 2)).toBe(true);
  });

  it('draws integer ranges, booleans, dates and float steps without replacement', () => {
    const run = generate(
      config(
        entity('draws', 40, [
          unique({ id: 'number', type: 'integer', min: 1, max: 40 }),
          unique({ id: 'day', type: 'date', generation: { strategy: { kind: 'dateRange', from: '2024-02-01', to: '2024-03-31' } } }),
          unique({ id: 'ratio', type: 'number', generation: { strategy: { kind: 'randomFloat', min: 0, max: 0.5, precision: 2 } } }),
          unique({ id: 'slot', type: 'time' }),
        ]),
      ),
    );
    expect([...run.column('draws', 'number')].sort((a, b) => (a as number) - (b as number))).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    for (const field of ['day', 'ratio', 'slot']) expect(new Set(run.column('draws', field)).size).toBe(40);
    expect(run.warnings).toEqual([]);
    const flags = generate(config(entity('flags', 5, [unique({ id: 'on', type: 'boolean' })])));
    expect(flags.column('flags', 'on').sort()).toEqual([false, true]);
  });

  it('favours heavy weights early when drawing weighted values without replacement', () => {
    let firstIsHeavy = 0;
    for (let seed = 0; seed < 200; seed++) {
      const run = generate(
        config(entity('picks', 1, [unique({ id: 'choice', type: 'enum', values: ['rare', 'common'], weights: [1, 19] })])),
        { seed },
      );
      if (run.column('picks', 'choice')[0] === 'common') firstIsHeavy++;
    }
    expect(firstIsHeavy).toBeGreaterThan(170);
  });
});

describe('unique keys', () => {
  it('keeps faker and template values of unique fields really unique', () => {
    const run = generate(
      config(
        entity('users', 20_000, [
          { id: 'email', type: 'string', format: 'email' },
          { id: 'color', type: 'string', generation: { strategy: { kind: 'faker', method: 'color.human' } } },
          { id: 'label', type: 'string', generation: { strategy: { kind: 'template', template: '{{color}}-tag' } } },
        ], { uniqueKeys: [['email'], ['color'], ['label']] }),
      ),
    );
    for (const field of ['email', 'color', 'label']) {
      const column = run.column('users', field) as string[];
      expect(column).toHaveLength(20_000);
      expect(new Set(column.map((value) => value.toLowerCase())).size).toBe(20_000);
    }
    const colors = run.column('users', 'color') as string[];
    expect(colors.filter((color) => /^[a-z ]+$/.test(color)).length).toBeGreaterThan(25);
    expect(colors.filter((color) => /-\d+$/.test(color)).length).toBeGreaterThan(19_000);
  });

  it('keeps deterministic suffixes inside maxLength, and stops when no unique value fits', () => {
    const run = generate(config(entity('codes', 2000, [{ id: 'code', type: 'string', maxLength: 2 }], { uniqueKeys: [['code']] })));
    const codes = run.column('codes', 'code') as string[];
    expect(new Set(codes).size).toBe(codes.length);
    expect(codes.every((code) => code.length <= 2)).toBe(true);
    const tiny = generate(config(entity('codes', 100, [{ id: 'code', type: 'string', maxLength: 1, generation: { strategy: { kind: 'literal', value: 'x' } } }], { uniqueKeys: [['code']] })));
    expect(tiny.generator.produced.get('codes')).toBe(1);
    expect(tiny.warnings[0]!.message).toMatch(/^pool of 1 values for codes.code is exhausted after 1 rows; inserted 1 of 100 planned rows$/);
    const opaque = generate(config(entity('codes', 300, [{ id: 'code', type: 'string', maxLength: 1, generation: { strategy: { kind: 'faker', method: 'string.alpha' } } }], { uniqueKeys: [['code']] })));
    expect(opaque.generator.produced.get('codes')).toBeLessThan(300);
    expect(opaque.warnings.at(-1)!.message).toMatch(/^no unique value left for codes.code after \d+ rows; inserted \d+ of 300 planned rows$/);
    expect(new Set(opaque.column('codes', 'code')).size).toBe(opaque.generator.produced.get('codes'));
  });

  it('steps numbers and datetimes of unique fields when random draws collide', () => {
    const run = generate(
      config(
        entity('events', 1500, [
          { id: 'at', type: 'datetime', weekdaysOnly: true, generation: { strategy: { kind: 'dateRange', from: '2024-01-01T00:00:00Z', to: '2024-01-01T00:00:02Z' } } },
          { id: 'amount', type: 'integer', generation: { strategy: { kind: 'faker', method: 'number.int', args: [{ max: 10 }] } } },
        ], { uniqueKeys: [['at'], ['amount']] }),
      ),
    );
    expect(new Set(run.column('events', 'at')).size).toBe(1500);
    expect(new Set(run.column('events', 'amount')).size).toBe(1500);
    expect(run.column('events', 'amount').every(Number.isInteger)).toBe(true);
  });

  it('draws combinations of composite keys without replacement', () => {
    const run = generate(
      config(
        entity('products', 6, []),
        entity('tags', 4, []),
        {
          id: 'productTags',
          primaryKey: ['productId', 'tagId'],
          generation: { rowCount: 30 },
          fields: [
            { id: 'productId', type: 'integer', references: { entity: 'products', field: 'id' } },
            { id: 'tagId', type: 'integer', references: { entity: 'tags', field: 'id' } },
          ],
        },
      ),
    );
    const pairs = run.objects('productTags').map((row) => `${row.productId}/${row.tagId}`);
    expect(new Set(pairs).size).toBe(24);
    expect(run.generator.produced.get('productTags')).toBe(24);
    expect(run.warnings).toEqual([
      { path: '/entities/2/primaryKey', message: 'pool of 24 combinations for productTags.(productId, tagId) is exhausted after 24 rows; inserted 24 of 30 planned rows' },
    ]);
  });

  it('makes an open-ended member unique when a composite key cannot be enumerated', () => {
    const run = generate(
      config(entity('slots', 500, [{ id: 'room', type: 'enum', values: ['a', 'b'] }, { id: 'label', type: 'string' }], { uniqueKeys: [['room', 'label']] })),
    );
    const keys = run.objects('slots').map((row) => `${row.room}/${row.label}`);
    expect(new Set(keys).size).toBe(500);
  });
});

describe('SeenSet', () => {
  it('never forgets a value and compares text as MySQL does (case, accents, trailing spaces)', () => {
    const seen = new SeenSet(10_000);
    const fresh = Array.from({ length: 10_000 }, (_, i) => seen.add(`value-${i}`));
    const again = Array.from({ length: 10_000 }, (_, i) => seen.add(`value-${i}`));
    expect(fresh.filter((added) => !added).length).toBeLessThan(5);
    expect(again.filter(Boolean)).toEqual([]);
    expect(seen.add('Zoë')).toBe(true);
    expect(seen.add('zoe')).toBe(false);
    expect(seen.add('ZOE  ')).toBe(false);
    expect(seen.add(42)).toBe(true);
    expect(seen.add(42)).toBe(false);
  });
});
