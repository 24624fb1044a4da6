// A seed that fails midway on MySQL/MariaDB says what it left: InnoDB rolls back the rows (and
// --truncate's deletes) but never moves an AUTO_INCREMENT counter back, and a table of an engine
// without transactions (MyISAM) keeps what was written to it. The message names both, and says how
// the same command repeats cleanly; repeating it so does.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SchemaConfig } from '../../../src/contract.ts';
import { introspectDatabase } from '../../../src/introspection/introspect.ts';
import { runSeed } from '../../../src/seed/run-seed.ts';
import { SeedRefusal } from '../../../src/seed/seed-errors.ts';
import { dialectTargets, openInspector, openTarget, uniqueNamespace, type Inspector } from '../../helpers/dialect-targets.ts';

const targets = (await dialectTargets()).filter((target) => target.name === 'mysql');
const SLOW = 120_000;

describe.each(targets)('a seed failing midway on $name', (target) => {
  const ns = uniqueNamespace('seed_fail');
  let inspector: Inspector;
  let connection: Awaited<ReturnType<typeof openTarget>>;
  let config: SchemaConfig;
  const count = async (name: string) => Number((await inspector.query(`SELECT COUNT(*) AS n FROM \`${ns}\`.\`${name}\``))[0]!.n);

  beforeAll(async () => {
    inspector = await openInspector(target);
    connection = await openTarget(target);
    connection.track(ns);
    for (const statement of [
      `CREATE DATABASE ${ns}`,
      `CREATE TABLE ${ns}.tags (id int AUTO_INCREMENT PRIMARY KEY, name varchar(40) NOT NULL) ENGINE=MyISAM`,
      `CREATE TABLE ${ns}.notes (id int AUTO_INCREMENT PRIMARY KEY, score int NOT NULL, CONSTRAINT notes_score CHECK (score BETWEEN 0 AND 10)) ENGINE=InnoDB`,
    ]) {
      await inspector.query(statement);
    }
    config = (await introspectDatabase(target.url, { namespace: ns, rows: 15 })).config;
    // tags load first: the failure comes after a table that cannot roll back was written.
    config.entities.sort((a, b) => (a.id === 'tags' ? -1 : b.id === 'tags' ? 1 : 0));
  }, SLOW);

  afterAll(async () => {
    await inspector?.close();
    await connection?.cleanup();
  });

  it('names what was rolled back, what was kept, and how to repeat cleanly', async () => {
    const broken = structuredClone(config);
    const score = broken.entities.find((entity) => entity.id === 'notes')!.fields.find((field) => field.id === 'score')!;
    Object.assign(score, { min: 50, max: 60 });
    const failure = await runSeed(connection, broken, { namespace: ns, generatorVersion: 3 }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(SeedRefusal);
    expect((failure as SeedRefusal).kind).toBe('failed');
    const message = (failure as Error).message;
    expect(message).toMatch(/seeding notes failed/);
    expect(message).toMatch(/what it wrote to notes .* is undone/);
    expect(message).toMatch(/AUTO_INCREMENT counter of notes may stay moved/);
    expect(message).toMatch(/but tags \(MyISAM\) cannot roll back/);
    expect(message).toMatch(/The same command with --truncate repeats cleanly \(it empties tags first\)/);
    // As it says: notes rolled back, tags kept its rows.
    expect(await count('notes')).toBe(0);
    expect(await count('tags')).toBe(15);
  }, SLOW);

  it('the same command with --truncate then repeats cleanly', async () => {
    const summary = await runSeed(connection, config, { namespace: ns, generatorVersion: 3, truncate: true });
    expect(summary.tables.map((entry) => [entry.table, entry.rowsInserted])).toEqual([
      ['tags', 15],
      ['notes', 15],
    ]);
    expect(await count('tags')).toBe(15);
  }, SLOW);
});
