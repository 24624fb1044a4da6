// `sds seed` into PostgreSQL's declarative partitions and table inheritance: introspection maps a
// partitioned table as one entity (its partitions are not entities of their own), the seed COPYs
// into the parent and PostgreSQL routes every row to the partition its key falls in; a table that
// INHERITS another is an entity of its own, and its rows show through the parent as the database says.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SchemaConfig } from '../../../src/contract.ts';
import { introspectDatabase } from '../../../src/introspection/introspect.ts';
import { runSeed } from '../../../src/seed/run-seed.ts';
import { dialectTargets, openInspector, openTarget, uniqueNamespace, type Inspector } from '../../helpers/dialect-targets.ts';

const targets = (await dialectTargets()).filter((target) => target.name === 'postgres');
const SLOW = 120_000;

describe.each(targets)('sds seed into partitions and inheritance on $name', (target) => {
  const ns = uniqueNamespace('seed_parts');
  let inspector: Inspector;
  let connection: Awaited<ReturnType<typeof openTarget>>;
  let config: SchemaConfig;
  let warnings: string[];
  const count = async (name: string, where = 'true') => Number((await inspector.query(`SELECT COUNT(*) AS n FROM ${ns}.${name} WHERE ${where}`))[0]!.n);

  beforeAll(async () => {
    inspector = await openInspector(target);
    connection = await openTarget(target);
    connection.track(ns);
    for (const statement of [
      `CREATE SCHEMA ${ns}`,
      `CREATE TABLE ${ns}.accounts (id serial PRIMARY KEY, name varchar(60) NOT NULL)`,
      // List partitions by a column the CHECK of the parent bounds, and a range-partitioned table with a default partition.
      `CREATE TABLE ${ns}.orders (id integer NOT NULL, region text NOT NULL CHECK (region IN ('eu', 'us', 'apac')),
         account_id integer NOT NULL REFERENCES ${ns}.accounts (id), total numeric(10,2) NOT NULL,
         PRIMARY KEY (id, region)) PARTITION BY LIST (region)`,
      `CREATE TABLE ${ns}.orders_eu PARTITION OF ${ns}.orders FOR VALUES IN ('eu')`,
      `CREATE TABLE ${ns}.orders_us PARTITION OF ${ns}.orders FOR VALUES IN ('us')`,
      `CREATE TABLE ${ns}.orders_apac PARTITION OF ${ns}.orders FOR VALUES IN ('apac')`,
      `CREATE TABLE ${ns}.readings (id bigint GENERATED ALWAYS AS IDENTITY, taken_on date NOT NULL, value integer NOT NULL,
         PRIMARY KEY (id, taken_on)) PARTITION BY RANGE (taken_on)`,
      `CREATE TABLE ${ns}.readings_2020s PARTITION OF ${ns}.readings FOR VALUES FROM ('2020-01-01') TO ('2030-01-01')`,
      `CREATE TABLE ${ns}.readings_other PARTITION OF ${ns}.readings DEFAULT`,
      // Inheritance: capitals are cities with a country.
      `CREATE TABLE ${ns}.cities (id integer PRIMARY KEY, name varchar(60) NOT NULL, population integer NOT NULL CHECK (population >= 0))`,
      `CREATE TABLE ${ns}.capitals (country varchar(60) NOT NULL) INHERITS (${ns}.cities)`,
      `ALTER TABLE ${ns}.capitals ADD PRIMARY KEY (id)`,
    ]) {
      await inspector.query(statement);
    }
    const introspected = await introspectDatabase(target.url, { namespace: ns, rows: 30 });
    config = introspected.config;
    warnings = introspected.warnings.map((warning) => warning.message);
  }, SLOW);

  afterAll(async () => {
    await inspector?.close();
    await connection?.cleanup();
  });

  it('maps a partitioned table as one entity and no partition as an entity; an inheriting table is an entity of its own', () => {
    expect(config.entities.map((entity) => entity.id).sort()).toEqual(['accounts', 'capitals', 'cities', 'orders', 'readings']);
    const capitals = config.entities.find((entity) => entity.id === 'capitals')!;
    expect(capitals.fields.map((field) => field.id)).toEqual(['id', 'name', 'population', 'country']);
    expect(warnings.some((message) => /orders.*partitioned table \(3 partitions\)/.test(message))).toBe(true);
  });

  it('seeds the parents; every row lands in the partition of its key; the inheriting table shows through its parent', async () => {
    const summary = await runSeed(connection, config, { namespace: ns, generatorVersion: 3 });
    expect(Object.fromEntries(summary.tables.map((entry) => [entry.table, entry.rowsInserted]))).toEqual({ accounts: 30, orders: 30, readings: 30, cities: 30, capitals: 30 });
    expect(await count('orders')).toBe(30);
    const partitions = (await count('orders_eu')) + (await count('orders_us')) + (await count('orders_apac'));
    expect(partitions).toBe(30);
    expect(await count('orders_eu', `region <> 'eu'`)).toBe(0);
    expect(await count('orders_us', `region <> 'us'`)).toBe(0);
    // Rows sit in the partitions, never in the parent itself.
    expect(await count('orders', `tableoid = '${ns}.orders'::regclass`)).toBe(0);
    expect((await count('readings_2020s')) + (await count('readings_other'))).toBe(30);
    expect(await count('readings_2020s', `taken_on < '2020-01-01' OR taken_on >= '2030-01-01'`)).toBe(0);
    // SELECT from the parent reads its own rows and those of the table inheriting it.
    expect(await count('cities')).toBe(60);
    expect(Number((await inspector.query(`SELECT COUNT(*) AS n FROM ONLY ${ns}.cities`))[0]!.n)).toBe(30);
  }, SLOW);

  it('--truncate empties the partitioned table through its parent and gives the same rows', async () => {
    const read = async () => (await inspector.query(`SELECT id, region, account_id, total FROM ${ns}.orders ORDER BY id, region`)).map((row) => Object.values(row).join('|'));
    const first = await read();
    await runSeed(connection, config, { namespace: ns, generatorVersion: 3, truncate: true });
    expect(await read()).toEqual(first);
    expect(await count('cities')).toBe(60);
  }, SLOW);

  it('a config without the inheriting table counts and empties only the parent\'s own rows', async () => {
    const parentOnly = structuredClone(config);
    parentOnly.entities = parentOnly.entities.filter((entity) => entity.id !== 'capitals');
    const capitals = await inspector.query(`SELECT id, name FROM ${ns}.capitals ORDER BY id`);
    const refusal = await runSeed(connection, parentOnly, { namespace: ns, generatorVersion: 3 }).catch((error: unknown) => error);
    // The parent's own 30 rows, not 60 with the inheriting table's.
    expect((refusal as { details: string[] }).details).toContain('cities: 30 rows');
    const summary = await runSeed(connection, parentOnly, { namespace: ns, generatorVersion: 3, truncate: true });
    expect(summary.tables.find((entry) => entry.table === 'cities')!.rowsBefore).toBe(30);
    // --truncate emptied exactly the config's tables: the inheriting table keeps its rows.
    expect(await inspector.query(`SELECT id, name FROM ${ns}.capitals ORDER BY id`)).toEqual(capitals);
    expect(await count('cities')).toBe(60);
  }, SLOW);
});
