// Generation jobs and their events: durable rows claimed by workers with FOR UPDATE SKIP LOCKED,
// so several server processes share the queue and each job runs once.
import { randomUUID } from 'node:crypto';
import type { Db, Queryable } from './db.ts';
import type { Page } from './projects.ts';

export type JobStatus = 'queued' | 'running' | 'succeeded' | 'failed';

export interface JobEntity {
  id: string;
  rowsPlanned: number;
  rowsInserted: number;
}

export interface GenerationJob {
  id: string;
  sourceId: string;
  schemaVersionId: string;
  status: JobStatus;
  seed: string;
  rowsPlanned: number;
  rowsInserted: number;
  entities: JobEntity[];
  warnings: { path?: string; message: string }[];
  error: string | null;
  generatorVersion: string;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
}

export type EventType =
  | 'job.queued'
  | 'job.started'
  | 'entity.started'
  | 'entity.progress'
  | 'entity.completed'
  | 'job.warning'
  | 'job.succeeded'
  | 'job.failed'
  | 'task.started'
  | 'task.succeeded'
  | 'task.failed'
  | 'task.retried'
  | 'job.resumed';

export interface GenerationEvent {
  id: number;
  jobId: string;
  type: EventType;
  message: string;
  data: Record<string, unknown>;
  createdAt: string;
}

interface JobRow {
  id: string;
  source_id: string;
  schema_version_id: string;
  status: JobStatus;
  seed: string;
  rows_planned: string;
  rows_inserted: string;
  entities: JobEntity[];
  warnings: { path?: string; message: string }[];
  error: string | null;
  generator_version: string;
  created_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
}

interface EventRow {
  id: string;
  job_id: string;
  type: EventType;
  message: string;
  data: Record<string, unknown>;
  created_at: Date;
}

const toJob = (row: JobRow): GenerationJob => ({
  id: row.id,
  sourceId: row.source_id,
  schemaVersionId: row.schema_version_id,
  status: row.status,
  seed: row.seed,
  rowsPlanned: Number(row.rows_planned),
  rowsInserted: Number(row.rows_inserted),
  entities: row.entities,
  warnings: row.warnings,
  error: row.error,
  generatorVersion: row.generator_version,
  createdAt: row.created_at.toISOString(),
  startedAt: row.started_at?.toISOString() ?? null,
  finishedAt: row.finished_at?.toISOString() ?? null,
});

const toEvent = (row: EventRow): GenerationEvent => ({
  id: Number(row.id),
  jobId: row.job_id,
  type: row.type,
  message: row.message,
  data: row.data,
  createdAt: row.created_at.toISOString(),
});

/** Channel notified when a job is queued, so idle workers wake at once. */
export const JOBS_CHANNEL = 'sds_generation_jobs';
/** Channel notified with the source id when events are written (live event streams). */
export const EVENTS_CHANNEL = 'sds_generation_events';

/** A job's heartbeat older than parameter `$n` ms (null: true), evaluated when the statement gets the job's row (after any lock on it). */
const staleFor = (n: number) => `($${n}::double precision IS NULL OR heartbeat_at < clock_timestamp() - make_interval(secs => $${n}::double precision / 1000))`;

/** Advisory lock key of job claims (any constant shared by every sds process). */
const CLAIM_LOCK = 0x5d5_c1a1;
/** First key of the advisory locks that serialise one team's job admissions (the second is the team's hash). */
const TEAM_ADMISSION_LOCK = 0x5d5_ad31;

export class JobStore {
  constructor(private readonly db: Db) {}

  async enqueue(job: { sourceId: string; schemaVersionId: string; seed: string }, client: Queryable = this.db): Promise<GenerationJob> {
    const { rows } = await client.query<JobRow>(
      `INSERT INTO generation_jobs (id, source_id, schema_version_id, status, seed) VALUES ($1, $2, $3, 'queued', $4) RETURNING *`,
      [randomUUID(), job.sourceId, job.schemaVersionId, job.seed],
    );
    const created = toJob(rows[0]!);
    await this.addEvent(created, 'job.queued', 'Generation queued', { seed: created.seed }, client);
    await client.query('SELECT pg_notify($1, $2)', [JOBS_CHANNEL, created.id]);
    return created;
  }

