// Generator version 4's formulas by name (rules/row-formulas.ts): totals are their row's subtotal +
// tax + shipping − discount and line totals quantity × unit price, to the cent, where the row has
// those fields; the coherence report counts the same relation on the rows made.
import { describe, expect, it } from 'vitest';
import type { Field } from '../../../src/model/config-types.ts';
import { ruleOf } from '../../../src/generation/rules/choose-rule.ts';
import { CoherenceAudit } from '../../../src/generation/coherence/report.ts';
import { TAX_RATES } from '../../../src/generation/rules/row-formulas.ts';
import { config, entity, generate } from '../../helpers/generate-in-memory.ts';

const cents = (value: unknown) => Math.round((value as number) * 100);
const schema = () =>
  config(
    entity('orders', 400, [
      { id: 'subtotal', type: 'number', precision: 2 },
      { id: 'tax', type: 'number', precision: 2 },
      { id: 'shipping_cost', type: 'number', precision: 2 },
      { id: 'discount', type: 'number', precision: 2 },
      { id: 'total', type: 'number', precision: 2 },
    ]),
    entity('order_lines', 400, [
      { id: 'quantity', type: 'integer' },
      { id: 'unit_price', type: 'number', precision: 2 },
      { id: 'line_total', type: 'number', precision: 2 },
    ]),
    entity('payments', 50, [
      { id: 'total', type: 'number', precision: 2 },
      { id: 'tax', type: 'number', precision: 2 },
    ]),
  );

describe('formulas by name (version 4)', () => {
  it('a total is subtotal + tax + shipping − discount, a line total quantity × unit price, to the cent', () => {
    const run = generate(schema(), { generatorVersion: 4 });
    for (const row of run.objects('orders')) {
      expect(cents(row.total)).toBe(cents(row.subtotal) + cents(row.tax) + cents(row.shipping_cost) - cents(row.discount));
    }
    for (const row of run.objects('order_lines')) expect(cents(row.line_total)).toBe((row.quantity as number) * cents(row.unit_price));
  });

  it("a tax is its row's subtotal times a rate of 5% to 20%, to the cent, several rates over the rows", () => {
    const orders = generate(schema(), { generatorVersion: 4 }).objects('orders');
    const rates = new Set<number>();
    for (const row of orders) {
      const rate = TAX_RATES.find((candidate) => Math.round(cents(row.subtotal) * candidate) === cents(row.tax));
      expect(rate, JSON.stringify(row)).toBeDefined();
      rates.add(rate!);
    }
    expect(rates.size).toBeGreaterThan(4);
  });

  it('leaves a total alone without a subtotal, and versions 1–3 alone', () => {
    const v4 = generate(schema(), { generatorVersion: 4 });
    const payments = v4.objects('payments');
    expect(payments.filter((row) => cents(row.total) === cents(row.tax)).length).toBeLessThan(payments.length);
    const v3 = generate(schema(), { generatorVersion: 3 }).objects('orders');
    expect(v3.filter((row) => cents(row.total) === cents(row.subtotal) + cents(row.tax) + cents(row.shipping_cost) - cents(row.discount)).length).toBeLessThan(5);
  });

  it.each<[string, { given: Field[]; field: string; want: string | undefined }]>([
    ['total with subtotal and tax', { given: [{ id: 'subtotal', type: 'number' }, { id: 'tax', type: 'number' }, { id: 'total', type: 'number' }], field: 'total', want: 'formula.total-sum' }],
    ['grandTotal with subTotal and discount', { given: [{ id: 'subTotal', type: 'number' }, { id: 'discount', type: 'number' }, { id: 'grandTotal', type: 'number' }], field: 'grandTotal', want: 'formula.total-sum' }],
    ['a subtotal alone is money', { given: [{ id: 'subtotal', type: 'number' }, { id: 'tax', type: 'number' }], field: 'subtotal', want: 'money.amount' }],
    ['amount with qty and price', { given: [{ id: 'qty', type: 'integer' }, { id: 'price', type: 'number' }, { id: 'amount', type: 'number' }], field: 'amount', want: 'formula.line-total' }],
    ['a user formula input is never read', { given: [{ id: 'qty', type: 'integer', generation: { strategy: { kind: 'formula', expression: 'amount * 2' } } }, { id: 'price', type: 'number' }, { id: 'amount', type: 'number' }], field: 'amount', want: 'money.amount' }],
  ])('%s', (_name, { given, field, want }) => {
    const target = given.find((candidate) => candidate.id === field)!;
    expect(ruleOf({ entity: entity('t', 1, given), entities: [], deferred: [], version: 4 }, target)?.id).toBe(want);
    expect(ruleOf({ entity: entity('t', 1, given), entities: [], deferred: [], version: 3 }, target)?.id).not.toMatch(/^formula\./);
  });

  it('the report counts the formulas that hold', () => {
    const run = generate(schema(), { generatorVersion: 4 });
    const audit = new CoherenceAudit(schema(), run.plan);
    for (const id of ['orders', 'order_lines']) {
      const observe = audit.observer(id)!;
      for (const row of run.rows.get(id)!) observe(row);
    }
    const counts = audit.report().filter((count) => count.rule === 'row-formula');
    expect(counts.map(({ ruleId, entity, field, against, rows, holding }) => ({ ruleId, entity, field, against, rows, holding }))).toEqual([
      { ruleId: 'formula.tax-rate', entity: 'orders', field: 'tax', against: 'subtotal*rate', rows: 400, holding: 400 },
      { ruleId: 'formula.total-sum', entity: 'orders', field: 'total', against: 'subtotal+tax+shipping_cost-discount', rows: 400, holding: 400 },
      { ruleId: 'formula.line-total', entity: 'order_lines', field: 'line_total', against: 'quantity*unit_price', rows: 400, holding: 400 },
    ]);
  });
});
