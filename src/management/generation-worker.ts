// Runs generation jobs: claims queued jobs from the control-plane database, generates into a staging
// namespace and swaps it in atomically, and records progress, events and the source's audit.
// Jobs left running by a crashed process are failed on the next start (their old data still serves).
import { hostname } from 'node:os';
import type { Logger } from 'pino';
import type { Dialect } from '../dialects/dialect.ts';
import { networkErrorCode } from '../dialects/driver-errors.ts';
import { dialectOfKind } from '../dialects/index.ts';
import type { ProgressEvent } from '../generation/run.ts';
import type { Db } from '../store/db.ts';
import type { GenerationJob, JobEntity, JobStore } from '../store/jobs.ts';
import { TaskStore } from '../store/tasks.ts';
import { OwnedNamespaceStore } from '../store/owned-namespaces.ts';
import type { SchemaStore } from '../store/schemas.ts';
import { toLocation, type SourceStore } from '../store/sources.ts';
import type { FinishedJob } from '../metrics/metrics.ts';
import { NamespaceOwnership } from './namespace-ownership.ts';
import type { Targets } from './targets.ts';
import { JobTakenOver, TaskWorker, type TaskWorkerOptions } from './task-worker.ts';
import { IdleSlots } from './idle-slots.ts';
import { startJobHeartbeat } from './job-heartbeat.ts';

export interface WorkerOptions {
  /** Idle poll interval; a job queued by this process wakes the worker at once. */
  pollMs?: number;
  heartbeatMs?: number;
  /** A running job without a heartbeat for this long is considered dead. */
  staleMs?: number;
  /** Minimum interval between progress events of one entity. */
  progressEveryMs?: number;
  /** Jobs this process runs at once (worker slots); default 1. */
  slots?: number;
  /** Loads in flight at once in a job run whole here (runGeneration's streams); default 1. */
  streams?: number;
  /** Jobs of one team running at once across every process (see JobStore.claim); 0 or unset: no limit. */
  runningPerTeam?: number;
  /** Jobs split into tasks that every worker instance runs (task-worker.ts); unset or 0 slots: each job runs whole here. */
  tasks?: TaskWorkerOptions;
}

export class GenerationWorker {
  readonly id = `${hostname()}:${process.pid}:${Math.random().toString(36).slice(2, 8)}`;
  private running = false;
  private readonly idleSlots = new IdleSlots();
  private loops: Promise<void>[] = [];
  /** The jobs running in this process, one per busy slot. */
  private readonly current = new Set<AbortController>();
  private readonly slots: number;
  private readonly streams: number | undefined;
  private readonly runningPerTeam: number;
  private readonly pollMs: number;
  private readonly heartbeatMs: number;
  private readonly staleMs: number;
  private readonly progressEveryMs: number;
  /** sds only creates, replaces and drops the namespaces it reserved and created for a source. */
  private readonly namespaces: NamespaceOwnership;
  /** This process's task slots, and the splitting of the jobs it claims. */
  private readonly tasks: TaskWorker;
  private readonly taskStore: TaskStore;

  constructor(
    private readonly deps: {
      db: Db;
      jobs: JobStore;
      sources: SourceStore;
      schemas: SchemaStore;
      targets: Targets;
      logger: Logger;
      /** A source's data was replaced: caches of it (totals) must go. */
      onGenerated?: (sourceId: string) => void;
      /** A job ran to its end here (metrics). */
      onFinished?: (job: FinishedJob) => void;
    },
    options: WorkerOptions = {},
  ) {
    this.pollMs = options.pollMs ?? 1_000;
    this.heartbeatMs = options.heartbeatMs ?? 5_000;
    this.staleMs = options.staleMs ?? 30_000;
    this.progressEveryMs = options.progressEveryMs ?? 1_000;
    this.slots = Math.max(1, options.slots ?? 1);
    this.streams = options.streams;
    this.runningPerTeam = options.runningPerTeam ?? 0;
    this.namespaces = new NamespaceOwnership(new OwnedNamespaceStore(deps.db));
    this.taskStore = new TaskStore(deps.db);
    this.tasks = new TaskWorker(this.id, { ...deps, tasks: this.taskStore }, options.tasks ?? { slots: 0 });
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loops = Array.from({ length: this.slots }, (_, slot) => this.run(slot));
    this.tasks.start();
  }

  /** Wakes the idle slots (a job was just queued, or one ended and another team's may now be claimed). */
  wake(): void {
    this.idleSlots.wakeAll();
  }

  /** Stops claiming; jobs in progress are aborted at their next batch and marked failed. */
  async stop(): Promise<void> {
    this.running = false;
    for (const job of this.current) job.abort(new Error('the server is shutting down'));
    this.wake();
    await Promise.all([...this.loops, this.tasks.stop()]);
  }

