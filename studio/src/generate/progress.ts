// A generation job's progress as plain data: folded from its events one at a time (advance), or
// read from the job resource at the end (fromJob), and its rows per second.
import type { GenerationEvent, GenerationJob } from '../api.ts';

export interface EntityProgress {
  id: string;
  rowsPlanned: number;
  rowsInserted: number;
}

/** A task of a job split across worker instances, as its events tell it. */
export interface TaskProgress {
  task: number;
  /** What it makes: `events 0–25000`, or the entities made in order. */
  label: string;
  worker: string;
  status: 'running' | 'succeeded' | 'failed';
  rows: number;
}

/** What the page shows of a job: folded from its events, or read from the job resource. */
export interface Progress {
  status: GenerationJob['status'];
  entities: EntityProgress[];
  warnings: string[];
  error?: string;
  startedAt?: number;
  lastAt?: number;
  durationMs?: number;
  /** Tasks, when the job was split across worker instances (task.* events), by task number. */
  tasks?: TaskProgress[];
}

export function fromJob(job: GenerationJob): Progress {
  return {
    status: job.status,
    entities: job.entities.map((entity) => ({ ...entity })),
    warnings: job.warnings.map((warning) => `${warning.path || '/'} ${warning.message}`),
    ...(job.error ? { error: job.error } : {}),
    ...(job.startedAt ? { startedAt: Date.parse(job.startedAt) } : {}),
    ...(job.finishedAt ? { lastAt: Date.parse(job.finishedAt) } : {}),
  };
}

/** The progress after one more event. */
export function advance(progress: Progress, event: GenerationEvent): Progress {
  const data = event.data as {
    entity?: string;
    rowsPlanned?: number;
    rowsInserted?: number;
    error?: string;
    path?: string;
    durationMs?: number;
    task?: number;
    worker?: string;
    rows?: number;
    from?: number;
    to?: number;
    entities?: string[];
  };
  const at = Date.parse(event.createdAt);
  const next: Progress = { ...progress, lastAt: at };
  switch (event.type) {
    case 'job.queued':
      return { ...next, status: 'queued' };
    case 'job.started':
      return { ...next, status: 'running', startedAt: at };
    case 'job.resumed':
      return { ...next, status: 'running' };
    case 'entity.started':
    case 'entity.progress':
    case 'entity.completed': {
      const entity: EntityProgress = { id: data.entity!, rowsPlanned: data.rowsPlanned ?? 0, rowsInserted: data.rowsInserted ?? 0 };
      const known = progress.entities.some((candidate) => candidate.id === entity.id);
      return {
        ...next,
        entities: known ? progress.entities.map((candidate) => (candidate.id === entity.id ? entity : candidate)) : [...progress.entities, entity],
      };
    }
    case 'job.warning':
      return { ...next, warnings: [...progress.warnings, `${data.path || '/'} ${event.message}`] };
    case 'job.succeeded':
      return { ...next, status: 'succeeded', ...(data.durationMs !== undefined ? { durationMs: data.durationMs } : {}) };
    case 'job.failed':
      return { ...next, status: 'failed', error: data.error ?? event.message };
    case 'task.started':
    case 'task.retried':
    case 'task.succeeded':
    case 'task.failed': {
      const known = progress.tasks?.find((task) => task.task === data.task);
      const label = data.entity !== undefined ? `${data.entity} ${data.from ?? 0}–${data.to ?? 0}` : (data.entities ?? []).join(', ');
      const task: TaskProgress = {
        task: data.task ?? 0,
        label: known && !label ? known.label : label,
        worker: data.worker ?? known?.worker ?? '',
        status: event.type === 'task.succeeded' ? 'succeeded' : event.type === 'task.failed' ? 'failed' : 'running',
        rows: data.rows ?? 0,
      };
      const tasks = [...(progress.tasks ?? []).filter((candidate) => candidate.task !== task.task), task].sort((a, b) => a.task - b.task);
      return { ...next, tasks };
    }
  }
}

/** Rows inserted per second, from the start of the job to its last event (or its duration once it succeeded). */
export function rowsPerSecond(progress: Progress): number | undefined {
  const rows = progress.entities.reduce((sum, entity) => sum + entity.rowsInserted, 0);
  const ms = progress.durationMs ?? (progress.startedAt && progress.lastAt ? progress.lastAt - progress.startedAt : undefined);
  if (!ms || rows === 0) return undefined;
  return Math.round((rows / ms) * 1000);
}
