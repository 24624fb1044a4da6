// Version 4's lines sums loaded into each database and checked in SQL: every invoice's total is the
// sum of its lines' quantity × unit price, every order's subtotal the sum of its items' line totals
// (and its total still subtotal + tax + shipping), and the report counts both by rule id. A
// childrenSum strategy does the same for names no rule knows (a bill's charge, its rows' pieces × each),
// and over children whose field is itself such a sum (a region's takings over its shops', theirs over
// their tills', theirs over their sales': enough sales that the columns made for the sums are carried).
import { describe, expect, it } from 'vitest';
import type { SchemaConfig } from '../../../src/model/config-types.ts';
import { type GenerationSummary } from '../../../src/generation/run.ts';
import { dialectTargets, uniqueNamespace } from '../../helpers/dialect-targets.ts';
import { generateBeforeAll } from '../../helpers/generated-namespace.ts';
import { Catalog } from '../../helpers/catalog.ts';

const DIALECTS = await dialectTargets();

const schema = (): SchemaConfig => ({
  formatVersion: 1,
  generationDefaults: { seed: 'v4-lines' },
  entities: [
    { id: 'invoices', primaryKey: ['id'], generation: { rowCount: 120 }, fields: [{ id: 'id', type: 'integer' }, { id: 'total', type: 'number', precision: 2, nullable: true }] },
    {
      id: 'invoice_lines',
      primaryKey: ['id'],
      generation: { rowCount: 500 },
      fields: [
        { id: 'id', type: 'integer' },
        { id: 'invoice_id', type: 'integer', references: { entity: 'invoices', field: 'id' } },
        { id: 'unit_price', type: 'number', precision: 2 },
        { id: 'quantity', type: 'integer' },
      ],
    },
    {
      id: 'orders',
      primaryKey: ['id'],
      generation: { rowCount: 100 },
      fields: [
        { id: 'id', type: 'integer' },
        { id: 'subtotal', type: 'number', precision: 2 },
        { id: 'tax', type: 'number', precision: 2 },
        { id: 'total', type: 'number', precision: 2 },
      ],
    },
    {
      id: 'order_items',
      primaryKey: ['id'],
      generation: { rowCount: 400 },
      fields: [
        { id: 'id', type: 'integer' },
        { id: 'order_id', type: 'integer', references: { entity: 'orders', field: 'id' } },
        { id: 'quantity', type: 'integer' },
        { id: 'unit_price', type: 'number', precision: 2 },
        { id: 'line_total', type: 'number', precision: 2 },
      ],
    },
    {
      id: 'bills',
      primaryKey: ['id'],
      generation: { rowCount: 60 },
      fields: [
        { id: 'id', type: 'integer' },
        { id: 'charged', type: 'number', precision: 2, generation: { strategy: { kind: 'childrenSum', entity: 'bill_rows', fields: ['pieces', 'each'] } } },
      ],
    },
    {
      id: 'bill_rows',
      primaryKey: ['id'],
      generation: { rowCount: 200 },
      fields: [
        { id: 'id', type: 'integer' },
        { id: 'bill', type: 'integer', references: { entity: 'bills', field: 'id' } },
        { id: 'pieces', type: 'integer', min: 1, max: 9 },
        { id: 'each', type: 'number', precision: 2, min: 0, max: 50 },
      ],
    },
    ...(
      [
        ['regions', 5, undefined, 'shops', ['takings']],
        ['shops', 15, 'regions', 'tills', ['takings']],
        ['tills', 60, 'shops', 'sales', ['pieces', 'each']],
      ] as const
    ).map(([id, rowCount, parent, child, fields]) => ({
      id,
      primaryKey: ['id'],
      generation: { rowCount },
      fields: [
        { id: 'id', type: 'integer' as const },
        ...(parent ? [{ id: 'parent', type: 'integer' as const, references: { entity: parent, field: 'id' } }] : []),
        { id: 'takings', type: 'number' as const, precision: 2, generation: { strategy: { kind: 'childrenSum' as const, entity: child, fields: [...fields] as [string] | [string, string] } } },
      ],
    })),
    {
      id: 'sales',
      primaryKey: ['id'],
      generation: { rowCount: 1500 },
      fields: [
        { id: 'id', type: 'integer' },
        { id: 'parent', type: 'integer', references: { entity: 'tills', field: 'id' } },
        { id: 'pieces', type: 'integer', min: 1, max: 9 },
        { id: 'each', type: 'number', precision: 2, min: 0, max: 50 },
      ],
    },
  ],
});

