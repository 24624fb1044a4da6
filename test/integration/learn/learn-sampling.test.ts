// Learning a table bigger than its sample: the sample (TABLESAMPLE pages on PostgreSQL, primary-key
// ranges on MySQL, read once into a temporary table) is the same on every run, so the config is too;
// the k rule holds on the sample's own counts (a value 3 rows hold never appears); row counts and
// children per parent stay exact, parents without children included, whatever is sampled.
import { afterAll, describe, expect, it } from 'vitest';
import { learnDatabase } from '../../../src/learn/learn-database.ts';
import { dialectTargets, openInspector, openTarget, uniqueNamespace } from '../../helpers/dialect-targets.ts';

const targets = await dialectTargets();
const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups) await cleanup();
});

const PARENTS = 300;
const CHILDREN = 3000;
const now = new Date('2026-11-27T12:00:00Z');

/** Child i: its parent (parents 1–240 only, unevenly), a status ('rare' in 3 rows), a price. */
function child(i: number): [number, number, string, number] {
  const parent = 1 + ((i * 7919) % 240) ** 2 % 240;
  const status = i % 1000 === 7 ? 'rare' : ['new', 'open', 'closed'][i % 3]!;
  return [i, parent, status, [0.99, 1.99, 9.99][(i * 31) % 3]!];
}

for (const target of targets) {
  describe(`learning a sampled table on ${target.name}`, () => {
    it('learns the same config twice from its sample, copies no value the sample holds fewer than k times, and keeps counts and fan-out exact', async () => {
      const connection = await openTarget(target);
      const namespace = connection.track(uniqueNamespace('learnspeed_sample'));
      const inspector = await openInspector(target);
      cleanups.push(async () => {
        await inspector.close();
        await connection.cleanup();
      });
      const q = (name: string) => target.dialect.quoteIdentifier(name);
      await inspector.query(`CREATE ${target.name === 'postgres' ? 'SCHEMA' : 'DATABASE'} ${q(namespace)}`);
      const [parents, children] = [`${q(namespace)}.${q('parents')}`, `${q(namespace)}.${q('children')}`];
      await inspector.query(`CREATE TABLE ${parents} (id INTEGER PRIMARY KEY, score INTEGER NOT NULL)`);
      await inspector.query(`CREATE TABLE ${children} (id INTEGER PRIMARY KEY, parent_id INTEGER NOT NULL, status VARCHAR(10) NOT NULL, price NUMERIC(6,2) NOT NULL, FOREIGN KEY (parent_id) REFERENCES ${parents} (id))`);
      await inspector.query(`INSERT INTO ${parents} VALUES ${Array.from({ length: PARENTS }, (_, i) => `(${i + 1}, ${(i * 37) % 101})`).join(', ')}`);
      const rows = Array.from({ length: CHILDREN }, (_, i) => child(i + 1));
      await inspector.query(`INSERT INTO ${children} VALUES ${rows.map(([id, parent, status, price]) => `(${id}, ${parent}, '${status}', ${price})`).join(', ')}`);

      const first = await learnDatabase(target.url, { namespace, sampleRows: 1000, now });
      const second = await learnDatabase(target.url, { namespace, sampleRows: 1000, now });
      expect(JSON.stringify(second.config)).toBe(JSON.stringify(first.config));
      expect(JSON.stringify(second.report)).toBe(JSON.stringify(first.report));

      const report = first.report.tables.find((table) => table.table === 'children')!;
      expect(report.rows).toBe(CHILDREN);
      expect(report.sampled).toBeGreaterThan(500);
      expect(report.sampled).toBeLessThan(2000);
      expect(first.report.tables.find((table) => table.table === 'parents')?.sampled).toBeUndefined();
      const text = JSON.stringify(first.config);
      expect(text).not.toContain('rare');
      const status = first.report.columns.find((column) => column.table === 'children' && column.column === 'status')!;
      expect(status.copied).toEqual(expect.arrayContaining(['new', 'open', 'closed']));

      // Children per parent: exact, from the whole child table, the same as the unsampled learning's.
      const entity = first.config.entities.find((candidate) => candidate.id === 'children')!;
      const fanOut = entity.fields.find((field) => field.id === 'parent_id')!.references!.fanOut as { histogram: { children: number; weight: number }[] };
      const perParent = new Map<number, number>();
      for (const [, parent] of rows) perParent.set(parent, (perParent.get(parent) ?? 0) + 1);
      const expected = new Map<number, number>([[0, PARENTS - perParent.size]]);
      for (const count of perParent.values()) expected.set(count, (expected.get(count) ?? 0) + 1);
      expect(fanOut.histogram).toEqual([...expected].sort(([a], [b]) => a - b).map(([children, weight]) => ({ children, weight })));
      const whole = await learnDatabase(target.url, { namespace, sampleRows: 1_000_000, now });
      const wholeEntity = whole.config.entities.find((candidate) => candidate.id === 'children')!;
      expect(wholeEntity.fields.find((field) => field.id === 'parent_id')!.references!.fanOut).toEqual(fanOut);
      expect(whole.report.tables.find((table) => table.table === 'children')?.sampled).toBeUndefined();
    });
  });
}