  /**
   * Claims a queued job whose source has no running job, fairly between teams: the team with the
   * fewest running jobs goes first (then the oldest job), and a team already running
   * `runningPerTeam` jobs (0: no limit) gets none, so one team's long jobs never hold every worker
   * slot of every process. SKIP LOCKED lets workers in several processes claim without blocking or
   * double-claiming.
   */
  async claim(worker: string, options: { runningPerTeam?: number } = {}): Promise<GenerationJob | undefined> {
    // Claims are serialised (a transaction-scoped advisory lock): the checks for running jobs of the
    // same source and team must see every other claim, and an uncommitted one is invisible to them.
    // The unique index on running jobs per source backs this up.
    try {
      return await this.db.transaction(async (client) => {
        await client.query('SELECT pg_advisory_xact_lock($1)', [CLAIM_LOCK]);
        const { rows } = await client.query<JobRow>(
          `WITH running_by_team AS (
             SELECT p.team_id, count(*) AS running
             FROM generation_jobs r JOIN sources s ON s.id = r.source_id JOIN projects p ON p.id = s.project_id
             WHERE r.status = 'running'
             GROUP BY p.team_id)
           UPDATE generation_jobs SET status = 'running', worker = $1, started_at = clock_timestamp(), heartbeat_at = now()
           WHERE id = (
             SELECT q.id FROM generation_jobs q
             JOIN sources s ON s.id = q.source_id
             JOIN projects p ON p.id = s.project_id
             LEFT JOIN running_by_team t ON t.team_id = p.team_id
             WHERE q.status = 'queued'
               AND NOT EXISTS (SELECT 1 FROM generation_jobs r WHERE r.source_id = q.source_id AND r.status = 'running')
               AND ($2::int = 0 OR coalesce(t.running, 0) < $2::int)
             ORDER BY coalesce(t.running, 0), q.created_at, q.id
             FOR UPDATE OF q SKIP LOCKED
             LIMIT 1)
           RETURNING *`,
          [worker, options.runningPerTeam ?? 0],
        );
        return rows[0] && toJob(rows[0]);
      });
    } catch (error) {
      // Another process claimed a job of that source first: nothing for us this time.
      if ((error as { code?: string }).code === '23505') return undefined;
      throw error;
    }
  }

  /**
   * Jobs queued or running of the team that owns `projectId`. Takes a transaction-scoped lock of
   * that team first: in a transaction, other admissions of the team wait until it ends.
   */
  async activeJobsOfTeam(projectId: string, client: Queryable = this.db): Promise<number> {
    await client.query('SELECT pg_advisory_xact_lock($1, hashtext(team_id::text)) FROM projects WHERE id = $2', [TEAM_ADMISSION_LOCK, projectId]);
    const { rows } = await client.query<{ active: string }>(
      `SELECT count(*) AS active
       FROM generation_jobs j JOIN sources s ON s.id = j.source_id JOIN projects p ON p.id = s.project_id
       WHERE p.team_id = (SELECT team_id FROM projects WHERE id = $1) AND j.status IN ('queued', 'running')`,
      [projectId],
    );
    return Number(rows[0]!.active);
  }

  /**
   * Marks a running job alive; false when it no longer runs (its source was deleted, or it was failed as stale)
   * or, given `worker`, when another worker took it over.
   */
  async heartbeat(jobId: string, worker?: string): Promise<boolean> {
    const { rowCount } = await this.db.query(
      `UPDATE generation_jobs SET heartbeat_at = now() WHERE id = $1 AND status = 'running' AND ($2::text IS NULL OR worker = $2)`,
      [jobId, worker ?? null],
    );
    return rowCount === 1;
  }

