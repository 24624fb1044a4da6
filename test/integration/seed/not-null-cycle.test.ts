// `sds seed` into a cycle of NOT NULL foreign keys (a store's manager is a staff member; a staff
// member works in a store), in place, on both engines and without touching the schema: PostgreSQL
// defers DEFERRABLE constraints, and moves rows through one INSERT statement when they are not;
// MySQL/MariaDB turns the foreign-key checks off for the seeding session only and checks every
// reference by SQL afterwards. Every row is complete when written (no row ever points nowhere), the
// definition is unchanged, --truncate gives the same data, and the rows are sds generate's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SchemaConfig } from '../../../src/contract.ts';
import { runGeneration } from '../../../src/generation/run.ts';
import { introspectDatabase } from '../../../src/introspection/introspect.ts';
import { runSeed } from '../../../src/seed/run-seed.ts';
import { SeedRefusal } from '../../../src/seed/seed-errors.ts';
import { dialectTargets, openInspector, openTarget, uniqueNamespace, type DialectTarget, type Inspector } from '../../helpers/dialect-targets.ts';

const targets = await dialectTargets();
const SLOW = 120_000;
const VERSION = 3;

interface Variant {
  target: DialectTarget;
  label: string;
  deferrable: boolean;
  method: string;
}

const variants: Variant[] = targets.flatMap((target): Variant[] =>
  target.name === 'postgres'
    ? [
        { target, label: 'postgres, deferrable', deferrable: true, method: 'deferred-constraints' },
        { target, label: 'postgres, not deferrable', deferrable: false, method: 'one-statement' },
      ]
    : [{ target, label: target.name, deferrable: false, method: 'checks-off' }],
);

function migrations({ target, deferrable }: Variant, ns: string): string[] {
  if (target.name === 'postgres') {
    const later = deferrable ? ' DEFERRABLE INITIALLY IMMEDIATE' : '';
    return [
      `CREATE SCHEMA ${ns}`,
      `CREATE TABLE ${ns}.stores (id serial PRIMARY KEY, name varchar(60) NOT NULL, manager_id integer NOT NULL)`,
      `CREATE TABLE ${ns}.staff (id serial PRIMARY KEY, store_id integer NOT NULL REFERENCES ${ns}.stores (id)${later},
         mentor_id integer REFERENCES ${ns}.staff (id)${later}, name varchar(60) NOT NULL)`,
      `ALTER TABLE ${ns}.stores ADD CONSTRAINT stores_manager_fk FOREIGN KEY (manager_id) REFERENCES ${ns}.staff (id)${later}`,
    ];
  }
  return [
    `CREATE DATABASE ${ns}`,
    `CREATE TABLE ${ns}.stores (id int AUTO_INCREMENT PRIMARY KEY, name varchar(60) NOT NULL, manager_id int NOT NULL)`,
    `CREATE TABLE ${ns}.staff (id int AUTO_INCREMENT PRIMARY KEY, store_id int NOT NULL, mentor_id int NULL, name varchar(60) NOT NULL,
       CONSTRAINT staff_store_fk FOREIGN KEY (store_id) REFERENCES ${ns}.stores (id), CONSTRAINT staff_mentor_fk FOREIGN KEY (mentor_id) REFERENCES ${ns}.staff (id))`,
    `ALTER TABLE ${ns}.stores ADD CONSTRAINT stores_manager_fk FOREIGN KEY (manager_id) REFERENCES ${ns}.staff (id)`,
  ];
}

