// Unique fields drawn by retries made in ranges (issue 30): the draws a pass in order finds (which
// rows took a later attempt, a tag or a step, and where a field ran out) let any range of rows be
// made on its own, by a generator that was only given the draws, exactly as a generation in order
// makes them: attempts, tags, steps, empty rows, and the row where a unique field ran out.
import { describe, expect, it } from 'vitest';
import type { SchemaConfig } from '../../../src/model/config-types.ts';
import { DataGenerator } from '../../../src/generation/generator.ts';
import { planGeneration } from '../../../src/generation/plan.ts';
import { config, entity, generate, REFERENCE_DATE } from '../../helpers/generate-in-memory.ts';

const cases: [string, { given: SchemaConfig; version?: 1 | 3; exhausted?: boolean; collides?: boolean }][] = [
  [
    'first names drawn unique: later attempts, then tags',
    { given: config(entity('people', 3_000, [{ id: 'name', type: 'string', generation: { uniqueValues: true, strategy: { kind: 'faker', method: 'person.firstName' } } }])) },
  ],
  [
    'prices drawn unique: steps once attempts run out',
    {
      given: config(
        entity('prices', 600, [{ id: 'price', type: 'number', precision: 2, generation: { uniqueValues: true, strategy: { kind: 'faker', method: 'commerce.price', args: [{ min: 1, max: 3 }] } } }]),
      ),
    },
  ],
  [
    'a unique email read from first and last names, some rows empty (version 3 defaults)',
    {
      version: 3,
      collides: false,
      given: config(
        entity('users', 4_000, [
          { id: 'firstName', type: 'string', maxLength: 60 },
          { id: 'lastName', type: 'string', maxLength: 60 },
          { id: 'email', type: 'string', format: 'email', maxLength: 120, nullable: true, generation: { emptyRate: 0.2 } },
          { id: 'city', type: 'string' },
        ], { uniqueKeys: [['email']] }),
        entity('orders', 900, [{ id: 'userId', type: 'integer', references: { entity: 'users', field: 'id' } }]),
      ),
    },
  ],
  [
    'codes too short for a tag: the field runs out, and rows stop there',
    {
      exhausted: true,
      given: config(entity('codes', 2_000, [{ id: 'code', type: 'string', maxLength: 3, generation: { uniqueValues: true, strategy: { kind: 'faker', method: 'person.firstName' } } }])),
    },
  ],
];

describe('unique fields drawn by retries, made in ranges from their draws', () => {
  it.each(cases)('%s', (_name, { given, version = 1, exhausted = false, collides = true }) => {
    const options = { generatorVersion: version, referenceDate: REFERENCE_DATE };
    const whole = generate(given, options);
    const plan = planGeneration(given, options);
    const probe = new DataGenerator(given, plan);
    for (const entityPlan of plan.entities) {
      expect(probe.rangeSafe(entityPlan.id), entityPlan.id).toBe(true);
      probe.draws(entityPlan.id);
      probe.assumeGenerated(entityPlan.id, true);
    }
    const first = plan.entities[0]!.id;
    const draws = probe.foundDraws.get(first)!;
    expect(draws.rows).toBe(whole.generator.produced.get(first));
    // Rows that did not take their first candidate, when values collide: the ledger holds those only.
    const ledger = [...draws.ledgers.values()][0]!;
    if (collides) expect(ledger.count).toBeGreaterThan(0);
    expect(ledger.count).toBeLessThan(draws.rows + 1);
    // The exhaustion warning, as the generation in order raised it.
    expect(probe.warnings).toEqual(whole.generator.warnings.filter((warning) => probe.warnings.some((found) => found.path === warning.path)));
    if (exhausted) {
      expect(draws.rows).toBeLessThan(plan.entities[0]!.rowCount);
      expect(draws.warning?.message).toContain('no unique value left');
    }
    // Any range, by a generator given only the draws, in any order.
    for (const entityPlan of plan.entities) {
      const all = whole.rows.get(entityPlan.id)!;
      const cuts = [0, 1, Math.floor(all.length / 3), Math.floor(all.length / 2) + 7, all.length];
      const ranges = cuts.slice(1).map((to, i) => [cuts[i]!, to] as const).reverse();
      for (const [from, to] of ranges) {
        const maker = new DataGenerator(given, plan, { draws: probe.foundDraws });
        for (const before of plan.entities) {
          if (before.id === entityPlan.id) break;
          maker.assumeGenerated(before.id, false, probe.produced.get(before.id));
        }
        expect(maker.rowLimit(entityPlan.id)).toBe(all.length);
        expect([...maker.rangeRows(entityPlan.id, from, to)], `${entityPlan.id} ${from}–${to}`).toEqual(all.slice(from, to));
      }
    }
  });

  it('refuses to make ranges of such a field before its draws are found', () => {
    const given = cases[0]![1].given;
    const generator = new DataGenerator(given, planGeneration(given, { referenceDate: REFERENCE_DATE }));
    expect(() => [...generator.rangeRows('people', 10, 20)]).toThrow('people.name is not range-safe: its rows must be made in order (its draws were not found)');
  });
});
