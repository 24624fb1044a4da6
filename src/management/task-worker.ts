// One generation job, many workers (issue 30): the worker that claims a job plans it into tasks
// (generation/tasks/plan-tasks.ts), prepares the staging namespace and records the tasks; every
// worker instance's task slots then claim tasks of any running job, write them into the job's
// staging namespace over their own connections, and renew a lease per task while they do. The job's
// worker waits for every task, builds keys and foreign keys, and swaps the namespace in. A task
// whose worker died (lease ran out) is claimed by another, and its half-written rows are gone with
// the dead worker's transaction (run-task.ts). A job whose own worker died once its tasks were
// recorded is taken over by another worker (generation-worker.ts), which resumes it here: it waits for
// the tasks left, then finishes and swaps the namespace once.
import type { Logger } from 'pino';
import type { SchemaConfig } from '../contract.ts';
import type { TargetConnection } from '../dialects/dialect.ts';
import type { GenerationSummary, HoldJob, ProgressEvent } from '../generation/run.ts';
import { generationTotals } from '../model/generation-summary.ts';
import type { TaskPlan, TaskSpec } from '../generation/tasks/plan-tasks.ts';
import type { GenerationOptions } from '../generation/plan.ts';
import { stagingNamespace } from '../model/namespace-names.ts';
import type { GenerationJob, JobStore } from '../store/jobs.ts';
import type { SchemaStore } from '../store/schemas.ts';
import { toLocation, type Source, type SourceStore } from '../store/sources.ts';
import type { ClaimedTask, GenerationTask, TaskStore } from '../store/tasks.ts';
import type { Targets } from './targets.ts';
import { IdleSlots } from './idle-slots.ts';

export interface TaskWorkerOptions {
  /** Tasks this process runs at once, of any job; 0: jobs are not split, and no task is taken here. */
  slots: number;
  /** A task whose worker has not renewed it for this long is claimed by another. Default 30 s. */
  leaseMs?: number;
  /** Rows of a range task. Default DEFAULT_TASK_ROWS. */
  rowsPerTask?: number;
  /** Runs of one task before its job fails. Default 3. */
  maxAttempts?: number;
  /** Idle poll interval (a job split here wakes this process's slots at once). Default 1 s. */
  pollMs?: number;
  /** Tests only: the point of each job it coordinates where this process kills itself (Config.testCoordinatorDiesAt). */
  diesAt?: 'tasks' | 'swap';
}

/** What every task of a job is made with: stored with each task, so that every worker makes the same rows. */
interface TaskOptions extends GenerationOptions {
  referenceDate: string;
  batchSize?: number;
}

/** A job as task slots see it: its plan, config and target, prepared once per job in this process. */
interface JobContext {
  config: SchemaConfig;
  tasks: TaskPlan;
  connection: TargetConnection;
  staging: string;
  batchSize?: number;
}

/** The reason a job's worker stops its part: another worker took the job over (its heartbeat had gone stale). */
export class JobTakenOver extends Error {
  constructor(readonly worker: string) {
    super(`the job was taken over by ${worker}`);
  }
}

export class TaskWorker {
  private running = false;
  private loops: Promise<void>[] = [];
  private readonly idleSlots = new IdleSlots();
  private readonly current = new Set<AbortController>();
  /** Recent jobs' contexts (a few: tasks of one job follow each other). */
  private readonly contexts = new Map<string, Promise<JobContext>>();
  /** The plans of the jobs this process coordinates: its task slots use them instead of planning again (the draws of unique fields are a pass over every row). */
  private readonly coordinated = new Map<string, TaskPlan>();
  readonly leaseMs: number;
  private readonly maxAttempts: number;
  private readonly pollMs: number;
  private readonly rowsPerTask: number | undefined;

  constructor(
    private readonly worker: string,
    private readonly deps: { jobs: JobStore; tasks: TaskStore; sources: SourceStore; schemas: SchemaStore; targets: Targets; logger: Logger },
    private readonly options: TaskWorkerOptions,
  ) {
    this.leaseMs = options.leaseMs ?? 30_000;
    this.maxAttempts = options.maxAttempts ?? 3;
    this.pollMs = options.pollMs ?? 1_000;
    this.rowsPerTask = options.rowsPerTask;
  }

  get enabled(): boolean {
    return this.options.slots > 0;
  }

  start(): void {
    if (this.running || !this.enabled) return;
    this.running = true;
    this.loops = Array.from({ length: this.options.slots }, () => this.run());
  }

