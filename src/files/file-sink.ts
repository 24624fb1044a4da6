// Where a generated file goes: a file on disk, optionally gzip-compressed, written with
// backpressure so memory stays flat whatever the file's size. Writes run on libuv's threads while
// the caller makes the next chunk; a few chunks may wait (WRITE_AHEAD_BYTES) before it waits.
import fs from 'node:fs';
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import zlib from 'node:zlib';

/** Bytes handed over and not yet written before `write` waits: a few chunks (byte-chunks.ts). */
const WRITE_AHEAD_BYTES = 4 << 20;

export class FileSink {
  readonly #file: fs.WriteStream;
  readonly #head: Writable;
  #uncompressed = 0;
  #failure: Error | undefined;

  private constructor(
    readonly path: string,
    gzip: boolean,
  ) {
    this.#file = fs.createWriteStream(path, { highWaterMark: WRITE_AHEAD_BYTES });
    this.#file.on('error', (error) => (this.#failure ??= error));
    if (gzip) {
      const compress = zlib.createGzip({ writableHighWaterMark: WRITE_AHEAD_BYTES } as zlib.ZlibOptions);
      compress.on('error', (error) => (this.#failure ??= error));
      compress.pipe(this.#file);
      this.#head = compress;
    } else {
      this.#head = this.#file;
    }
  }

  /** Creates (or truncates) the file; `.gz` is not added here: the caller names the file. */
  static async open(path: string, gzip: boolean): Promise<FileSink> {
    const sink = new FileSink(path, gzip);
    await once(sink.#file, 'open');
    return sink;
  }

  /** Bytes handed to the sink so far, before compression. */
  get bytesIn(): number {
    return this.#uncompressed;
  }

  /**
   * Writes a chunk; waits only while the stream's buffer is full. `written` is called once the
   * chunk's bytes are no longer needed (its buffer may then be reused).
   */
  async write(chunk: string | Uint8Array, written?: () => void): Promise<void> {
    if (this.#failure) throw this.#failure;
    if (chunk.length === 0) return;
    this.#uncompressed += typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.byteLength;
    // once() rejects if the stream errors while waiting.
    if (!this.#head.write(chunk, written && ((error) => error || written()))) await once(this.#head, 'drain');
    if (this.#failure) throw this.#failure;
  }

  /** Ends the file; resolves to its size on disk. */
  async close(): Promise<number> {
    const finished = once(this.#file, 'close');
    this.#head.end();
    await finished;
    if (this.#failure) throw this.#failure;
    return (await fs.promises.stat(this.path)).size;
  }

  /** Stops writing and removes the file (a failed or aborted generation leaves no partial file). */
  async discard(): Promise<void> {
    this.#head.destroy();
    this.#file.destroy();
    await fs.promises.rm(this.path, { force: true });
  }
}
