// The observed distributions that `sds init --learn` writes: empirical quantiles of randomInt and
// randomFloat, dateRange quantiles, and the empirical fan-out histogram; shapes kept, bounds and
// rounding held, values a function of the row, and the validator's refusals.
import { describe, expect, it } from 'vitest';
import type { FanOut, Field } from '../../../src/model/config-types.ts';

type FanOutBin = Extract<FanOut, { kind: 'empirical' }>['histogram'][number];
import { validateConfig } from '../../../src/config/validate-config.ts';
import { config, entity, generate, values } from '../../helpers/generate-in-memory.ts';

const ROWS = 10_000;
const quantileAt = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;

describe('empirical distributions', () => {
  it('randomFloat quantiles: the generated deciles match the given ones and values keep 2 decimals', () => {
    // A skewed shape: half the values under 10, a long tail to 500.
    const quantiles = [1, 2, 4, 6, 8, 10, 20, 40, 80, 200, 500];
    const list = (values({ id: 'price', type: 'number', generation: { strategy: { kind: 'randomFloat', min: 1, max: 500, precision: 2, distribution: { kind: 'empirical', quantiles } } } } as Field, ROWS) as number[]).sort((a, b) => a - b);
    expect(list[0]).toBeGreaterThanOrEqual(1);
    expect(list.at(-1)).toBeLessThanOrEqual(500);
    for (const [i, q] of quantiles.entries()) {
      if (i === 0 || i === quantiles.length - 1) continue;
      expect(Math.abs(quantileAt(list, i / 10) - q)).toBeLessThanOrEqual(q * 0.1 + 0.5);
    }
    expect(list.every((value) => Math.round(value * 100) / 100 === value)).toBe(true);
  });

  it('randomInt quantiles give integers only', () => {
    const list = values({ id: 'n', type: 'integer', generation: { strategy: { kind: 'randomInt', min: 0, max: 100, distribution: { kind: 'empirical', quantiles: [0, 3, 100] } } } } as Field, 2000) as number[];
    expect(list.every(Number.isInteger)).toBe(true);
    expect(list.filter((value) => value <= 3).length / list.length).toBeGreaterThan(0.45);
  });

  it('dateRange quantiles: dates between the first and last quantile, half before the median', () => {
    const quantiles = ['2020-01-01', '2024-01-01', '2024-02-01'];
    const list = values({ id: 'day', type: 'date', generation: { strategy: { kind: 'dateRange', quantiles } } } as Field, 4000) as string[];
    expect(list.every((day) => day >= '2020-01-01' && day <= '2024-02-01')).toBe(true);
    const early = list.filter((day) => day < '2024-01-01').length / list.length;
    expect(early).toBeGreaterThan(0.45);
    expect(early).toBeLessThan(0.55);
    const instants = values({ id: 'at', type: 'datetime', generation: { strategy: { kind: 'dateRange', quantiles: ['2024-01-01T00:00:00Z', '2024-01-02T00:00:00Z'] } } } as Field, 100) as string[];
    expect(instants.every((at) => at >= '2024-01-01T00:00:00.000Z' && at <= '2024-01-02T00:00:00.000Z')).toBe(true);
  });

  it('the validator refuses quantiles out of order and quantiles with a trend', () => {
    const schema = config(
      entity('items', 10, [
        { id: 'price', type: 'number', generation: { strategy: { kind: 'randomFloat', distribution: { kind: 'empirical', quantiles: [5, 1] } } } },
        { id: 'day', type: 'date', generation: { strategy: { kind: 'dateRange', quantiles: ['2024-01-01', '2025-01-01'], trend: 1 } } },
      ]),
    );
    const { errors } = validateConfig(schema);
    expect(errors).toContainEqual({ path: '/entities/0/fields/1/generation/strategy/distribution/quantiles/1', message: 'quantiles of items.price must ascend, but item 1 is smaller than item 0; sort them' });
    expect(errors).toContainEqual({ path: '/entities/0/fields/2/generation/strategy/trend', message: 'items.day has quantiles, which already give the shape of its dates; remove trend' });
  });
});

