// Generator version 4 across fields and references, loaded into each database and checked in SQL: a
// clinic (owners, pets, vets, visits, invoices) whose references agree on their shared ancestors,
// a shop (orders, order lines) whose totals and line totals are formulas to the cent, and nullable
// columns with their shares of nulls; the report counts each rule.
import { describe, expect, it } from 'vitest';
import type { Field, SchemaConfig } from '../../../src/model/config-types.ts';
import { type GenerationSummary } from '../../../src/generation/run.ts';
import { dialectTargets, uniqueNamespace } from '../../helpers/dialect-targets.ts';
import { generateBeforeAll } from '../../helpers/generated-namespace.ts';
import { Catalog } from '../../helpers/catalog.ts';

const DIALECTS = await dialectTargets();
const ref = (id: string, entity: string, extra: Partial<Field> = {}): Field => ({ id, type: 'integer', references: { entity, field: 'id' }, ...extra });
const money = (id: string, nullable = false): Field => ({ id, type: 'number', precision: 2, ...(nullable && { nullable }) });
const table = (id: string, rowCount: number, fields: Field[]) => ({ id, primaryKey: ['id'], generation: { rowCount }, fields: [{ id: 'id', type: 'integer' } as Field, ...fields] });
const ROWS = { clinics: 6, owners: 150, vets: 24, pets: 400, visits: 1500, invoices: 1500, orders: 800, order_lines: 3000 };

const schema = (): SchemaConfig => ({
  formatVersion: 1,
  generationDefaults: { seed: 'agreement' },
  entities: [
    table('clinics', ROWS.clinics, [{ id: 'name', type: 'string', maxLength: 80 }]),
    table('owners', ROWS.owners, [
      { id: 'first_name', type: 'string', maxLength: 40 },
      { id: 'middle_name', type: 'string', maxLength: 40, nullable: true },
      { id: 'last_name', type: 'string', maxLength: 40 },
      { id: 'notes', type: 'text', nullable: true },
      { id: 'deleted_at', type: 'datetime', nullable: true },
    ]),
    table('vets', ROWS.vets, [ref('clinic_id', 'clinics'), { id: 'last_name', type: 'string', maxLength: 40 }]),
    table('pets', ROWS.pets, [ref('owner_id', 'owners'), { id: 'name', type: 'string', maxLength: 40 }]),
    table('visits', ROWS.visits, [ref('pet_id', 'pets'), ref('vet_id', 'vets'), ref('clinic_id', 'clinics'), { id: 'visited_at', type: 'datetime' }]),
    table('invoices', ROWS.invoices, [ref('owner_id', 'owners'), ref('visit_id', 'visits'), money('subtotal'), money('tax'), money('total')]),
    table('orders', ROWS.orders, [money('subtotal'), money('tax'), money('shipping'), money('discount'), money('total')]),
    table('order_lines', ROWS.order_lines, [ref('order_id', 'orders'), { id: 'quantity', type: 'integer' }, money('unit_price'), money('line_total')]),
  ],
});

