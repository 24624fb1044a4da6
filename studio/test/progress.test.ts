// A job's progress folded from its events: per-entity rows, warnings, the failure reason, rows/s.
import { describe, expect, it } from 'vitest';
import type { GenerationEvent } from '../src/api.ts';
import { advance, rowsPerSecond, type Progress } from '../src/generate/progress.ts';

let id = 0;
const at = (second: number) => `2026-01-01T00:00:${String(second).padStart(2, '0')}.000Z`;
const event = (type: GenerationEvent['type'], second: number, data: Record<string, unknown> = {}, message: string = type): GenerationEvent => ({
  id: ++id,
  jobId: 'j',
  type,
  message,
  data,
  createdAt: at(second),
});
const start: Progress = { status: 'queued', entities: [], warnings: [] };

describe('advance', () => {
  it('follows a job from queued to succeeded, one bar per entity in the order they start', () => {
    const events = [
      event('job.queued', 0),
      event('job.started', 1),
      event('entity.started', 1, { entity: 'users', rowsPlanned: 200, rowsInserted: 0 }),
      event('entity.progress', 2, { entity: 'users', rowsPlanned: 200, rowsInserted: 100 }),
      event('entity.completed', 3, { entity: 'users', rowsPlanned: 200, rowsInserted: 200 }),
      event('entity.started', 3, { entity: 'posts', rowsPlanned: 50, rowsInserted: 0 }),
      event('job.warning', 4, { path: '/entities/1/fields/2' }, 'no unique value left'),
      event('entity.completed', 5, { entity: 'posts', rowsPlanned: 50, rowsInserted: 40 }),
      event('job.succeeded', 5, { rowsInserted: 240, durationMs: 4000 }),
    ];
    const steps = events.map((item) => item).reduce<Progress[]>((all, item) => [...all, advance(all.at(-1) ?? start, item)], []);
    expect(steps.map((step) => step.status)).toEqual(['queued', 'running', 'running', 'running', 'running', 'running', 'running', 'running', 'succeeded']);
    expect(steps[3]!.entities).toEqual([{ id: 'users', rowsPlanned: 200, rowsInserted: 100 }]);
    const done = steps.at(-1)!;
    expect(done.entities).toEqual([
      { id: 'users', rowsPlanned: 200, rowsInserted: 200 },
      { id: 'posts', rowsPlanned: 50, rowsInserted: 40 },
    ]);
    expect(done.warnings).toEqual(['/entities/1/fields/2 no unique value left']);
    expect(rowsPerSecond(done)).toBe(60); // 240 rows in the job's 4 s
    expect(rowsPerSecond(steps[3]!)).toBe(100); // 100 rows in the first second
  });

  it('lists the tasks of a job split across workers, with who made each and its rows', () => {
    const events = [
      event('task.started', 1, { task: 0, worker: 'a:1:x', entities: ['users'] }),
      event('task.started', 1, { task: 1, worker: 'b:2:y', entity: 'events', from: 0, to: 2000 }),
      event('task.succeeded', 2, { task: 1, worker: 'b:2:y', entity: 'events', from: 0, to: 2000, rows: 2000 }),
      event('task.retried', 3, { task: 0, worker: 'b:2:y', previousWorker: 'a:1:x' }),
      event('task.succeeded', 4, { task: 0, worker: 'b:2:y', entities: ['users'], rows: 300 }),
    ];
    const done = events.reduce(advance, start);
    expect(done.tasks).toEqual([
      { task: 0, label: 'users', worker: 'b:2:y', status: 'succeeded', rows: 300 },
      { task: 1, label: 'events 0–2000', worker: 'b:2:y', status: 'succeeded', rows: 2000 },
    ]);
    expect(advance(start, events[3]!).tasks).toEqual([{ task: 0, label: '', worker: 'b:2:y', status: 'running', rows: 0 }]);
  });

  it('keeps the failure reason', () => {
    const failed = advance(advance(start, event('job.started', 1)), event('job.failed', 2, { error: 'Could not connect to the target database' }));
    expect(failed).toMatchObject({ status: 'failed', error: 'Could not connect to the target database' });
    expect(rowsPerSecond(failed)).toBeUndefined();
  });
});
