// Runs a generation into a target: plan → create tables → stream each entity's rows in dependency
// order → fill deferred (self and cyclic) references → keys, indexes and foreign keys → optional
// atomic swap into the live namespace. Used by the CLI now and by generation jobs.
import type { SchemaConfig } from '../contract.ts';
import type { TableSpec } from '../model/table-spec.ts';
import type { LoadTransaction, TargetConnection } from '../dialects/dialect.ts';
import { isReservedNamespace } from '../dialects/index.ts';
import { stagingNamespace } from '../model/namespace-names.ts';
import { DataGenerator } from './generator.ts';
import { LoadRanges, loadThreads } from './load-ranges.ts';
import { LoadStreams, loadStreams } from './load-streams.ts';
import { planGeneration, type EntityPlan, type GenerationOptions } from './plan.ts';
import { abortable } from './row-batches.ts';
import { scheduleGeneration, ScheduledRows } from './schedule.ts';
import { hasFeature } from './versions.ts';
import { CoherenceAudit, type CoherenceCount } from './coherence/report.ts';
import { generationTotals, type GenerationTotals } from '../model/generation-summary.ts';

/**
 * Rows per generated batch. Batch size never changes the generated values (determinism tests cover
 * it); 1,000 keeps each batch's rows and COPY/LOAD DATA text young enough to die in the young
 * generation, which measured 7–10% less CPU than 5,000 (less GC).
 */
export const DEFAULT_BATCH_SIZE = 1_000;

export type ProgressEvent =
  | { type: 'entity.started'; entity: string; rowsPlanned: number }
  | { type: 'entity.progress'; entity: string; rowsPlanned: number; rowsWritten: number }
  | { type: 'entity.completed'; entity: string; rowsPlanned: number; rowsWritten: number }
  | { type: 'phase'; phase: 'tables' | 'references' | 'constraints' | 'swap' };

export interface RunOptions extends GenerationOptions {
  batchSize?: number;
  /**
   * Threads that make rows (default 1: measured slower on a 2-core machine shared with the database): this one, which also streams
   * them to the database, and `workers - 1` worker threads, which make the large entities the
   * schedule makes in ranges (load-ranges.ts). The database holds the same rows whatever the number.
   */
  workers?: number;
  /**
   * Loads in flight at once, each on a connection of its own (default 1: one table at a time).
   * Above 1, entities the schedule makes in ranges (no deferred columns, unwatched by the audit)
   * stream into their tables while the next entities load, a large one cut into parts streamed at
   * once (load-streams.ts); keys, indexes and foreign keys still come after the rows. The tables
   * hold the same rows whatever the number (in primary-key order; a table loaded in parts may keep
   * them in another physical order).
   */
  streams?: number;
  /** Rows of each part an entity streamed at once is cut into, at least (default 50,000); tests make it small. */
  streamPartMinRows?: number;
  /** Entities made in ranges go to the threads from this many rows (default 50,000); tests make it small. */
  parallelMinRows?: number;
  /** Rows of each range a thread makes (default 5,000). */
  rangeRows?: number;
  onProgress?: (event: ProgressEvent) => void;
  /** Checked between batches: an aborted run stops at the next batch and throws. */
  signal?: AbortSignal;
  /**
   * Build in a staging namespace and swap it in at the end, so readers of `namespace` see the old
   * data or the new, never a partial load (a failed run leaves the old data in place).
   */
  atomic?: boolean;
  /** Count how many rows hold each coherence rule (summary.coherence); default: with generator version 2 and later. */
  report?: boolean;
  /**
   * Called just before the run creates, replaces or swaps into a namespace on the target (the
   * staging one, then the live one); throwing refuses it, and the run then leaves that namespace
   * alone (no clean-up drops it). Generation jobs use it so that sds only ever replaces namespaces it
   * created (management/namespace-ownership.ts).
   */
  claimNamespace?: (namespace: string) => Promise<void>;
  /**
   * Runs the swap (with its claim of the live namespace), and a failed atomic run's drop of its
   * staging namespace, or throws instead of running them. Generation jobs hold their job's row
   * meanwhile (JobStore.whileHeld): a run whose job was taken over or failed while it was slow never
   * swaps in, or drops, a staging namespace another run of the source is building. Default: runs them.
   */
  hold?: <T>(work: () => Promise<T>) => Promise<T>;
}

export type HoldJob = NonNullable<RunOptions['hold']>;

/** A generation's totals (model/generation-summary.ts, as a job split into tasks reports them), and its coherence counts. */
export interface GenerationSummary extends GenerationTotals {
  /** Per coherence rule, entity and field, rows checked and rows holding it (when reported). */
  coherence?: CoherenceCount[];
}

export { stagingNamespace };

