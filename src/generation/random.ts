// Counter-based randomness: every random number is a pure function of (stream key, row, draw), where
// a stream key is a hash of (seed, entity id, field id, purpose). Any row range can therefore be
// produced on its own, in any batch size, and streams never shift when fields or entities are added.
import { fmix32, hashString } from '../model/hash.ts';

export { fmix32, hashString };

/** Two 32-bit halves of a stream key. */
export interface StreamKey {
  a: number;
  b: number;
}

const TWO_32 = 4_294_967_296;
const TWO_53 = 9_007_199_254_740_992;
const GOLDEN = 0x9e3779b9;

/** The key of a stream named by its parts (seed, entity id, field id, purpose…). */
export function streamKey(...parts: (string | number)[]): StreamKey {
  const text = parts.join('\u0000');
  return { a: hashString(text, GOLDEN), b: hashString(text, 0x7f4a7c15) };
}

/**
 * The random 32-bit word of (key, row, draw). For a fixed key and draw it is a bijection of `row`
 * (rows below 2^32 never share a word), which uuids use to be distinct by construction.
 */
export function mix(a: number, b: number, row: number, draw: number): number {
  return fmix32(fmix32(row ^ a) ^ b ^ Math.imul(draw, GOLDEN));
}

/** A stream of random numbers addressed by (row, draw) instead of by position. */
export class RandomStream {
  readonly a: number;
  readonly b: number;

  constructor(key: StreamKey) {
    this.a = key.a;
    this.b = key.b;
  }

  /** A 32-bit unsigned integer. */
  u32(row: number, draw = 0): number {
    return mix(this.a, this.b, row, draw);
  }

  /** A float in [0, 1) with 32 random bits. */
  float(row: number, draw = 0): number {
    return mix(this.a, this.b, row, draw) / TWO_32;
  }

  /** A float in [0, 1) with 53 random bits (wide ranges such as datetimes in milliseconds). */
  float53(row: number, draw = 0): number {
    const high = mix(this.a, this.b, row, draw) >>> 5;
    const low = mix(this.a, this.b ^ 0x68e31da4, row, draw) >>> 6;
    return (high * 67_108_864 + low) / TWO_53;
  }

  /** An integer in [min, max], both inclusive (integral bounds, max ≥ min). */
  int(row: number, draw: number, min: number, max: number): number {
    const span = max - min + 1;
    const unit = span <= TWO_32 ? this.float(row, draw) : this.float53(row, draw);
    return min + Math.floor(unit * span);
  }

  /** A stream keyed by this one and a label: independent of it and of other labels. */
  derive(label: string | number): RandomStream {
    return new RandomStream(streamKey(this.a, this.b, label));
  }
}

const ROUNDS = 4;

/**
 * A keyed pseudo-random permutation of [0, size): a balanced Feistel network over the smallest
 * even power of two covering `size`, with cycle-walking back into range. Sizes above 2^32 map an
 * index permuted in [0, 2^32) into its own block of the range, which is still injective.
 */
export class KeyedPermutation {
  readonly size: number;
  readonly #half: number;
  readonly #mask: number;
  readonly #keys: Uint32Array;
  readonly #block: number;
  readonly #stream: RandomStream;

  constructor(size: number, key: StreamKey) {
    if (!Number.isSafeInteger(size) || size < 0) throw new RangeError(`permutation size ${size} is not a safe integer ≥ 0`);
    this.size = size;
    this.#stream = new RandomStream(key);
    const domain = Math.min(size, TWO_32);
    let bits = 2;
    while (2 ** bits < domain) bits += 2;
    this.#half = bits / 2;
    this.#mask = 2 ** this.#half - 1;
    this.#keys = Uint32Array.from({ length: ROUNDS }, (_, round) => this.#stream.u32(round, 1));
    this.#block = size > TWO_32 ? Math.floor(size / TWO_32) : 1;
  }

  /** The image of `index` (0 ≤ index < size); distinct indexes give distinct images. */
  at(index: number): number {
    if (this.size <= 1) return 0;
    const domain = Math.min(this.size, TWO_32);
    let x = index;
    do x = this.#encrypt(x);
    while (x >= domain);
    if (this.#block === 1) return x;
    return x * this.#block + (this.#stream.u32(x, 2) % this.#block);
  }

  #encrypt(x: number): number {
    const half = this.#half;
    const mask = this.#mask;
    let left = Math.floor(x / 2 ** half);
    let right = x & mask;
    for (let round = 0; round < ROUNDS; round++) {
      const next = (left ^ (fmix32(right ^ this.#keys[round]!) & mask)) & mask;
      left = right;
      right = next;
    }
    return left * 2 ** half + right;
  }
}

/**
 * Successive draws of one (stream, row): `reset(row, firstDraw)`, then `u32()`, `int()`, `pick()`…
 * Programs reuse one cursor for every row, so drawing allocates nothing.
 */
export class RandomCursor {
  readonly stream: RandomStream;
  row = 0;
  draw = 0;

  constructor(stream: RandomStream) {
    this.stream = stream;
  }

  reset(row: number, firstDraw = 0): this {
    this.row = row;
    this.draw = firstDraw;
    return this;
  }

  u32(): number {
    return mix(this.stream.a, this.stream.b, this.row, this.draw++);
  }

  float(): number {
    return this.u32() / TWO_32;
  }

  /** An integer in [min, max], both inclusive. */
  int(min: number, max: number): number {
    return this.stream.int(this.row, this.draw++, min, max);
  }

  /** A random index of a non-empty list of `length` items (the index `pick` would take). */
  index(length: number): number {
    return Math.floor((this.u32() / TWO_32) * length);
  }

  /** A random element of a non-empty list. */
  pick<T>(items: readonly T[]): T {
    return items[this.index(items.length)]!;
  }

  /** True with probability `rate`. */
  chance(rate: number): boolean {
    return this.u32() / TWO_32 < rate;
  }
}
