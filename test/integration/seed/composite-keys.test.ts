// `sds seed` into tables with keys of several columns, on both engines: the shape, visit
// lines keyed (visit_id, line_no) with CHECK (line_no BETWEEN 1 AND 20) and notes on a line through
// a composite foreign key. Introspection maps them without warnings; the seed loads every planned
// row (not 20 of 50), each note on a line that exists, and the definition never changes. And a
// composite self reference (an employee's boss by (org, no)), mapped and filled once every row exists.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SchemaConfig } from '../../../src/contract.ts';
import { introspectDatabase } from '../../../src/introspection/introspect.ts';
import { runSeed } from '../../../src/seed/run-seed.ts';
import { dialectTargets, openInspector, openTarget, uniqueNamespace, type DialectTarget, type Inspector } from '../../helpers/dialect-targets.ts';

const targets = await dialectTargets();
const SLOW = 120_000;

function migrations(target: DialectTarget, ns: string): string[] {
  const create = target.name === 'postgres' ? `CREATE SCHEMA ${ns}` : `CREATE DATABASE ${ns}`;
  return [
    create,
    `CREATE TABLE ${ns}.visits (id integer PRIMARY KEY, reason varchar(60) NOT NULL)`,
    `CREATE TABLE ${ns}.visit_lines (visit_id integer NOT NULL, line_no integer NOT NULL, amount numeric(8,2) NOT NULL,
       PRIMARY KEY (visit_id, line_no), CONSTRAINT line_no_range CHECK (line_no BETWEEN 1 AND 20),
       CONSTRAINT visit_lines_visit_fk FOREIGN KEY (visit_id) REFERENCES ${ns}.visits (id) ON DELETE CASCADE)`,
    `CREATE TABLE ${ns}.line_notes (id integer PRIMARY KEY, visit_id integer NOT NULL, line_no integer NOT NULL, body varchar(80) NOT NULL,
       CONSTRAINT line_notes_line_fk FOREIGN KEY (visit_id, line_no) REFERENCES ${ns}.visit_lines (visit_id, line_no) ON DELETE CASCADE)`,
  ];
}

describe.each(targets)('sds seed with composite keys on $name', (target) => {
  const ns = uniqueNamespace('seedck');
  let inspector: Inspector;
  let connection: Awaited<ReturnType<typeof openTarget>>;
  let config: SchemaConfig;
  let warnings: string[];
  const table = (name: string) => (target.name === 'postgres' ? `${ns}.${name}` : `\`${ns}\`.\`${name}\``);

  beforeAll(async () => {
    inspector = await openInspector(target);
    connection = await openTarget(target);
    connection.track(ns);
    for (const statement of migrations(target, ns)) await inspector.query(statement);
    const introspected = await introspectDatabase(target.url, { namespace: ns, rows: 10 });
    config = introspected.config;
    warnings = introspected.warnings.map((warning) => warning.message);
    const rows: Record<string, number> = { visits: 10, visit_lines: 50, line_notes: 40 };
    for (const entity of config.entities) entity.generation = { ...entity.generation, rowCount: rows[entity.id]! };
  }, SLOW);

  afterAll(async () => {
    await inspector?.close();
    await connection?.cleanup();
  });

  it('introspection maps the composite foreign key and the line position, without warnings about them', () => {
    const entity = (id: string) => config.entities.find((candidate) => candidate.id === id)!;
    expect(entity('line_notes').references).toEqual([{ fields: ['visit_id', 'line_no'], entity: 'visit_lines', targetFields: ['visit_id', 'line_no'], onDelete: 'cascade' }]);
    expect(entity('visit_lines').fields.find((field) => field.id === 'line_no')).toEqual({
      id: 'line_no',
      type: 'integer',
      min: 1,
      max: 20,
      generation: { strategy: { kind: 'sequence', start: 1, within: ['visit_id'] } },
    });
    expect(warnings.filter((message) => /several columns|line_no/.test(message))).toEqual([]);
  });

  it('loads every planned line and note; lines count 1…n per visit; every note is on a line', async () => {
    const summary = await runSeed(connection, config, { namespace: ns, generatorVersion: 3 });
    expect(summary.tables.map((entry) => [entry.table, entry.rowsInserted])).toEqual([
      ['visits', 10],
      ['visit_lines', 50],
      ['line_notes', 40],
    ]);
    const lines = await inspector.query(`SELECT visit_id AS v, line_no AS n FROM ${table('visit_lines')} ORDER BY visit_id, line_no`);
    const byVisit = new Map<string, number[]>();
    for (const line of lines) byVisit.set(String(line.v), [...(byVisit.get(String(line.v)) ?? []), Number(line.n)]);
    for (const numbers of byVisit.values()) expect(numbers).toEqual(numbers.map((_, i) => i + 1));
    const joined = await inspector.query(
      `SELECT COUNT(*) AS n FROM ${table('line_notes')} x JOIN ${table('visit_lines')} l ON l.visit_id = x.visit_id AND l.line_no = x.line_no`,
    );
    expect(Number(joined[0]!.n)).toBe(40);
  }, SLOW);

  it('a second seed with --truncate gives the same rows', async () => {
    const read = async () => (await inspector.query(`SELECT id, visit_id, line_no FROM ${table('line_notes')} ORDER BY id`)).map((row) => `${row.id}:${row.visit_id}/${row.line_no}`);
    const first = await read();
    await runSeed(connection, config, { namespace: ns, generatorVersion: 3, truncate: true });
    expect(await read()).toEqual(first);
  }, SLOW);
});

