// Reference fan-out: skewed (Zipf, Pareto) parents owning their expected share of children within
// 5%, bounded counts per parent, FK validity, row-range determinism, and the validator's refusals.
import { describe, expect, it } from 'vitest';
import type { Field, FanOut } from '../../../src/model/config-types.ts';
import { DataGenerator } from '../../../src/generation/generator.ts';
import { planGeneration } from '../../../src/generation/plan.ts';
import { validateConfig } from '../../../src/config/validate-config.ts';
import { ZipfSampler } from '../../../src/generation/values/distributions.ts';
import { config, entity, generate, REFERENCE_DATE } from '../../helpers/generate-in-memory.ts';

const orders = (fanOut: FanOut, parents = 200, children = 40_000, extra: Partial<NonNullable<Field['references']>> = {}) =>
  config(entity('customers', parents, []), entity('orders', children, [{ id: 'customerId', type: 'integer', references: { entity: 'customers', field: 'id', fanOut, ...extra } }]));

/** Children per parent id, every parent listed (0 for none), busiest first. */
function counts(schema: ReturnType<typeof orders>): { perParent: number[]; children: number; valid: boolean } {
  const run = generate(schema);
  const parents = run.column('customers', 'id');
  const tally = new Map(parents.map((id) => [id, 0]));
  let valid = true;
  for (const id of run.column('orders', 'customerId')) {
    if (!tally.has(id)) valid = false;
    else tally.set(id, tally.get(id)! + 1);
  }
  return { perParent: [...tally.values()].sort((a, b) => b - a), children: run.column('orders', 'customerId').length, valid };
}

const topShare = (perParent: number[], fraction: number) => {
  const top = perParent.slice(0, Math.round(perParent.length * fraction)).reduce((sum, count) => sum + count, 0);
  return top / perParent.reduce((sum, count) => sum + count, 0);
};
const within = (actual: number, expected: number) => expect(Math.abs(actual - expected)).toBeLessThanOrEqual(expected * 0.05);

