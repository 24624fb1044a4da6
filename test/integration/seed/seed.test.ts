// `sds seed` on both engines, over a schema of our own made by SQL "migrations" (serial / identity /
// AUTO_INCREMENT keys, a foreign key, a self reference, defaults, a CHECK, a generated column, a
// trigger-maintained column): the
// tables fill in place and their definition never changes, a non-empty table is refused and left
// as it was, --truncate gives the same data twice, a violated CHECK rolls everything back, drift is
// refused, the application inserts without naming keys afterwards, and the rows are generate's.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SchemaConfig } from '../../../src/contract.ts';
import { runGeneration } from '../../../src/generation/run.ts';
import { introspectDatabase } from '../../../src/introspection/introspect.ts';
import { runSeed } from '../../../src/seed/run-seed.ts';
import { SeedRefusal } from '../../../src/seed/seed-errors.ts';
import { childEnv, runCli } from '../../helpers/processes.ts';
import { dialectTargets, openInspector, openTarget, uniqueNamespace, type DialectTarget, type Inspector } from '../../helpers/dialect-targets.ts';

const targets = await dialectTargets();
const SLOW = 120_000;
const VERSION = 3;

/** The application's migrations, per engine, into namespace `ns`. */
function migrations(target: DialectTarget, ns: string): string[] {
  if (target.name === 'postgres') {
    return [
      `CREATE SCHEMA ${ns}`,
      `CREATE TABLE ${ns}.owners (id serial PRIMARY KEY, name varchar(60) NOT NULL, email text NOT NULL UNIQUE, created_at timestamptz NOT NULL DEFAULT now(), search_name text)`,
      `CREATE FUNCTION ${ns}.owners_search() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN NEW.search_name := lower(NEW.name); RETURN NEW; END $$`,
      `CREATE TRIGGER owners_search BEFORE INSERT ON ${ns}.owners FOR EACH ROW EXECUTE FUNCTION ${ns}.owners_search()`,
      `CREATE TABLE ${ns}.pets (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, owner_id integer NOT NULL REFERENCES ${ns}.owners (id),
         name text NOT NULL, weight_kg numeric(6,2) NOT NULL CONSTRAINT pets_weight_check CHECK (weight_kg BETWEEN 0 AND 500),
         status text NOT NULL DEFAULT 'draft', label text GENERATED ALWAYS AS (upper(name)) STORED)`,
      `CREATE TABLE ${ns}.categories (id serial PRIMARY KEY, parent_id integer REFERENCES ${ns}.categories (id), title text NOT NULL)`,
    ];
  }
  return [
    `CREATE DATABASE ${ns}`,
    `CREATE TABLE ${ns}.owners (id int AUTO_INCREMENT PRIMARY KEY, name varchar(60) NOT NULL, email varchar(120) NOT NULL UNIQUE, created_at datetime NOT NULL DEFAULT CURRENT_TIMESTAMP, search_name varchar(60) NULL)`,
    `CREATE TRIGGER ${ns}.owners_search BEFORE INSERT ON ${ns}.owners FOR EACH ROW SET NEW.search_name = LOWER(NEW.name)`,
    `CREATE TABLE ${ns}.pets (id bigint AUTO_INCREMENT PRIMARY KEY, owner_id int NOT NULL, name varchar(80) NOT NULL,
       weight_kg decimal(6,2) NOT NULL, status varchar(20) NOT NULL DEFAULT 'draft', label varchar(80) GENERATED ALWAYS AS (upper(name)) STORED,
       CONSTRAINT pets_weight_check CHECK (weight_kg BETWEEN 0 AND 500), CONSTRAINT pets_owner_fk FOREIGN KEY (owner_id) REFERENCES ${ns}.owners (id))`,
    `CREATE TABLE ${ns}.categories (id int AUTO_INCREMENT PRIMARY KEY, parent_id int NULL, title varchar(100) NOT NULL,
       CONSTRAINT categories_parent_fk FOREIGN KEY (parent_id) REFERENCES ${ns}.categories (id))`,
  ];
}

