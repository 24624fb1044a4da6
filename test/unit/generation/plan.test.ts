import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { SchemaConfig } from '../../../src/model/config-types.ts';
import { DEFAULT_ROW_COUNT } from '../../../src/model/config-graph.ts';
import { GENERATOR_VERSION, planGeneration, resolveReferenceDate } from '../../../src/generation/plan.ts';
import { constraintName } from '../../../src/model/table-spec.ts';
import { config, entity } from '../../helpers/generate-in-memory.ts';

const blog = (): SchemaConfig => ({
  formatVersion: 1,
  generationDefaults: { rowCount: 20, seed: 'defaults-seed', locale: 'de-DE', timezone: 'europe/berlin' },
  entities: [
    {
      id: 'posts',
      primaryKey: ['id'],
      indexes: [{ fields: ['authorId', 'publishedOn'] }, { id: 'posts_slug_unique', fields: ['slug'], unique: true }],
      fields: [
        { id: 'id', type: 'uuid' },
        { id: 'authorId', type: 'integer', references: { entity: 'users', field: 'id', onDelete: 'cascade' } },
        { id: 'slug', type: 'string', maxLength: 80 },
        { id: 'publishedOn', type: 'date' },
        { id: 'price', type: 'number', precision: 2 },
      ],
    },
    {
      id: 'users',
      primaryKey: ['id'],
      uniqueKeys: [['email'], ['id']],
      generation: { rowCount: { min: 5, max: 9 }, seed: 7 },
      fields: [
        { id: 'id', type: 'integer' },
        { id: 'email', type: 'string', format: 'email' },
        { id: 'role', type: 'enum', values: ['admin', 'user'] },
        { id: 'managerId', type: 'integer', nullable: true, references: { entity: 'users', field: 'id', onDelete: 'set-null' } },
        { id: 'views', type: 'integer', min: 0, max: 10_000_000_000 },
      ],
    },
  ],
});

