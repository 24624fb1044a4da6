// dateRange shapes and `after`: weekday and hour-of-day weights within 5% of their shares, a trend
// moving the mass to the end of the range, children never before their referenced row's date, and
// the validator's errors for each option.
import { describe, expect, it } from 'vitest';
import type { Field } from '../../../src/model/config-types.ts';
import { validateConfig } from '../../../src/config/validate-config.ts';
import { DataGenerator } from '../../../src/generation/generator.ts';
import { planGeneration } from '../../../src/generation/plan.ts';
import { config, entity, generate, REFERENCE_DATE, values } from '../../helpers/generate-in-memory.ts';

const WEEKDAYS = [5, 5, 5, 5, 6, 2, 1];
const HOURS = [0, 0, 0, 0, 0, 0, 0, 1, 3, 6, 6, 5, 4, 5, 6, 6, 5, 3, 2, 1, 1, 0, 0, 0];
const within = (actual: number, expected: number) => expect(Math.abs(actual - expected)).toBeLessThanOrEqual(expected * 0.05);

const dateField = (type: 'date' | 'datetime', strategy: object, extra: Partial<Field> = {}): Field =>
  ({ id: 'at', type, generation: { strategy: { kind: 'dateRange', ...strategy } }, ...extra }) as Field;

/** 2024-01-01 is a Monday; 52 full weeks give every weekday the same number of days. */
const YEAR = { from: '2024-01-01', to: '2024-12-29' };

