// Learned date order (dateRange `afterField` and `gap`): a date of the row, or of the parent, that
// this one never precedes, with the learned spread between them; the validator's refusals.
import { describe, expect, it } from 'vitest';
import type { Field } from '../../../src/model/config-types.ts';
import { validateConfig } from '../../../src/config/validate-config.ts';
import { config, entity, generate } from '../../helpers/generate-in-memory.ts';

const DAY = 86_400;
const rented: Field = { id: 'rented_at', type: 'datetime', generation: { strategy: { kind: 'dateRange', quantiles: ['2024-01-01T00:00:00Z', '2024-06-01T00:00:00Z', '2024-12-31T00:00:00Z'] } } };

describe('date order inside a row', () => {
  it('afterField with a gap: every value follows its row’s date by a gap of the learned spread', () => {
    const returned: Field = { id: 'returned_at', type: 'datetime', nullable: true, generation: { emptyRate: 0.1, strategy: { kind: 'dateRange', quantiles: ['2024-01-02T00:00:00Z', '2025-01-09T00:00:00Z'], afterField: 'rented_at', gap: { quantiles: [DAY, 3 * DAY, 9 * DAY] } } } };
    const rows = generate(config(entity('rentals', 4000, [rented, returned]))).objects('rentals');
    const gaps = rows.filter((row) => row.returned_at !== null).map((row) => (Date.parse(row.returned_at as string) - Date.parse(row.rented_at as string)) / 1000);
    expect(gaps.length).toBeGreaterThan(3400);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(DAY);
    expect(Math.max(...gaps)).toBeLessThanOrEqual(9 * DAY);
    const sorted = gaps.sort((a, b) => a - b);
    expect(Math.abs(sorted[Math.floor(sorted.length / 2)]! - 3 * DAY)).toBeLessThan(0.3 * DAY);
  });

  it('afterField without a gap: a value drawn earlier becomes the row’s date; dates follow dates in whole days', () => {
    const fields: Field[] = [
      { id: 'start_on', type: 'date', generation: { strategy: { kind: 'dateRange', quantiles: ['2024-01-01', '2024-12-31'] } } },
      { id: 'end_on', type: 'date', generation: { strategy: { kind: 'dateRange', quantiles: ['2024-01-01', '2024-12-31'], afterField: 'start_on' } } },
      { id: 'paid_on', type: 'date', nullable: true, generation: { strategy: { kind: 'dateRange', quantiles: ['2024-01-01', '2024-12-31'], afterField: 'start_on', gap: { quantiles: [0, 2 * DAY] } } } },
    ];
    const rows = generate(config(entity('spans', 2000, fields))).objects('spans');
    expect(rows.every((row) => (row.end_on as string) >= (row.start_on as string))).toBe(true);
    expect(rows.every((row) => (row.paid_on as string) >= (row.start_on as string))).toBe(true);
    expect(rows.some((row) => row.end_on === row.start_on)).toBe(true);
    expect(rows.every((row) => /^\d{4}-\d{2}-\d{2}$/.test(row.paid_on as string))).toBe(true);
  });

  it('a gap after a parent’s date: each child follows its own parent', () => {
    const customers = entity('customers', 50, [{ id: 'joined_at', type: 'datetime', generation: { strategy: { kind: 'dateRange', quantiles: ['2020-01-01T00:00:00Z', '2024-01-01T00:00:00Z'] } } }]);
    const orders = entity('orders', 500, [
      { id: 'customer_id', type: 'integer', references: { entity: 'customers', field: 'id' } },
      { id: 'ordered_at', type: 'datetime', generation: { strategy: { kind: 'dateRange', quantiles: ['2020-01-01T00:00:00Z', '2025-01-01T00:00:00Z'], after: 'customer.joined_at', gap: { quantiles: [60, 30 * DAY] } } } },
    ]);
    const generated = generate(config(customers, orders));
    const joined = new Map(generated.objects('customers').map((row) => [row.id, Date.parse(row.joined_at as string)]));
    const gaps = generated.objects('orders').map((row) => (Date.parse(row.ordered_at as string) - joined.get(row.customer_id)!) / 1000);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(60);
    expect(Math.max(...gaps)).toBeLessThanOrEqual(30 * DAY);
  });

  it('the validator refuses an afterField that is missing, closes a cycle or comes with after, and a gap without either', () => {
    const date = (id: string, strategy: Record<string, unknown>): Field => ({ id, type: 'date', generation: { strategy: { kind: 'dateRange', ...strategy } } }) as Field;
    const schema = config(
      entity('spans', 10, [
        date('a', { afterField: 'b' }),
        date('b', { afterField: 'a' }),
        date('c', { afterField: 'nope' }),
        date('d', { gap: { quantiles: [0, 1] } }),
      ]),
    );
    const messages = validateConfig(schema).errors.map((error) => `${error.path} ${error.message}`);
    expect(messages).toContain('/entities/0/fields/1/generation/strategy/afterField afterField "b" of spans.a closes a cycle (a → b → a); remove one afterField of it');
    expect(messages.some((message) => message.startsWith('/entities/0/fields/3/generation/strategy/afterField afterField "nope" of spans.c is not another date or datetime field'))).toBe(true);
    expect(messages).toContain('/entities/0/fields/4/generation/strategy/gap gap of spans.d needs after or afterField: the date it follows');
  });
});