/** The namespace's definition as information_schema tells it: columns, constraints, checks. */
async function schemaDump(inspector: Inspector, ns: string): Promise<unknown> {
  const columns = await inspector.query(
    `SELECT table_name AS t, column_name AS c, ordinal_position AS o, data_type AS d, is_nullable AS n, column_default AS def
       FROM information_schema.columns WHERE table_schema = ? ORDER BY 1, 3`.replace('?', `'${ns}'`),
  );
  const constraints = await inspector.query(
    `SELECT table_name AS t, constraint_name AS c, constraint_type AS k FROM information_schema.table_constraints WHERE table_schema = '${ns}' ORDER BY 1, 2`,
  );
  const keys = await inspector.query(
    `SELECT table_name AS t, constraint_name AS c, column_name AS col, ordinal_position AS o FROM information_schema.key_column_usage WHERE table_schema = '${ns}' ORDER BY 1, 2, 4`,
  );
  const checks = await inspector.query(
    `SELECT constraint_name AS c, check_clause AS x FROM information_schema.check_constraints WHERE constraint_schema = '${ns}' ORDER BY 1`,
  );
  return { columns, constraints, keys, checks };
}

/** Every row of the seeded tables, in key order, as text. */
async function rowsOf(inspector: Inspector, target: DialectTarget, ns: string): Promise<Record<string, unknown[]>> {
  const q = (name: string) => (target.name === 'postgres' ? `"${ns}"."${name}"` : `\`${ns}\`.\`${name}\``);
  const read = async (sql: string) => (await inspector.query(sql)).map((row) => JSON.stringify(Object.values(row).map((value) => (value === null ? null : String(value)))));
  return {
    owners: await read(`SELECT id, name, email FROM ${q('owners')} ORDER BY id`),
    pets: await read(`SELECT id, owner_id, name, weight_kg, status, label FROM ${q('pets')} ORDER BY id`),
    categories: await read(`SELECT id, parent_id, title FROM ${q('categories')} ORDER BY id`),
  };
}

