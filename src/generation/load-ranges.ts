// The rows of a database load made in parallel: an entity the schedule makes in ranges is cut into
// ranges of rows that worker threads (load-range-worker.ts) and this thread make and encode as the
// engine's bulk-load text, handed to the loader in row order, so the table holds the same rows, in
// the same order, as when this thread makes them all. A bounded window of ranges is under way at a
// time (range-workers.ts), so memory stays bounded whatever the table's size.
import type { SchemaConfig } from '../contract.ts';
import type { Dialect, TextChunk } from '../dialects/dialect.ts';
import type { RowValues } from '../model/row-value.ts';
import type { LoadWorkerSetup } from './load-range-worker.ts';
import type { GenerationOptions, GenerationPlan } from './plan.ts';
import { RangeWorkerPool, startRangeWorkers, type RangeMade, type RangeSpan } from './range-workers.ts';
import { sendSchedule, type ScheduledRows } from './schedule.ts';

const LOAD_RANGE_WORKER = { source: new URL('./load-range-worker.ts', import.meta.url), built: 'load-range-worker.js' };

/** Rows a thread makes at a time: short enough (tens of milliseconds) for this thread's turns of the event loop. */
const RANGE_ROWS = 5_000;
/** Entities with fewer rows load from this thread alone: starting workers costs more than they save. */
export const LOAD_PARALLEL_MIN_ROWS = 50_000;

/**
 * Threads that make a load's rows: `workers` as asked, by default 1. Not the cores by default: on a
 * 2-core machine that the database shares, a worker thread measured twice the wall time and 110 MB
 * more RSS (bench:generation --workers 2 vs 1, PostgreSQL, load average 9), the rows being CPU
 * the database needs too.
 */
export function loadThreads(workers?: number): number {
  return Math.max(1, Math.floor(workers ?? 1));
}

class LoadRangeWorkers extends RangeWorkerPool<LoadWorkerSetup> {
  static spawn(count: number): LoadRangeWorkers {
    return new LoadRangeWorkers(startRangeWorkers(count, LOAD_RANGE_WORKER));
  }
}

/** The worker threads of one load, started when its first large entity made in ranges comes. */
export class LoadRanges {
  #pool: LoadRangeWorkers | undefined;

  constructor(
    private readonly rows: ScheduledRows,
    private readonly config: SchemaConfig,
    private readonly plan: GenerationPlan,
    /** The options the plan was made with (seed, row counts): the workers plan with them. */
    private readonly options: GenerationOptions,
    private readonly dialect: Dialect,
    /** Threads making rows, this one included (loadThreads). */
    private readonly threads: number,
    private readonly sizes: { parallelMinRows?: number; rangeRows?: number } = {},
  ) {}

  /** Whether this entity's rows are made by the threads: made in ranges, large, complete as loaded (no deferred columns), unwatched by the audit. */
  takes(entityId: string): boolean {
    if (this.threads < 2) return false;
    const entity = this.rows.entity(entityId);
    return (
      entity.made === 'ranges' &&
      entity.deferredColumns.length === 0 &&
      (entity.rowLimit ?? 0) >= (this.sizes.parallelMinRows ?? LOAD_PARALLEL_MIN_ROWS) &&
      !this.rows.generator.audit?.observes(entityId)
    );
  }

  /**
   * Starts the worker threads now when one of the entities will take them: they load their modules
   * and plan (a second or more of CPU) while the tables are created and earlier entities load.
   */
  startFor(entityIds: readonly string[]): void {
    if (entityIds.some((id) => this.takes(id))) this.#start();
  }

  /**
   * Every row of an entity (`takes`) as bulk-load text chunks in row order, each chunk a range and
   * its rows (TextChunk.batchRows). Consumed lazily: nothing is made before the loader reads.
   */
  async *chunks(entityId: string, signal?: AbortSignal): AsyncGenerator<TextChunk> {
    const pool = this.#start();
    // The workers recompute the keys of every recomputed entity made so far, as many rows as made.
    const produced = this.rows.generator.produced;
    pool.assume(this.rows.schedule.entities.filter((other) => other.recomputed && produced.has(other.id)).map((other) => ({ entity: other.id, produced: produced.get(other.id)! })));
    const limit = this.rows.rowLimit(entityId);
    const table = this.rows.entity(entityId).plan.table;
    const encode = this.dialect.bulkTextEncoder(table);
    const local = (range: RangeSpan): RangeMade => makeRange(this.rows.rows(range.entity, range.from, range.to, { reuse: true }), encode);
    for await (const range of pool.ranges(entityId, { from: 0, to: limit }, this.sizes.rangeRows ?? RANGE_ROWS, () => local, signal)) {
      if (!('text' in range)) throw new Error('a load range worker made something other than text');
      yield { text: range.text, batchRows: range.rows };
    }
  }

  async close(): Promise<void> {
    await this.#pool?.close();
    this.#pool = undefined;
  }

  #start(): LoadRangeWorkers {
    return (this.#pool ??= LoadRangeWorkers.spawn(this.threads - 1).configure({
      config: this.config,
      options: { seed: this.options.seed, rowCounts: this.options.rowCounts, referenceDate: this.plan.referenceDate, generatorVersion: this.plan.version },
      dialect: this.dialect.kind,
      schedule: sendSchedule(this.rows.schedule),
    }));
  }
}

function makeRange(rows: Iterable<RowValues>, encode: (row: RowValues) => string): RangeMade {
  let text = '';
  let count = 0;
  for (const row of rows) {
    text += encode(row);
    count++;
  }
  return { id: -1, rows: count, text };
}