  wake(): void {
    this.idleSlots.wakeAll();
  }

  async stop(): Promise<void> {
    this.running = false;
    for (const task of this.current) task.abort(new Error('the server is shutting down'));
    this.wake();
    await Promise.all(this.loops);
  }

  private async run(): Promise<void> {
    while (this.running) {
      try {
        const task = await this.deps.tasks.claim(this.worker, this.leaseMs, this.maxAttempts);
        if (task) {
          // Where there was one task there may be more: the idle slots of this process look too.
          this.wake();
          await this.execute(task);
          continue;
        }
      } catch (error) {
        this.deps.logger.error({ error: String(error) }, 'generation task worker error');
      }
      // Checked here too: a stop while this slot was claiming found no idle slot to wake.
      if (this.running) await this.idleSlots.idle(this.pollMs);
    }
  }

  /** Runs one claimed task and records how it ended. */
  private async execute(task: ClaimedTask): Promise<void> {
    const { jobs, tasks } = this.deps;
    const job = { id: task.jobId, sourceId: task.sourceId };
    const label = describeTask(task.seq, task.spec);
    if (task.previousWorker) {
      await jobs.addEvent(job, 'task.retried', `${label}: claimed again by ${this.worker}, its worker ${task.previousWorker} stopped renewing it`, {
        task: task.seq,
        worker: this.worker,
        previousWorker: task.previousWorker,
        attempt: task.attempts,
      });
    }
    const abort = new AbortController();
    this.current.add(abort);
    let written = 0;
    const heartbeat = setInterval(() => {
      tasks.heartbeat(task.jobId, task.seq, this.worker, this.leaseMs, written).then(
        (mine) => mine || abort.abort(new Error('the task is no longer this worker\'s: its job ended or another worker took it over')),
        () => {},
      );
    }, Math.max(50, Math.floor(this.leaseMs / 3)));
    const started = performance.now();
    try {
      const context = await this.context(task);
      const rowsPlanned = task.spec.kind === 'range' ? task.spec.to - task.spec.from : undefined;
      await jobs.addEvent(job, 'task.started', `${label}: started on ${this.worker}`, { task: task.seq, worker: this.worker, ...taskData(task.spec), rowsPlanned, attempt: task.attempts });
      const { runTask } = await taskEngine();
      const result = await runTask(context.connection, context.staging, context.config, context.tasks, task.seq, task.spec, {
        batchSize: context.batchSize,
        signal: abort.signal,
        onRows: (rows) => (written = rows),
      });
      const rows = Object.values(result.rows).reduce((sum, count) => sum + count, 0);
      if (await tasks.succeed(task.jobId, task.seq, this.worker, result)) {
        const durationMs = Math.round(performance.now() - started);
        await jobs.addEvent(job, 'task.succeeded', `${label}: ${rows} rows by ${this.worker} in ${durationMs} ms`, {
          task: task.seq,
          worker: this.worker,
          ...taskData(task.spec),
          rows,
          durationMs,
        });
      }
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const status = await tasks.fail(task.jobId, task.seq, this.worker, message, this.maxAttempts).catch(() => undefined);
      if (status) {
        await jobs
          .addEvent(job, 'task.failed', `${label} failed on ${this.worker}${status === 'queued' ? ', to be tried again' : ''}: ${message}`, {
            task: task.seq,
            worker: this.worker,
            error: message,
            retried: status === 'queued',
          })
          .catch(() => {});
      }
      this.contexts.delete(task.jobId);
    } finally {
      clearInterval(heartbeat);
      this.current.delete(abort);
    }
  }

  private context(task: ClaimedTask): Promise<JobContext> {
    let context = this.contexts.get(task.jobId);
    if (!context) {
      context = this.loadContext(task);
      context.catch(() => this.contexts.delete(task.jobId));
      this.contexts.set(task.jobId, context);
      while (this.contexts.size > 4) this.contexts.delete(this.contexts.keys().next().value!);
    }
    return context;
  }

  private async loadContext(task: ClaimedTask): Promise<JobContext> {
    const { jobs, sources, schemas, targets } = this.deps;
    const source = await sources.find(task.sourceId);
    const job = source && (await jobs.find(source.id, task.jobId));
    const version = job && (await schemas.findVersionById(job.schemaVersionId));
    if (!source || !job || !version) throw new Error('the source, its job or its schema version no longer exists');
    const options = task.options as unknown as TaskOptions;
    const { planTasksAsync } = await taskEngine();
    const location = toLocation(source);
    return {
      config: version.schema,
      // Planned with turns of the event loop: the claimed task's lease is renewed meanwhile.
      tasks: this.coordinated.get(task.jobId) ?? (await planTasksAsync(version.schema, options)),
      connection: await targets.connect(location),
      staging: stagingNamespace(location.namespace),
      batchSize: options.batchSize,
    };
  }

