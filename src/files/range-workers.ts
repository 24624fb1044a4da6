// A pool of range workers (range-worker.ts): an entity's rows cut into ranges, made in parallel,
// handed back in order. At most two ranges per worker are in flight, so memory stays bounded.
import { Worker } from 'node:worker_threads';
import type { AssumeMessage, RangeResult, RangeTask, RangeWorkerSetup } from './range-worker.ts';

/**
 * How a worker starts. From the TypeScript sources: worker-entry.mjs registers tsx, then imports
 * range-worker.ts. From the build (scripts/build-server.ts makes range-worker.js an entry point of
 * its own, beside server.js, while this code may sit in dist/chunks/): range-worker.js itself.
 */
function workerStart(): { entry: URL; module: URL } {
  if (import.meta.url.endsWith('.ts')) return { entry: new URL('./worker-entry.mjs', import.meta.url), module: new URL('./range-worker.ts', import.meta.url) };
  const here = new URL('./', import.meta.url);
  const built = here.pathname.endsWith('/chunks/') ? new URL('../', here) : here;
  const module = new URL('range-worker.js', built);
  return { entry: module, module };
}

interface Pending {
  resolve(result: RangeResult): void;
  reject(error: Error): void;
}

export class RangeWorkers {
  readonly #workers: Worker[];
  readonly #pending = new Map<number, Pending>();
  readonly #assumed = new Set<string>();
  #nextId = 0;
  #nextWorker = 0;
  #failure: Error | undefined;

  private constructor(workers: Worker[]) {
    this.#workers = workers;
    for (const worker of workers) {
      worker.on('message', (message: RangeResult) => {
        const pending = this.#pending.get(message.id);
        if (!pending) return;
        this.#pending.delete(message.id);
        if ('error' in message) pending.reject(new Error(message.error));
        else pending.resolve(message);
      });
      worker.on('error', (error) => this.#fail(error));
      worker.on('exit', (code) => code !== 0 && this.#fail(new Error(`a generation worker stopped (exit code ${code})`)));
    }
  }

  /** Starts `count` workers and waits until each has planned the generation. */
  static async start(count: number, setup: RangeWorkerSetup): Promise<RangeWorkers> {
    const { entry, module } = workerStart();
    const workers = Array.from({ length: count }, () => new Worker(entry, { workerData: { module: module.href, setup } }));
    try {
      await Promise.all(
        workers.map(
          (worker) =>
            new Promise<void>((resolve, reject) => {
              const ready = (message: { ready?: boolean }) => {
                if (message.ready) {
                  worker.off('message', ready);
                  resolve();
                }
              };
              worker.on('message', ready);
              worker.once('error', reject);
              worker.once('exit', (code) => reject(new Error(`a generation worker stopped while starting (exit code ${code})`)));
            }),
        ),
      );
    } catch (error) {
      await Promise.all(workers.map((worker) => worker.terminate()));
      throw error;
    }
    return new RangeWorkers(workers);
  }

  get size(): number {
    return this.#workers.length;
  }

  /**
   * Tells every worker about entities whose keys later rows draw (in plan order; each once): their
   * rows are recomputed from the index, `produced` of them. Workers take messages in order, so this
   * holds for every range asked for after it.
   */
  assume(entities: { entity: string; produced: number }[]): void {
    for (const { entity, produced } of entities) {
      if (this.#assumed.has(entity)) continue;
      this.#assumed.add(entity);
      for (const worker of this.#workers) worker.postMessage({ assume: entity, produced } satisfies AssumeMessage);
    }
  }

  /** The rows 0 … total of an entity in ranges of `rangeRows`, in order. */
  async *ranges(entity: string, total: number, rangeRows: number): AsyncGenerator<Extract<RangeResult, { rows: number }>> {
    const count = Math.ceil(total / rangeRows);
    const window = this.#workers.length * 2;
    const inFlight: Promise<RangeResult>[] = [];
    let submitted = 0;
    const submit = () => {
      const from = submitted * rangeRows;
      const result = this.#run({ id: this.#nextId++, entity, from, to: Math.min(total, from + rangeRows) });
      // Awaited in order below; a consumer that stops early must not leave it unhandled.
      result.catch(() => {});
      inFlight.push(result);
      submitted++;
    };
    while (submitted < count && inFlight.length < window) submit();
    for (let index = 0; index < count; index++) {
      const result = await inFlight.shift()!;
      if (submitted < count) submit();
      if ('error' in result) throw new Error(result.error);
      yield result;
    }
  }

  async close(): Promise<void> {
    await Promise.all(this.#workers.map((worker) => worker.terminate()));
  }

  #run(task: RangeTask): Promise<RangeResult> {
    if (this.#failure) return Promise.reject(this.#failure);
    const worker = this.#workers[this.#nextWorker++ % this.#workers.length]!;
    return new Promise((resolve, reject) => {
      this.#pending.set(task.id, { resolve, reject });
      worker.postMessage(task);
    });
  }

  #fail(error: Error): void {
    this.#failure ??= error;
    for (const pending of this.#pending.values()) pending.reject(error);
    this.#pending.clear();
  }
}
