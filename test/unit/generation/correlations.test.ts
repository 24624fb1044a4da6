// Numeric columns that move together (empirical `correlation`): a Gaussian copula keeps each
// column's quantiles and the pair's rank correlation; values stay a function of the row; the
// validator names what is wrong by JSON pointer.
import { describe, expect, it } from 'vitest';
import type { Field } from '../../../src/model/config-types.ts';
import { validateConfig } from '../../../src/config/validate-config.ts';
import { cumulativeFunction, normalCdf, normalQuantile, quantileFunction } from '../../../src/generation/values/distributions.ts';
import { ksScore, rankCorrelation } from '../../../src/learn/fidelity.ts';
import { config, entity, generate } from '../../helpers/generate-in-memory.ts';

const ROWS = 5000;
/** Skewed track lengths in ms and sizes in bytes, each as 11 deciles. */
const MS: [number, number, ...number[]] = [60_000, 150_000, 180_000, 200_000, 220_000, 240_000, 260_000, 290_000, 330_000, 420_000, 1_200_000];
const BYTES: [number, number, ...number[]] = [1_000_000, 3_000_000, 4_500_000, 5_500_000, 6_500_000, 7_500_000, 8_500_000, 9_500_000, 11_000_000, 14_000_000, 40_000_000];

function tracks(spearman: number | undefined, options: { nullable?: boolean } = {}) {
  const milliseconds: Field = { id: 'milliseconds', type: 'integer', ...(options.nullable && { nullable: true }), generation: { ...(options.nullable && { emptyRate: 0.3 }), strategy: { kind: 'randomInt', min: 0, max: 2_000_000, distribution: { kind: 'empirical', quantiles: MS } } } };
  const distribution = { kind: 'empirical' as const, quantiles: BYTES, ...(spearman !== undefined && { correlation: { field: 'milliseconds', spearman } }) };
  const bytes: Field = { id: 'bytes', type: 'number', generation: { strategy: { kind: 'randomFloat', min: 0, max: 50_000_000, precision: 0, distribution } } };
  return config(entity('tracks', ROWS, [milliseconds, bytes]));
}

describe('correlated empirical distributions', () => {
  it.each([0.8, 0.5, -0.6, 0.95])('the pair keeps Spearman %s within 0.1 and each column its own quantiles (KS)', (target) => {
    const plain = generate(tracks(undefined));
    const run = generate(tracks(target));
    const [ms, bytes] = [run.column('tracks', 'milliseconds'), run.column('tracks', 'bytes')];
    expect(Math.abs(rankCorrelation(ms, bytes)! - target)).toBeLessThanOrEqual(0.1);
    // The leading column is untouched; the following one keeps its marginal.
    expect(ms).toEqual(plain.column('tracks', 'milliseconds'));
    expect(ksScore(plain.column('tracks', 'bytes'), bytes)).toBeGreaterThan(0.95);
    expect(Math.abs(rankCorrelation(plain.column('tracks', 'milliseconds'), plain.column('tracks', 'bytes'))!)).toBeLessThan(0.1);
  });

  it('is deterministic, and rows whose partner is null draw on their own', () => {
    const first = generate(tracks(0.8, { nullable: true }));
    const again = generate(tracks(0.8, { nullable: true }));
    expect(again.column('tracks', 'bytes')).toEqual(first.column('tracks', 'bytes'));
    const ms = first.column('tracks', 'milliseconds');
    const bytes = first.column('tracks', 'bytes');
    expect(ms.filter((value) => value === null).length / ROWS).toBeGreaterThan(0.25);
    const both = ms.flatMap((value, i) => (value === null ? [] : [[value, bytes[i]] as const]));
    expect(rankCorrelation(both.map(([a]) => a), both.map(([, b]) => b))!).toBeGreaterThan(0.7);
    expect(bytes.every((value) => typeof value === 'number' && value >= 0 && value <= 50_000_000 && Number.isInteger(value))).toBe(true);
  });

  it('a field may follow one listed after it', () => {
    const schema = tracks(0.8);
    const fields = schema.entities[0]!.fields;
    fields.push(...fields.splice(1, 1)); // id, bytes, milliseconds
    expect(fields.map((field) => field.id)).toEqual(['id', 'bytes', 'milliseconds']);
    const run = generate(schema);
    expect(Math.abs(rankCorrelation(run.column('tracks', 'milliseconds'), run.column('tracks', 'bytes'))! - 0.8)).toBeLessThanOrEqual(0.1);
  });

  it('the copula pieces invert each other', () => {
    for (const p of [0.001, 0.02, 0.3, 0.5, 0.9, 0.999]) expect(normalCdf(normalQuantile(p))).toBeCloseTo(p, 6);
    const quantile = quantileFunction(MS);
    const rank = cumulativeFunction(MS);
    for (const p of [0.05, 0.37, 0.5, 0.81]) expect(rank(quantile(p))).toBeCloseTo(p, 9);
    // A value many quantiles share sits in the middle of its run.
    expect(cumulativeFunction([1, 1, 1, 2, 3])(1)).toBeCloseTo(0.25, 9);
  });

  it('the validator refuses a correlation with itself, with an unknown field, with a correlated field, and a ρ out of range', () => {
    const numeric = (id: string, correlation?: { field: string; spearman: number }): Field => ({ id, type: 'number', generation: { strategy: { kind: 'randomFloat', distribution: { kind: 'empirical', quantiles: [1, 2, 3], ...(correlation && { correlation }) } } } });
    const { errors } = validateConfig(
      config(
        entity('items', 10, [
          numeric('a'),
          numeric('b', { field: 'b', spearman: 0.5 }),
          numeric('c', { field: 'wieght', spearman: 0.5 }),
          numeric('d', { field: 'b', spearman: 0.5 }),
          { id: 'name', type: 'string' },
          numeric('e', { field: 'a', spearman: 1.5 }),
        ]),
      ),
    );
    const at = (index: number) => `/entities/0/fields/${index}/generation/strategy/distribution/correlation`;
    expect(errors).toContainEqual({ path: `${at(2)}/field`, message: 'correlation of items.b names the field itself; name another field of entity "items"' });
    expect(errors.find((error) => error.path === `${at(3)}/field`)?.message).toMatch(/^correlation field "wieght" of items\.c is not a randomInt or randomFloat field .*use one of: a/);
    expect(errors).toContainEqual({ path: `${at(4)}/field`, message: 'correlation field "b" of items.d is itself correlated with "b"; correlate both with "b" instead' });
    expect(errors.some((error) => error.path === `${at(6)}/spearman`)).toBe(true);
    const ok = validateConfig(config(entity('items', 10, [numeric('a'), numeric('b', { field: 'a', spearman: -0.7 })])));
    expect(ok.errors).toEqual([]);
  });
});