describe.each(variants)('sds seed, a cycle of NOT NULL foreign keys, on $label', (variant) => {
  const { target } = variant;
  const ns = uniqueNamespace('seed_cycle');
  let inspector: Inspector;
  let connection: Awaited<ReturnType<typeof openTarget>>;
  let config: SchemaConfig;
  let before: unknown;
  let firstRows: unknown;
  const table = (name: string) => (target.name === 'postgres' ? `"${ns}"."${name}"` : `\`${ns}\`.\`${name}\``);

  /** The definition, deferrability included: it must be the same after every seed. */
  const definition = async () => ({
    columns: await inspector.query(`SELECT table_name AS t, column_name AS c, is_nullable AS n, column_default AS d FROM information_schema.columns WHERE table_schema = '${ns}' ORDER BY 1, 2`),
    constraints: await inspector.query(`SELECT table_name AS t, constraint_name AS c, constraint_type AS k FROM information_schema.table_constraints WHERE table_schema = '${ns}' ORDER BY 1, 2`),
    deferrable:
      target.name === 'postgres'
        ? await inspector.query(`SELECT conname AS c, condeferrable AS d, condeferred AS i FROM pg_constraint WHERE connamespace = '${ns}'::regnamespace ORDER BY 1`)
        : [],
  });
  const rows = async () => ({
    stores: (await inspector.query(`SELECT id, name, manager_id FROM ${table('stores')} ORDER BY id`)).map((row) => `${row.id}|${row.name}|${row.manager_id}`),
    staff: (await inspector.query(`SELECT id, store_id, mentor_id, name FROM ${table('staff')} ORDER BY id`)).map((row) => `${row.id}|${row.store_id}|${row.mentor_id}|${row.name}`),
  });
  /** References that resolve nowhere, by SQL: none may exist. */
  const orphans = async () => ({
    managers: Number((await inspector.query(`SELECT COUNT(*) AS n FROM ${table('stores')} s LEFT JOIN ${table('staff')} m ON m.id = s.manager_id WHERE m.id IS NULL`))[0]!.n),
    stores: Number((await inspector.query(`SELECT COUNT(*) AS n FROM ${table('staff')} s LEFT JOIN ${table('stores')} x ON x.id = s.store_id WHERE x.id IS NULL`))[0]!.n),
    mentors: Number((await inspector.query(`SELECT COUNT(*) AS n FROM ${table('staff')} s LEFT JOIN ${table('staff')} m ON m.id = s.mentor_id WHERE s.mentor_id IS NOT NULL AND m.id IS NULL`))[0]!.n),
  });

  beforeAll(async () => {
    inspector = await openInspector(target);
    connection = await openTarget(target);
    connection.track(ns);
    for (const statement of migrations(variant, ns)) await inspector.query(statement);
    config = (await introspectDatabase(target.url, { namespace: ns, rows: 20 })).config;
    for (const entity of config.entities) entity.generation = { ...entity.generation, rowCount: entity.id === 'stores' ? 12 : 40 };
    before = await definition();
  }, SLOW);

  afterAll(async () => {
    await inspector?.close();
    await connection?.cleanup();
  });

  it('the config keeps the cycle NOT NULL: one column filled after insert, the other references as usual', () => {
    const filled = config.entities.flatMap((entity) => entity.fields.filter((field) => field.references?.fillAfterInsert).map((field) => `${entity.id}.${field.id}`));
    expect(filled).toHaveLength(1);
  });

  it('a dry run names the cycle, its columns and how it loads, and writes nothing', async () => {
    const summary = await runSeed(connection, config, { namespace: ns, generatorVersion: VERSION, dryRun: true });
    expect(summary.cycles).toHaveLength(1);
    expect(summary.cycles[0]!.method).toBe(variant.method);
    expect(summary.cycles[0]!.tables.sort()).toEqual(['staff', 'stores']);
    expect(summary.cycles[0]!.columns).toHaveLength(1);
    // The constraints deferred are the foreign keys of the columns that point forward (the cycle's and the self reference).
    if (variant.method === 'deferred-constraints') expect(summary.cycles[0]!.constraints.length).toBeGreaterThan(0);
    else expect(summary.cycles[0]!.constraints).toEqual([]);
    expect((await rows()).stores).toEqual([]);
  }, SLOW);

  it('fills both tables in place, every reference resolves, and the definition is unchanged', async () => {
    const summary = await runSeed(connection, config, { namespace: ns, generatorVersion: VERSION });
    expect(Object.fromEntries(summary.tables.map((entry) => [entry.table, entry.rowsInserted]))).toEqual({ stores: 12, staff: 40 });
    expect(await orphans()).toEqual({ managers: 0, stores: 0, mentors: 0 });
    const data = await rows();
    expect(data.stores).toHaveLength(12);
    // The nullable self reference is filled too (with the rows), not left null.
    expect(data.staff.filter((row) => !row.includes('|null|'))).not.toHaveLength(0);
    expect(await definition()).toEqual(before);
    firstRows = data;
    // The application inserts into the cycle without naming keys: the counters are past the seeded ones.
    await inspector.query(`INSERT INTO ${table('staff')} (store_id, name) VALUES (1, 'App Hire')`);
    const [hire] = await inspector.query(`SELECT id FROM ${table('staff')} WHERE name = 'App Hire'`);
    expect(Number(hire!.id)).toBeGreaterThan(40);
    await inspector.query(`DELETE FROM ${table('staff')} WHERE name = 'App Hire'`);
  }, SLOW);

  it('a second seed without --truncate is refused and changes nothing; --truncate gives the same data', async () => {
    const refusal = await runSeed(connection, config, { namespace: ns, generatorVersion: VERSION }).catch((error: unknown) => error);
    expect((refusal as SeedRefusal).kind).toBe('not-empty');
    expect(await rows()).toEqual(firstRows);
    const summary = await runSeed(connection, config, { namespace: ns, generatorVersion: VERSION, truncate: true });
    expect(summary.rowsInserted).toBe(52);
    expect(await rows()).toEqual(firstRows);
    expect(await orphans()).toEqual({ managers: 0, stores: 0, mentors: 0 });
    expect(await definition()).toEqual(before);
  }, SLOW);

  it('the rows are the ones sds generate makes from the same config and seed', async () => {
    const generated = connection.track(uniqueNamespace('gen'));
    await runGeneration(connection, generated, config, { generatorVersion: VERSION, seed: config.generationDefaults?.seed ?? 'sds' });
    const q = (name: string) => (target.name === 'postgres' ? `"${generated}"."${name}"` : `\`${generated}\`.\`${name}\``);
    expect({
      stores: (await inspector.query(`SELECT id, name, manager_id FROM ${q('stores')} ORDER BY id`)).map((row) => `${row.id}|${row.name}|${row.manager_id}`),
      staff: (await inspector.query(`SELECT id, store_id, mentor_id, name FROM ${q('staff')} ORDER BY id`)).map((row) => `${row.id}|${row.store_id}|${row.mentor_id}|${row.name}`),
    }).toEqual(firstRows);
  }, SLOW);
});
