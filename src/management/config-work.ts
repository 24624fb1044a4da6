// Config work off the event loop: schema-config validation and previews run in a small pool of
// worker threads (config-worker.ts), so /healthz and every other request keep answering while a
// heavy config is checked. Each task has a wall-time limit (its worker is terminated past it, 422)
// and a memory limit; teams share the workers fairly: each runs at most one task at a time and may
// queue a few more (429 past them), teams with queued work take turns, and a full queue answers 503.
import { Worker } from 'node:worker_threads';
import { AppError, errors, type ErrorDetail } from '../errors.ts';
import type { ValidationResult } from '../config/validate-config.ts';
import type { RequestBody } from '../operation.ts';
import type { components, SchemaConfig } from '../contract.ts';
import type { Source } from '../store/sources.ts';
import { summariseChanges, type ApiChangeList, type ApiChangeSlice } from './api-changes.ts';

export type ConfigTask =
  | { id: number; task: 'validate'; config: unknown }
  | { id: number; task: 'preview'; body: RequestBody<'previewSchemaConfig'> }
  | { id: number; task: 'apiChanges'; comparison: RuntimeApiComparison; start: number; budgetMs: number; mayDefer: boolean };
/** Two configs of a source whose runtime documents are compared (api-changes.ts). */
export interface RuntimeApiComparison {
  source: Source;
  from: SchemaConfig;
  to: SchemaConfig;
  baseUrl: string;
}
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
interface TaskResults {
  validate: ValidationResult;
  preview: components['schemas']['SchemaConfigPreview'];
  apiChanges: ApiChangeSlice;
}
export type ConfigTaskReply =
  | { id: number; result: unknown }
  | { id: number; error: { status: number; message: string; details: ErrorDetail[] | undefined } }
  | { id: number; fault: string };

/** How config work is bounded (Config: SDS_CONFIG_WORKERS, SDS_CONFIG_WORK_TIMEOUT_MS, SDS_CONFIG_WORK_QUEUE). */
export interface ConfigWorkLimits {
  /** Worker threads (at least 1). */
  workers: number;
  /** Longest a task may run before its worker is terminated (422). */
  timeoutMs: number;
  /** Tasks a team may have waiting besides the one it runs (429 past them). */
  queuePerTeam: number;
  /** Heap of one worker, in MB (a task past it fails with 422). */
  memoryMb: number;
}

/** Tasks waiting, all teams together, per worker thread before the pool answers 503. */
export const QUEUED_PER_WORKER = 32;

const WHAT: Record<ConfigTask['task'], string> = { validate: 'Validating the schema config', preview: 'The preview', apiChanges: 'Comparing the runtime APIs' };

interface Job {
  team: string;
  task: ConfigTask;
  resolve(value: unknown): void;
  reject(error: Error): void;
}

interface Slot {
  worker: Worker | undefined;
  ready: boolean;
  job: Job | undefined;
  timer: NodeJS.Timeout | undefined;
}

/**
 * How a worker starts: from the TypeScript sources through worker-entry.mjs (which registers tsx);
 * from the build, config-worker.js, an entry point of its own beside server.js (scripts/build-server.ts).
 */
function workerStart(): { entry: URL; module: URL } {
  if (import.meta.url.endsWith('.ts')) return { entry: new URL('../generation/worker-entry.mjs', import.meta.url), module: new URL('./config-worker.ts', import.meta.url) };
  const here = new URL('./', import.meta.url);
  const built = here.pathname.endsWith('/chunks/') ? new URL('../', here) : here;
  const module = new URL('config-worker.js', built);
  return { entry: module, module };
}

export class ConfigWork {
  readonly #limits: ConfigWorkLimits;
  readonly #slots: Slot[];
  /** Waiting jobs per team; a team's turn comes in the order teams first queued (round robin). */
  readonly #queues = new Map<string, Job[]>();
  readonly #running = new Map<string, number>();
  #nextId = 0;
  #closed = false;

  constructor(limits: ConfigWorkLimits) {
    this.#limits = { ...limits, workers: Math.max(1, limits.workers) };
    this.#slots = Array.from({ length: this.#limits.workers }, () => ({ worker: undefined, ready: false, job: undefined, timer: undefined }));
  }

  /** Validates a schema config in a worker, as team `team`'s work. */
  validate(team: string, config: unknown): Promise<ValidationResult> {
    return this.#submit(team, { task: 'validate', config }) as Promise<ValidationResult>;
  }

  /** Makes a preview in a worker (the config already validated), as team `team`'s work. */
  preview(team: string, body: RequestBody<'previewSchemaConfig'>): Promise<TaskResults['preview']> {
    return this.#submit(team, { task: 'preview', body }) as Promise<TaskResults['preview']>;
  }

