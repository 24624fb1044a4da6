import { describe, expect, it } from 'vitest';
import type { Field } from '../../../src/model/config-types.ts';
import { DataGenerator } from '../../../src/generation/generator.ts';
import { config, entity, generate } from '../../helpers/generate-in-memory.ts';

const ref = (id: string, target: string, extra: Partial<NonNullable<Field['references']>> = {}, field: Partial<Field> = {}): Field => ({
  id,
  type: 'integer',
  references: { entity: target, field: 'id', ...extra },
  ...field,
});

describe('references', () => {
  it('many-to-one: every child key exists in the parent, and parents are spread', () => {
    const run = generate(config(entity('users', 50, []), entity('orders', 2000, [ref('userId', 'users')])));
    const parents = new Set(run.column('users', 'id'));
    const children = run.column('orders', 'userId');
    expect(children.every((id) => parents.has(id))).toBe(true);
    expect(new Set(children).size).toBe(50);
  });

  it('many-to-one sequential: row i takes parent i mod n', () => {
    const run = generate(config(entity('users', 3, []), entity('orders', 7, [ref('userId', 'users', { pick: 'sequential' })])));
    expect(run.column('orders', 'userId')).toEqual([1, 2, 3, 1, 2, 3, 1]);
  });

  it('one-to-one: uses each parent at most once', () => {
    const run = generate(config(entity('users', 100, []), entity('profiles', 80, [ref('userId', 'users', { relation: 'one-to-one' })])));
    const children = run.column('profiles', 'userId');
    expect(children).toHaveLength(80);
    expect(new Set(children).size).toBe(80);
    expect(children.every((id) => (id as number) >= 1 && (id as number) <= 100)).toBe(true);
    expect(children).not.toEqual([...children].sort((a, b) => (a as number) - (b as number)));
  });

  it('one-to-one with more children than parents: fewer rows and a warning', () => {
    const run = generate(config(entity('users', 4, []), entity('profiles', 9, [ref('userId', 'users', { relation: 'one-to-one', pick: 'sequential' })])));
    expect(run.column('profiles', 'userId')).toEqual([1, 2, 3, 4]);
    expect(run.warnings).toEqual([
      { path: '/entities/1/fields/1/references/relation', message: 'pool of 4 values for profiles.userId is exhausted after 4 rows; inserted 4 of 9 planned rows' },
    ]);
  });

  it('picks among parents actually produced, when a parent pool ran out', () => {
    const run = generate(
      config(
        entity('roles', 10, [{ id: 'name', type: 'enum', values: ['a', 'b', 'c'], generation: { uniqueValues: true } }]),
        entity('grants', 100, [ref('roleId', 'roles')]),
      ),
    );
    expect(new Set(run.column('grants', 'roleId'))).toEqual(new Set([1, 2, 3]));
  });

  it('nullable references honour emptyRate; required ones to an empty parent insert no rows', () => {
    const run = generate(
      config(
        entity('users', 5, []),
        entity('nobody', 0, []),
        entity('orders', 1000, [ref('userId', 'users', {}, { nullable: true, generation: { emptyRate: 0.5 } }), ref('ghostId', 'nobody', {}, { nullable: true })]),
        entity('invoices', 10, [ref('ghostId', 'nobody')]),
      ),
    );
    const nulls = run.column('orders', 'userId').filter((id) => id === null).length;
    expect(nulls).toBeGreaterThan(400);
    expect(nulls).toBeLessThan(600);
    expect(new Set(run.column('orders', 'ghostId'))).toEqual(new Set([null]));
    expect(run.generator.produced.get('invoices')).toBe(0);
    expect(run.warnings).toEqual([
      { path: '/entities/3/fields/1/references', message: 'invoices.ghostId references nobody.id, which has no rows; inserted 0 of 10 planned rows' },
    ]);
  });

  it('references unique text keys of the parent (stored key pools)', () => {
    const run = generate(
      config(
        entity('accounts', 300, [{ id: 'email', type: 'string' }], { uniqueKeys: [['email']] }),
        entity('logins', 1000, [{ id: 'accountEmail', type: 'string', references: { entity: 'accounts', field: 'email' } }]),
      ),
    );
    const emails = new Set(run.column('accounts', 'email'));
    expect(emails.size).toBe(300);
    expect(run.column('logins', 'accountEmail').every((email) => emails.has(email))).toBe(true);
  });

  it('references uuid keys, chains through grandparents, and one-to-one keys that are foreign keys', () => {
    const run = generate(
      config(
        { id: 'users', primaryKey: ['id'], generation: { rowCount: 40 }, fields: [{ id: 'id', type: 'uuid' }] },
        { id: 'profiles', primaryKey: ['userId'], generation: { rowCount: 30 }, fields: [{ id: 'userId', type: 'uuid', references: { entity: 'users', field: 'id', relation: 'one-to-one' } }] },
        { id: 'avatars', primaryKey: ['id'], generation: { rowCount: 60 }, fields: [{ id: 'id', type: 'integer' }, { id: 'profileId', type: 'uuid', references: { entity: 'profiles', field: 'userId' } }] },
      ),
    );
    const users = new Set(run.column('users', 'id'));
    const profiles = run.column('profiles', 'userId');
    expect(new Set(profiles).size).toBe(30);
    expect(profiles.every((id) => users.has(id))).toBe(true);
    expect(run.column('avatars', 'profileId').every((id) => profiles.includes(id))).toBe(true);
  });

  it('fills self references after insert, pointing at earlier rows (trees, no loops)', () => {
    const schema = config(entity('employees', 200, [ref('managerId', 'employees', { onDelete: 'set-null' }, { nullable: true })]));
    const run = generate(schema, {}, 7);
    expect(run.plan.entities[0]!.deferredColumns).toEqual(['managerId']);
    const rows = run.objects('employees');
    expect(rows[0]!.managerId).toBeNull();
    for (const row of rows.slice(1)) {
      expect(row.managerId).not.toBeNull();
      expect(row.managerId as number).toBeLessThan(row.id as number);
    }
    const inserted: unknown[] = [];
    const fresh = generate(schema);
    for (const batch of fresh.generator.rows('employees', 50)) void batch;
    for (const batch of fresh.generator.rows('employees', 50)) inserted.push(...batch.map((row) => row[1]));
    expect(new Set(inserted)).toEqual(new Set([null]));
  });

  it('fills both sides of a reference cycle with existing keys', () => {
    const run = generate(
      config(
        entity('teams', 20, [ref('captainId', 'players', {}, { nullable: true })]),
        entity('players', 100, [ref('teamId', 'teams')]),
      ),
    );
    const players = new Set(run.column('players', 'id'));
    const teams = new Set(run.column('teams', 'id'));
    expect(run.column('teams', 'captainId').every((id) => players.has(id))).toBe(true);
    expect(run.column('players', 'teamId').every((id) => teams.has(id))).toBe(true);
  });

  it('yields deferred updates as [...primary key, ...deferred values] and skips all-null rows', () => {
    const schema = config(entity('nodes', 30, [ref('parentId', 'nodes', {}, { nullable: true, generation: { emptyRate: 0.5 } })]));
    const run = generate(schema);
    const updates = [...run.generator.deferredUpdates('nodes', 4)].flat();
    expect(updates.length).toBeGreaterThan(5);
    expect(updates.length).toBeLessThan(25);
    for (const [id, parentId] of updates) expect(parentId as number).toBeLessThan(id as number);
  });

  it('requires parents to be generated first', () => {
    const schema = config(entity('users', 3, []), entity('orders', 3, [ref('userId', 'users')]));
    const run = generate(schema);
    const fresh = new DataGenerator(schema, run.plan);
    expect(() => [...fresh.rows('orders', 10)]).toThrow('orders.userId needs the rows of "users": generate that entity first (plan order)');
  });
});