  /**
   * One worker slot: claims a job (fairly between teams, see JobStore.claim) and runs it, or waits.
   * Slot 0 also fails the jobs of dead workers.
   */
  private async run(slot: number): Promise<void> {
    let lastStaleCheck = 0;
    while (this.running) {
      try {
        if (slot === 0 && Date.now() - lastStaleCheck > this.staleMs / 2) {
          lastStaleCheck = Date.now();
          await this.failStaleJobs();
        }
        const job = await this.deps.jobs.claim(this.id, { runningPerTeam: this.runningPerTeam });
        if (job) {
          await this.execute(job);
          // A job ended: a job of its team that waited for the team's running cap may now go, on any slot.
          this.wake();
          continue;
        }
      } catch (error) {
        this.deps.logger.error({ error: String(error) }, 'generation worker error');
      }
      // Checked here too: a stop while this slot was claiming found no idle slot to wake.
      if (this.running) await this.idleSlots.idle(this.pollMs);
    }
  }

  /**
   * Fails running jobs whose worker is gone: no heartbeat for `staleMs`, or (at once) a worker of this
   * host whose process no longer exists. Their half-built staging namespaces are dropped; the live
   * data was never touched. A job split into tasks is taken over instead, when this process takes
   * tasks: this worker finishes it (one worker does, whichever checks first).
   */
  private async failStaleJobs(): Promise<void> {
    const { jobs, sources, targets } = this.deps;
    const running = await jobs.running();
    const stale = new Set((await jobs.stale(this.staleMs)).map((job) => job.id));
    const takenOver: (GenerationJob & { worker: string | null })[] = [];
    for (const job of running) {
      // A worker of this host whose process is gone is dead at once; any other, only while its
      // heartbeat is still stale once the job's row is free (a worker swapping holds it: whileHeld).
      const deadNow = isDeadLocalWorker(job.worker);
      if (!stale.has(job.id) && !deadNow) continue;
      const staleMs = deadNow ? undefined : this.staleMs;
      if (this.tasks.enabled && this.running) {
        // Split jobs outlive their worker: tasks recorded are resumed, and a job whose tasks were not
        // recorded yet is planned again (TaskWorker.runJob). Another checker may win it.
        if (await jobs.takeOver(job.id, job.worker, this.id, staleMs)) takenOver.push(job);
        continue;
      }
      // The half-built staging data goes first (with the job's row locked), so a job seen as failed has nothing left behind.
      const source = await sources.find(job.sourceId);
      const dropStaging = async () => {
        if (!source) return;
        const location = toLocation(source);
        await targets
          .connect(location)
          .then((connection) => this.namespaces.dropStaging(source, connection, location.namespace))
          .catch(() => {});
      };
      const failed = await jobs.failAbandoned(job.id, job.worker, staleMs, 'Interrupted: the process running this generation stopped; the previous data still serves', dropStaging);
      if (!failed) continue;
      // Its tasks stop too: their workers find them cancelled at their next lease renewal.
      await this.taskStore.cancel(job.id);
      await jobs.addEvent(failed, 'job.failed', 'Generation interrupted', { error: failed.error });
    }
    for (const job of takenOver) await this.execute(job, job.worker);
  }

