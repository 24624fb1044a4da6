// CatalogReader.tableStorage on both engines: what a failed seed reports it left depends on it
// (PostgreSQL's tables all roll back; on MySQL only InnoDB's do).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialectTargets, openInspector, openTarget, uniqueNamespace, type Inspector } from '../../helpers/dialect-targets.ts';

const targets = await dialectTargets();

describe.each(targets)('tableStorage on $name', (target) => {
  const ns = uniqueNamespace('sched_storage');
  let inspector: Inspector;
  let connection: Awaited<ReturnType<typeof openTarget>>;

  beforeAll(async () => {
    inspector = await openInspector(target);
    connection = await openTarget(target);
    connection.track(ns);
    const statements =
      target.name === 'postgres'
        ? [`CREATE SCHEMA ${ns}`, `CREATE TABLE ${ns}.notes (id int PRIMARY KEY)`, `CREATE VIEW ${ns}.note_view AS SELECT id FROM ${ns}.notes`]
        : [`CREATE DATABASE ${ns}`, `CREATE TABLE ${ns}.notes (id int PRIMARY KEY) ENGINE=InnoDB`, `CREATE TABLE ${ns}.tags (id int PRIMARY KEY) ENGINE=MyISAM`];
    for (const statement of statements) await inspector.query(statement);
  });

  afterAll(async () => {
    await inspector?.close();
    await connection?.cleanup();
  });

  it('names each table\'s storage and whether a rollback undoes its writes', async () => {
    const storage = Object.fromEntries(await connection.tableStorage(ns));
    if (target.name === 'postgres') {
      expect(storage).toEqual({ notes: { engine: 'heap', transactional: true } });
    } else {
      expect(storage.notes).toEqual({ engine: 'InnoDB', transactional: true });
      expect(storage.tags).toEqual({ engine: 'MyISAM', transactional: false });
    }
  });

  it('gives no tables for a namespace that does not exist', async () => {
    expect((await connection.tableStorage(`${ns}_none`)).size).toBe(0);
  });
});