export async function runGeneration(
  connection: TargetConnection,
  namespace: string,
  config: SchemaConfig,
  options: RunOptions = {},
): Promise<GenerationSummary> {
  // Namespaces of the server or of other users are never sds's to replace.
  if (isReservedNamespace(namespace)) {
    throw new Error(`refusing to generate into "${namespace}": sds replaces its namespace, so it must be one of its own (e.g. sds_blog)`);
  }
  const started = performance.now();
  const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
  const emit = options.onProgress ?? (() => {});
  const plan = planGeneration(config, options);
  const generator = new DataGenerator(config, plan);
  if (options.report ?? hasFeature(plan.version, 'auditByDefault')) generator.audit = new CoherenceAudit(config, plan);
  // The namespace the run builds: a staging one beside the live data when atomic, else the live one.
  const building = options.atomic ? stagingNamespace(namespace) : namespace;
  const tables = plan.entities.map((entity) => entity.table);
  // The load reads rows through the schedule: entities made in ranges may be made by worker threads.
  const scheduled = new ScheduledRows(generator, () => scheduleGeneration(config, plan));
  const ranges = connection.textLoader ? new LoadRanges(scheduled, config, plan, options, connection.dialect, loadThreads(options.workers), options) : undefined;
  const streams = connection.textLoader
    ? new LoadStreams(scheduled, config, plan, connection, building, loadStreams(options.streams), { batchSize, signal: options.signal, partMinRows: options.streamPartMinRows })
    : undefined;
  const indexing = new IndexingWork(connection, building);
  const claim = options.claimNamespace ?? (async () => {});
  const hold: HoldJob = options.hold ?? ((work) => work());
  // Set once `building` is the run's to replace: a failure before that must not drop it.
  let claimed = false;

  try {
    emit({ type: 'phase', phase: 'tables' });
    ranges?.startFor(plan.entities.map((entity) => entity.id));
    await claim(building);
    claimed = true;
    await connection.recreateNamespace(building);
    await connection.createTables(building, tables);

    // In plan order, whichever load finishes first.
    const loaded: Array<GenerationSummary['entities'][number] | undefined> = [];
    const signal = streams?.signal ?? options.signal;
    for (const [index, entity] of plan.entities.entries()) {
      signal?.throwIfAborted();
      emit({ type: 'entity.started', entity: entity.id, rowsPlanned: entity.rowCount });
      const onBatch = (written: number) => emit({ type: 'entity.progress', entity: entity.id, rowsPlanned: entity.rowCount, rowsWritten: written });
      const onDone = (rowsInserted: number) => {
        emit({ type: 'entity.completed', entity: entity.id, rowsPlanned: entity.rowCount, rowsWritten: rowsInserted });
        loaded[index] = { id: entity.id, rowsPlanned: entity.rowCount, rowsInserted };
        // Its rows are final unless deferred updates are still to come: index it while the next tables load.
        if (entity.deferredColumns.length === 0) indexing.start(entity.table);
      };
      // Streamed beside the next entities, over connections of their own (threads making rows keep the large ones).
      if (streams?.takes(entity.id) && !ranges?.takes(entity.id)) {
        await streams.start({ entity, onBatch, onDone });
        continue;
      }
      const load = async () =>
        (ranges?.takes(entity.id) ? await loadRanges(connection, building, entity, scheduled, ranges, signal, onBatch) : undefined) ??
        (await loadEntity(connection, building, entity, scheduled, batchSize, signal, onBatch));
      onDone(streams ? await streams.own(load) : await load());
    }

    await streams?.finished();
    await ranges?.close();
    const entities = loaded.filter((entity) => entity !== undefined);

    const deferred = plan.entities.filter((entity) => entity.deferredColumns.length > 0);
    if (deferred.length) emit({ type: 'phase', phase: 'references' });
    await fillDeferred(connection, building, deferred, scheduled, batchSize, options.signal);

    emit({ type: 'phase', phase: 'constraints' });
    const indexed = await indexing.finished();
    // `building` was recreated empty above and filled only by this generator, which draws every
    // reference from rows it wrote: the referenced rows exist, so the orphan check can be skipped.
    await connection.finalizeTables(building, tables, { trustedReferences: true, indexed });
    if (options.atomic) {
      options.signal?.throwIfAborted();
      emit({ type: 'phase', phase: 'swap' });
      await hold(async () => {
        await claim(namespace);
        await connection.swapNamespaces(building, namespace);
      });
    }

    return {
      ...generationTotals(namespace, plan, entities, generator.warnings, started),
      ...(generator.audit ? { coherence: generator.audit.report() } : {}),
    };
  } catch (error) {
    // Nothing of the run may still be working on the target once it has failed, and a failed atomic
    // run leaves the live namespace untouched while its half-built staging goes. Both wait on the
    // target: one gone dark would hold the failure until TCP keep-alive gives up (minutes), so after
    // CLEANUP_MS the failure is reported and the clean-up goes on behind it (the next run recreates
    // its staging namespace anyway). The drop holds the job's row (hold) no longer than that either:
    // a drop hanging on a dark target would keep the job from being failed.
    const deadline = Date.now() + CLEANUP_MS;
    const cleanup = (async () => {
      await streams?.settled();
      await ranges?.close();
      await indexing.settled();
      if (options.atomic && claimed && Date.now() < deadline) await hold(() => beforeDeadline(connection.dropNamespace(building), deadline));
    })().catch(() => {});
    await Promise.race([cleanup, new Promise((resolve) => setTimeout(resolve, CLEANUP_MS).unref())]);
    throw error;
  }
}

