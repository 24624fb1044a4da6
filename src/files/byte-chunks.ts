// Row text into large UTF-8 chunks: rows are joined into a short string (V8 appends short strings
// cheaply), which is encoded into a buffer of CHUNK_BYTES once it reaches ROPE_CHARS. A file gets
// one write per chunk, a worker thread hands its chunks over without copying (their ArrayBuffers
// are transferred), and no one scans the text again to count its bytes. Buffers can be reused once
// written (BufferPool), so a long file allocates a few of them, not one per chunk.

/** Bytes of a chunk. */
export const CHUNK_BYTES = 1 << 20;
/** Characters joined before they are encoded: small enough to stay in the young generation. */
const ROPE_CHARS = 32 * 1024;
/** UTF-8 bytes a UTF-16 code unit can take at most. */
const MAX_BYTES_PER_CHAR = 3;

/**
 * Chunk buffers: taken while encoding, given back once written. Every buffer has an ArrayBuffer of
 * its own (never Node's shared pool), so a chunk may be transferred to another thread.
 */
export class BufferPool {
  readonly #free: Buffer[] = [];

  constructor(readonly size = CHUNK_BYTES) {}

  take(): Buffer {
    return this.#free.pop() ?? Buffer.allocUnsafeSlow(this.size);
  }

  /** A chunk this pool gave out, written: its buffer is reused. Others are ignored. */
  give(chunk: Uint8Array): void {
    if (chunk.byteOffset === 0 && chunk.buffer.byteLength === this.size && this.#free.length < 8) {
      this.#free.push(Buffer.from(chunk.buffer, 0, this.size));
    }
  }
}

export class ByteChunks {
  #rope = '';
  #buffer: Buffer | undefined;
  #used = 0;
  #full: Uint8Array[] = [];

  /** `pool`: where buffers come from (a fresh one for each chunk when absent). */
  constructor(private readonly pool: BufferPool = new BufferPool()) {}

  /** Adds text; true when full chunks wait (take them with `take`). */
  add(text: string): boolean {
    this.#rope += text;
    if (this.#rope.length >= ROPE_CHARS) this.#encode();
    return this.#full.length > 0;
  }

  /** The full chunks, in order; with `all`, the text still held too. */
  take(all = false): Uint8Array[] {
    if (all) {
      this.#encode();
      this.#close();
    }
    const chunks = this.#full;
    this.#full = [];
    return chunks;
  }

  #encode(): void {
    const rope = this.#rope;
    if (rope.length === 0) return;
    this.#rope = '';
    const room = rope.length * MAX_BYTES_PER_CHAR;
    if (room > this.pool.size) {
      // Text longer than a chunk (one huge row): a buffer of its own.
      this.#close();
      const bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(rope));
      bytes.write(rope, 0, 'utf8');
      this.#full.push(bytes);
      return;
    }
    if (this.#buffer && this.pool.size - this.#used < room) this.#close();
    this.#buffer ??= this.pool.take();
    this.#used += this.#buffer.write(rope, this.#used, 'utf8');
  }

  #close(): void {
    if (this.#buffer && this.#used > 0) this.#full.push(this.#buffer.subarray(0, this.#used));
    else if (this.#buffer) this.pool.give(this.#buffer);
    this.#buffer = undefined;
    this.#used = 0;
  }
}
