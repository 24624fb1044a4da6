// Writes one table into a file: its encoder's head, rows (given in any number of parts: a
// generator's rows, ranges made by workers, batches read from an API), then its tail. Text is
// encoded into large UTF-8 chunks (byte-chunks.ts) whose buffers are reused once written.
import { setImmediate as breathe } from 'node:timers/promises';
import type { RowValues } from '../model/row-value.ts';
import { BufferPool, ByteChunks } from './byte-chunks.ts';
import type { FileSink } from './file-sink.ts';
import type { Encoded, TableEncoder } from './table-encoders.ts';

/** Progress is reported every this many rows. */
const PROGRESS_ROWS = 10_000;
/** Rows between looks at the clock when the event loop must turn often (`turnMs`). */
const TURN_CHECK_ROWS = 256;

/** Rows `from` on of a text format encoded into UTF-8 chunks of `pool`'s buffers (a range of a file, made apart). */
export function encodeTextRows(encoder: TableEncoder, rows: Iterable<RowValues>, from: number, pool: BufferPool): { chunks: Uint8Array[]; rows: number } {
  const chunks = new ByteChunks(pool);
  let index = from;
  for (const values of rows) {
    const encoded = encoder.row(values, index++);
    if (typeof encoded !== 'string') throw new Error('a range is encoded in a text format only');
    chunks.add(encoded);
  }
  return { chunks: chunks.take(true), rows: index - from };
}

export class TableWriter {
  readonly #pool: BufferPool;
  readonly #chunks: ByteChunks;
  #rows = 0;
  #nextTurn = 0;

  /**
   * `turnMs`: while making rows, let the event loop turn at least this often (worker threads get
   * their next ranges and hand in the ones they made on it); otherwise once per chunk.
   */
  constructor(
    private readonly sink: FileSink,
    private readonly encoder: TableEncoder,
    private readonly onProgress: (rows: number) => void = () => {},
    private readonly signal?: AbortSignal,
    private readonly turnMs?: number,
  ) {
    this.#pool = new BufferPool();
    this.#chunks = new ByteChunks(this.#pool);
  }

  /** Rows written so far. */
  get rows(): number {
    return this.#rows;
  }

  /** `head`: false leaves the encoder's head out (a part file of a shard after the first). */
  async begin(head = true): Promise<void> {
    if (head) await this.#put(this.encoder.head());
  }

  /** Encodes and writes rows, numbered on from the rows before them. */
  async write(rows: Iterable<RowValues>): Promise<void> {
    for (const values of rows) {
      const encoded = this.encoder.row(values, this.#rows);
      // The common case, a text row into a chunk with room, stays synchronous.
      if (typeof encoded !== 'string') await this.#put(encoded);
      else if (this.#chunks.add(encoded)) {
        await this.#flush(false);
        // A chunk (thousands of rows) at a time, let the event loop run: writes complete and free
        // their buffers, and workers' ranges of other files are taken in.
        await this.#turn();
      }
      if (++this.#rows % PROGRESS_ROWS === 0) {
        this.signal?.throwIfAborted();
        this.onProgress(this.#rows);
      }
      if (this.turnMs !== undefined && this.#rows % TURN_CHECK_ROWS === 0 && performance.now() >= this.#nextTurn) await this.#turn();
    }
  }

  /**
   * Writes bytes already encoded for `count` rows (a range a worker or `encodeRange` made). Chunks
   * of this writer's pool go back to it once written.
   */
  async writeEncoded(chunks: readonly Uint8Array[], count: number): Promise<void> {
    this.signal?.throwIfAborted();
    await this.#flush(true);
    for (const chunk of chunks) await this.#write(chunk);
    this.#rows += count;
    this.onProgress(this.#rows);
  }

  /**
   * Text rows encoded into chunks of this writer's pool, not written: ranges this thread makes
   * ahead of others' (they go through `writeEncoded` in their turn).
   */
  encodeRange(rows: Iterable<RowValues>, from: number): { chunks: Uint8Array[]; rows: number } {
    return encodeTextRows(this.encoder, rows, from, this.#pool);
  }

  /** The tail; resolves to the rows written. */
  async finish(): Promise<number> {
    await this.#put(this.encoder.tail(this.#rows));
    await this.#flush(true);
    return this.#rows;
  }

  async #turn(): Promise<void> {
    await breathe();
    if (this.turnMs !== undefined) this.#nextTurn = performance.now() + this.turnMs;
  }

  /** Text already added to the chunks, or bytes to write after them. */
  async #put(encoded: Encoded): Promise<void> {
    if (typeof encoded === 'string') {
      this.#chunks.add(encoded);
      await this.#flush(false);
      return;
    }
    if (encoded.length === 0) return;
    await this.#flush(true);
    for (const bytes of encoded) await this.sink.write(bytes);
  }

  /** Writes the full chunks; with `all`, the text still held too. */
  async #flush(all: boolean): Promise<void> {
    for (const chunk of this.#chunks.take(all)) await this.#write(chunk);
  }

  #write(chunk: Uint8Array): Promise<void> {
    return this.sink.write(chunk, () => this.#pool.give(chunk));
  }
}
