// The tasks of split generation jobs (migration 008): planned by the job's worker, claimed by any
// worker instance with FOR UPDATE SKIP LOCKED, held under a lease its worker renews, and claimed
// again by another once that lease runs out (the worker died).
import type { Db } from './db.ts';

export type TaskStatus = 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled';

/** Where a task's rows come from: as the generation module's TaskSpec. */
export type StoredTaskSpec = { kind: 'range'; entity: string; from: number; to: number } | { kind: 'ordered'; entities: string[] };

export interface GenerationTask {
  jobId: string;
  seq: number;
  spec: StoredTaskSpec;
  status: TaskStatus;
  worker: string | null;
  attempts: number;
  rowsWritten: number;
  /** Rows per entity and warnings, once succeeded. */
  result: { rows: Record<string, number>; warnings: { path: string; message: string }[] } | null;
  error: string | null;
}

/** A task just claimed, with the worker that held it before when its lease ran out. */
export interface ClaimedTask extends GenerationTask {
  sourceId: string;
  /** The generation options every task of the job is made with (as the job's worker recorded them). */
  options: Record<string, unknown>;
  previousWorker: string | null;
}

interface TaskRow {
  job_id: string;
  seq: number;
  kind: 'range' | 'ordered';
  entity: string | null;
  row_from: string | null;
  row_to: string | null;
  spec: { entities?: string[]; options?: Record<string, unknown> };
  status: TaskStatus;
  worker: string | null;
  attempts: number;
  rows_written: string;
  result: GenerationTask['result'];
  error: string | null;
}

const toTask = (row: TaskRow): GenerationTask => ({
  jobId: row.job_id,
  seq: row.seq,
  spec:
    row.kind === 'range'
      ? { kind: 'range', entity: row.entity!, from: Number(row.row_from), to: Number(row.row_to) }
      : { kind: 'ordered', entities: row.spec.entities ?? [] },
  status: row.status,
  worker: row.worker,
  attempts: row.attempts,
  rowsWritten: Number(row.rows_written),
  result: row.result,
  error: row.error,
});

export class TaskStore {
  constructor(private readonly db: Db) {}

  /** Records a job's tasks, numbered from 0 in the order given (claimed in that order), each with the job's generation `options`; tasks already recorded stay as they are. */
  async create(jobId: string, specs: StoredTaskSpec[], options: object): Promise<void> {
    if (specs.length === 0) return;
    const rows = specs.map((spec, seq) => ({
      seq,
      kind: spec.kind,
      entity: spec.kind === 'range' ? spec.entity : null,
      row_from: spec.kind === 'range' ? spec.from : null,
      row_to: spec.kind === 'range' ? spec.to : null,
      spec: spec.kind === 'ordered' ? { entities: spec.entities, options } : { options },
    }));
    await this.db.query(
      `INSERT INTO generation_tasks (job_id, seq, kind, entity, row_from, row_to, spec)
       SELECT $1, t.seq, t.kind, t.entity, t.row_from, t.row_to, t.spec
       FROM jsonb_to_recordset($2::jsonb) AS t(seq integer, kind text, entity text, row_from bigint, row_to bigint, spec jsonb)
       ON CONFLICT DO NOTHING`,
      [jobId, JSON.stringify(rows)],
    );
  }

  /**
   * Claims a task of a running job: a queued one, or one whose lease ran out (its worker stopped
   * renewing it) and that has been tried fewer than `maxAttempts` times. Oldest job first, and
   * within it in task order (the ordered task, the longest, first).
   */
  async claim(worker: string, leaseMs: number, maxAttempts: number): Promise<ClaimedTask | undefined> {
    const { rows } = await this.db.query<TaskRow & { source_id: string; previous_worker: string | null }>(
      `WITH picked AS (
         SELECT q.job_id, q.seq, j.source_id, CASE WHEN q.status = 'running' THEN q.worker END AS previous_worker
         FROM generation_tasks q JOIN generation_jobs j ON j.id = q.job_id AND j.status = 'running'
         WHERE (q.status = 'queued' OR (q.status = 'running' AND q.lease_until < now())) AND q.attempts < $3
         ORDER BY j.started_at, q.job_id, q.seq
         FOR UPDATE OF q SKIP LOCKED
         LIMIT 1)
       UPDATE generation_tasks t
       SET status = 'running', worker = $1, attempts = t.attempts + 1, rows_written = 0, error = NULL,
           lease_until = now() + make_interval(secs => $2::double precision / 1000), started_at = clock_timestamp()
       FROM picked
       WHERE t.job_id = picked.job_id AND t.seq = picked.seq
       RETURNING t.*, picked.source_id, picked.previous_worker`,
      [worker, leaseMs, maxAttempts],
    );
    const row = rows[0];
    return row && { ...toTask(row), sourceId: row.source_id, options: row.spec.options ?? {}, previousWorker: row.previous_worker };
  }

