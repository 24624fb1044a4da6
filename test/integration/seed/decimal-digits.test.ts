// Decimal columns keep their total digits: introspection carries numeric(p, s) as `digits` and
// `precision`, so `sds seed` never writes a value the column cannot hold (a price, 1–1000 by its
// name, into decimal(3,2) would overflow), and `sds diff` reports decimal(5,2) → decimal(7,2).
// On both engines.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SchemaConfig } from '../../../src/contract.ts';
import { diffConfigs } from '../../../src/introspection/diff-config.ts';
import { introspectDatabase } from '../../../src/introspection/introspect.ts';
import { runSeed } from '../../../src/seed/run-seed.ts';
import { SeedRefusal } from '../../../src/seed/seed-errors.ts';
import { dialectTargets, openInspector, openTarget, uniqueNamespace, type Inspector } from '../../helpers/dialect-targets.ts';

const targets = await dialectTargets();
const SLOW = 120_000;

describe.each(targets)('decimal digits on $name', (target) => {
  const ns = uniqueNamespace('w2seed_digits');
  let inspector: Inspector;
  let connection: Awaited<ReturnType<typeof openTarget>>;
  let config: SchemaConfig;
  const table = target.name === 'postgres' ? `"${ns}"."prices"` : `\`${ns}\`.\`prices\``;

  beforeAll(async () => {
    inspector = await openInspector(target);
    connection = await openTarget(target);
    connection.track(ns);
    const key = target.name === 'postgres' ? 'id serial PRIMARY KEY' : 'id int AUTO_INCREMENT PRIMARY KEY';
    await inspector.query(target.name === 'postgres' ? `CREATE SCHEMA ${ns}` : `CREATE DATABASE ${ns}`);
    await inspector.query(
      `CREATE TABLE ${table} (${key}, price decimal(3,2) NOT NULL, amount numeric(10,2) NOT NULL, quantity numeric(5,0) NOT NULL, total decimal(5,2) NOT NULL)`,
    );
    config = (await introspectDatabase(target.url, { namespace: ns, rows: 200 })).config;
    config.entities[0]!.generation = { ...config.entities[0]!.generation, rowCount: 200 };
  }, SLOW);

  afterAll(async () => {
    await inspector?.close();
    await connection?.cleanup();
  });

  it('introspection carries total digits and scale', () => {
    const fields = Object.fromEntries(config.entities[0]!.fields.map((field) => [field.id, field]));
    expect(fields.price).toMatchObject({ type: 'number', precision: 2, digits: 3 });
    expect(fields.amount).toMatchObject({ type: 'number', precision: 2, digits: 10 });
    expect(fields.quantity).toMatchObject({ type: 'integer', digits: 5 });
    expect(fields.total).toMatchObject({ type: 'number', precision: 2, digits: 5 });
  });

  it('seeds 200 rows without overflowing any column', async () => {
    const summary = await runSeed(connection, config, { namespace: ns, generatorVersion: 3 });
    expect(summary.rowsInserted).toBe(200);
    const [extremes] = await inspector.query(
      `SELECT COUNT(*) AS n, MAX(ABS(price)) AS price, MAX(ABS(amount)) AS amount, MAX(ABS(quantity)) AS quantity, MAX(ABS(total)) AS total, COUNT(DISTINCT price) AS prices FROM ${table}`,
    );
    expect(Number(extremes!.n)).toBe(200);
    expect(Number(extremes!.price)).toBeLessThan(10);
    expect(Number(extremes!.amount)).toBeLessThan(1e8);
    expect(Number(extremes!.quantity)).toBeLessThan(1e5);
    expect(Number(extremes!.total)).toBeLessThan(1e3);
    // Spread over the column (a price's 1–1000 narrowed to 1–9.99), not piled at its bound.
    expect(Number(extremes!.prices)).toBeGreaterThan(50);
  }, SLOW);

  it('sds diff reports decimal(5,2) → decimal(7,2), and seed refuses the drifted database', async () => {
    await inspector.query(
      target.name === 'postgres' ? `ALTER TABLE ${table} ALTER COLUMN total TYPE decimal(7,2)` : `ALTER TABLE ${table} MODIFY total decimal(7,2) NOT NULL`,
    );
    const live = (await introspectDatabase(target.url, { namespace: ns, rows: 200 })).config;
    expect(diffConfigs(config, live).map((difference) => [difference.kind, difference.message])).toEqual([
      ['precision', 'prices.total: decimal(5,2) in the config, decimal(7,2) in the database'],
    ]);
    const refusal = await runSeed(connection, config, { namespace: ns, generatorVersion: 3, truncate: true }).catch((error: unknown) => error);
    expect((refusal as SeedRefusal).kind).toBe('drift');
  }, SLOW);
});
