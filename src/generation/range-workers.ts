// A pool of range workers: an entity's rows cut into ranges, made in parallel by worker threads
// (the calling thread may make some too), handed back in order. A bounded window of ranges is made
// or under way at a time, so memory stays bounded. What a worker makes of a range is its module's
// (files: the bytes of a file format, src/files/range-worker.ts; a database load: bulk-load text,
// load-range-worker.ts); every worker plans the same generation, so a row is the same whichever
// thread makes it.
import { Worker } from 'node:worker_threads';
import type { RowValues } from '../model/row-value.ts';

/** A worker thread's module: its TypeScript source, and its file in the build (an entry point of scripts/build-server.ts). */
export interface RangeWorkerModule {
  source: URL;
  built: string;
}

/**
 * How a worker starts. From the TypeScript sources: worker-entry.mjs registers tsx, then imports
 * the module's source. From the build (scripts/build-server.ts makes each worker module an entry
 * point of its own, beside server.js, while this code may sit in dist/chunks/): the built file itself.
 */
function workerStart(worker: RangeWorkerModule): { entry: URL; module: URL } {
  if (import.meta.url.endsWith('.ts')) return { entry: new URL('./worker-entry.mjs', import.meta.url), module: worker.source };
  const here = new URL('./', import.meta.url);
  const built = here.pathname.endsWith('/chunks/') ? new URL('../', here) : here;
  const module = new URL(worker.built, built);
  return { entry: module, module };
}

/** Starts `count` worker threads of `module`; each loads its modules at once and waits for its setup. */
export function startRangeWorkers(count: number, module: RangeWorkerModule): Worker[] {
  const { entry, module: url } = workerStart(module);
  return Array.from({ length: count }, () => new Worker(entry, { workerData: { module: url.href } }));
}

export interface RangeTask {
  id: number;
  entity: string;
  from: number;
  to: number;
  /** Row `from`'s number in its output (from itself, unless the output is a shard's part, which numbers its rows from 0). */
  at: number;
}

/** The first message a worker takes: what it makes ranges of. */
export interface SetupMessage<Setup> {
  setup: Setup;
}

/** An entity made (or to be made) elsewhere whose keys the worker's rows draw: recomputed from the index. */
export interface AssumeMessage {
  assume: string;
  /** Its rows: what a real generation produced, or its row limit when nobody makes it in order. */
  produced: number;
}

/** A range made: as bytes (transferred), as one text, or as the rows' values; or why it failed. */
export type RangeResult =
  | { id: number; rows: number; chunks: Uint8Array[] }
  | { id: number; rows: number; text: string }
  | { id: number; rows: number; values: RowValues[] }
  | { id: number; error: string };

/** A range to make: rows `from` to `to` (exclusive) of an entity. */
export type RangeSpan = Pick<RangeTask, 'entity' | 'from' | 'to' | 'at'>;
export type RangeMade = Extract<RangeResult, { rows: number }>;

/** Ranges a worker is given ahead, so it never waits for the main thread to hand it the next. */
const WORKER_AHEAD = 3;

interface Slot {
  worker: Worker;
  /** Planned, listening for ranges. */
  ready: boolean;
  inFlight: number;
}

export class RangeWorkerPool<Setup> {
  readonly #slots: Slot[];
  readonly #pending = new Map<number, { slot: Slot; deliver(result: RangeResult): void }>();
  /** What the workers were told each entity made. */
  readonly #assumed = new Map<string, number>();
  #nextId = 0;
  #configured = false;
  #failure: Error | undefined;
  /** Callers of `ranges` waiting for a worker's message. */
  #waiting: (() => void)[] = [];