describe('planGeneration', () => {
  it('orders parents first and defers self references', () => {
    const plan = planGeneration(blog(), { referenceDate: '2025-01-01' });
    expect(plan.entities.map((entity) => entity.id)).toEqual(['users', 'posts']);
    expect(plan.entities[0]!.deferredColumns).toEqual(['managerId']);
    expect(plan.entities[1]!.deferredColumns).toEqual([]);
  });

  it('defers the nullable side of a reference cycle', () => {
    const schema = config(
      entity('teams', 3, [{ id: 'ownerId', type: 'integer', nullable: true, references: { entity: 'members', field: 'id' } }]),
      entity('members', 3, [{ id: 'teamId', type: 'integer', references: { entity: 'teams', field: 'id' } }]),
    );
    const plan = planGeneration(schema);
    expect(plan.entities.map((entity) => [entity.id, entity.deferredColumns])).toEqual([
      ['teams', ['ownerId']],
      ['members', []],
    ]);
  });

  it('takes seeds from options, then the entity, then the defaults, then "sds"', () => {
    const schema = blog();
    const plan = planGeneration(schema);
    expect(plan.seed).toBe('defaults-seed');
    expect(plan.entities.find((entity) => entity.id === 'users')!.seed).toBe('7');
    expect(plan.entities.find((entity) => entity.id === 'posts')!.seed).toBe('defaults-seed');
    const overridden = planGeneration(schema, { seed: 99 });
    expect(overridden.seed).toBe('99');
    expect(overridden.entities.every((entity) => entity.seed === '99')).toBe(true);
    delete schema.generationDefaults!.seed;
    expect(planGeneration(schema).seed).toBe('sds');
  });

  it('takes row counts from options, then the entity, then the defaults, then the validator default', () => {
    const schema = blog();
    const plan = planGeneration(schema);
    expect(plan.entities.find((entity) => entity.id === 'posts')!.rowCount).toBe(20);
    const users = plan.entities.find((entity) => entity.id === 'users')!.rowCount;
    expect(users).toBeGreaterThanOrEqual(5);
    expect(users).toBeLessThanOrEqual(9);
    expect(planGeneration(schema).entities.find((entity) => entity.id === 'users')!.rowCount).toBe(users);
    expect(planGeneration(schema, { rowCounts: { users: 3 } }).entities.find((entity) => entity.id === 'users')!.rowCount).toBe(3);
    delete schema.generationDefaults!.rowCount;
    expect(planGeneration(schema).entities.find((entity) => entity.id === 'posts')!.rowCount).toBe(DEFAULT_ROW_COUNT);
  });

  it('draws range row counts from the seed, covering the range', () => {
    const counts = new Set<number>();
    for (let seed = 0; seed < 200; seed++) {
      const schema = blog();
      delete schema.entities[1]!.generation!.seed;
      counts.add(planGeneration(schema, { seed }).entities.find((entity) => entity.id === 'users')!.rowCount);
    }
    expect([...counts].sort()).toEqual([5, 6, 7, 8, 9]);
  });

  it('warns about row-count overrides it cannot use', () => {
    const plan = planGeneration(blog(), { rowCounts: { nobody: 3, posts: -1 } });
    expect(plan.warnings.map((warning) => warning.message)).toEqual([
      'rowCounts names unknown entity "nobody"; it is ignored',
      "rowCounts.posts is -1, not an integer ≥ 0; the config's rowCount is used",
    ]);
    expect(plan.entities.find((entity) => entity.id === 'posts')!.rowCount).toBe(20);
  });

  it('normalises locale and time zone, and records the generator version and reference date', () => {
    const plan = planGeneration(blog(), { referenceDate: '2025-03-04' });
    expect(plan.entities[0]).toMatchObject({ locale: 'de', timezone: 'Europe/Berlin' });
    expect(planGeneration({ ...blog(), generationDefaults: { locale: 'en-us' } }).entities[0]!.locale).toBe('en_US');
    expect(plan.referenceDate).toBe('2025-03-04T00:00:00.000Z');
    expect(plan.generatorVersion).toBe(GENERATOR_VERSION);
  });

  it('pins the faker version it records', () => {
    const manifest = JSON.parse(fs.readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { dependencies: Record<string, string> };
    expect(GENERATOR_VERSION).toBe(`1.0.0+faker-${manifest.dependencies['@faker-js/faker']}`);
  });

  it('defaults the reference date to today at UTC midnight and rejects nonsense', () => {
    const today = new Date().toISOString().slice(0, 10);
    expect(resolveReferenceDate(undefined)).toBe(`${today}T00:00:00.000Z`);
    expect(resolveReferenceDate('2024-02-29T10:00:00+02:00')).toBe('2024-02-29T08:00:00.000Z');
    expect(() => resolveReferenceDate('yesterday')).toThrow(/referenceDate "yesterday"/);
  });

  it('builds table specs: columns in config order, keys, indexes and foreign keys', () => {
    const plan = planGeneration(blog());
    const users = plan.entities.find((entity) => entity.id === 'users')!.table;
    const posts = plan.entities.find((entity) => entity.id === 'posts')!.table;
    expect(users.columns).toEqual([
      { name: 'id', type: 'integer', nullable: false },
      { name: 'email', type: 'string', nullable: false },
      { name: 'role', type: 'enum', nullable: false, values: ['admin', 'user'] },
      { name: 'managerId', type: 'integer', nullable: true },
      { name: 'views', type: 'integer', nullable: false, big: true },
    ]);
    expect(users.primaryKey).toEqual(['id']);
    expect(users.indexes).toEqual([{ name: 'users_email_key', columns: ['email'], unique: true }]);
    expect(users.foreignKeys).toEqual([
      { name: 'users_managerId_fkey', columns: ['managerId'], references: { table: 'users', columns: ['id'] }, onDelete: 'set-null', onUpdate: 'restrict' },
    ]);
    expect(posts.columns.map((column) => [column.name, column.maxLength, column.precision])).toEqual([
      ['id', undefined, undefined],
      ['authorId', undefined, undefined],
      ['slug', 80, undefined],
      ['publishedOn', undefined, undefined],
      ['price', undefined, 2],
    ]);
    expect(posts.indexes).toEqual([
      { name: 'posts_authorId_publishedOn_idx', columns: ['authorId', 'publishedOn'], unique: false },
      { name: 'posts_slug_unique', columns: ['slug'], unique: true },
    ]);
    expect(posts.foreignKeys[0]).toMatchObject({ name: 'posts_authorId_fkey', onDelete: 'cascade', onUpdate: 'restrict' });
  });

  it('marks integer columns bigint when sequences or ranges leave 32 bits, and references follow their target', () => {
    const schema = config(
      entity('big', 10, [
        { id: 'seq', type: 'integer', generation: { strategy: { kind: 'sequence', start: 2_147_483_000, step: 100 } } },
        { id: 'small', type: 'integer', generation: { strategy: { kind: 'randomInt', min: -5, max: 5 } } },
        { id: 'faked', type: 'integer', generation: { strategy: { kind: 'faker', method: 'number.int' } } },
        { id: 'bounded', type: 'integer', min: 0, max: 9, generation: { strategy: { kind: 'faker', method: 'number.int', args: [{ max: 9 }] } } },
      ], { uniqueKeys: [['seq']] }),
      entity('child', 3, [{ id: 'bigRef', type: 'integer', references: { entity: 'big', field: 'seq' } }]),
    );
    const plan = planGeneration(schema);
    const big = (entityId: string, field: string) =>
      plan.entities.find((entity) => entity.id === entityId)!.table.columns.find((column) => column.name === field)!.big === true;
    expect([big('big', 'id'), big('big', 'seq'), big('big', 'small'), big('big', 'faked'), big('big', 'bounded'), big('child', 'bigRef')]).toEqual([
      false, true, false, true, false, true,
    ]);
  });

  it('names constraints deterministically within 63 characters', () => {
    expect(constraintName('users_email', 'key')).toBe('users_email_key');
    const long = constraintName(`${'a'.repeat(40)}_${'b'.repeat(40)}`, 'idx');
    expect(long.length).toBeLessThanOrEqual(63);
    expect(long).toMatch(/^a+_b*_[0-9a-z]{7}_idx$/);
    expect(constraintName(`${'a'.repeat(40)}_${'b'.repeat(40)}`, 'idx')).toBe(long);
    expect(constraintName(`${'a'.repeat(40)}_${'b'.repeat(39)}c`, 'idx')).not.toBe(long);
  });
});