describe('empirical fan-out', () => {
  it('parents get the histogram exactly: 30% none, 50% one, 20% five', () => {
    const histogram: [FanOutBin, ...FanOutBin[]] = [
      { children: 0, weight: 30 },
      { children: 1, weight: 50 },
      { children: 5, weight: 20 },
    ];
    const run = generate(config(entity('customers', 100, []), entity('orders', 150, [{ id: 'customerId', type: 'integer', references: { entity: 'customers', field: 'id', fanOut: { kind: 'empirical', histogram } } }])));
    const tally = new Map<unknown, number>(run.column('customers', 'id').map((id) => [id, 0]));
    for (const id of run.column('orders', 'customerId')) tally.set(id, tally.get(id)! + 1);
    const perCount = new Map<number, number>();
    for (const count of tally.values()) perCount.set(count, (perCount.get(count) ?? 0) + 1);
    expect(Object.fromEntries(perCount)).toEqual({ 0: 30, 1: 50, 5: 20 });
    expect(run.column('orders', 'customerId')).toHaveLength(150);
  });

  it('fewer rows than slots thin the parents; more rows than slots are not inserted', () => {
    const schema = (rows: number) =>
      config(entity('customers', 10, []), entity('orders', rows, [{ id: 'customerId', type: 'integer', references: { entity: 'customers', field: 'id', fanOut: { kind: 'empirical', histogram: [{ children: 2, weight: 1 }] } } }]));
    expect(generate(schema(30)).column('orders', 'customerId')).toHaveLength(20);
    const thin = generate(schema(10)).column('orders', 'customerId');
    expect(thin).toHaveLength(10);
    expect(Math.max(...[...new Set(thin)].map((id) => thin.filter((other) => other === id).length))).toBeLessThanOrEqual(2);
  });
});

describe('empirical fan-out with an empty share (a nullable reference)', () => {
  const histogram: [FanOutBin, ...FanOutBin[]] = [
    { children: 0, weight: 30 },
    { children: 1, weight: 50 },
    { children: 5, weight: 20 },
  ];
  const orders = (empty: number, nullable = true) =>
    config(entity('customers', 100, []), entity('orders', 250, [{ id: 'customerId', type: 'integer', ...(nullable && { nullable: true }), references: { entity: 'customers', field: 'id', fanOut: { kind: 'empirical', histogram, empty } } }]));

  it('40% of the rows are null and the parents still get the histogram exactly', () => {
    const run = generate(orders(0.4));
    const keys = run.column('orders', 'customerId');
    expect(keys).toHaveLength(250);
    expect(keys.filter((key) => key === null)).toHaveLength(100);
    const tally = new Map<unknown, number>(run.column('customers', 'id').map((id) => [id, 0]));
    for (const id of keys) if (id !== null) tally.set(id, tally.get(id)! + 1);
    const perCount = new Map<number, number>();
    for (const count of tally.values()) perCount.set(count, (perCount.get(count) ?? 0) + 1);
    expect(Object.fromEntries(perCount)).toEqual({ 0: 30, 1: 50, 5: 20 });
    // The nulls are spread over the rows, not bunched at the end.
    expect(keys.slice(0, 125).filter((key) => key === null).length).toBeGreaterThan(30);
    expect(generate(orders(0.4)).column('orders', 'customerId')).toEqual(keys);
  });

  it('the validator refuses an empty share on a reference that is not nullable', () => {
    expect(validateConfig(orders(0.4, false)).errors).toContainEqual({
      path: '/entities/1/fields/1/references/fanOut/empty',
      message: 'fanOut empty (0.4) of orders.customerId leaves rows without a parent, but the field is not nullable; make it nullable or remove empty',
    });
  });
});