  /** The worker a job runs on, while it runs. */
  async runningWorker(jobId: string): Promise<string | undefined> {
    const { rows } = await this.db.query<{ worker: string | null }>(`SELECT worker FROM generation_jobs WHERE id = $1 AND status = 'running'`, [jobId]);
    return rows[0]?.worker ?? undefined;
  }

  /**
   * Hands a running job from its worker, which stopped, to `worker`: true for the one worker whose
   * update found the job still running under `previousWorker` (two takers never both get it) and,
   * given `staleMs`, still without a heartbeat for that long once its row is free: a worker holding
   * the job (whileHeld) is waited for, and afterwards found alive.
   */
  async takeOver(jobId: string, previousWorker: string | null, worker: string, staleMs?: number): Promise<boolean> {
    const { rowCount } = await this.db.query(
      `UPDATE generation_jobs SET worker = $3, heartbeat_at = now()
       WHERE id = $1 AND status = 'running' AND worker IS NOT DISTINCT FROM $2 AND ${staleFor(4)}`,
      [jobId, previousWorker, worker, staleMs ?? null],
    );
    return rowCount === 1;
  }

  /**
   * Runs `work` while `worker` holds the running job `jobId`, or not at all. The job's row stays
   * locked until `work` ends and its heartbeat is renewed then, so meanwhile no other worker takes
   * the job over or fails it as stale: they wait, then find it alive. A source's namespace is only
   * swapped (and a failed run's staging namespace only dropped) in here: a worker that was slow
   * while its job was taken over or failed never swaps in, or drops, what another run is building.
   * `{ held: false }` names the worker running the job now, if it still runs.
   */
  async whileHeld<T>(jobId: string, worker: string, work: () => Promise<T>): Promise<{ held: true; value: T } | { held: false; holder?: string }> {
    const outcome = await this.db.transaction(async (client) => {
      const { rowCount } = await client.query(`UPDATE generation_jobs SET heartbeat_at = now() WHERE id = $1 AND status = 'running' AND worker = $2`, [jobId, worker]);
      if (rowCount !== 1) return undefined;
      const value = await work();
      await client.query('UPDATE generation_jobs SET heartbeat_at = clock_timestamp() WHERE id = $1', [jobId]);
      return { held: true as const, value };
    });
    return outcome ?? { held: false, holder: await this.runningWorker(jobId) };
  }

  /**
   * Fails a running job whose worker stopped (still `worker`'s and, given `staleMs`, still without a
   * heartbeat for that long once its row is free), after `cleanUp` (the drop of its staging
   * namespace) ran with the row locked: no worker holding the job sees its staging dropped, and
   * the job is seen failed only once nothing of it is left. Undefined when the job was not failed.
   */
  async failAbandoned(jobId: string, worker: string | null, staleMs: number | undefined, error: string, cleanUp: () => Promise<void>): Promise<GenerationJob | undefined> {
    return this.db.transaction(async (client) => {
      const { rows } = await client.query<JobRow>(
        `UPDATE generation_jobs SET status = 'failed', error = $3, finished_at = clock_timestamp(), heartbeat_at = NULL
         WHERE id = $1 AND status = 'running' AND worker IS NOT DISTINCT FROM $2 AND ${staleFor(4)} RETURNING *`,
        [jobId, worker, error, staleMs ?? null],
      );
      if (!rows[0]) return undefined;
      await cleanUp();
      return toJob(rows[0]);
    });
  }

  async progress(jobId: string, update: { rowsPlanned: number; rowsInserted: number; entities: JobEntity[]; generatorVersion?: string }): Promise<void> {
    await this.db.query(
      `UPDATE generation_jobs SET rows_planned = $2, rows_inserted = $3, entities = $4,
         generator_version = coalesce($5, generator_version), heartbeat_at = now()
       WHERE id = $1`,
      [jobId, update.rowsPlanned, update.rowsInserted, JSON.stringify(update.entities), update.generatorVersion ?? null],
    );
  }

