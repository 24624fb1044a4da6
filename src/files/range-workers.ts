// The range workers of file output: the generation's pool of worker threads (generation/range-workers.ts)
// running range-worker.ts, which makes ranges of rows as the bytes (or values) of a file format.
import { RangeWorkerPool, startRangeWorkers } from '../generation/range-workers.ts';
import type { RangeWorkerSetup } from './range-worker.ts';

export type { RangeMade, RangeSpan } from '../generation/range-workers.ts';

const FILE_RANGE_WORKER = { source: new URL('./range-worker.ts', import.meta.url), built: 'range-worker.js' };

export class RangeWorkers extends RangeWorkerPool<RangeWorkerSetup> {
  /**
   * Starts `count` workers, which load the generator's modules at once (a few hundred milliseconds
   * each) and wait for `configure`: a caller that will generate starts them before reading its
   * config. A worker that fails to start fails the ranges asked for.
   */
  static spawn(count: number): RangeWorkers {
    return new RangeWorkers(startRangeWorkers(count, FILE_RANGE_WORKER));
  }
}
