// Version 4's lines sums: a parent's total (or subtotal) is the sum of its children's lines, in the
// rows a generation makes, in previews and in files (written by worker threads too), and the report
// counts it by its rule id.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { RowValue } from '../../../src/model/row-value.ts';
import type { SchemaConfig } from '../../../src/model/config-types.ts';
import { config, entity, generate, REFERENCE_DATE } from '../../helpers/generate-in-memory.ts';
import { PreviewTooLargeError, previewRows } from '../../../src/generation/preview.ts';
import { generateFiles } from '../../../src/files/generate-files.ts';
import { linesSumOf } from '../../../src/generation/rules/row-formulas.ts';
import { ruleOf } from '../../../src/generation/rules/choose-rule.ts';

const shop = (): SchemaConfig =>
  config(
    entity('invoices', 60, [{ id: 'total', type: 'number', precision: 2, nullable: true }]),
    entity('invoice_lines', 300, [
      { id: 'invoice_id', type: 'integer', references: { entity: 'invoices', field: 'id' } },
      { id: 'unit_price', type: 'number', precision: 2 },
      { id: 'quantity', type: 'integer' },
    ]),
    entity('orders', 50, [
      { id: 'subtotal', type: 'number', precision: 2 },
      { id: 'tax', type: 'number', precision: 2 },
      { id: 'shipping', type: 'number', precision: 2 },
      { id: 'total', type: 'number', precision: 2 },
    ]),
    entity('order_items', 200, [
      { id: 'order_id', type: 'integer', references: { entity: 'orders', field: 'id' } },
      { id: 'quantity', type: 'integer' },
      { id: 'unit_price', type: 'number', precision: 2 },
      { id: 'line_total', type: 'number', precision: 2 },
    ]),
  );

const cents = (value: RowValue | unknown) => Math.round(Number(value) * 100);

/** Cents of the lines of each parent key. */
function linesOf(lines: Record<string, unknown>[], reference: string, worth: (line: Record<string, unknown>) => number): Map<string, number> {
  const sums = new Map<string, number>();
  for (const line of lines) sums.set(String(line[reference]), (sums.get(String(line[reference])) ?? 0) + worth(line));
  return sums;
}

const invoiceLine = (line: Record<string, unknown>) => Math.round(Number(line.quantity) * cents(line.unit_price));
const orderLine = (line: Record<string, unknown>) => cents(line.line_total);

describe('version 4: a parent total is the sum of its lines', () => {
  it('matches the subtotal, else the total, to a child that is a line', () => {
    const { entities } = shop();
    const [invoices, , orders, items] = entities;
    const scope = (of: typeof invoices) => ({ entity: of!, entities, deferred: [], version: 4 as const });
    expect(ruleOf(scope(invoices), invoices!.fields[1]!)?.id).toBe('formula.lines-sum');
    expect(linesSumOf(invoices!, invoices!.fields[1]!, entities)?.text).toBe('invoice_lines.quantity*unit_price');
    expect(ruleOf(scope(orders), orders!.fields[1]!)?.id).toBe('formula.lines-sum');
    expect(linesSumOf(orders!, orders!.fields[1]!, entities)?.text).toBe('order_items.line_total');
    // The order's total stays subtotal + tax + shipping; the line's own total stays quantity × unit price.
    expect(ruleOf(scope(orders), orders!.fields[4]!)?.id).toBe('formula.total-sum');
    expect(ruleOf(scope(items), items!.fields[4]!)?.id).toBe('formula.line-total');
    // Versions 1 to 3 never sum lines.
    expect(ruleOf({ ...scope(invoices), version: 3 }, invoices!.fields[1]!)?.id).not.toBe('formula.lines-sum');
  });

  it('holds on every generated parent, parents without lines at 0, and the report counts it', () => {
    const generated = generate(shop(), { generatorVersion: 4 });
    const invoiceSums = linesOf(generated.objects('invoice_lines'), 'invoice_id', invoiceLine);
    const invoices = generated.objects('invoices');
    expect(invoices.every((invoice) => cents(invoice.total) === (invoiceSums.get(String(invoice.id)) ?? 0))).toBe(true);
    expect(invoices.filter((invoice) => Number(invoice.total) > 0).length).toBeGreaterThan(50);
    const orderSums = linesOf(generated.objects('order_items'), 'order_id', orderLine);
    for (const order of generated.objects('orders')) {
      expect(cents(order.subtotal)).toBe(orderSums.get(String(order.id)) ?? 0);
      expect(cents(order.total)).toBe(cents(order.subtotal) + cents(order.tax) + cents(order.shipping));
    }
  });

  it('holds in a preview of the parent alone', () => {
    const schema = shop();
    const generated = generate(schema, { generatorVersion: 4 });
    const sums = linesOf(generated.objects('invoice_lines'), 'invoice_id', invoiceLine);
    const preview = previewRows(schema, 'invoices', 10, { referenceDate: REFERENCE_DATE, generatorVersion: 4 });
    expect(preview.map((invoice) => cents(invoice.total))).toEqual(preview.map((invoice) => sums.get(String(invoice.id)) ?? 0));
  });

  it("counts the lines it makes ahead against a preview's limit of ancestor rows", () => {
    const options = { referenceDate: REFERENCE_DATE, generatorVersion: 4 as const };
    expect(() => previewRows(shop(), 'invoices', 5, options, { maxAncestorRows: 299 })).toThrow(PreviewTooLargeError);
    expect(previewRows(shop(), 'invoices', 5, options, { maxAncestorRows: 300 })).toHaveLength(5);
  });

  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'v4-lines-'));
  afterAll(() => fs.rmSync(folder, { recursive: true, force: true }));

  it('holds in files, on one thread and with ranges made by worker threads', async () => {
    const schema = shop();
    const read = (out: string, name: string) => {
      const [header, ...lines] = fs.readFileSync(path.join(out, `${name}.csv`), 'utf8').trim().split(/\r?\n/);
      const columns = header!.split(',');
      return lines.map((line) => Object.fromEntries(line.split(',').map((value, i) => [columns[i], value])));
    };
    for (const workers of [1, 2]) {
      const out = path.join(folder, `w${workers}`);
      await generateFiles(schema, { out, format: 'csv', referenceDate: REFERENCE_DATE, generatorVersion: 4, workers, rangeRows: 20, parallelMinRows: 1, rowCounts: { invoice_lines: 3000, invoices: 400 } } as never);
      const sums = linesOf(read(out, 'invoice_lines'), 'invoice_id', invoiceLine);
      const invoices = read(out, 'invoices');
      expect(invoices).toHaveLength(400);
      const wrong = invoices.filter((invoice) => cents(invoice.total) !== (sums.get(String(invoice.id)) ?? 0));
      expect({ workers, wrong: wrong.length, first: wrong.slice(0, 2).map((invoice) => [invoice, sums.get(String(invoice.id))]) }).toEqual({ workers, wrong: 0, first: [] });
    }
  }, 120_000);
});