  async succeed(jobId: string, warnings: GenerationJob['warnings'], client: Queryable = this.db): Promise<GenerationJob> {
    const { rows } = await client.query<JobRow>(
      `UPDATE generation_jobs SET status = 'succeeded', warnings = $2, finished_at = clock_timestamp(), heartbeat_at = NULL WHERE id = $1 RETURNING *`,
      [jobId, JSON.stringify(warnings)],
    );
    return toJob(rows[0]!);
  }

  /** Fails a job queued or running (given `worker`, only while it runs on that worker: not once another took it over). */
  async fail(jobId: string, error: string, worker?: string): Promise<GenerationJob | undefined> {
    const { rows } = await this.db.query<JobRow>(
      `UPDATE generation_jobs SET status = 'failed', error = $2, finished_at = clock_timestamp(), heartbeat_at = NULL
       WHERE id = $1 AND status IN ('queued', 'running') AND ($3::text IS NULL OR worker = $3) RETURNING *`,
      [jobId, error, worker ?? null],
    );
    return rows[0] && toJob(rows[0]);
  }

  async running(): Promise<(GenerationJob & { worker: string | null })[]> {
    const { rows } = await this.db.query<JobRow & { worker: string | null }>(`SELECT * FROM generation_jobs WHERE status = 'running'`);
    return rows.map((row) => ({ ...toJob(row), worker: row.worker }));
  }

  /** Running jobs whose worker stopped sending heartbeats (it crashed or was killed). */
  async stale(olderThanMs: number): Promise<GenerationJob[]> {
    const { rows } = await this.db.query<JobRow>(
      `SELECT * FROM generation_jobs WHERE status = 'running' AND heartbeat_at < now() - make_interval(secs => $1::double precision / 1000)`,
      [olderThanMs],
    );
    return rows.map(toJob);
  }

  async find(sourceId: string, jobId: string): Promise<GenerationJob | undefined> {
    const { rows } = await this.db.query<JobRow>('SELECT * FROM generation_jobs WHERE id = $1 AND source_id = $2', [jobId, sourceId]);
    return rows[0] && toJob(rows[0]);
  }

  async list(sourceId: string, page: { limit: number; offset: number }): Promise<Page<GenerationJob>> {
    const [rows, count] = await Promise.all([
      this.db.query<JobRow>('SELECT * FROM generation_jobs WHERE source_id = $1 ORDER BY created_at DESC, id LIMIT $2 OFFSET $3', [
        sourceId,
        page.limit,
        page.offset,
      ]),
      this.db.query<{ total: string }>('SELECT count(*) AS total FROM generation_jobs WHERE source_id = $1', [sourceId]),
    ]);
    return { items: rows.rows.map(toJob), total: Number(count.rows[0]!.total) };
  }

  async addEvent(
    job: Pick<GenerationJob, 'id' | 'sourceId'>,
    type: EventType,
    message: string,
    data: Record<string, unknown> = {},
    client: Queryable = this.db,
  ): Promise<void> {
    await client.query('INSERT INTO generation_events (job_id, source_id, type, message, data) VALUES ($1, $2, $3, $4, $5)', [
      job.id,
      job.sourceId,
      type,
      message,
      JSON.stringify(data),
    ]);
    await client.query('SELECT pg_notify($1, $2)', [EVENTS_CHANNEL, job.sourceId]);
  }

  /** Events of a source in id order, after the cursor, optionally of one job. */
  async events(sourceId: string, query: { jobId?: string; after?: number; limit: number }): Promise<GenerationEvent[]> {
    const { rows } = await this.db.query<EventRow>(
      `SELECT * FROM generation_events
       WHERE source_id = $1 AND ($2::uuid IS NULL OR job_id = $2) AND id > $3
       ORDER BY id LIMIT $4`,
      [sourceId, query.jobId ?? null, query.after ?? 0, query.limit],
    );
    return rows.map(toEvent);
  }
}
