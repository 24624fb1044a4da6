// The one summary a generation reports, on one worker (runGeneration) or split into tasks (the task worker).
import { describe, expect, it } from 'vitest';
import { generationTotals } from '../../../src/model/generation-summary.ts';

describe('generationTotals', () => {
  const plan = { seed: 's1', referenceDate: '2026-01-02', generatorVersion: '3', warnings: [{ path: '/entities', message: 'from the plan' }] };

  it('sums the entities, puts the plan\'s warnings first and keeps the order of the fields', () => {
    const entities = [
      { id: 'owners', rowsPlanned: 10, rowsInserted: 10 },
      { id: 'pets', rowsPlanned: 30, rowsInserted: 25 },
    ];
    const summary = generationTotals('sds_blog', plan, entities, [{ path: '/entities/1/fields/0', message: 'ran out' }], performance.now());
    expect(Object.keys(summary)).toEqual(['namespace', 'seed', 'referenceDate', 'generatorVersion', 'entities', 'rowsPlanned', 'rowsInserted', 'warnings', 'durationMs']);
    expect(summary).toMatchObject({ namespace: 'sds_blog', seed: 's1', referenceDate: '2026-01-02', generatorVersion: '3', rowsPlanned: 40, rowsInserted: 35 });
    expect(summary.warnings.map((warning) => warning.message)).toEqual(['from the plan', 'ran out']);
    expect(Number.isInteger(summary.durationMs) && summary.durationMs >= 0).toBe(true);
  });

  it('reports no entities as zero rows', () => {
    expect(generationTotals('n', { ...plan, warnings: [] }, [], [], performance.now())).toMatchObject({ rowsPlanned: 0, rowsInserted: 0, warnings: [] });
  });
});