  /** Runs a claimed job, or (`previousWorker` given) finishes a split job that worker stopped coordinating. */
  private async execute(job: GenerationJob, previousWorker?: string | null): Promise<void> {
    const resume = previousWorker !== undefined;
    const { jobs, sources, schemas, targets, logger } = this.deps;
    const abort = new AbortController();
    this.current.add(abort);
    // A job that no longer runs (its source was deleted, or another worker failed it as stale) stops
    // at its next batch instead of swapping data in for nobody.
    const gone = new Error('the job no longer runs: its source was deleted or it was failed');
    // The swap (and a failed run's drop of its staging namespace) only while the job is still this worker's.
    const hold = holdJob(jobs, job.id, this.id, gone);
    const stopHeartbeat = startJobHeartbeat(jobs, job.id, this.id, abort, gone, { everyMs: this.heartbeatMs, staleMs: this.staleMs });
    /** Set while the target database is being worked on: its failures are described as the target's. */
    let targetDialect: Dialect | undefined;
    const started = performance.now();
    let kind: FinishedJob['kind'] | undefined;
    const progress = new JobProgress(job, jobs, this.progressEveryMs);
    try {
      const source = await sources.find(job.sourceId);
      const version = await schemas.findVersionById(job.schemaVersionId);
      if (!source || !version) throw new Error('the source or its schema version no longer exists');
      if (resume) {
        await jobs.addEvent(job, 'job.resumed', `Generation taken over by ${this.id}: its worker ${previousWorker ?? 'unknown'} stopped`, {
          worker: this.id,
          previousWorker,
        });
      } else {
        await jobs.addEvent(job, 'job.started', 'Generation started', { worker: this.id });
      }
      targetDialect = dialectOfKind(source.kind);
      kind = source.kind;
      const connection = await targets.connect(toLocation(source));
      const claimNamespace = (namespace: string) => this.namespaces.claim(source, connection, namespace);
      const { runGeneration } = await generationEngine();
      const summary = this.tasks.enabled
        ? await this.tasks.runJob(job, source, version.schema, connection, { claimNamespace, hold, signal: abort.signal, onProgress: (event) => progress.record(event), resume })
        : await runGeneration(connection, toLocation(source).namespace, version.schema, {
            seed: job.seed,
            rowCounts: source.generatorConfig.rowCounts,
            batchSize: source.generatorConfig.batchSize,
            // Sources made before generator versions existed have none stored: version 1, byte for byte.
            generatorVersion: source.generatorConfig.generatorVersion ?? 1,
            atomic: true,
            streams: this.streams,
            claimNamespace,
            hold,
            signal: abort.signal,
            onProgress: (event) => progress.record(event),
          });
      targetDialect = undefined;
      if (!(await sources.find(source.id))) {
        // Deleted while its last batches loaded: what was just swapped in belongs to nobody.
        await connection.dropNamespace(toLocation(source).namespace);
        return;
      }
      await progress.flush(summary.generatorVersion);
      await this.deps.db.transaction(async (client) => {
        const finished = await jobs.succeed(job.id, summary.warnings, client);
        await sources.recordGeneration(
          source.id,
          {
            jobId: job.id,
            seed: summary.seed,
            generatorVersion: summary.generatorVersion,
            rowCounts: Object.fromEntries(summary.entities.map((entity) => [entity.id, entity.rowsInserted])),
            durationMs: summary.durationMs,
            ...(summary.coherence ? { coherence: summary.coherence } : {}),
          },
          new Date(finished.finishedAt!),
          client,
        );
        for (const warning of summary.warnings) await jobs.addEvent(job, 'job.warning', warning.message, { path: warning.path }, client);
        await jobs.addEvent(job, 'job.succeeded', `Generated ${summary.rowsInserted} rows in ${summary.durationMs} ms`, {
          rowsInserted: summary.rowsInserted,
          durationMs: summary.durationMs,
        }, client);
      });
      this.deps.onGenerated?.(source.id);
      this.deps.onFinished?.({ status: 'succeeded', kind: source.kind, rowsInserted: summary.rowsInserted, durationMs: summary.durationMs });
    } catch (error) {
      const takenOver = error instanceof JobTakenOver ? error : abort.signal.reason instanceof JobTakenOver ? abort.signal.reason : undefined;
      if (takenOver) {
        // Another worker finishes the job: nothing here is to be failed or dropped.
        await progress.close();
        logger.warn({ jobId: job.id, worker: takenOver.worker }, 'generation job taken over by another worker');
        return;
      }
      if (kind) this.deps.onFinished?.({ status: 'failed', kind, rowsInserted: 0, durationMs: performance.now() - started });
      const message = describeFailure(error, targetDialect);
      // Progress events still queued go first: job.failed is the job's last event.
      await progress.close();
      logger.warn({ jobId: job.id, sourceId: job.sourceId, error: message }, 'generation failed');
      // Only while it is still this worker's: one taken over meanwhile goes on elsewhere.
      const failed = await jobs.fail(job.id, message, this.id).catch(() => undefined);
      if (failed) await jobs.addEvent(failed, 'job.failed', `Generation failed: ${message}`, { error: message }).catch(() => {});
    } finally {
      stopHeartbeat();
      this.current.delete(abort);
    }
  }
}

/** Keeps the job row and event log up to date without a write per batch. */
export class JobProgress {
  private readonly entities = new Map<string, JobEntity>();
  private lastEvent = new Map<string, number>();

  constructor(
    private readonly job: GenerationJob,
    private readonly jobs: JobStore,
    private readonly everyMs: number,
  ) {}