  /**
   * Runs a claimed job as tasks (the job's worker's part): plans them, prepares the staging
   * namespace, records the tasks, waits while every worker's task slots (this one's too) make them,
   * then finishes the namespace and swaps it in. Progress sums the tasks.
   */
  async runJob(
    job: GenerationJob,
    source: Source,
    config: SchemaConfig,
    connection: TargetConnection,
    run: {
      claimNamespace: (namespace: string) => Promise<void>;
      /** Runs the swap, and a failed job's clean-up, while the job is still this worker's; throws otherwise (RunOptions.hold). */
      hold: HoldJob;
      signal: AbortSignal;
      onProgress: (event: ProgressEvent) => void;
      /**
       * The job's worker stopped and this one took the job over. Its tasks recorded: they are resumed
       * (tasks done stay done), and this worker waits for the rest, builds keys and swaps; with the
       * staging namespace already being finished (keys, swap), the tasks are made again into a fresh
       * one. No tasks recorded yet: the job is planned and prepared again, from the start.
       */
      resume?: boolean;
    },
  ): Promise<GenerationSummary> {
    const started = performance.now();
    const { planTasksAsync, prepareStaging, finishStaging, markerTable } = await taskEngine();
    const { namespace } = toLocation(source);
    const staging = stagingNamespace(namespace);
    // Today's reference date is fixed here, with the other options, for every task of the job; a
    // worker taking the job over plans it again with the options recorded with its tasks.
    // Sources made before generator versions existed have none stored: version 1, byte for byte.
    const stored = run.resume ? ((await this.deps.tasks.optionsOf(job.id)) as TaskOptions | undefined) : undefined;
    const generation: GenerationOptions = stored ?? { seed: job.seed, rowCounts: source.generatorConfig.rowCounts, generatorVersion: source.generatorConfig.generatorVersion ?? 1 };
    // The job's heartbeat goes on while unique values' draws are found (a pass over every row of their entities).
    const taskPlan = await planTasksAsync(config, generation, this.rowsPerTask);
    const { plan } = taskPlan;
    this.coordinated.set(job.id, taskPlan);
    const options: TaskOptions = stored ?? {
      ...generation,
      referenceDate: plan.referenceDate,
      ...(source.generatorConfig.batchSize ? { batchSize: source.generatorConfig.batchSize } : {}),
    };
    let claimed = false;
    try {
      const q = (name: string) => connection.dialect.quoteIdentifier(name);
      // The marker table goes when the namespace starts being finished: without it, the previous worker
      // stopped while building keys or swapping (the rows may be half keyed, or swapped in already).
      const finishing = stored !== undefined && (await connection.query(`SELECT task FROM ${q(staging)}.${q(markerTable(plan))} WHERE task < 0`, []).then(() => false, () => true));
      if (stored && !finishing) claimed = true;
      else {
        // A fresh job, or one taken over before its tasks were recorded, or while it was being finished:
        // the staging namespace is made anew (idempotent), and the tasks recorded, or queued again.
        run.onProgress({ type: 'phase', phase: 'tables' });
        await run.claimNamespace(staging);
        claimed = true;
        await prepareStaging(connection, staging, taskPlan);
        for (const entity of plan.entities) run.onProgress({ type: 'entity.started', entity: entity.id, rowsPlanned: entity.rowCount });
        if (this.options.diesAt === 'tasks') process.kill(process.pid, 'SIGKILL');
        if (finishing) await this.deps.tasks.requeue(job.id);
        else await this.deps.tasks.create(job.id, taskPlan.tasks, options);
        this.wake();
      }
      // Progress events only for entities whose rows moved since the last poll.
      const reported = new Map<string, number>(plan.entities.map((entity) => [entity.id, 0]));
      const onChange = (event: ProgressEvent) => {
        if (event.type === 'entity.progress' && reported.get(event.entity) === event.rowsWritten) return;
        if (event.type === 'entity.progress') reported.set(event.entity, event.rowsWritten);
        run.onProgress(event);
      };
      const done = await this.waitForTasks(job.id, run.signal, (list) => reportProgress(list, plan.entities, onChange, false));
      const entities = reportProgress(done, plan.entities, run.onProgress, true);
      run.onProgress({ type: 'phase', phase: 'constraints' });
      run.signal.throwIfAborted();
      await finishStaging(connection, staging, namespace, taskPlan, async <T>(swap: () => Promise<T>): Promise<T> => {
        if (this.options.diesAt === 'swap') process.kill(process.pid, 'SIGKILL');
        run.signal.throwIfAborted();
        run.onProgress({ type: 'phase', phase: 'swap' });
        return run.hold(async () => {
          await run.claimNamespace(namespace);
          return swap();
        });
      });
      return generationTotals(namespace, plan, entities, [...taskPlan.warnings, ...done.flatMap((task) => task.result?.warnings ?? [])], started);
    } catch (error) {
      // Taken over: the job, its tasks and its staging namespace are another worker's now.
      if (run.signal.reason instanceof JobTakenOver) throw run.signal.reason;
      if (error instanceof JobTakenOver) throw error;
      // Still this worker's (held, so no takeover meanwhile): its tasks stop and, as in runGeneration,
      // the half-built staging goes, but a failure is not held up by a dark target.
      const cleanUp = async () => {
        await this.deps.tasks.cancel(job.id).catch(() => {});
        if (claimed) await Promise.race([connection.dropNamespace(staging).catch(() => {}), new Promise((resolve) => setTimeout(resolve, 5_000).unref())]);
      };
      await run.hold(cleanUp).catch((refused: unknown) => {
        if (refused instanceof JobTakenOver) throw refused;
      });
      throw error;
    } finally {
      this.coordinated.delete(job.id);
    }
  }