  protected constructor(workers: Worker[]) {
    this.#slots = workers.map((worker) => ({ worker, ready: false, inFlight: 0 }));
    for (const slot of this.#slots) {
      slot.worker.on('message', (message: RangeResult | { ready: true }) => {
        if ('ready' in message) slot.ready = true;
        else {
          const pending = this.#pending.get(message.id);
          if (!pending) return;
          this.#pending.delete(message.id);
          pending.slot.inFlight--;
          pending.deliver(message);
        }
        this.#notify();
      });
      slot.worker.on('error', (error) => this.#fail(error));
      slot.worker.on('exit', (code) => code !== 0 && this.#fail(new Error(`a generation worker stopped (exit code ${code})`)));
    }
  }

  /**
   * Tells every worker what to make; each takes ranges once it has planned the generation (`ranges`
   * meanwhile lets the calling thread make them). Once only, before `assume` and `ranges`.
   */
  configure(setup: Setup): this {
    if (this.#configured) throw new Error('range workers are configured once');
    this.#configured = true;
    for (const { worker } of this.#slots) worker.postMessage({ setup } satisfies SetupMessage<Setup>);
    return this;
  }

  /** Worker threads. */
  get size(): number {
    return this.#slots.length;
  }

  /**
   * Tells every worker about entities whose keys later rows draw (in plan order; each once, or again
   * with another count): their rows are recomputed from the index, `produced` of them. Workers take
   * messages in order (those sent while a worker starts wait for it), so this holds for every range
   * asked for after it.
   */
  assume(entities: { entity: string; produced: number }[]): void {
    for (const { entity, produced } of entities) {
      if (this.#assumed.get(entity) === produced) continue;
      this.#assumed.set(entity, produced);
      for (const { worker } of this.#slots) worker.postMessage({ assume: entity, produced } satisfies AssumeMessage);
    }
  }

  /**
   * The rows `from` … `to` (exclusive) of an entity in ranges of `rangeRows`, in order (a file of
   * them numbers row `from` 0). Ready workers get the next
   * ranges (a few each, ahead); while `local` gives a maker, the calling thread makes ranges too,
   * whenever none is waiting for it and fewer than `window` ranges are made or under way past the one
   * to yield next (`poke` when it starts giving one). `signal` stops it.
   */
  async *ranges(
    entity: string,
    rows: { from: number; to: number },
    rangeRows: number,
    local?: () => ((range: RangeSpan) => RangeMade) | undefined,
    signal?: AbortSignal,
  ): AsyncGenerator<RangeMade> {
    const count = Math.ceil(Math.max(0, rows.to - rows.from) / rangeRows);
    const poke = () => this.poke();
    signal?.addEventListener('abort', poke);
    try {
      yield* this.#ranges(entity, count, rows, rangeRows, local, signal);
    } finally {
      signal?.removeEventListener('abort', poke);
    }
  }

  /** Wakes `ranges` waiting for a worker: its `local` may give a maker now, or its signal stop it. */
  poke(): void {
    this.#notify();
  }

  async *#ranges(
    entity: string,
    count: number,
    rows: { from: number; to: number },
    rangeRows: number,
    local: (() => ((range: RangeSpan) => RangeMade) | undefined) | undefined,
    signal: AbortSignal | undefined,
  ): AsyncGenerator<RangeMade> {
    // Threads finish ranges out of order: the window lets each run on while the range to yield next is
    // still under way elsewhere.
    const window = (this.#slots.length + (local ? 1 : 0)) * 4;
    const span = (index: number): RangeSpan => ({ entity, from: rows.from + index * rangeRows, to: Math.min(rows.to, rows.from + (index + 1) * rangeRows), at: index * rangeRows });
    const made = new Map<number, RangeResult | undefined>();
    let next = 0;
    let assigned = 0;
    const room = () => assigned < count && assigned < next + window;
    while (next < count) {
      if (this.#failure) throw this.#failure;
      signal?.throwIfAborted();
      for (const slot of this.#slots) {
        while (slot.ready && slot.inFlight < WORKER_AHEAD && room()) {
          const index = assigned++;
          made.set(index, undefined);
          this.#run(slot, { id: this.#nextId++, ...span(index) }, (result) => made.set(index, result));
        }
      }
      const head = made.get(next);
      const maker = local?.();
      if (head) {
        made.delete(next++);
        if ('error' in head) throw new Error(head.error);
        yield head;
      } else if (maker && room()) {
        const index = assigned++;
        made.set(index, maker(span(index)));
        // Let the event loop deliver what workers sent (a worker ready, ranges made) meanwhile.
        await new Promise((resolve) => setImmediate(resolve));
      } else {
        await new Promise<void>((resolve) => this.#waiting.push(resolve));
      }
    }
  }

  async close(): Promise<void> {
    await Promise.all(this.#slots.map(({ worker }) => worker.terminate()));
  }

  #run(slot: Slot, task: RangeTask, deliver: (result: RangeResult) => void): void {
    slot.inFlight++;
    this.#pending.set(task.id, { slot, deliver });
    slot.worker.postMessage(task);
  }

  #notify(): void {
    const waiting = this.#waiting;
    this.#waiting = [];
    for (const wake of waiting) wake();
  }

  #fail(error: Error): void {
    this.#failure ??= error;
    this.#notify();
  }
}