  record(event: ProgressEvent): void {
    if (event.type === 'phase' || this.closed) return;
    const entity = this.entities.get(event.entity) ?? { id: event.entity, rowsPlanned: event.rowsPlanned, rowsInserted: 0 };
    this.entities.set(event.entity, entity);
    entity.rowsPlanned = event.rowsPlanned;
    if (event.type !== 'entity.started') entity.rowsInserted = event.rowsWritten;
    const now = Date.now();
    if (event.type === 'entity.progress' && now - (this.lastEvent.get(event.entity) ?? 0) < this.everyMs) return;
    this.lastEvent.set(event.entity, now);
    const message =
      event.type === 'entity.started'
        ? `${event.entity}: generating ${event.rowsPlanned} rows`
        : `${event.entity}: ${entity.rowsInserted} of ${entity.rowsPlanned} rows`;
    const data = { entity: event.entity, rowsPlanned: entity.rowsPlanned, rowsInserted: entity.rowsInserted };
    this.enqueue(async () => {
      await this.jobs.addEvent(this.job, event.type, message, data);
      await this.writeTotals();
    });
  }

  /**
   * Takes no more events (a load still winding down may report after the run failed) and resolves
   * once every queued write has been made, or has failed: progress writes never throw.
   */
  close(): Promise<void> {
    this.closed = true;
    return this.writes;
  }

  private closed = false;

  /** Waits for queued writes, then writes the final totals. */
  async flush(generatorVersion?: string): Promise<void> {
    await this.writes;
    await this.writeTotals(generatorVersion);
  }

  /** Writes run one at a time, in order, so events never overtake each other or the final ones. */
  private enqueue(write: () => Promise<void>): void {
    // Progress is observability: a failed write must not fail the generation.
    this.writes = this.writes.then(write).catch(() => {});
  }

  private writes: Promise<void> = Promise.resolve();

  private async writeTotals(generatorVersion?: string): Promise<void> {
    const entities = [...this.entities.values()].map((entity) => ({ ...entity }));
    await this.jobs.progress(this.job.id, {
      rowsPlanned: entities.reduce((sum, entity) => sum + entity.rowsPlanned, 0),
      rowsInserted: entities.reduce((sum, entity) => sum + entity.rowsInserted, 0),
      entities,
      generatorVersion,
    });
  }
}

/**
 * Runs work on a source's live or staging namespace while `worker` still holds job `jobId`
 * (JobStore.whileHeld), or throws: JobTakenOver when another worker runs the job now, else `gone`.
 */
export function holdJob(jobs: JobStore, jobId: string, worker: string, gone: Error): <T>(work: () => Promise<T>) => Promise<T> {
  return async (work) => {
    const outcome = await jobs.whileHeld(jobId, worker, work);
    if (outcome.held) return outcome.value;
    throw outcome.holder && outcome.holder !== worker ? new JobTakenOver(outcome.holder) : gone;
  };
}

/** Worker ids are `host:pid:random`: a worker of this host whose process is gone is dead. */
function isDeadLocalWorker(worker: string | null): boolean {
  if (!worker) return false;
  const [host, pid] = worker.split(':');
  if (host !== hostname() || !pid) return false;
  try {
    process.kill(Number(pid), 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/**
 * A readable failure that never carries credentials (connection strings are scrubbed). `targetDialect`, the
 * dialect of the target database when the failure came from working on it: a lost or refused
 * connection there is said plainly, with its code and without the driver's text, which names the
 * server's address (a source's connection string is a secret, its host and port included).
 */
export function describeFailure(error: unknown, targetDialect?: Dialect): string {
  const message = error instanceof Error ? error.message : String(error);
  const scrubbed = message.replace(/\b([a-z][a-z0-9+.-]*:\/\/)[^\s/@]*@/gi, '$1***@');
  const network = networkErrorCode(error);
  const mapped = targetDialect?.mapError(error);
  if (mapped?.kind === 'connection') {
    // A socket error's text names the server's address: only its code is shown. Other connection
    // failures are the server's or the driver's words (57P01 "terminating connection due to
    // administrator command", 28P01 a bad password, "Connection terminated unexpectedly").
    const lead = network
      ? `Target database unreachable (${network})`
      : `Target database connection failed${mapped.code ? ` (${mapped.code})` : ''}: ${withoutAddresses(scrubbed).replace(/\.$/, '')}`;
    return `${lead}. The generation stopped; the source's live data was left as it was`;
  }
  return network ? `Target database unreachable (${network}): ${withoutAddresses(scrubbed)}` : scrubbed;
}

/** Drops `host:port` and IP addresses from a driver message. */
function withoutAddresses(message: string): string {
  return message
    .replace(/\[[0-9a-f:.]+\](:\d+)?|\b\d{1,3}(\.\d{1,3}){3}(:\d+)?/gi, '(address)')
    .replace(/\b[a-z0-9.-]+:\d{2,5}\b/gi, '(address)');
}

/**
 * The generation engine, imported when the first job runs: it brings faker and every locale's data,
 * which the server's start-up (and an API-only instance) need not load.
 */
const generationEngine = () => import('../generation/run.ts');
