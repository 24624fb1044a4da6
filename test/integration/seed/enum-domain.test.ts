// `sds seed` over columns whose type is the schema's own: PostgreSQL enum types and domains (a
// domain over integer with a CHECK, a domain over text with a pattern, a NOT NULL domain), and
// MySQL/MariaDB ENUM columns. Introspection maps them to fields the database accepts; the seed
// fills every row through them without touching their definition; the application's own insert
// works afterwards.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SchemaConfig } from '../../../src/contract.ts';
import { introspectDatabase } from '../../../src/introspection/introspect.ts';
import { runSeed } from '../../../src/seed/run-seed.ts';
import { dialectTargets, openInspector, openTarget, uniqueNamespace, type DialectTarget, type Inspector } from '../../helpers/dialect-targets.ts';

const targets = await dialectTargets();
const SLOW = 120_000;
const ROWS = 40;

function migrations(target: DialectTarget, ns: string): string[] {
  if (target.name === 'postgres') {
    return [
      `CREATE SCHEMA ${ns}`,
      `CREATE TYPE ${ns}.mood AS ENUM ('happy', 'calm', 'grumpy')`,
      `CREATE DOMAIN ${ns}.positive_int AS integer CHECK (VALUE > 0)`,
      `CREATE DOMAIN ${ns}.code_text AS varchar(8) NOT NULL CHECK (char_length(VALUE) >= 1)`,
      `CREATE TABLE ${ns}.pets (id serial PRIMARY KEY, name varchar(40) NOT NULL, mood ${ns}.mood NOT NULL,
         legs ${ns}.positive_int NOT NULL, tag ${ns}.code_text, spare_mood ${ns}.mood)`,
    ];
  }
  return [
    `CREATE DATABASE \`${ns}\``,
    `CREATE TABLE \`${ns}\`.\`pets\` (id int AUTO_INCREMENT PRIMARY KEY, name varchar(40) NOT NULL,
       mood ENUM('happy', 'calm', 'grumpy') NOT NULL, legs int NOT NULL CHECK (legs > 0), tag varchar(8) NOT NULL,
       spare_mood ENUM('happy', 'calm', 'grumpy') NULL)`,
  ];
}

/** The table's definition as the catalog tells it (columns with their declared types, checks). */
async function definition(inspector: Inspector, target: DialectTarget, ns: string): Promise<unknown> {
  const type = target.name === 'postgres' ? `COALESCE(domain_name, udt_name)` : 'column_type';
  const columns = await inspector.query(
    `SELECT column_name AS c, ${type} AS t, is_nullable AS n FROM information_schema.columns WHERE table_schema = '${ns}' ORDER BY ordinal_position`,
  );
  const checks = await inspector.query(`SELECT constraint_name AS c FROM information_schema.check_constraints WHERE constraint_schema = '${ns}' ORDER BY 1`);
  return { columns, checks };
}

describe.each(targets)('sds seed through enum types and domains on $name', (target) => {
  const ns = uniqueNamespace('seed_enum');
  let inspector: Inspector;
  let connection: Awaited<ReturnType<typeof openTarget>>;
  let config: SchemaConfig;
  let before: unknown;
  const pets = target.name === 'postgres' ? `${ns}.pets` : `\`${ns}\`.\`pets\``;

  beforeAll(async () => {
    inspector = await openInspector(target);
    connection = await openTarget(target);
    connection.track(ns);
    for (const statement of migrations(target, ns)) await inspector.query(statement);
    config = (await introspectDatabase(target.url, { namespace: ns, rows: ROWS })).config;
    before = await definition(inspector, target, ns);
  }, SLOW);

  afterAll(async () => {
    await inspector?.close();
    await connection?.cleanup();
  });

  it('maps the enum type to its labels', () => {
    const fields = config.entities.find((entity) => entity.id === 'pets')!.fields;
    const mood = fields.find((field) => field.id === 'mood') as { type?: string; values?: unknown[] } | undefined;
    expect(mood?.type).toBe('enum');
    expect(mood?.values).toEqual(['happy', 'calm', 'grumpy']);
  });

  it('fills every row through the enum and domain columns; the definition is unchanged; the application inserts afterwards', async () => {
    const summary = await runSeed(connection, config, { namespace: ns, generatorVersion: 3 });
    expect(summary.tables.map((entry) => [entry.table, entry.rowsInserted])).toEqual([['pets', ROWS]]);
    const rows = await inspector.query(`SELECT mood, legs, tag FROM ${pets}`);
    expect(rows).toHaveLength(ROWS);
    for (const row of rows) {
      expect(['happy', 'calm', 'grumpy']).toContain(String(row.mood));
      expect(Number(row.legs)).toBeGreaterThan(0);
      expect(String(row.tag).length).toBeGreaterThanOrEqual(1);
      expect(String(row.tag).length).toBeLessThanOrEqual(8);
    }
    // More than one label is used: the enum is drawn from, not pinned to its first value.
    expect(new Set(rows.map((row) => String(row.mood))).size).toBeGreaterThan(1);
    expect(await definition(inspector, target, ns)).toEqual(before);
    await inspector.query(`INSERT INTO ${pets} (name, mood, legs, tag) VALUES ('Rex', 'calm', 4, 'R1')`);
    expect(Number((await inspector.query(`SELECT COUNT(*) AS n FROM ${pets}`))[0]!.n)).toBe(ROWS + 1);
  }, SLOW);
});