describe.each(targets)('sds seed with a composite self reference on $name', (target) => {
  const ns = uniqueNamespace('seedcks');
  it('introspection maps it; the seed fills every pair with an existing row', async () => {
    const inspector = await openInspector(target);
    const connection = await openTarget(target);
    connection.track(ns);
    try {
      const create = target.name === 'postgres' ? `CREATE SCHEMA ${ns}` : `CREATE DATABASE ${ns}`;
      await inspector.query(create);
      await inspector.query(`CREATE TABLE ${ns}.staff (org integer NOT NULL, no integer NOT NULL, name varchar(60) NOT NULL, boss_org integer NULL, boss_no integer NULL,
        PRIMARY KEY (org, no), CONSTRAINT staff_boss_fk FOREIGN KEY (boss_org, boss_no) REFERENCES ${ns}.staff (org, no) ON DELETE SET NULL)`);
      const introspected = await introspectDatabase(target.url, { namespace: ns, rows: 30 });
      const staff = introspected.config.entities.find((entity) => entity.id === 'staff')!;
      expect(staff.references).toEqual([{ fields: ['boss_org', 'boss_no'], entity: 'staff', targetFields: ['org', 'no'], onDelete: 'set-null' }]);
      expect(introspected.warnings.map((warning) => warning.message).filter((message) => /staff_boss_fk/.test(message))).toEqual([]);
      const summary = await runSeed(connection, introspected.config, { namespace: ns, generatorVersion: 3 });
      expect(summary.tables.find((entry) => entry.table === 'staff')!.deferredColumns).toEqual(['boss_org', 'boss_no']);
      const q = target.name === 'postgres' ? `${ns}.staff` : `\`${ns}\`.\`staff\``;
      const [counts] = await inspector.query(
        `SELECT COUNT(*) AS n, COUNT(s.boss_no) AS bosses, SUM(CASE WHEN s.boss_no IS NOT NULL AND b.no IS NULL THEN 1 ELSE 0 END) AS orphans
           FROM ${q} s LEFT JOIN ${q} b ON b.org = s.boss_org AND b.no = s.boss_no`,
      );
      expect(Number(counts!.n)).toBe(30);
      expect(Number(counts!.bosses)).toBeGreaterThan(0);
      expect(Number(counts!.orphans)).toBe(0);
    } finally {
      await inspector.close();
      await connection.cleanup();
    }
  }, SLOW);
});