/** Longest a failed run waits for its clean-up on the target before it reports the failure. */
const CLEANUP_MS = 5_000;

/** `work`, or a rejection once `deadline` (epoch ms) passes first. */
function beforeDeadline<T>(work: Promise<T>, deadline: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('the clean-up ran out of time')), Math.max(0, deadline - Date.now()));
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/**
 * Tables indexed in the background (TargetConnection.indexTable, where the target has it) while
 * later tables load: the database builds keys and statistics on one connection while the generator
 * feeds another.
 */
class IndexingWork {
  readonly #tables = new Set<string>();
  readonly #work: Promise<void>[] = [];

  constructor(
    private readonly connection: TargetConnection,
    private readonly namespace: string,
  ) {}

  start(table: TableSpec): void {
    const work = this.connection.indexTable?.(this.namespace, table);
    if (!work) return;
    // Awaited by finished() or settled(); until then a failure must not count as unhandled.
    work.catch(() => {});
    this.#work.push(work);
    this.#tables.add(table.name);
  }

  /** Waits for every table started; rejects with the first failure. Resolves to the tables' names. */
  async finished(): Promise<ReadonlySet<string>> {
    await Promise.all(this.#work);
    return this.#tables;
  }

  /** Waits for every table started, failed or not. */
  async settled(): Promise<void> {
    await Promise.allSettled(this.#work);
  }
}

/**
 * Loads an entity's rows (on a connection, or in a task's load transaction), as bulk-load text encoded row by row when the target takes it (no row
 * arrays kept in batches: less garbage), else as batches of rows. A target that refuses the text
 * before reading any of it has left the generator untouched, so the rows are then made afresh.
 */
export async function loadEntity(
  connection: Pick<LoadTransaction, 'loadRows' | 'textLoader'>,
  namespace: string,
  entity: EntityPlan,
  scheduled: ScheduledRows,
  batchSize: number,
  signal: AbortSignal | undefined,
  onBatch: (written: number) => void,
): Promise<number> {
  const loader = connection.textLoader;
  if (loader) {
    const chunks = scheduled.textChunks(entity.id, batchSize, loader.encoder(entity.table));
    const written = await loader.load(namespace, entity.table, abortable(chunks, signal), onBatch);
    if (written !== undefined) return written;
  }
  return connection.loadRows(namespace, entity.table, abortable(scheduled.batches(entity.id, batchSize), signal), onBatch);
}

/**
 * A load's second pass: the deferred columns (self and cyclic references) of the entities that have
 * them, filled once every row they point to is written.
 */
export async function fillDeferred(
  target: Pick<LoadTransaction, 'updateRows'>,
  namespace: string,
  entities: readonly EntityPlan[],
  scheduled: ScheduledRows,
  batchSize: number,
  signal: AbortSignal | undefined,
): Promise<void> {
  for (const entity of entities.filter((candidate) => candidate.deferredColumns.length > 0)) {
    signal?.throwIfAborted();
    await target.updateRows(namespace, entity.table, entity.table.primaryKey, entity.deferredColumns, abortable(scheduled.deferredUpdates(entity.id, batchSize), signal));
  }
}

/**
 * Loads an entity made in ranges from the load's threads (LoadRanges), then declares it made, its
 * keys recomputed for later entities (as the schedule's `declare` step). Undefined, with nothing
 * made, when the target refuses bulk-load text (the caller then loads it as rows).
 */
async function loadRanges(
  connection: Pick<LoadTransaction, 'textLoader'>,
  namespace: string,
  entity: EntityPlan,
  scheduled: ScheduledRows,
  ranges: LoadRanges,
  signal: AbortSignal | undefined,
  onBatch: (written: number) => void,
): Promise<number | undefined> {
  const written = await connection.textLoader!.load(namespace, entity.table, ranges.chunks(entity.id, signal), onBatch);
  if (written === undefined) return undefined;
  scheduled.prepare(entity.id, signal);
  return written;
}
