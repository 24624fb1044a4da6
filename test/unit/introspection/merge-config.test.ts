// mergeConfigs: a hand-tuned config updated by a fresh introspection after a "migration". The
// database decides structure; every hand-written setting of what still exists is kept exactly; what
// no longer fits is dropped, and every change is reported.
import { describe, expect, it } from 'vitest';
import type { SchemaConfig } from '../../../src/model/config-types.ts';
import { validateConfig } from '../../../src/config/validate-config.ts';
import { mergeConfigs } from '../../../src/introspection/merge-config.ts';

const existing: SchemaConfig = {
  formatVersion: 1,
  metadata: { name: 'Shop (hand-tuned)' },
  generationDefaults: { rowCount: 500, seed: 'fixed', locale: 'de' },
  entities: [
    {
      id: 'users',
      label: 'Users',
      primaryKey: ['id'],
      generation: { rowCount: 1200 },
      fields: [
        { id: 'id', type: 'integer' },
        { id: 'email', type: 'string', maxLength: 100, format: 'email', generation: { uniqueValues: true, strategy: { kind: 'template', template: '{{nick}}@example.com' } } },
        { id: 'nick', type: 'string', maxLength: 30, generation: { strategy: { kind: 'faker', method: 'internet.username' } } },
        { id: 'age', type: 'integer', min: 18, max: 65, generation: { strategy: { kind: 'randomInt', min: 20, max: 60 } } },
        { id: 'tier', type: 'enum', values: ['free', 'pro'], weights: [9, 1] },
        { id: 'plan', type: 'enum', values: ['a', 'b'], weights: [1, 2] },
      ],
    },
    {
      id: 'posts',
      primaryKey: ['id'],
      fields: [
        { id: 'id', type: 'integer' },
        { id: 'user_id', type: 'integer', references: { entity: 'users', field: 'id', pick: 'sequential' } },
      ],
    },
    { id: 'legacy', primaryKey: ['id'], fields: [{ id: 'id', type: 'integer' }] },
  ],
};

/** The database after a migration: nick dropped, age became text, plan got a value, a column and a table added. */
const fresh: SchemaConfig = {
  formatVersion: 1,
  metadata: { name: 'public', tags: ['introspected'] },
  generationDefaults: { rowCount: 100 },
  entities: [
    {
      id: 'users',
      primaryKey: ['id'],
      uniqueKeys: [['email']],
      fields: [
        { id: 'id', type: 'integer' },
        { id: 'email', type: 'string', maxLength: 200 },
        { id: 'age', type: 'text', nullable: true },
        { id: 'tier', type: 'enum', values: ['free', 'pro'] },
        { id: 'plan', type: 'enum', values: ['a', 'b', 'c'] },
        { id: 'joined_on', type: 'date' },
      ],
    },
    {
      id: 'posts',
      primaryKey: ['id'],
      fields: [
        { id: 'id', type: 'integer' },
        { id: 'user_id', type: 'integer', references: { entity: 'users', field: 'id', onDelete: 'cascade' } },
      ],
    },
    { id: 'tags', primaryKey: ['id'], fields: [{ id: 'id', type: 'integer' }] },
  ],
};

describe('mergeConfigs', () => {
  const result = mergeConfigs(structuredClone(existing), structuredClone(fresh));
  const users = result.config.entities[0]!;
  const field = (id: string) => users.fields.find((candidate) => candidate.id === id);

  it('gives a valid config with the database structure', () => {
    expect(result.errors).toEqual([]);
    expect(validateConfig(result.config).errors).toEqual([]);
    expect(result.config.entities.map((entity) => entity.id)).toEqual(['users', 'posts', 'tags']);
    expect(users.fields.map((candidate) => candidate.id)).toEqual(['id', 'email', 'age', 'tier', 'plan', 'joined_on']);
    expect(users.uniqueKeys).toEqual([['email']]);
    expect(field('email')!.maxLength).toBe(200);
    expect(field('age')).toMatchObject({ type: 'text', nullable: true });
  });

  it('keeps every hand-written setting of what still exists, exactly', () => {
    expect(result.config.metadata).toEqual(existing.metadata);
    expect(result.config.generationDefaults).toEqual(existing.generationDefaults);
    expect(users.label).toBe('Users');
    expect(users.generation).toEqual({ rowCount: 1200 });
    expect(field('email')!.format).toBe('email');
    // Its template named the dropped nick: the template goes (reported below), uniqueValues stays.
    expect(field('email')!.generation).toEqual({ uniqueValues: true });
    expect(field('nick')).toBeUndefined();
    expect(field('tier')!.weights).toEqual([9, 1]);
    expect(result.config.entities[1]!.fields[1]!.references).toEqual({ entity: 'users', field: 'id', onDelete: 'cascade', pick: 'sequential' });
  });

  it('reports every change, and what it had to drop', () => {
    expect(result.changes.map((change) => change.message)).toEqual([
      'users.email: maxLength 100 → 200',
      'users.age: type integer → text, now nullable',
      'users.age: min dropped, it does not apply to text',
      'users.age: max dropped, it does not apply to text',
      'users.age: strategy randomInt dropped, the type changed to text',
      'users.plan: weights dropped, the enum values changed',
      'users.plan: enum values changed',
      'column users.joined_on added (date)',
      'column users.nick removed: it is no longer in the database',
      'posts.user_id: references users.id (on delete restrict, on update restrict) → references users.id (on delete cascade, on update restrict)',
      'table tags added',
      'table legacy removed: it is no longer in the database',
      expect.stringMatching(/^users\.email: strategy template dropped: template placeholder \{\{nick\}\} names no field of entity "users"/),
    ]);
  });
});

describe('mergeConfigs of some tables (--tables)', () => {
  it('keeps the entities the introspection did not cover, in their place', () => {
    const users = structuredClone(fresh.entities[0]!);
    const result = mergeConfigs(structuredClone(existing), { formatVersion: 1, entities: [users, structuredClone(fresh.entities[2]!)] }, { partial: true });
    expect(result.config.entities.map((entity) => entity.id)).toEqual(['users', 'posts', 'legacy', 'tags']);
    expect(result.config.entities[1]).toEqual(existing.entities[1]);
    expect(result.changes.map((change) => change.kind)).not.toContain('table-removed');
  });
});
