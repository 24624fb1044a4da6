// Rows as loaders take them: batches of row arrays, or bulk-load text chunks that close with each
// batch or sooner once their text is long. One loop each, whether the rows are made in order
// (DataGenerator) or in ranges (ScheduledRows).
import type { TextChunk } from '../dialects/dialect.ts';
import { TEXT_CHUNK_CHARS } from '../dialects/bulk-text.ts';
import type { RowValues } from '../model/row-value.ts';

/** A batch size as a count of rows: a whole number, at least 1. */
export function batchLength(batchSize: number): number {
  return Math.max(1, Math.floor(batchSize));
}

/** `rows` in batches of `batchSize` rows (the last one shorter), each row passed through `project` when given (a seed's loaded columns). */
export function* rowBatches(rows: Iterable<RowValues>, batchSize: number, project?: (row: RowValues) => RowValues): Generator<RowValues[]> {
  const size = batchLength(batchSize);
  let batch: RowValues[] = [];
  for (const row of rows) {
    batch.push(project ? project(row) : row);
    if (batch.length >= size) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}

/**
 * The rows `next()` makes (undefined after the last) as bulk-load text, each encoded as soon as it is
 * made (a reused array is fine): a chunk closes with each `batchSize` rows, carrying their count, or
 * sooner once its text reaches TEXT_CHUNK_CHARS. `ended` is called once the rows ran out, before the
 * last chunk goes. Plain calls, not a generator resumed per row: rows are most of a load's work.
 */
export function* textChunks(next: () => RowValues | undefined, encodeRow: (row: RowValues) => string, batchSize: number, ended?: () => void): Generator<TextChunk> {
  const size = batchLength(batchSize);
  let text = '';
  let rows = 0;
  for (let values = next(); values !== undefined; values = next()) {
    text += encodeRow(values);
    if (++rows >= size) {
      yield { text, batchRows: rows };
      text = '';
      rows = 0;
    } else if (text.length >= TEXT_CHUNK_CHARS) {
      yield { text };
      text = '';
    }
  }
  ended?.();
  if (rows > 0) yield { text, batchRows: rows };
}

/** Longest stretch of generating and loading without giving timers and I/O of the process a turn. */
const EVENT_LOOP_TURN_MS = 50;

/**
 * Batches (or chunks) handed to a loader with a turn of the event loop every `turnMs`, stopping at the
 * next one once `signal` aborts. Loaders pull batches in microtasks, and while the socket takes every
 * write at once they never reach the event loop: a large table would starve timers and I/O (HTTP
 * requests, job heartbeats, progress, an abort, the other streams of a load) for its whole load.
 */
export async function* abortable<T>(batches: Iterable<T>, signal: AbortSignal | undefined, turnMs = EVENT_LOOP_TURN_MS): AsyncGenerator<T> {
  let turn = performance.now();
  for (const batch of batches) {
    if (performance.now() - turn >= turnMs) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      turn = performance.now();
    }
    signal?.throwIfAborted();
    yield batch;
  }
}
