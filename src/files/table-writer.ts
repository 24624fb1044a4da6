// Writes one table into a file: its encoder's head, rows (given in any number of parts: a
// generator's rows, ranges made by workers, batches read from an API), then its tail. Text is
// gathered into chunks of about CHUNK_CHARS before it goes to the file.
import type { RowValues } from '../dialects/dialect.ts';
import type { FileSink } from './file-sink.ts';
import type { Encoded, TableEncoder } from './table-encoders.ts';

/** Text is handed to the file in pieces of about this many characters. */
const CHUNK_CHARS = 64 * 1024;
/** Progress is reported every this many rows. */
const PROGRESS_ROWS = 10_000;

export class TableWriter {
  #text = '';
  #rows = 0;

  constructor(
    private readonly sink: FileSink,
    private readonly encoder: TableEncoder,
    private readonly onProgress: (rows: number) => void = () => {},
    private readonly signal?: AbortSignal,
  ) {}

  /** Rows written so far. */
  get rows(): number {
    return this.#rows;
  }

  async begin(): Promise<void> {
    await this.#put(this.encoder.head());
  }

  /** Encodes and writes rows, numbered on from the rows before them. */
  async write(rows: Iterable<RowValues>): Promise<void> {
    for (const values of rows) {
      const encoded = this.encoder.row(values, this.#rows);
      // The common case, a text row into a chunk with room, stays synchronous.
      if (typeof encoded === 'string' && this.#text.length + encoded.length < CHUNK_CHARS) this.#text += encoded;
      else await this.#put(encoded);
      if (++this.#rows % PROGRESS_ROWS === 0) {
        this.signal?.throwIfAborted();
        this.onProgress(this.#rows);
      }
    }
  }

  /** Writes text already encoded for `count` rows (a range a worker encoded). */
  async writeEncoded(text: string, count: number): Promise<void> {
    this.signal?.throwIfAborted();
    await this.#flush();
    await this.sink.write(text);
    this.#rows += count;
    this.onProgress(this.#rows);
  }

  /** The tail; resolves to the rows written. */
  async finish(): Promise<number> {
    await this.#put(this.encoder.tail(this.#rows));
    await this.#flush();
    return this.#rows;
  }

  async #put(encoded: Encoded): Promise<void> {
    if (typeof encoded === 'string') {
      this.#text += encoded;
      if (this.#text.length >= CHUNK_CHARS) await this.#flush();
      return;
    }
    if (encoded.length === 0) return;
    await this.#flush();
    for (const bytes of encoded) await this.sink.write(bytes);
  }

  async #flush(): Promise<void> {
    if (!this.#text) return;
    const chunk = this.#text;
    this.#text = '';
    await this.sink.write(chunk);
  }
}