describe('dateRange shapes', () => {
  it('weekday and hour weights: each share within 5% of its weight share, weight 0 never', () => {
    const list = values(dateField('datetime', { ...YEAR, weekdayWeights: WEEKDAYS, hourWeights: HOURS }), 100_000) as string[];
    const weekdays = new Array<number>(7).fill(0);
    const hours = new Array<number>(24).fill(0);
    for (const text of list) {
      const date = new Date(text);
      weekdays[(date.getUTCDay() + 6) % 7]!++;
      hours[date.getUTCHours()]!++;
      expect(text >= '2024-01-01' && text < '2024-12-30').toBe(true);
    }
    const weekdayTotal = WEEKDAYS.reduce((a, b) => a + b, 0);
    WEEKDAYS.forEach((weight, day) => within(weekdays[day]! / list.length, weight / weekdayTotal));
    const hourTotal = HOURS.reduce((a, b) => a + b, 0);
    HOURS.forEach((weight, hour) => (weight === 0 ? expect(hours[hour]).toBe(0) : within(hours[hour]! / list.length, weight / hourTotal)));
  });

  it('hours are judged in the entity time zone', () => {
    const office = HOURS.map((_, hour) => (hour >= 9 && hour < 17 ? 1 : 0));
    const list = values(dateField('datetime', { ...YEAR, hourWeights: office }), 5000, {}, { generation: { rowCount: 5000, timezone: 'Europe/Berlin' } }) as string[];
    const local = (text: string) => Number(new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Berlin', hour: '2-digit', hourCycle: 'h23' }).format(new Date(text)));
    expect(list.every((text) => local(text) >= 9 && local(text) < 17)).toBe(true);
  });

  it('trend 1: the second half of the range holds 7/12 of the values (density 1 + x)', () => {
    const list = values(dateField('date', { from: '2020-01-01', to: '2023-12-31', trend: 1 }), 50_000) as string[];
    within(list.filter((day) => day >= '2022-01-01').length / list.length, 0.875 / 1.5);
  });

  it('weekdaysOnly with weights keeps Saturday and Sunday out', () => {
    const list = values(dateField('date', { ...YEAR, weekdayWeights: [1, 1, 1, 1, 1, 5, 5] }, { weekdaysOnly: true }), 3000) as string[];
    expect(list.every((day) => new Date(day).getUTCDay() % 6 !== 0)).toBe(true);
  });

  it('a plain dateRange keeps its values (the shape options are additive)', () => {
    const plain = values(dateField('datetime', YEAR), 200);
    expect(values(dateField('datetime', { ...YEAR, trend: 0 }), 200)).toEqual(plain);
  });
});

describe('dateRange after a field of the referenced row', () => {
  const schema = (child: object, childType: 'date' | 'datetime' = 'datetime') =>
    config(
      entity('customers', 300, [{ id: 'createdAt', type: 'datetime', generation: { strategy: { kind: 'dateRange', from: '2023-01-01', to: '2025-06-01' } } }]),
      entity('orders', 3000, [
        { id: 'customerId', type: 'integer', references: { entity: 'customers', field: 'id', fanOut: { kind: 'zipf' } } },
        { id: 'orderedAt', type: childType, generation: { strategy: { kind: 'dateRange', from: '2023-01-01', to: '2025-06-15', after: 'customer.createdAt', ...child } } },
      ]),
    );

  it.each<[string, object, 'date' | 'datetime']>([
    ['uniform datetimes', {}, 'datetime'],
    ['shaped datetimes', { weekdayWeights: WEEKDAYS, hourWeights: HOURS, trend: 2 }, 'datetime'],
    ['dates', {}, 'date'],
  ])('%s: 100% of children are not before their parent', (_name, child, type) => {
    const run = generate(schema(child, type));
    const created = new Map(run.objects('customers').map((row) => [row.id, row.createdAt as string]));
    const orders = run.objects('orders');
    for (const order of orders) {
      const parent = created.get(order.customerId)!;
      if (type === 'date') expect(order.orderedAt! >= parent.slice(0, 10)).toBe(true);
      else expect(Date.parse(order.orderedAt as string)).toBeGreaterThanOrEqual(Date.parse(parent));
      expect((order.orderedAt as string) <= '2025-06-16').toBe(true);
    }
    // Not all pinned to the parent: values spread after it.
    expect(new Set(orders.map((order) => order.orderedAt)).size).toBeGreaterThan(type === 'date' ? 300 : orders.length * 0.9);
  });

  it('rows made in any range equal the rows made in order', () => {
    const config = schema({ hourWeights: HOURS });
    const all = generate(config).rows.get('orders')!;
    const generator = new DataGenerator(config, planGeneration(config, { referenceDate: REFERENCE_DATE }));
    expect(generator.assumeGenerated('customers')).toBe(true);
    expect([...generator.rangeRows('orders', 2000, 2050)]).toEqual(all.slice(2000, 2050));
  });

  it('the validator names bad weights and after targets with pointers, all at once', () => {
    const bad = schema({});
    const orders = bad.entities[1]!;
    orders.fields.push(
      dateField('date', { hourWeights: HOURS, weekdayWeights: [0, 0, 0, 0, 0, 0, 0] }, { id: 'a' }),
      dateField('datetime', { after: 'client.createdAt', hourWeights: new Array(24).fill(0) }, { id: 'b' }),
      dateField('datetime', { after: 'customer.created' }, { id: 'c' }),
      dateField('datetime', { after: 'customer.id' }, { id: 'd' }),
    );
    expect(validateConfig(bad).errors).toEqual([
      { path: '/entities/1/fields/3/generation/strategy/weekdayWeights', message: 'weekdayWeights of orders.a are all 0; give at least one day a weight > 0' },
      { path: '/entities/1/fields/3/generation/strategy/hourWeights', message: 'hourWeights apply to datetime fields only, but orders.a is date; remove them or make the field a datetime' },
      { path: '/entities/1/fields/4/generation/strategy/hourWeights', message: 'hourWeights of orders.b are all 0; give at least one hour a weight > 0' },
      { path: '/entities/1/fields/4/generation/strategy/after', message: 'after "client.createdAt" of orders.b: "client" names no reference of entity "orders"; use one of: customerId, customer, customers' },
      { path: '/entities/1/fields/5/generation/strategy/after', message: 'after "customer.created" of orders.c: entity "customers" has no field "created" (did you mean "createdAt"?); use one of its date or datetime fields: createdAt' },
      { path: '/entities/1/fields/6/generation/strategy/after', message: 'after "customer.id" of orders.d: customers.id is integer, not a date or datetime; use one of: createdAt' },
    ]);
  });
});