describe('reference fan-out', () => {
  it('zipf: the top 10% of parents own their exact expected share within 5%, and every key exists', () => {
    const { perParent, valid } = counts(orders({ kind: 'zipf', exponent: 1 }));
    expect(valid).toBe(true);
    within(topShare(perParent, 0.1), ZipfSampler.share(200, 1, 20));
  });

  it('pareto: the busiest 20% of parents get 80% of the children (alpha 1.16), top 10% their share', () => {
    const { perParent, valid } = counts(orders({ kind: 'pareto' }, 1000, 60_000));
    expect(valid).toBe(true);
    within(topShare(perParent, 0.2), 0.2 ** (1 - 1 / 1.16));
    within(topShare(perParent, 0.1), 0.1 ** (1 - 1 / 1.16));
    const { perParent: flatter } = counts(orders({ kind: 'pareto', alpha: 3 }, 1000, 60_000));
    within(topShare(flatter, 0.1), 0.1 ** (1 - 1 / 3));
  });

  it('the busy parents are spread over the table (a keyed permutation), not the first rows', () => {
    const run = generate(orders({ kind: 'zipf', exponent: 1.2 }));
    const tally = new Map<unknown, number>();
    for (const id of run.column('orders', 'customerId')) tally.set(id, (tally.get(id) ?? 0) + 1);
    const busiest = [...tally.entries()].sort((a, b) => b[1] - a[1])[0]![0];
    expect(busiest).not.toBe(1);
  });

  it('bounded: every parent gets between min and max children', () => {
    const { perParent, children, valid } = counts(orders({ kind: 'bounded', min: 2, max: 5 }, 300, 1000));
    expect(valid).toBe(true);
    expect(children).toBe(1000);
    expect(Math.min(...perParent)).toBeGreaterThanOrEqual(2);
    expect(Math.max(...perParent)).toBeLessThanOrEqual(5);
  });

  it('bounded with more rows than parents × max: the entity stops there, with a warning', () => {
    const run = generate(orders({ kind: 'bounded', min: 0, max: 3 }, 10, 50));
    expect(run.column('orders', 'customerId')).toHaveLength(30);
    expect(run.warnings).toContainEqual({
      path: '/entities/1/fields/1/references/fanOut',
      message: 'pool of 30 children for orders.customerId (every parent has at most its fanOut max) is exhausted after 30 rows; inserted 30 of 50 planned rows',
    });
    const tally = counts(orders({ kind: 'bounded', min: 0, max: 3 }, 10, 50)).perParent;
    expect(tally.every((count) => count === 3)).toBe(true);
  });

  it('bounded with fewer rows than parents × min: parents get as even a share as the rows allow, with a warning', () => {
    const run = generate(orders({ kind: 'bounded', min: 3, max: 4 }, 10, 25));
    expect(run.warnings).toContainEqual({ path: '/entities/1/fields/1/references/fanOut', message: 'orders.customerId: 25 rows give 10 parents fewer than min (3) children each' });
    const tally = counts(orders({ kind: 'bounded', min: 3, max: 4 }, 10, 25)).perParent;
    expect(new Set(tally)).toEqual(new Set([3, 2]));
  });

  it.each<[string, FanOut]>([
    ['zipf', { kind: 'zipf' }],
    ['pareto', { kind: 'pareto', alpha: 2 }],
    ['bounded', { kind: 'bounded', min: 1, max: 9 }],
  ])('%s: any range of child rows equals the rows made in order (pure function of the row)', (_name, fanOut) => {
    const schema = orders(fanOut, 50, 2000);
    const all = generate(schema).rows.get('orders')!;
    const generator = new DataGenerator(schema, planGeneration(schema, { referenceDate: REFERENCE_DATE }));
    expect(generator.assumeGenerated('customers')).toBe(true);
    expect(generator.rangeSafe('orders')).toBe(true);
    expect([...generator.rangeRows('orders', 1234, 1300)]).toEqual(all.slice(1234, 1300));
  });

  it('a reference strategy (no foreign key) takes a fan-out too, and after reads through it', () => {
    const schema = config(
      entity('customers', 20, [{ id: 'joinedAt', type: 'date', generation: { strategy: { kind: 'dateRange', from: '2020-01-01', to: '2024-01-01' } } }]),
      entity('visits', 400, [
        { id: 'customerId', type: 'integer', generation: { strategy: { kind: 'reference', entity: 'customers', field: 'id', fanOut: { kind: 'bounded', min: 20, max: 20 } } } },
        { id: 'on', type: 'date', generation: { strategy: { kind: 'dateRange', from: '2020-01-01', to: '2025-01-01', after: 'customer.joinedAt' } } },
      ]),
    );
    expect(validateConfig(schema).errors).toEqual([]);
    const run = generate(schema);
    const joined = new Map(run.objects('customers').map((row) => [row.id, row.joinedAt as string]));
    const tally = new Map<unknown, number>();
    for (const visit of run.objects('visits')) {
      tally.set(visit.customerId, (tally.get(visit.customerId) ?? 0) + 1);
      expect((visit.on as string) >= joined.get(visit.customerId)!).toBe(true);
    }
    expect([...tally.values()]).toEqual(new Array(20).fill(20));
  });

  it('uniform fan-out leaves the values of references as they were', () => {
    const plain = generate(config(entity('customers', 30, []), entity('orders', 300, [{ id: 'customerId', type: 'integer', references: { entity: 'customers', field: 'id' } }])));
    expect(generate(orders({ kind: 'uniform' }, 30, 300)).column('orders', 'customerId')).toEqual(plain.column('orders', 'customerId'));
  });

  it('the validator refuses a skewed fan-out on one-to-one, sequential and unique references, and min > max', () => {
    const schema = config(
      entity('customers', 10, []),
      entity('orders', 10, [
        { id: 'a', type: 'integer', references: { entity: 'customers', field: 'id', relation: 'one-to-one', fanOut: { kind: 'zipf' } } },
        { id: 'b', type: 'integer', references: { entity: 'customers', field: 'id', pick: 'sequential', fanOut: { kind: 'pareto' } } },
        { id: 'c', type: 'integer', references: { entity: 'customers', field: 'id', fanOut: { kind: 'bounded', min: 4, max: 2 } }, generation: { uniqueValues: true } },
        { id: 'd', type: 'integer', references: { entity: 'orders', field: 'id', fanOut: { kind: 'zipf' } }, nullable: true },
      ]),
    );
    expect(validateConfig(schema).errors).toEqual([
      { path: '/entities/1/fields/1/references/fanOut/kind', message: 'fanOut "zipf" of orders.a cannot apply: a one-to-one reference gives every parent at most one child; remove the fanOut or make the reference a random many-to-one one' },
      { path: '/entities/1/fields/2/references/fanOut/kind', message: 'fanOut "pareto" of orders.b cannot apply: sequential picks give parents children in turn; remove the fanOut or make the reference a random many-to-one one' },
      { path: '/entities/1/fields/3/references/fanOut/max', message: 'fanOut min (4) of orders.c is greater than its max (2); make min ≤ max' },
      { path: '/entities/1/fields/3/references/fanOut/kind', message: 'fanOut "bounded" of orders.c cannot apply: a unique reference uses every parent at most once; remove the fanOut or make the reference a random many-to-one one' },
      { path: '/entities/1/fields/4/references/fanOut/kind', message: 'fanOut "zipf" of orders.d cannot apply: a reference to its own entity points at earlier rows; remove the fanOut or make the reference a random many-to-one one' },
    ]);
  });
});
