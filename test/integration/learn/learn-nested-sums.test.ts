// Learning sums over sums: a region's takings are the sum of its shops' takings, each shop's the sum
// of its sales' amounts. `sds init --learn` writes a childrenSum on both (whichever table it learns
// first), and rows generated from the learned config keep both sums.
import { afterAll, describe, expect, it } from 'vitest';
import type { RowValue } from '../../../src/model/row-value.ts';
import { learnDatabase } from '../../../src/learn/learn-database.ts';
import { dialectTargets, openInspector, openTarget, uniqueNamespace } from '../../helpers/dialect-targets.ts';
import { generate } from '../../helpers/generate-in-memory.ts';

const targets = await dialectTargets();
const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups) await cleanup();
});

const cents = (value: RowValue | undefined) => Math.round(Number(value ?? 0) * 100);

/** 12 regions, 60 shops, 600 sales of 0.50–99.50 (a deterministic spread), each parent's takings its children's sum. */
function rows(): { regions: number[][]; shops: number[][]; sales: number[][] } {
  const sales = Array.from({ length: 600 }, (_, i) => [i + 1, 1 + ((i * 7) % 60), ((i * 37) % 199) / 2 + 0.5]);
  const shops = Array.from({ length: 60 }, (_, i) => [i + 1, 1 + (i % 12), sales.filter((sale) => sale[1] === i + 1).reduce((sum, sale) => sum + cents(sale[2]), 0) / 100]);
  const regions = Array.from({ length: 12 }, (_, i) => [i + 1, shops.filter((shop) => shop[1] === i + 1).reduce((sum, shop) => sum + cents(shop[2]), 0) / 100]);
  return { regions, shops, sales };
}

for (const target of targets) {
  describe(`learning sums over sums on ${target.name}`, () => {
    it("writes a childrenSum on both levels, and generated rows keep both", async () => {
      const connection = await openTarget(target);
      const namespace = connection.track(uniqueNamespace('hlearn_nested'));
      const inspector = await openInspector(target);
      cleanups.push(async () => {
        await inspector.close();
        await connection.cleanup();
      });
      const q = (name: string) => target.dialect.quoteIdentifier(name);
      await inspector.query(`CREATE ${target.name === 'postgres' ? 'SCHEMA' : 'DATABASE'} ${q(namespace)}`);
      const table = (name: string) => `${q(namespace)}.${q(name)}`;
      await inspector.query(`CREATE TABLE ${table('regions')} (id INTEGER PRIMARY KEY, takings NUMERIC(12,2) NOT NULL)`);
      await inspector.query(`CREATE TABLE ${table('shops')} (id INTEGER PRIMARY KEY, region_id INTEGER NOT NULL REFERENCES ${table('regions')} (id), takings NUMERIC(12,2) NOT NULL)`);
      await inspector.query(`CREATE TABLE ${table('sales')} (id INTEGER PRIMARY KEY, shop_id INTEGER NOT NULL REFERENCES ${table('shops')} (id), amount NUMERIC(8,2) NOT NULL)`);
      const data = rows();
      for (const name of ['regions', 'shops', 'sales'] as const) await inspector.query(`INSERT INTO ${table(name)} VALUES ${data[name].map((row) => `(${row.join(', ')})`).join(', ')}`);

      const { config, report } = await learnDatabase(target.url, { namespace });
      const strategy = (entity: string) => config.entities.find((candidate) => candidate.id === entity)!.fields.find((field) => field.id === 'takings')!.generation!.strategy;
      expect(strategy('shops')).toEqual({ kind: 'childrenSum', entity: 'sales', reference: 'shop_id', fields: ['amount'] });
      expect(strategy('regions')).toEqual({ kind: 'childrenSum', entity: 'shops', reference: 'region_id', fields: ['takings'] });
      expect(report.tables.find((entry) => entry.table === 'regions')?.childrenSums).toEqual([{ column: 'takings', entity: 'shops', reference: 'region_id', fields: ['takings'], rows: 12 }]);

      const run = generate(config);
      for (const [parent, child, reference, part] of [
        ['regions', 'shops', 'region_id', 'takings'],
        ['shops', 'sales', 'shop_id', 'amount'],
      ] as const) {
        const sums = new Map<RowValue, number>();
        for (const row of run.objects(child)) sums.set(row[reference]!, (sums.get(row[reference]!) ?? 0) + cents(row[part]));
        const parents = run.objects(parent);
        expect(parents.filter((row) => cents(row.takings) !== (sums.get(row.id!) ?? 0))).toEqual([]);
        expect(parents.filter((row) => cents(row.takings) > 0).length).toBeGreaterThan(parents.length / 2);
      }
    });
  });
}
