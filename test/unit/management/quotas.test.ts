// The rows a generation job can plan, as the quota counts them: each entity at its row-count
// override (when the generator would use it) or at the top of its config range.
import { describe, expect, it } from 'vitest';
import type { SchemaConfig } from '../../../src/contract.ts';
import { GenerationQuotas, plannedRowsAtMost } from '../../../src/management/quotas.ts';
import type { JobStore } from '../../../src/store/jobs.ts';

const config: SchemaConfig = {
  formatVersion: 1,
  metadata: { name: 'Quota' },
  generationDefaults: { rowCount: 10 },
  entities: [
    { id: 'a', primaryKey: ['id'], fields: [{ id: 'id', type: 'integer' }] },
    { id: 'b', primaryKey: ['id'], generation: { rowCount: { min: 5, max: 500 } }, fields: [{ id: 'id', type: 'integer' }] },
    { id: 'c', primaryKey: ['id'], generation: { rowCount: 7 }, fields: [{ id: 'id', type: 'integer' }] },
  ],
};

const cases: Array<[string, { given: Record<string, number> | undefined; want: ReturnType<typeof plannedRowsAtMost> }]> = [
  ['config counts, ranges at their top', { given: undefined, want: { rows: 517, largest: { id: 'b', rows: 500, path: '/entities/1/generation/rowCount' } } }],
  ['an override wins', { given: { c: 9_000 }, want: { rows: 9_510, largest: { id: 'c', rows: 9_000, path: '/body/generatorConfig/rowCounts/c' } } }],
  ['an override of 0 counts as 0', { given: { b: 0 }, want: { rows: 17, largest: { id: 'a', rows: 10, path: '/entities/0/generation/rowCount' } } }],
  ['an override the generator ignores (negative, fractional) does not count', { given: { b: -1, a: 1.5 }, want: { rows: 517, largest: { id: 'b', rows: 500, path: '/entities/1/generation/rowCount' } } }],
];

describe('plannedRowsAtMost', () => {
  it.each(cases)('%s', (_name, { given, want }) => {
    expect(plannedRowsAtMost(config, given === undefined ? undefined : { rowCounts: given })).toEqual(want);
  });
});

describe('GenerationQuotas.checkSize', () => {
  const quotas = (maxRowsPerJob: number, maxEntitiesPerJob: number) => new GenerationQuotas({ maxRowsPerJob, maxEntitiesPerJob, maxJobsPerTeam: 0 }, {} as JobStore);

  it('passes at the limit and with no limit (0)', () => {
    expect(() => quotas(517, 3).checkSize(config, undefined)).not.toThrow();
    expect(() => quotas(0, 0).checkSize(config, { rowCounts: { a: 100_000_000 } })).not.toThrow();
  });

  it('refuses one row over, naming the limit and its setting', () => {
    expect(() => quotas(516, 3).checkSize(config, undefined)).toThrow("Generation of 517 rows exceeds this server's limit of 516 rows per job (SDS_MAX_ROWS_PER_JOB)");
  });

  it('refuses more entities than allowed', () => {
    expect(() => quotas(0, 2).checkSize(config, undefined)).toThrow("The schema version has 3 entities, more than this server's limit of 2 per source (SDS_MAX_ENTITIES_PER_JOB)");
  });
});
