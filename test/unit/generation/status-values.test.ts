// Version 4's plain string statuses: the values a status takes come from its name and table, and the
// times a status implies follow them (`paid_at` only on paid orders, `terminated_at` only on
// terminated employees, `returned_at` null on open loans).
import { describe, expect, it } from 'vitest';
import type { Field } from '../../../src/model/config-types.ts';
import { config, entity, generate } from '../../helpers/generate-in-memory.ts';
import { statusSetOf } from '../../../src/generation/rules/status-values.ts';
import { ruleOf } from '../../../src/generation/rules/choose-rule.ts';

const status = (id = 'status', maxLength = 20): Field => ({ id, type: 'string', maxLength });
const time = (id: string, nullable = true): Field => ({ id, type: 'datetime', nullable });

const schema = () =>
  config(
    entity('orders', 400, [status(), time('ordered_at', false), time('paid_at'), time('shipped_at'), time('delivered_at'), time('cancelled_at')]),
    entity('employees', 300, [status('employment_status'), { id: 'hired_on', type: 'date' }, { id: 'terminated_on', type: 'date', nullable: true }]),
    entity('loans', 300, [status(), time('loaned_at', false), time('returned_at')]),
    entity('invoices', 300, [status('invoice_status', 10), time('issued_at', false), time('paid_at')]),
  );

describe('version 4: plain string statuses by table', () => {
  it('chooses a set by the name, then the table; never for a column too short or with a strategy', () => {
    const orders = entity('orders', 1, []);
    expect(statusSetOf(orders, status())?.id).toBe('orders');
    expect(statusSetOf(orders, status('payment_status'))?.id).toBe('payments');
    expect(statusSetOf(entity('support_tickets', 1, []), status())?.id).toBe('tickets');
    expect(statusSetOf(entity('deliveries', 1, []), status())?.id).toBe('shipments');
    expect(statusSetOf(entity('widgets', 1, []), status())).toBeUndefined();
    expect(statusSetOf(orders, status('status', 5))).toBeUndefined();
    expect(statusSetOf(orders, { ...status(), generation: { strategy: { kind: 'literal', value: 'x' } } })).toBeUndefined();
    expect(statusSetOf(orders, status('state'))).toBeUndefined();
    const scope = { entity: orders, entities: [orders], deferred: [], version: 4 as const };
    expect(ruleOf(scope, status())?.id).toBe('status.by-table');
    expect(ruleOf({ ...scope, version: 3 }, status())?.id).toBe('misc.status');
  });

  it('makes the set and sets exactly the times each status implies', () => {
    const generated = generate(schema(), { generatorVersion: 4 });
    const orders = generated.objects('orders');
    expect(new Set(orders.map((order) => order.status))).toEqual(new Set(['pending', 'paid', 'shipped', 'delivered', 'cancelled']));
    for (const order of orders) {
      expect(order.paid_at !== null).toBe(['paid', 'shipped', 'delivered'].includes(String(order.status)));
      expect(order.shipped_at !== null).toBe(['shipped', 'delivered'].includes(String(order.status)));
      expect(order.delivered_at !== null).toBe(order.status === 'delivered');
      expect(order.cancelled_at !== null).toBe(order.status === 'cancelled');
    }
    const employees = generated.objects('employees');
    expect(new Set(employees.map((employee) => employee.employment_status))).toEqual(new Set(['active', 'on_leave', 'terminated']));
    for (const employee of employees) expect(employee.terminated_on !== null).toBe(employee.employment_status === 'terminated');
    for (const loan of generated.objects('loans')) expect(loan.returned_at !== null).toBe(loan.status === 'returned');
    const invoices = generated.objects('invoices');
    expect(new Set(invoices.map((invoice) => invoice.invoice_status))).toEqual(new Set(['draft', 'sent', 'paid', 'void']));
    for (const invoice of invoices) expect(invoice.paid_at !== null).toBe(invoice.invoice_status === 'paid');
  });
});