describe.each(targets)('sds seed on $name', (target) => {
  const ns = uniqueNamespace('seed');
  let inspector: Inspector;
  let connection: Awaited<ReturnType<typeof openTarget>>;
  let config: SchemaConfig;
  let before: unknown;
  let firstRows: Record<string, unknown[]>;
  const table = (name: string) => (target.name === 'postgres' ? `${ns}.${name}` : `\`${ns}\`.\`${name}\``);

  beforeAll(async () => {
    inspector = await openInspector(target);
    connection = await openTarget(target);
    connection.track(ns);
    for (const statement of migrations(target, ns)) await inspector.query(statement);
    const introspected = await introspectDatabase(target.url, { namespace: ns, rows: 30 });
    config = introspected.config;
    // Leave two defaulted columns to the database: the config drops them.
    for (const entity of config.entities) {
      if (entity.id === 'owners') entity.fields = entity.fields.filter((field) => field.id !== 'created_at');
      if (entity.id === 'pets') entity.fields = entity.fields.filter((field) => field.id !== 'status');
    }
    before = await schemaDump(inspector, ns);
    // The dump sees the whole definition: 14 columns, three primary keys, a unique key, two foreign keys, the CHECK.
    const dump = before as { columns: unknown[]; constraints: Array<{ k: string }>; checks: Array<{ c: string }> };
    expect(dump.columns).toHaveLength(14);
    expect(dump.constraints.filter((constraint) => constraint.k === 'FOREIGN KEY')).toHaveLength(2);
    expect(dump.checks.map((check) => check.c)).toContain('pets_weight_check');
  }, SLOW);

  afterAll(async () => {
    await inspector?.close();
    await connection?.cleanup();
  });

  it('a dry run plans parents first, names what the database fills, and writes nothing', async () => {
    const summary = await runSeed(connection, config, { namespace: ns, generatorVersion: VERSION, dryRun: true });
    expect(summary.dryRun).toBe(true);
    expect(summary.rowsInserted).toBe(0);
    const order = summary.tables.map((entry) => entry.table);
    expect(order.indexOf('owners')).toBeLessThan(order.indexOf('pets'));
    const pets = summary.tables.find((entry) => entry.table === 'pets')!;
    expect(pets.leftToDatabase.map((entry) => entry.column).sort()).toEqual(['label', 'status']);
    expect(pets.columns).not.toContain('label');
    expect(summary.tables.find((entry) => entry.table === 'categories')!.deferredColumns).toEqual(['parent_id']);
    expect(Number((await inspector.query(`SELECT COUNT(*) AS n FROM ${table('owners')}`))[0]!.n)).toBe(0);
  }, SLOW);

  it('fills every table in place; the definition is unchanged; defaults and generated columns are the database\'s', async () => {
    const summary = await runSeed(connection, config, { namespace: ns, generatorVersion: VERSION });
    expect(summary.rowsInserted).toBe(90);
    expect(summary.tables.map((entry) => entry.rowsInserted)).toEqual([30, 30, 30]);
    expect(await schemaDump(inspector, ns)).toEqual(before);
    const pets = await inspector.query(`SELECT status, label, name FROM ${table('pets')}`);
    for (const pet of pets) {
      expect(pet.status).toBe('draft');
      expect(pet.label).toBe(String(pet.name).toUpperCase());
    }
    const owners = await inspector.query(`SELECT created_at, name, search_name FROM ${table('owners')}`);
    expect(owners.every((owner) => owner.created_at !== null)).toBe(true);
    // Triggers fire on the load: the trigger-maintained column holds what the trigger wrote.
    for (const owner of owners) expect(owner.search_name).toBe(String(owner.name).toLowerCase());
    const children = await inspector.query(`SELECT COUNT(*) AS n FROM ${table('categories')} WHERE parent_id IS NOT NULL`);
    expect(Number(children[0]!.n)).toBeGreaterThan(0);
    firstRows = await rowsOf(inspector, target, ns);
  }, SLOW);

  it('the application inserts without naming keys afterwards', async () => {
    await inspector.query(`INSERT INTO ${table('owners')} (name, email) VALUES ('App User', 'app.user@example.test')`);
    const [owner] = await inspector.query(`SELECT id FROM ${table('owners')} WHERE email = 'app.user@example.test'`);
    expect(Number(owner!.id)).toBeGreaterThan(30);
    await inspector.query(`INSERT INTO ${table('pets')} (owner_id, name, weight_kg) VALUES (${Number(owner!.id)}, 'Rex', 12.5)`);
    const [pet] = await inspector.query(`SELECT id FROM ${table('pets')} WHERE name = 'Rex'`);
    expect(Number(pet!.id)).toBeGreaterThan(30);
    await inspector.query(`INSERT INTO ${table('categories')} (title) VALUES ('App category')`);
  }, SLOW);

  it('refuses tables that hold rows without --truncate, naming them, and changes nothing', async () => {
    const rows = await rowsOf(inspector, target, ns);
    const refusal = await runSeed(connection, config, { namespace: ns, generatorVersion: VERSION }).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(SeedRefusal);
    expect((refusal as SeedRefusal).kind).toBe('not-empty');
    expect((refusal as SeedRefusal).details).toEqual(['categories: 31 rows', 'owners: 31 rows', 'pets: 31 rows']);
    expect(await rowsOf(inspector, target, ns)).toEqual(rows);
  }, SLOW);

  it('--truncate empties exactly the config\'s tables and gives the same data again', async () => {
    const summary = await runSeed(connection, config, { namespace: ns, generatorVersion: VERSION, truncate: true });
    expect(summary.truncated).toEqual([...summary.tables.map((entry) => entry.table)].reverse());
    expect(await rowsOf(inspector, target, ns)).toEqual(firstRows);
    expect(await schemaDump(inspector, ns)).toEqual(before);
    // And the application's next insert still finds a free key.
    await inspector.query(`INSERT INTO ${table('owners')} (name, email) VALUES ('Second', 'second@example.test')`);
  }, SLOW);

  it('a violated CHECK rolls everything back and names the table, the column and the constraint', async () => {
    const rows = await rowsOf(inspector, target, ns);
    const loose = structuredClone(config);
    const weight = loose.entities.find((entity) => entity.id === 'pets')!.fields.find((field) => field.id === 'weight_kg')!;
    Object.assign(weight, { min: 600, max: 900 });
    const failure = await runSeed(connection, loose, { namespace: ns, generatorVersion: VERSION, truncate: true }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(SeedRefusal);
    expect((failure as SeedRefusal).kind).toBe('failed');
    expect((failure as Error).message).toMatch(/pets/);
    if (target.name === 'postgres') expect((failure as Error).message).toMatch(/table pets, column weight_kg, constraint pets_weight_check CHECK/);
    expect((failure as Error).message).toMatch(/rolled back/);
    if (target.name === 'mysql') {
      expect((failure as Error).message).toMatch(/CHECK of the table: pets_weight_check/);
      // MySQL says what the failure left: every table is InnoDB, so all of it was undone but the counters.
      expect((failure as Error).message).toMatch(/is undone, so those tables hold what they held before; only the AUTO_INCREMENT counters of .* may stay moved/);
      expect((failure as Error).message).toMatch(/\. The same command repeats cleanly/);
    }
    expect(await rowsOf(inspector, target, ns)).toEqual(rows);
  }, SLOW);

  it('a trigger that raises rolls everything back, and its message reaches the user', async () => {
    const rows = await rowsOf(inspector, target, ns);
    const trigger = `${ns}_refuse_pets`;
    if (target.name === 'postgres') {
      await inspector.query(
        `CREATE FUNCTION ${ns}.refuse_pets() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'pets are closed today'; END $$`,
      );
      await inspector.query(`CREATE TRIGGER ${trigger} BEFORE INSERT ON ${ns}.pets FOR EACH ROW EXECUTE FUNCTION ${ns}.refuse_pets()`);
    } else {
      await inspector.query(`CREATE TRIGGER \`${ns}\`.\`${trigger}\` BEFORE INSERT ON \`${ns}\`.\`pets\` FOR EACH ROW SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'pets are closed today'`);
    }
    try {
      const failure = await runSeed(connection, config, { namespace: ns, generatorVersion: VERSION, truncate: true }).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(SeedRefusal);
      expect((failure as SeedRefusal).kind).toBe('failed');
      expect((failure as Error).message).toMatch(/pets are closed today/);
      expect((failure as Error).message).toMatch(/rolled back/);
      // Owners were loaded before pets in the same transaction: they are back as they were too.
      expect(await rowsOf(inspector, target, ns)).toEqual(rows);
    } finally {
      if (target.name === 'postgres') await inspector.query(`DROP FUNCTION ${ns}.refuse_pets() CASCADE`);
      else await inspector.query(`DROP TRIGGER \`${ns}\`.\`${trigger}\``);
    }
  }, SLOW);

  it('refuses a drifted database, listing the differences', async () => {
    const drifted = structuredClone(config);
    drifted.entities.find((entity) => entity.id === 'owners')!.fields.push({ id: 'nickname', type: 'string' } as never);
    const refusal = await runSeed(connection, drifted, { namespace: ns, generatorVersion: VERSION, truncate: true }).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(SeedRefusal);
    expect((refusal as SeedRefusal).kind).toBe('drift');
    expect((refusal as SeedRefusal).details).toEqual(['column owners.nickname is in the config but not in the database']);
  }, SLOW);

  it('refuses a table NOT NULL without a default that the config leaves out', async () => {
    const partial = structuredClone(config);
    const pets = partial.entities.find((entity) => entity.id === 'pets')!;
    pets.fields = pets.fields.filter((field) => field.id !== 'name');
    const refusal = await runSeed(connection, partial, { namespace: ns, generatorVersion: VERSION, truncate: true, dryRun: true }).catch((error: unknown) => error);
    expect((refusal as SeedRefusal).kind).toBe('drift');
    expect((refusal as SeedRefusal).details).toEqual(['column pets.name is in the database but not in the config']);
  }, SLOW);

  it('--truncate refuses when a table outside the config references the config\'s tables with rows, and changes nothing', async () => {
    const outside = target.name === 'postgres'
      ? `CREATE TABLE ${ns}.visits (id serial PRIMARY KEY, pet_id bigint NOT NULL REFERENCES ${ns}.pets (id) ON DELETE CASCADE)`
      : `CREATE TABLE ${ns}.visits (id int AUTO_INCREMENT PRIMARY KEY, pet_id bigint NOT NULL, CONSTRAINT visits_pet_fk FOREIGN KEY (pet_id) REFERENCES ${ns}.pets (id) ON DELETE CASCADE)`;
    await inspector.query(outside);
    await inspector.query(`INSERT INTO ${table('visits')} (pet_id) VALUES (1)`);
    try {
      const rows = await rowsOf(inspector, target, ns);
      const refusal = await runSeed(connection, config, { namespace: ns, generatorVersion: VERSION, truncate: true }).catch((error: unknown) => error);
      expect((refusal as SeedRefusal).kind).toBe('referenced');
      expect((refusal as SeedRefusal).details).toEqual(['visits (1 row) references pets']);
      expect(await rowsOf(inspector, target, ns)).toEqual(rows);
      expect(Number((await inspector.query(`SELECT COUNT(*) AS n FROM ${table('visits')}`))[0]!.n)).toBe(1);
      // Empty, the outside table no longer stands in the way (PostgreSQL then deletes instead of truncating, children first).
      await inspector.query(`DELETE FROM ${table('visits')}`);
      await runSeed(connection, config, { namespace: ns, generatorVersion: VERSION, truncate: true });
      expect(await rowsOf(inspector, target, ns)).toEqual(firstRows);
    } finally {
      await inspector.query(`DROP TABLE ${table('visits')}`);
    }
  }, SLOW);

  it('the CLI exits 1 on drift, listing the differences, and --json prints the refusal', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sds-seed-cli-'));
    try {
      const drifted = structuredClone(config);
      drifted.entities.find((entity) => entity.id === 'owners')!.fields.push({ id: 'nickname', type: 'string' } as never);
      const file = path.join(dir, 'drifted.json');
      fs.writeFileSync(file, JSON.stringify(drifted));
      const url = target.url;
      const namespace = target.name === 'postgres' ? ['--schema', ns] : ['--database', ns];
      const plain = await runCli(['seed', file, '--database-url', url, ...namespace], childEnv({}));
      expect(plain.code).toBe(1);
      expect(plain.stderr).toMatch(/^ {2}column owners\.nickname is in the config but not in the database$/m);
      expect(plain.stderr).toMatch(/^sds: the database differs from the config \(1 difference\); nothing was written/m);
      const json = await runCli(['seed', file, '--database-url', url, ...namespace, '--json'], childEnv({}));
      expect(json.code).toBe(1);
      expect(JSON.parse(json.stdout)).toMatchObject({ refused: 'drift', details: ['column owners.nickname is in the config but not in the database'] });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, SLOW);

  it('the rows are the ones sds generate makes from the same config and seed', async () => {
    const generated = connection.track(uniqueNamespace('gen'));
    await runGeneration(connection, generated, config, { generatorVersion: VERSION, seed: config.generationDefaults?.seed ?? 'sds' });
    const q = (ns2: string, name: string) => (target.name === 'postgres' ? `"${ns2}"."${name}"` : `\`${ns2}\`.\`${name}\``);
    const read = async (ns2: string) => ({
      owners: await inspector.query(`SELECT id, name, email FROM ${q(ns2, 'owners')} ORDER BY id`),
      pets: await inspector.query(`SELECT id, owner_id, name FROM ${q(ns2, 'pets')} ORDER BY id`),
    });
    const seeded = await runSeed(connection, config, { namespace: ns, generatorVersion: VERSION, truncate: true });
    expect(seeded.rowsInserted).toBe(90);
    const text = (value: unknown) => JSON.parse(JSON.stringify(value, (_key, item: unknown) => (typeof item === 'number' ? String(item) : item)));
    expect(text(await read(ns))).toEqual(text(await read(generated)));
  }, SLOW);
});
