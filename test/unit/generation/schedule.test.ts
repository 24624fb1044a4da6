// The schedule: how each entity's rows are made, the steps of a sink that writes complete rows, and
// the one rows path, whose every range is the same rows a whole generation makes (deferred columns
// filled), whether the entity is made in ranges or in order.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { SchemaConfig } from '../../../src/model/config-types.ts';
import { DataGenerator } from '../../../src/generation/generator.ts';
import { planGeneration } from '../../../src/generation/plan.ts';
import { completeRowSteps, scheduleGeneration, ScheduledRows } from '../../../src/generation/schedule.ts';
import { config, entity, generate, REFERENCE_DATE } from '../../helpers/generate-in-memory.ts';

const example = (name: string): SchemaConfig => JSON.parse(fs.readFileSync(new URL(`../../../schemas/examples/${name}.json`, import.meta.url), 'utf8')) as SchemaConfig;
/** A self reference (deferred) on an entity made in ranges, and a child of it. */
const people = config(
  entity('people', 300, [{ id: 'managerId', type: 'integer', nullable: true, references: { entity: 'people', field: 'id' } }]),
  entity('notes', 500, [{ id: 'personId', type: 'integer', references: { entity: 'people', field: 'id' } }]),
);
/** Blog's users with a self reference and a count per team (made in order: a field carries state from row to row). */
function inOrderPeople(rowCount: number): SchemaConfig {
  const users = example('blog').entities[0]!;
  return config({
    ...users,
    id: 'people',
    generation: { rowCount },
    fields: [
      ...users.fields,
      { id: 'managerId', type: 'integer', nullable: true, references: { entity: 'people', field: 'id' } },
      { id: 'team', type: 'enum', values: ['north', 'south', 'east'] },
      { id: 'rank', type: 'integer', generation: { strategy: { kind: 'sequence', within: ['team'] } } },
    ],
  });
}
const OPTIONS = { generatorVersion: 3 as const, referenceDate: REFERENCE_DATE };

const cases: [string, { given: SchemaConfig; want: string[] }][] = [
  ['blog: users in ranges (their unique emails drawn by retry, from their draws), posts in ranges', { given: example('blog'), want: ['users ranges recomputed', 'posts ranges recomputed'] }],
  ['a count per team: made in order', { given: inOrderPeople(50), want: ['people order recomputed deferred:managerId'] }],
  [
    'shop: every entity in ranges',
    { given: example('shop'), want: ['customers ranges recomputed', 'addresses ranges recomputed', 'products ranges recomputed', 'orders ranges recomputed', 'orderLines ranges recomputed'] },
  ],
  ['a self reference: deferred, still in ranges', { given: people, want: ['people ranges recomputed deferred:managerId', 'notes ranges recomputed'] }],
];

describe('scheduleGeneration', () => {
  it.each(cases)('%s', (_name, { given, want }) => {
    const schedule = scheduleGeneration(given, planGeneration(given, OPTIONS));
    const described = schedule.entities.map(
      (entity) => `${entity.id} ${entity.made}${entity.recomputed ? ' recomputed' : ''}${entity.deferredColumns.length ? ` deferred:${entity.deferredColumns.join(',')}` : ''}`,
    );
    expect(described).toEqual(want);
    // A pure function of config and plan.
    expect(scheduleGeneration(given, planGeneration(given, OPTIONS)).entities.map(({ plan: _plan, ...rest }) => rest)).toEqual(schedule.entities.map(({ plan: _plan, ...rest }) => rest));
    for (const entity of schedule.entities) if (entity.made === 'ranges') expect(entity.rowLimit).toBe(entity.plan.rowCount);
  });
});

describe('completeRowSteps', () => {
  it('declares entities made in ranges, writes each entity once, deferred ones after every other step', () => {
    const steps = completeRowSteps(scheduleGeneration(people, planGeneration(people, OPTIONS))).map(({ step, entity }) => `${step} ${entity.id}`);
    expect(steps).toEqual(['declare people', 'declare notes', 'write notes', 'write people']);
  });

  it('makes an entity in order with deferred columns before writing it last', () => {
    const given = inOrderPeople(50);
    const schedule = scheduleGeneration(given, planGeneration(given, OPTIONS));
    expect(completeRowSteps(schedule).map(({ step, entity }) => `${step} ${entity.id} (${entity.made})`)).toEqual(['make people (order)', 'write people (order)']);
  });
});

describe('ScheduledRows.rows', () => {
  it.each([
    ['blog', example('blog')],
    ['shop', example('shop')],
    ['people', people],
    ['people made in order', inOrderPeople(200)],
  ] as const)('%s: every range, taken through the steps, is the slice of a whole generation', (_name, given) => {
    const whole = generate(given, OPTIONS);
    const plan = planGeneration(given, OPTIONS);
    const rows = new ScheduledRows(new DataGenerator(given, plan), () => scheduleGeneration(given, plan));
    let compared = 0;
    for (const { step, entity } of completeRowSteps(rows.schedule)) {
      if (step !== 'write') {
        rows.prepare(entity.id);
        continue;
      }
      const all = whole.rows.get(entity.id)!;
      const from = Math.floor(all.length / 3);
      const to = Math.floor((2 * all.length) / 3) + 1;
      expect([...rows.rows(entity.id, from, to)]).toEqual(all.slice(from, to));
      compared += to - from;
    }
    expect(compared).toBeGreaterThan(0);
  });
});

describe('ScheduledRows.textChunks and batches', () => {
  it('give a range of an entity made in ranges as its rows, another thread or task having made the entities before it (declareMade)', () => {
    const given = example('blog');
    const plan = planGeneration(given, OPTIONS);
    const whole = generate(given, OPTIONS).rows.get('posts')!;
    const schedule = scheduleGeneration(given, plan);
    const range = { from: 7, to: 31 };
    const encode = (row: readonly unknown[]) => `${JSON.stringify(row)}\n`;
    const rows = new ScheduledRows(new DataGenerator(given, plan), () => schedule);
    rows.declareMade('users');
    const chunks = [...rows.textChunks('posts', 10, encode, range)];
    expect(chunks.map((chunk) => chunk.batchRows)).toEqual([10, 10, 4]);
    expect(chunks.map((chunk) => chunk.text).join('')).toBe(whole.slice(7, 31).map(encode).join(''));
    expect([...rows.batches('posts', 10, range)].flat()).toEqual(whole.slice(7, 31));
    // An entity made in order has no ranges.
    const inOrder = inOrderPeople(50);
    const ordered = ScheduledRows.of(inOrder, planGeneration(inOrder, OPTIONS));
    expect(() => ordered.batches('people', 10, range)).toThrow('the schedule makes "people" in order, not in ranges');
  });
});