  /** Renews a task's lease and records its rows so far; false when it is no longer this worker's (cancelled, or claimed again). */
  async heartbeat(jobId: string, seq: number, worker: string, leaseMs: number, rowsWritten: number): Promise<boolean> {
    const { rowCount } = await this.db.query(
      `UPDATE generation_tasks SET lease_until = now() + make_interval(secs => $4::double precision / 1000), rows_written = $5
       WHERE job_id = $1 AND seq = $2 AND worker = $3 AND status = 'running'`,
      [jobId, seq, worker, leaseMs, rowsWritten],
    );
    return rowCount === 1;
  }

  /** Marks this worker's task done; false when it no longer was this worker's (another ran it meanwhile). */
  async succeed(jobId: string, seq: number, worker: string, result: NonNullable<GenerationTask['result']>): Promise<boolean> {
    const rowsWritten = Object.values(result.rows).reduce((sum, rows) => sum + rows, 0);
    const { rowCount } = await this.db.query(
      `UPDATE generation_tasks SET status = 'succeeded', rows_written = $4, result = $5, lease_until = NULL, finished_at = clock_timestamp()
       WHERE job_id = $1 AND seq = $2 AND worker = $3 AND status = 'running'`,
      [jobId, seq, worker, rowsWritten, JSON.stringify(result)],
    );
    return rowCount === 1;
  }

  /**
   * Records a failure of this worker's task: queued again while it has attempts left, else failed
   * (and its job then fails). Resolves to the task's new status, or undefined when it was not this worker's.
   */
  async fail(jobId: string, seq: number, worker: string, error: string, maxAttempts: number): Promise<TaskStatus | undefined> {
    const { rows } = await this.db.query<{ status: TaskStatus }>(
      `UPDATE generation_tasks SET status = CASE WHEN attempts < $5 THEN 'queued' ELSE 'failed' END, error = $4, lease_until = NULL,
         finished_at = CASE WHEN attempts < $5 THEN NULL ELSE clock_timestamp() END
       WHERE job_id = $1 AND seq = $2 AND worker = $3 AND status = 'running'
       RETURNING status`,
      [jobId, seq, worker, error, maxAttempts],
    );
    return rows[0]?.status;
  }

  /** The generation options the job's tasks are made with (as its worker recorded them); undefined when it has no tasks. */
  async optionsOf(jobId: string): Promise<Record<string, unknown> | undefined> {
    const { rows } = await this.db.query<{ options: Record<string, unknown> | null }>(
      `SELECT spec->'options' AS options FROM generation_tasks WHERE job_id = $1 ORDER BY seq LIMIT 1`,
      [jobId],
    );
    return rows[0] ? (rows[0].options ?? {}) : undefined;
  }

  /** Every task of a job, in order. */
  async ofJob(jobId: string): Promise<GenerationTask[]> {
    const { rows } = await this.db.query<TaskRow>('SELECT * FROM generation_tasks WHERE job_id = $1 ORDER BY seq', [jobId]);
    return rows.map(toTask);
  }

  /** Running tasks whose lease ran out with no attempt left: nobody will run them again. */
  async abandoned(jobId: string, maxAttempts: number): Promise<GenerationTask[]> {
    const { rows } = await this.db.query<TaskRow>(
      `SELECT * FROM generation_tasks WHERE job_id = $1 AND status = 'running' AND lease_until < now() AND attempts >= $2 ORDER BY seq`,
      [jobId, maxAttempts],
    );
    return rows.map(toTask);
  }

  /**
   * Every task of a job queued again, as never tried (a worker taking the job over found its staging
   * namespace being finished, and makes the tasks again into a fresh one).
   */
  async requeue(jobId: string): Promise<void> {
    await this.db.query(
      `UPDATE generation_tasks SET status = 'queued', worker = NULL, attempts = 0, rows_written = 0, result = NULL, error = NULL, lease_until = NULL, started_at = NULL, finished_at = NULL
       WHERE job_id = $1`,
      [jobId],
    );
  }

  /** Stops a job's unfinished tasks (the job failed): their workers see it at their next heartbeat. */
  async cancel(jobId: string): Promise<void> {
    await this.db.query(`UPDATE generation_tasks SET status = 'cancelled', lease_until = NULL WHERE job_id = $1 AND status IN ('queued', 'running')`, [jobId]);
  }
}
