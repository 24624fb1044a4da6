// Version 4's lines sums are made without making the lines' whole rows twice: the data must stay
// what it was (hashes of every generated row captured before that change), every parent's total
// must still be the sum of the lines actually generated, and a line entity that runs out of unique
// values early (so fewer lines exist than planned) still sums only the lines that exist.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { SchemaConfig } from '../../../src/model/config-types.ts';
import { config, entity, generate } from '../../helpers/generate-in-memory.ts';

const commerce = (): SchemaConfig =>
  config(
    entity('customers', 40, [
      { id: 'first_name', type: 'text' },
      { id: 'last_name', type: 'text' },
      { id: 'email', type: 'text', generation: { uniqueValues: true } },
      { id: 'created_at', type: 'datetime' },
    ]),
    entity('products', 30, [
      { id: 'name', type: 'text' },
      { id: 'sku', type: 'text', maxLength: 12 },
      { id: 'list_price', type: 'number', precision: 2 },
    ]),
    entity('invoices', 80, [
      { id: 'customer_id', type: 'integer', references: { entity: 'customers', field: 'id' } },
      { id: 'status', type: 'text', maxLength: 10 },
      { id: 'issued_at', type: 'datetime' },
      { id: 'due_at', type: 'datetime' },
      { id: 'paid_at', type: 'datetime', nullable: true },
      { id: 'subtotal', type: 'number', precision: 2 },
      { id: 'tax', type: 'number', precision: 2 },
      { id: 'total', type: 'number', precision: 2 },
    ]),
    entity('invoice_lines', 400, [
      { id: 'invoice_id', type: 'integer', references: { entity: 'invoices', field: 'id' } },
      { id: 'product_id', type: 'integer', references: { entity: 'products', field: 'id' } },
      { id: 'description', type: 'text', nullable: true },
      { id: 'quantity', type: 'integer' },
      { id: 'unit_price', type: 'number', precision: 2 },
      { id: 'line_total', type: 'number', precision: 2 },
      { id: 'created_at', type: 'datetime' },
    ]),
    entity('carts', 30, [{ id: 'total', type: 'number', precision: 2 }]),
    // Unique one-character codes run out after a few dozen rows: fewer lines than planned.
    entity('cart_items', 200, [
      { id: 'cart_id', type: 'integer', references: { entity: 'carts', field: 'id' } },
      { id: 'code', type: 'text', maxLength: 1, generation: { uniqueValues: true } },
      { id: 'quantity', type: 'integer' },
      { id: 'unit_price', type: 'number', precision: 2 },
    ]),
  );

const cents = (value: unknown) => Math.round(Number(value) * 100);

function hashOf(rows: unknown[][]): string {
  const text = JSON.stringify(rows, (_key, value: unknown) => (typeof value === 'bigint' ? `${value}n` : value instanceof Date ? value.toISOString() : value));
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}

describe('version 4 lines sums: same data, cheaper', () => {
  const generated = generate(commerce(), { generatorVersion: 4 });

  it('keeps every parent total equal to the sum of the lines generated', () => {
    for (const [parent, field, child, reference] of [
      ['invoices', 'subtotal', 'invoice_lines', 'invoice_id'],
      ['carts', 'total', 'cart_items', 'cart_id'],
    ] as const) {
      const sums = new Map<string, number>();
      for (const line of generated.objects(child)) {
        const worth = 'line_total' in line ? cents(line.line_total) : Math.round(Number(line.quantity) * cents(line.unit_price));
        sums.set(String(line[reference]), (sums.get(String(line[reference])) ?? 0) + worth);
      }
      const parents = generated.objects(parent);
      expect(parents.filter((row) => cents(row[field]) !== (sums.get(String(row.id)) ?? 0))).toEqual([]);
      expect(parents.filter((row) => cents(row[field]) > 0).length).toBeGreaterThan(parent === 'invoices' ? parents.length / 2 : 2);
    }
    expect(generated.rows.get('cart_items')!.length).toBeLessThan(200);
  });

  it('makes the rows it made before (hashes captured on the version that made the lines twice, whole)', () => {
    const hashes = Object.fromEntries([...generated.rows].map(([id, rows]) => [id, hashOf(rows)]));
    expect(hashes).toEqual({
      cart_items: '2b02d256627faf32',
      carts: '9121b8db9879e0dc',
      customers: '534e3ed8f290aefb',
      invoice_lines: 'c07db09f372d06f8',
      invoices: '067a8d09554aa349',
      // Its `sku` became an SKU (rule id.sku) before version 4 was released; the lines and sums are unchanged.
      products: '23b372a9edc03876',
    });
  });
});
