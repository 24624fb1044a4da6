// Loads streamed at once (issue 30): entities the schedule makes in ranges, whose rows depend on no
// row made after them, are streamed into their tables over connections of their own while the load
// goes on with the next entities; a large one is cut into parts streamed at once into the same
// table. The parts' rows come from a generator of their own (rows of ranges publish nothing, so
// parts interleave on it), told which entities exist as the one generating in plan order knew them,
// so every row is the one a load on one connection makes.
// At most `streams` loads (parts, and the loading thread's own) are in flight at a time.
import type { SchemaConfig } from '../contract.ts';
import type { LoadTransaction } from '../dialects/dialect.ts';
import { DataGenerator } from './generator.ts';
import type { EntityPlan, GenerationPlan } from './plan.ts';
import { abortable } from './row-batches.ts';
import { ScheduledRows } from './schedule.ts';

/** Loads in flight at once: `streams` as asked, by default 1 (one table at a time, as before). */
export function loadStreams(streams?: number): number {
  return Math.max(1, Math.floor(streams ?? 1));
}

/** Rows of each part an entity is cut into at least: a part costs a generator and a connection's statement. */
export const STREAM_PART_MIN_ROWS = 50_000;

type Loader = Pick<LoadTransaction, 'textLoader' | 'loadRows'>;

export interface StreamedEntity {
  entity: EntityPlan;
  /** The entity's rows written so far, all parts together, after each batch of a part. */
  onBatch(written: number): void;
  /** Every part written: the entity's rows. */
  onDone(rows: number): void;
}

export class LoadStreams {
  readonly #slots: Slots;
  readonly #work: Promise<void>[] = [];
  readonly #abort = new AbortController();
  #failure: unknown;
  /** The parts' rows (a generator of their own, read through the load's schedule), made with the first part; `#assumed`: the entities it was told of. */
  #rows: ScheduledRows | undefined;
  readonly #assumed = new Set<string>();

  constructor(
    private readonly scheduled: ScheduledRows,
    private readonly config: SchemaConfig,
    private readonly plan: GenerationPlan,
    private readonly loader: Loader,
    private readonly namespace: string,
    /** Loads in flight at once, the loading thread's own included (loadStreams). */
    readonly streams: number,
    private readonly options: {
      batchSize: number;
      signal?: AbortSignal;
      partMinRows?: number;
    },
  ) {
    this.#slots = new Slots(streams);
  }

  /** Aborted by the caller's signal or by the first failed stream: every load in flight stops at its next batch. */
  get signal(): AbortSignal {
    return this.options.signal ? AbortSignal.any([this.options.signal, this.#abort.signal]) : this.#abort.signal;
  }

  /** Whether an entity streams beside the others: made in ranges, complete as loaded (no deferred columns), unwatched by the audit. */
  takes(entityId: string): boolean {
    if (this.streams < 2 || !this.loader.textLoader) return false;
    const entity = this.scheduled.entity(entityId);
    return entity.made === 'ranges' && entity.deferredColumns.length === 0 && !this.scheduled.generator.audit?.observes(entityId);
  }

  /** Runs a load of the loading thread's own in a slot (so that it counts against `streams`). */
  async own<T>(load: () => Promise<T>): Promise<T> {
    await this.#acquire();
    try {
      return await load();
    } finally {
      this.#slots.release();
    }
  }

  /**
   * Declares the entity made (its keys recomputed for later entities, as the schedule's `declare`
   * step) and starts streaming its parts, each once a slot is free: resolves when the last has
   * started, not when they are written (finished() waits for that).
   */
  async start({ entity, onBatch, onDone }: StreamedEntity): Promise<void> {
    // What the parts' generator must assume: every recomputed entity as made so far in plan order
    // (the entity's ancestors among them, all final by now).
    // Its schedule is the load's (the draws of unique fields with it, adopted before anything is assumed).
    const rows = (this.#rows ??= new ScheduledRows(new DataGenerator(this.config, this.plan), () => this.scheduled.schedule));
    const produced = this.scheduled.generator.produced;
    for (const other of rows.schedule.entities) {
      if (!other.recomputed || !produced.has(other.id) || this.#assumed.has(other.id)) continue;
      rows.generator.assumeGenerated(other.id, false, produced.get(other.id));
      this.#assumed.add(other.id);
    }
    this.scheduled.prepare(entity.id, this.options.signal);
    const limit = this.scheduled.rowLimit(entity.id);
    const parts = Math.max(1, Math.min(this.streams, Math.floor(limit / (this.options.partMinRows ?? STREAM_PART_MIN_ROWS))));
    const written = new Array<number>(parts).fill(0);
    const total = () => written.reduce((sum, rows) => sum + rows, 0);
    const loads: Promise<void>[] = [];
    try {
      for (let part = 0; part < parts; part++) {
        await this.#acquire();
        const from = Math.floor((limit * part) / parts);
        const to = Math.floor((limit * (part + 1)) / parts);
        const load = this.#loadPart(rows, entity, from, to, (count) => {
          written[part] = count;
          onBatch(total());
        }).then(
          (count) => {
            written[part] = count;
          },
          (error: unknown) => {
            this.#failure ??= error;
            this.#abort.abort(error);
            throw error;
          },
        );
        loads.push(load.finally(() => this.#slots.release()));
      }
    } finally {
      const all = Promise.all(loads).then(() => onDone(total()));
      // Awaited by finished() or settled(); until then a failure must not count as unhandled.
      all.catch(() => {});
      this.#work.push(all);
    }
  }

  /** Waits for every stream started; rejects with the first failure. */
  async finished(): Promise<void> {
    await Promise.all(this.#work);
  }

  /** Stops every stream at its next batch and waits for them, failed or not. */
  async settled(): Promise<void> {
    this.#abort.abort(new Error('the load stopped'));
    await Promise.allSettled(this.#work);
  }

  async #acquire(): Promise<void> {
    if (this.#failure !== undefined) throw this.#failure;
    await this.#slots.acquire();
    if (this.#failure !== undefined) {
      this.#slots.release();
      throw this.#failure;
    }
  }

  /** Rows `from` … `to` of an entity into its table. */
  async #loadPart(rows: ScheduledRows, entity: EntityPlan, from: number, to: number, onBatch: (written: number) => void): Promise<number> {
    const signal = this.signal;
    const textLoader = this.loader.textLoader!;
    const chunks = rows.textChunks(entity.id, this.options.batchSize, textLoader.encoder(entity.table), { from, to });
    const written = await textLoader.load(this.namespace, entity.table, abortable(chunks, signal, STREAM_TURN_MS), onBatch);
    if (written !== undefined) return written;
    // Refused as text before any chunk was read (PostgreSQL binary COPY): the same rows as batches.
    return this.loader.loadRows(this.namespace, entity.table, abortable(rows.batches(entity.id, this.options.batchSize, { from, to }), signal, STREAM_TURN_MS), onBatch);
  }
}


/** A stream's turn: streams are fed by one thread, and a socket that takes every write at once would let one stream make all its rows before the others make any. */
const STREAM_TURN_MS = 20;

/** A counting semaphore: at most `size` holders at once, waiters served in turn. */
class Slots {
  #free: number;
  readonly #waiting: (() => void)[] = [];

  constructor(size: number) {
    this.#free = size;
  }

  async acquire(): Promise<void> {
    if (this.#free > 0) {
      this.#free--;
      return;
    }
    await new Promise<void>((resolve) => this.#waiting.push(resolve));
  }

  release(): void {
    const next = this.#waiting.shift();
    if (next) next();
    else this.#free++;
  }
}