  /** Polls the job's tasks until all succeeded; throws when one failed for good or the job was aborted. */
  private async waitForTasks(jobId: string, signal: AbortSignal, onPoll: (tasks: GenerationTask[]) => void): Promise<GenerationTask[]> {
    const every = Math.min(500, this.pollMs);
    for (;;) {
      signal.throwIfAborted();
      const list = await this.deps.tasks.ofJob(jobId);
      const failed = list.find((task) => task.status === 'failed');
      if (failed) throw new Error(`${describeTask(failed.seq, failed.spec)} failed ${failed.attempts} times: ${failed.error ?? 'unknown error'}`);
      if (list.every((task) => task.status === 'succeeded')) return list;
      const [abandoned] = await this.deps.tasks.abandoned(jobId, this.maxAttempts);
      if (abandoned) throw new Error(`${describeTask(abandoned.seq, abandoned.spec)} was lost ${abandoned.attempts} times (its workers stopped)`);
      onPoll(list);
      await new Promise((resolve) => setTimeout(resolve, every));
    }
  }
}

/** Rows per entity summed over the tasks, reported as entity progress; the entities' totals. */
function reportProgress(
  list: GenerationTask[],
  entities: TaskPlan['plan']['entities'],
  emit: (event: ProgressEvent) => void,
  final: boolean,
): GenerationSummary['entities'] {
  const rows = new Map<string, number>(entities.map((entity) => [entity.id, 0]));
  for (const task of list) {
    if (task.result) for (const [entity, count] of Object.entries(task.result.rows)) rows.set(entity, (rows.get(entity) ?? 0) + count);
    else if (task.spec.kind === 'range') rows.set(task.spec.entity, (rows.get(task.spec.entity) ?? 0) + task.rowsWritten);
  }
  return entities.map((entity) => {
    const rowsInserted = rows.get(entity.id) ?? 0;
    emit({ type: final ? 'entity.completed' : 'entity.progress', entity: entity.id, rowsPlanned: entity.rowCount, rowsWritten: rowsInserted });
    return { id: entity.id, rowsPlanned: entity.rowCount, rowsInserted };
  });
}

function describeTask(seq: number, spec: TaskSpec): string {
  return spec.kind === 'range' ? `task ${seq} (${spec.entity} rows ${spec.from}–${spec.to})` : `task ${seq} (${spec.entities.join(', ')} in order)`;
}

function taskData(spec: TaskSpec): Record<string, unknown> {
  return spec.kind === 'range' ? { entity: spec.entity, from: spec.from, to: spec.to } : { entities: spec.entities };
}

/** The generation engine's task part, imported when the first task runs (it brings faker). */
const taskEngine = async () => {
  const [plan, run] = await Promise.all([import('../generation/tasks/plan-tasks.ts'), import('../generation/tasks/run-task.ts')]);
  return { ...plan, ...run };
};