  /**
   * Compares a source's runtime documents under two configs in a worker, as team `team`'s work: in
   * slices of tables, each a task of its own that stops after a quarter of the task limit (other teams' work
   * takes turns between them), so that a version changing many tables is compared whatever its size.
   */
  async compareRuntimeApis(team: string, comparison: RuntimeApiComparison): Promise<ApiChangeList> {
    const slices: ApiChangeSlice['changes'][] = [];
    // A slice may stop after building the documents (mayDefer) once: the next one compares a table.
    for (let start: number | undefined = 0, deferred = false; start !== undefined; ) {
      const slice = (await this.#submit(team, { task: 'apiChanges', comparison, start, budgetMs: this.#limits.timeoutMs / 4, mayDefer: !deferred })) as ApiChangeSlice;
      slices.push(slice.changes);
      deferred = slice.next === start;
      start = slice.next;
    }
    return summariseChanges(slices);
  }

  /** Tasks running and waiting, for tests and metrics. */
  get load(): { running: number; queued: number } {
    let queued = 0;
    for (const jobs of this.#queues.values()) queued += jobs.length;
    return { running: this.#slots.filter((slot) => slot.job).length, queued };
  }

  async close(): Promise<void> {
    this.#closed = true;
    for (const jobs of this.#queues.values()) for (const job of jobs) job.reject(errors.shuttingDown());
    this.#queues.clear();
    await Promise.all(this.#slots.map((slot) => this.#stop(slot, errors.shuttingDown())));
  }

  #submit(team: string, task: DistributiveOmit<ConfigTask, 'id'>): Promise<unknown> {
    if (this.#closed) return Promise.reject(errors.shuttingDown());
    const retryAfter = Math.max(1, Math.ceil(this.#limits.timeoutMs / 1000));
    const queued = this.#queues.get(team) ?? [];
    if (queued.length >= this.#limits.queuePerTeam) throw errors.teamWorkBusy(1 + this.#limits.queuePerTeam, retryAfter);
    // Every team could fill its own queue; past QUEUED_PER_WORKER tasks a worker, nobody else is taken.
    if (this.load.queued >= this.#limits.workers * QUEUED_PER_WORKER) throw errors.workBusy(retryAfter);
    return new Promise((resolve, reject) => {
      const job: Job = { team, task: { ...task, id: this.#nextId++ }, resolve: resolve as (value: unknown) => void, reject };
      queued.push(job);
      this.#queues.set(team, queued);
      this.#dispatch();
    });
  }

  /** Gives idle workers the next job of the first team in turn that runs nothing now. */
  #dispatch(): void {
    for (const slot of this.#slots) {
      if (slot.job) continue;
      const team = [...this.#queues.keys()].find((candidate) => !this.#running.get(candidate));
      if (team === undefined) return;
      const jobs = this.#queues.get(team)!;
      const job = jobs.shift()!;
      // The team goes to the back of the turn order.
      this.#queues.delete(team);
      if (jobs.length > 0) this.#queues.set(team, jobs);
      this.#running.set(team, 1);
      slot.job = job;
      if (slot.ready) this.#start(slot);
      else if (!slot.worker) this.#spawn(slot);
    }
  }

  #spawn(slot: Slot): void {
    const { entry, module } = workerStart();
    const worker = new Worker(entry, { workerData: { module: module.href }, resourceLimits: { maxOldGenerationSizeMb: this.#limits.memoryMb } });
    worker.unref();
    slot.worker = worker;
    slot.ready = false;
    worker.on('message', (message: { ready: true } | ConfigTaskReply) => {
      if ('ready' in message) {
        slot.ready = true;
        if (slot.job) this.#start(slot);
        return;
      }
      const job = slot.job;
      if (!job || job.task.id !== message.id) return;
      this.#finish(slot);
      if ('result' in message) job.resolve(message.result);
      else if ('error' in message) job.reject(new AppError(message.error.status, message.error.message, message.error.details ? { details: message.error.details } : {}));
      // A preview of a valid config that fails while generating: the config's fault as far as the caller can act on it.
      else job.reject(job.task.task === 'preview' ? errors.previewFailed(message.fault) : new Error(message.fault));
    });
    worker.on('error', (error: Error & { code?: string }) => {
      const failure = error.code === 'ERR_WORKER_OUT_OF_MEMORY' && slot.job ? errors.workTooLarge(WHAT[slot.job.task.task], this.#limits.memoryMb) : error;
      void this.#stop(slot, failure);
    });
    worker.on('exit', () => {
      if (slot.worker === worker) void this.#stop(slot, new Error('a config worker stopped'));
    });
  }

  /** Runs the slot's job, its time counted from now (the worker has loaded its modules). */
  #start(slot: Slot): void {
    const job = slot.job!;
    slot.timer = setTimeout(() => void this.#stop(slot, errors.workTooLong(WHAT[job.task.task], this.#limits.timeoutMs)), this.#limits.timeoutMs);
    slot.worker!.postMessage(job.task);
  }

  #finish(slot: Slot): void {
    clearTimeout(slot.timer);
    const job = slot.job;
    slot.job = undefined;
    slot.timer = undefined;
    if (job) {
      this.#running.delete(job.team);
      // The team just served goes behind the teams waiting meanwhile.
      const jobs = this.#queues.get(job.team);
      if (jobs) {
        this.#queues.delete(job.team);
        this.#queues.set(job.team, jobs);
      }
    }
    this.#dispatch();
  }

  /** Terminates the slot's worker (a new one starts for the next job), failing its job with `failure`. */
  async #stop(slot: Slot, failure: Error): Promise<void> {
    const { worker, job } = slot;
    slot.worker = undefined;
    slot.ready = false;
    if (job) {
      this.#finish(slot);
      job.reject(failure);
    }
    await worker?.terminate();
  }
}