for (const target of DIALECTS) {
  describe(`${target.name}: version 4 parents total their lines`, () => {
    const namespace = uniqueNamespace('v4lines');
    let catalog: Catalog;
    let summary: GenerationSummary;
    generateBeforeAll(target, namespace, schema, { referenceDate: '2025-06-15', generatorVersion: 4 }, (generated) => ({ catalog, summary } = generated), 120_000);

    it("an invoice's total is the sum of its lines' quantity × unit price (0 without lines)", async () => {
      const { q, t } = catalog;
      const wrong = `SELECT count(*) FROM ${t('invoices')} i WHERE i.${q('total')} <> COALESCE((SELECT SUM(l.${q('quantity')} * l.${q('unit_price')}) FROM ${t('invoice_lines')} l WHERE l.${q('invoice_id')} = i.${q('id')}), 0)`;
      expect(await catalog.count(wrong)).toBe(0);
      expect(await catalog.count(`SELECT count(*) FROM ${t('invoices')} WHERE ${q('total')} > 0`)).toBeGreaterThan(100);
    });

    it("an order's subtotal is the sum of its items' line totals, its total subtotal + tax", async () => {
      const { q, t } = catalog;
      const wrong = `SELECT count(*) FROM ${t('orders')} o WHERE o.${q('subtotal')} <> COALESCE((SELECT SUM(l.${q('line_total')}) FROM ${t('order_items')} l WHERE l.${q('order_id')} = o.${q('id')}), 0)`;
      expect(await catalog.count(wrong)).toBe(0);
      expect(await catalog.count(`SELECT count(*) FROM ${t('orders')} WHERE ${q('total')} <> ${q('subtotal')} + ${q('tax')}`)).toBe(0);
    });

    it("childrenSum: a bill's charge is the sum of its rows' pieces × each (0 without rows)", async () => {
      const { q, t } = catalog;
      const wrong = `SELECT count(*) FROM ${t('bills')} b WHERE b.${q('charged')} <> COALESCE((SELECT SUM(r.${q('pieces')} * r.${q('each')}) FROM ${t('bill_rows')} r WHERE r.${q('bill')} = b.${q('id')}), 0)`;
      expect(await catalog.count(wrong)).toBe(0);
      expect(await catalog.count(`SELECT count(*) FROM ${t('bills')} WHERE ${q('charged')} > 0`)).toBeGreaterThan(40);
    });

    it('childrenSum over children whose field is itself a childrenSum, three generations down', async () => {
      const { q, t } = catalog;
      for (const [parent, child, worth] of [
        ['tills', 'sales', `c.${q('pieces')} * c.${q('each')}`],
        ['shops', 'tills', `c.${q('takings')}`],
        ['regions', 'shops', `c.${q('takings')}`],
      ]) {
        const wrong = `SELECT count(*) FROM ${t(parent!)} p WHERE p.${q('takings')} <> COALESCE((SELECT SUM(${worth}) FROM ${t(child!)} c WHERE c.${q('parent')} = p.${q('id')}), 0)`;
        expect(await catalog.count(wrong)).toBe(0);
        expect(await catalog.count(`SELECT count(*) FROM ${t(parent!)} WHERE ${q('takings')} > 0`)).toBeGreaterThan(0);
      }
    });

    it('the report counts both sums by their rule id', () => {
      expect(summary.coherence).toContainEqual(expect.objectContaining({ rule: 'row-formula', ruleId: 'formula.lines-sum', entity: 'invoices', field: 'total', rows: 120, holding: 120 }));
      expect(summary.coherence).toContainEqual(expect.objectContaining({ rule: 'row-formula', ruleId: 'formula.lines-sum', entity: 'orders', field: 'subtotal', rows: 100, holding: 100 }));
    });
  });
}
