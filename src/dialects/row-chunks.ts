// Regrouping streamed row batches into statement-sized chunks, shared by the dialects' loaders.
import type { RowValues } from '../model/row-value.ts';
import type { RowBatches } from './dialect.ts';

/**
 * Yields the rows of `batches` in chunks that close once they hold `maxRows` rows or `maxBytes`
 * (as estimated by `size`) is reached; memory stays bounded by one incoming batch plus one chunk.
 * `onBatch` is called with the running row total after each incoming batch is consumed.
 */
export async function* rechunkRows(
  batches: RowBatches,
  limits: { maxRows: number; maxBytes?: number; size?: (row: RowValues) => number },
  onBatch?: (consumed: number) => void,
): AsyncGenerator<RowValues[]> {
  const maxBytes = limits.maxBytes ?? Infinity;
  let chunk: RowValues[] = [];
  let bytes = 0;
  let consumed = 0;
  for await (const batch of batches) {
    for (const row of batch) {
      chunk.push(row);
      if (limits.size) bytes += limits.size(row);
      if (chunk.length >= limits.maxRows || bytes >= maxBytes) {
        yield chunk;
        chunk = [];
        bytes = 0;
      }
    }
    consumed += batch.length;
    onBatch?.(consumed);
  }
  if (chunk.length > 0) yield chunk;
}
