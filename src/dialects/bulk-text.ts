// Pieces shared by the bulk-load text formats (PostgreSQL COPY text, MySQL LOAD DATA): chunking
// encoded rows for the socket, and the cheap checks and number formatting their encoders use.
import type { RowValues, RowValue } from '../model/row-value.ts';
import type { RowBatches, TextChunk, TextChunks } from './dialect.ts';
import type { TableSpec } from '../model/table-spec.ts';

/** Bulk-load text is handed to the socket in pieces of about this size, and at the end of every batch. */
export const TEXT_CHUNK_CHARS = 64 * 1024;

/**
 * Encodes batches of rows into text chunks, lazily: the next batch is read only when the consumer
 * wants more. The last chunk of each batch carries the batch's row count.
 */
export async function* encodeBatches(batches: RowBatches, encodeRow: (row: RowValues) => string): AsyncGenerator<TextChunk> {
  for await (const batch of batches) {
    let text = '';
    for (const row of batch) {
      text += encodeRow(row);
      if (text.length >= TEXT_CHUNK_CHARS) {
        yield { text };
        text = '';
      }
    }
    yield { text, batchRows: batch.length };
  }
}

/** The chunks' text, lazily; calls `onBatch` with the running row total after each batch. */
export async function* chunkTexts(chunks: TextChunks, onBatch?: (written: number) => void): AsyncGenerator<string> {
  let written = 0;
  for await (const chunk of chunks) {
    if (chunk.text.length > 0) yield chunk.text;
    if (chunk.batchRows !== undefined) {
      written += chunk.batchRows;
      onBatch?.(written);
    }
  }
}

/**
 * True when `text` holds no backslash and no control character below U+0020: a superset of what
 * COPY text (\\ \n \r \t) and LOAD DATA (also \0) escape, so a true answer means the text goes out
 * as it is, and a false one only sends it through the format's escaping.
 */
export function plainText(text: string): boolean {
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code === 92 || code < 32) return false;
  }
  return true;
}

/** Below this, distinct decimals of at most 3 places are always distinct doubles (a double's spacing stays under 10^-3 / 4). */
const EXACT_SCALED_LIMIT = 2 ** 50;

/** '0' … '999', and '000' … '999' for the groups after the first. */
const DIGITS = Array.from({ length: 1000 }, (_, index) => String(index));
const GROUPS = Array.from({ length: 1000 }, (_, index) => String(index).padStart(3, '0'));

/** The digits of a non-negative safe integer: table look-ups (String() of an integer misses V8's small cache and costs 3–4 times as much). */
function integerDigits(value: number): string {
  if (value < 1000) return DIGITS[value]!;
  const high = Math.floor(value / 1000);
  return integerDigits(high) + GROUPS[value - high * 1000]!;
}

/** `String(value)` of every number, faster for safe integers (keys, counts, quantities). */
export function integerText(value: number): string {
  if (!Number.isSafeInteger(value)) return String(value);
  return value < 0 ? `-${integerDigits(-value)}` : integerDigits(value === 0 ? 0 : value);
}

/**
 * `String(value)` of numbers, several times faster for integers and for the decimals a `precision`
 * column holds. A double that is exactly the nearest double to n / 10^precision prints, in
 * JavaScript's shortest round-trip form, as that decimal with trailing zeros dropped: no shorter
 * decimal maps to it. Any other value (more places, huge, NaN, infinite) goes through String itself.
 */
export function numberText(precision: number | undefined): (value: number) => string {
  if (precision === undefined || !Number.isInteger(precision) || precision < 1 || precision > 3) return integerText;
  const scale = 10 ** precision;
  const fractions = Array.from({ length: scale }, (_, fraction) => (fraction === 0 ? '' : `.${String(fraction).padStart(precision, '0')}`.replace(/0+$/, '')));
  return (value) => {
    const scaled = Math.round(value * scale);
    if (scaled / scale !== value || !(Math.abs(scaled) < EXACT_SCALED_LIMIT)) return String(value);
    const magnitude = Math.abs(scaled);
    const whole = Math.floor(magnitude / scale);
    const text = integerDigits(whole) + fractions[magnitude - whole * scale]!;
    return value < 0 ? `-${text}` : text;
  };
}

/**
 * One row as a line of tab-separated text with NULL as \N, the text format both PostgreSQL's COPY and
 * MySQL's LOAD DATA read; `encoders` write each column's non-null values (escaped for the format).
 */
export function tabSeparatedRows(table: TableSpec, encoders: ((value: RowValue) => string)[]): (row: RowValues) => string {
  const width = encoders.length;
  return (row) => {
    checkRowWidth(table, row, width);
    let line = '';
    for (let index = 0; index < width; index++) {
      const value = row[index];
      if (index > 0) line += '\t';
      line += value === null || value === undefined ? '\\N' : encoders[index]!(value);
    }
    return line + '\n';
  };
}

/** Rows must carry one value per column: a mismatch is a bug upstream, not data to load. */
export function checkRowWidth(table: TableSpec, row: RowValues, width: number): void {
  if (row.length !== width) throw new Error(`Row for "${table.name}" has ${row.length} values, expected ${width}`);
}
