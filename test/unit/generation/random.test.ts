import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { KeyedPermutation, RandomCursor, RandomStream, hashString, mix, streamKey } from '../../../src/generation/random.ts';
import { expectRate } from '../../helpers/generate-in-memory.ts';

describe('counter-based PRNG', () => {
  it('is a pure function of (key, row, draw)', () => {
    const a = new RandomStream(streamKey('seed', 'users', 'email', 'value'));
    const b = new RandomStream(streamKey('seed', 'users', 'email', 'value'));
    for (let row = 0; row < 100; row++) expect(a.u32(row, 3)).toBe(b.u32(row, 3));
  });

  it('keys streams by every part of the key', () => {
    const base = new RandomStream(streamKey('seed', 'users', 'email', 'value'));
    for (const other of [streamKey('seed2', 'users', 'email', 'value'), streamKey('seed', 'user', 'email', 'value'), streamKey('seed', 'users', 'emails', 'value'), streamKey('seed', 'users', 'email', 'empty')]) {
      const stream = new RandomStream(other);
      const same = Array.from({ length: 100 }, (_, row) => stream.u32(row) === base.u32(row)).filter(Boolean).length;
      expect(same).toBe(0);
    }
  });

  it('gives distinct words to distinct rows for a fixed draw (a bijection of the row)', () => {
    const key = streamKey('x');
    const seen = new Set<number>();
    for (let row = 0; row < 200_000; row++) seen.add(mix(key.a, key.b, row, 0));
    expect(seen.size).toBe(200_000);
  });

  it('draws uniform floats in [0, 1) and integers within bounds', () => {
    const stream = new RandomStream(streamKey('uniform'));
    const buckets = new Array(10).fill(0);
    const n = 20_000;
    let bad = 0;
    for (let row = 0; row < n; row++) {
      const x = stream.float(row);
      const y = stream.float53(row, 1);
      if (!(x >= 0 && x < 1 && y >= 0 && y < 1)) bad++;
      buckets[Math.floor(x * 10)]++;
      const int = stream.int(row, 2, -3, 3);
      if (!(Number.isInteger(int) && int >= -3 && int <= 3)) bad++;
    }
    expect(bad).toBe(0);
    for (const count of buckets) expectRate(count, n, 0.1);
    const wide = stream.int(5, 0, 0, 2 ** 40);
    expect(wide).toBeLessThanOrEqual(2 ** 40);
  });

  it('hashes strings to 32-bit unsigned integers', () => {
    expect(hashString('abc')).toBe(hashString('abc'));
    expect(hashString('abc')).not.toBe(hashString('abd'));
    expect(hashString('abc', 1)).not.toBe(hashString('abc', 2));
    expect(hashString('')).toBeGreaterThanOrEqual(0);
  });

  it('cursors draw successive values of one row without allocating streams', () => {
    const cursor = new RandomCursor(new RandomStream(streamKey('cursor')));
    const first = [cursor.reset(7).u32(), cursor.u32(), cursor.int(1, 6)];
    const again = [cursor.reset(7).u32(), cursor.u32(), cursor.int(1, 6)];
    expect(again).toEqual(first);
    expect(cursor.pick(['a', 'b', 'c'])).toMatch(/^[abc]$/);
  });
});

describe('KeyedPermutation', () => {
  it.each([0, 1, 2, 3, 4, 5, 17, 100, 1000, 4097, 65_537])('permutes [0, %i)', (size) => {
    const permutation = new KeyedPermutation(size, streamKey('perm', size));
    const images = Array.from({ length: size }, (_, i) => permutation.at(i));
    expect(new Set(images).size).toBe(size);
    expect(images.every((image) => image >= 0 && image < size)).toBe(true);
  });

  it('orders differently under different keys, identically under the same key', () => {
    const a = new KeyedPermutation(1000, streamKey('a'));
    const b = new KeyedPermutation(1000, streamKey('b'));
    const a2 = new KeyedPermutation(1000, streamKey('a'));
    const order = (p: KeyedPermutation) => Array.from({ length: 1000 }, (_, i) => p.at(i));
    expect(order(a)).toEqual(order(a2));
    expect(order(a)).not.toEqual(order(b));
    expect(order(a)).not.toEqual(Array.from({ length: 1000 }, (_, i) => i));
  });

  it('stays injective for domains above 2^32', () => {
    const size = 2 ** 40 + 12_345;
    const permutation = new KeyedPermutation(size, streamKey('large'));
    const images = Array.from({ length: 50_000 }, (_, i) => permutation.at(i));
    expect(new Set(images).size).toBe(images.length);
    expect(images.every((image) => image >= 0 && image < size)).toBe(true);
  });

  it('is a bijection for any size and key (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 3000 }), fc.string(), (size, key) => {
        const permutation = new KeyedPermutation(size, streamKey(key));
        const seen = new Uint8Array(size);
        for (let i = 0; i < size; i++) {
          const image = permutation.at(i);
          if (image < 0 || image >= size || seen[image]) return false;
          seen[image] = 1;
        }
        return true;
      }),
      { numRuns: 60 },
    );
  });
});