for (const target of DIALECTS) {
  describe(`${target.name}: generator version 4 keeps references, totals and nulls consistent`, () => {
    const namespace = uniqueNamespace('agree');
    let catalog: Catalog;
    let summary: GenerationSummary;
    generateBeforeAll(target, namespace, schema, { referenceDate: '2025-06-15', generatorVersion: 4 }, (generated) => ({ catalog, summary } = generated), 180_000);

    const count = (sql: string) => catalog.count(sql);

    it("an invoice's owner is its visit's pet's owner; a visit's clinic is its vet's clinic (≥ 99% of rows)", async () => {
      const { q, t } = catalog;
      const invoices = await count(
        `SELECT count(*) FROM ${t('invoices')} i JOIN ${t('visits')} v ON v.${q('id')} = i.${q('visit_id')} JOIN ${t('pets')} p ON p.${q('id')} = v.${q('pet_id')} WHERE p.${q('owner_id')} = i.${q('owner_id')}`,
      );
      expect(invoices).toBeGreaterThanOrEqual(ROWS.invoices * 0.99);
      const visits = await count(`SELECT count(*) FROM ${t('visits')} v JOIN ${t('vets')} e ON e.${q('id')} = v.${q('vet_id')} WHERE e.${q('clinic_id')} = v.${q('clinic_id')}`);
      expect(visits).toBeGreaterThanOrEqual(ROWS.visits * 0.99);
      // Owners are still spread: the agreement follows the visits' own random pets.
      expect(await count(`SELECT count(DISTINCT ${q('owner_id')}) FROM ${t('invoices')}`)).toBeGreaterThan(ROWS.owners * 0.8);
    });

    it('totals are subtotal + tax (+ shipping − discount) and line totals quantity × unit price, to the cent', async () => {
      const { q, t } = catalog;
      expect(await count(`SELECT count(*) FROM ${t('invoices')} WHERE ${q('total')} = ${q('subtotal')} + ${q('tax')}`)).toBe(ROWS.invoices);
      expect(await count(`SELECT count(*) FROM ${t('orders')} WHERE ${q('total')} = ${q('subtotal')} + ${q('tax')} + ${q('shipping')} - ${q('discount')}`)).toBe(ROWS.orders);
      expect(await count(`SELECT count(*) FROM ${t('order_lines')} WHERE ${q('line_total')} = ${q('quantity')} * ${q('unit_price')}`)).toBe(ROWS.order_lines);
      // Taxes are 5% to 20% of their subtotal (one rate per row, to the cent).
      expect(await count(`SELECT count(*) FROM ${t('orders')} WHERE ${q('tax')} BETWEEN ${q('subtotal')} * 0.05 - 0.005 AND ${q('subtotal')} * 0.2 + 0.005`)).toBe(ROWS.orders);
    });

    it('nullable columns hold their shares of nulls; required and referenced columns none', async () => {
      const { q, t } = catalog;
      const nulls = (column: string) => count(`SELECT count(*) FROM ${t('owners')} WHERE ${q(column)} IS NULL`);
      const within = (value: number, share: number) => expect(Math.abs(value - ROWS.owners * share)).toBeLessThanOrEqual(3 * Math.sqrt(ROWS.owners * share * (1 - share)) + 1);
      within(await nulls('middle_name'), 0.6);
      within(await nulls('notes'), 0.5);
      within(await nulls('deleted_at'), 0.9);
      expect(await nulls('first_name')).toBe(0);
    });

    it('the report counts each rule by its id', () => {
      const rule = (ruleId: string, entity: string, field: string) => summary.coherence?.find((count) => count.ruleId === ruleId && count.entity === entity && count.field === field);
      expect(rule('reference.agree', 'invoices', 'owner_id')).toMatchObject({ rule: 'references-agree', against: 'visit_id.pet_id.owner_id (owners)', rows: ROWS.invoices, holding: ROWS.invoices });
      expect(rule('reference.agree', 'visits', 'clinic_id')).toMatchObject({ rule: 'references-agree', rows: ROWS.visits, holding: ROWS.visits });
      expect(rule('formula.total-sum', 'orders', 'total')).toMatchObject({ rule: 'row-formula', against: 'subtotal+tax+shipping-discount', rows: ROWS.orders, holding: ROWS.orders });
      expect(rule('formula.tax-rate', 'invoices', 'tax')).toMatchObject({ rule: 'row-formula', against: 'subtotal*rate', rows: ROWS.invoices, holding: ROWS.invoices });
      expect(rule('formula.line-total', 'order_lines', 'line_total')).toMatchObject({ rule: 'row-formula', rows: ROWS.order_lines, holding: ROWS.order_lines });
      expect(rule('null.share', 'owners', 'middle_name')).toMatchObject({ rule: 'null-share', against: '60% null', rows: ROWS.owners });
    });
  });
}
