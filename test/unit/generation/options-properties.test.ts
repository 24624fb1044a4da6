// Properties of the issue-14 options over arbitrary input: formula text never makes the validator or
// the generator throw (a config either validates and generates, or gets errors with pointers), and
// any valid distribution or fan-out keeps values within bounds and every key a parent's.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Field, SchemaConfig } from '../../../src/model/config-types.ts';
import { validateConfig } from '../../../src/config/validate-config.ts';
import { config, entity, generate } from '../../helpers/generate-in-memory.ts';

const TOKENS = ['quantity', 'price', 'product.price', 'product.launchedOn', 'orderedAt', 'name', 'flag', '1', '2.5', '0', '"x"', '30 days', '1 hour', 'null', 'true',
  '+', '-', '*', '/', '%', '==', '<', '&&', '||', '!', '?', ':', '(', ')', ',', 'round(', 'min(', 'date(', 'lower(', 'daysBetween(', 'nope', '.', '#'];

/** Well-formed expressions (often of mismatched types): leaves joined by operators, calls and conditions. */
const EXPRESSIONS = fc.letrec<{ expression: string }>((tie) => ({
  expression: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom('quantity', 'price', 'product.price', 'product.launchedOn', 'orderedAt', 'name', 'flag', '1', '0', '2.5', '"x"', '30 days', 'null'),
    fc.tuple(tie('expression'), fc.constantFrom('+', '-', '*', '/', '%', '<', '==', '&&'), tie('expression')).map(([a, op, b]) => `(${a} ${op} ${b})`),
    fc.tuple(fc.constantFrom('round', 'floor', 'abs', 'lower', 'date', 'length'), tie('expression')).map(([name, a]) => `${name}(${a})`),
    fc.tuple(tie('expression'), tie('expression'), tie('expression')).map(([a, b, c]) => `(${a} ? ${b} : ${c})`),
  ),
})).expression;

function formulaConfig(expression: string, type: Field['type']): SchemaConfig {
  return config(
    entity('products', 5, [
      { id: 'price', type: 'number', precision: 2, generation: { strategy: { kind: 'randomFloat', min: 1, max: 9 } } },
      { id: 'launchedOn', type: 'date' },
    ]),
    entity('lines', 20, [
      { id: 'productId', type: 'integer', references: { entity: 'products', field: 'id' } },
      { id: 'quantity', type: 'integer', generation: { strategy: { kind: 'randomInt', min: 0, max: 3 } } },
      { id: 'price', type: 'number', nullable: true, generation: { emptyRate: 0.3 } },
      { id: 'orderedAt', type: 'datetime' },
      { id: 'name', type: 'string', maxLength: 20 },
      { id: 'flag', type: 'boolean' },
      { id: 'out', type, generation: { strategy: { kind: 'formula', expression } } } as Field,
    ]),
  );
}

describe('options over arbitrary input', () => {
  it('any formula text validates to errors with pointers, or generates without throwing', () => {
    let generated = 0;
    fc.assert(
      fc.property(
        fc.oneof(fc.array(fc.constantFrom(...TOKENS), { minLength: 1, maxLength: 9 }).map((tokens) => tokens.join(' ')), EXPRESSIONS),
        fc.constantFrom<Field['type']>('number', 'integer', 'string', 'date', 'datetime', 'boolean'),
        (expression, type) => {
          const schema = formulaConfig(expression, type);
          const result = validateConfig(schema);
          if (!result.valid) {
            expect(result.errors.length).toBeGreaterThan(0);
            for (const error of result.errors) expect(error.path).toMatch(/^\/entities\/1\/fields\/7\/generation\/strategy/);
            return;
          }
          generated++;
          const values = generate(schema).column('lines', 'out');
          expect(values).toHaveLength(20);
          expect(values.every((value) => value !== null && value !== undefined)).toBe(true);
        },
      ),
      { numRuns: 1000 },
    );
    expect(generated).toBeGreaterThan(10); // the property reached the generator, not only the validator
  });

  it('any valid distribution keeps values within min and max', () => {
    const distribution = fc.oneof(
      fc.record({ kind: fc.constant('normal'), mean: fc.double({ min: -50, max: 150, noNaN: true }), stddev: fc.double({ min: 0.01, max: 500, noNaN: true }) }),
      fc.record({ kind: fc.constant('lognormal'), median: fc.double({ min: 0.01, max: 500, noNaN: true }), sigma: fc.double({ min: 0.01, max: 5, noNaN: true }) }),
      fc.record({ kind: fc.constant('exponential'), mean: fc.double({ min: 0.5, max: 500, noNaN: true }) }),
      fc.record({ kind: fc.constant('zipf'), exponent: fc.double({ min: 0.01, max: 10, noNaN: true }) }),
    );
    fc.assert(
      fc.property(distribution, fc.boolean(), (dist, integer) => {
        const field = { id: 'x', type: integer ? 'integer' : 'number', generation: { strategy: { kind: integer ? 'randomInt' : 'randomFloat', min: 0, max: 100, distribution: dist } } } as Field;
        const schema = config(entity('items', 200, [field]));
        if (!validateConfig(schema).valid) return;
        const values = generate(schema).column('items', 'x') as number[];
        expect(values.every((value) => value >= 0 && value <= 100 && (!integer || Number.isInteger(value)))).toBe(true);
      }),
      { numRuns: 150 },
    );
  });

  it('any fan-out keeps every key a parent key, within bounded counts', () => {
    const fanOut = fc.oneof(
      fc.record({ kind: fc.constant('zipf'), exponent: fc.double({ min: 0.01, max: 10, noNaN: true }) }),
      fc.record({ kind: fc.constant('pareto'), alpha: fc.double({ min: 1.01, max: 100, noNaN: true }) }),
      fc.record({ kind: fc.constant('bounded'), min: fc.integer({ min: 0, max: 5 }), max: fc.integer({ min: 1, max: 8 }) }),
    );
    fc.assert(
      fc.property(fanOut, fc.integer({ min: 0, max: 40 }), fc.integer({ min: 0, max: 300 }), (fan, parents, children) => {
        const schema = config(entity('parents', parents, []), entity('children', children, [{ id: 'parentId', type: 'integer', nullable: true, references: { entity: 'parents', field: 'id', fanOut: fan } }]));
        if (!validateConfig(schema).valid) return;
        const run = generate(schema);
        const keys = new Set(run.column('parents', 'id'));
        const picked = run.column('children', 'parentId');
        expect(picked.every((key) => (parents === 0 ? key === null : keys.has(key)))).toBe(true);
        if (fan.kind === 'bounded' && parents > 0) {
          const counts = new Map<unknown, number>();
          for (const key of picked) counts.set(key, (counts.get(key) ?? 0) + 1);
          expect(Math.max(0, ...counts.values())).toBeLessThanOrEqual(fan.max);
          if (picked.length >= parents * fan.min) expect([...keys].every((key) => (counts.get(key) ?? 0) >= fan.min)).toBe(true);
        }
      }),
      { numRuns: 150 },
    );
  });
});
