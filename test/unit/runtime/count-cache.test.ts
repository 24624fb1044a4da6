// CountCache: an LRU of list totals per source, dropped per source, bounded in age, and never
// storing a count that raced with an invalidation.
import { describe, expect, it } from 'vitest';
import { CountCache } from '../../../src/runtime/count-cache.ts';

const key = (source: string, where = '') => CountCache.key(source, 'ns.users', where, [1, 2n]);

describe('CountCache', () => {
  it('keys by source, table, WHERE and parameters (bigints included)', () => {
    expect(CountCache.key('s', 't', ' WHERE "id" = $1::bigint', [9007199254740993n])).toBe('["s","t"," WHERE \\"id\\" = $1::bigint",["9007199254740993n"]]');
    expect(CountCache.key('s', 't', '', [1])).not.toBe(CountCache.key('s', 't', '', ['1']));
  });

  it('counts once, then answers from the cache', async () => {
    const cache = new CountCache();
    let counts = 0;
    const count = async () => ++counts * 10;
    expect(await cache.total('a', key('a'), count)).toBe(10);
    expect(await cache.total('a', key('a'), count)).toBe(10);
    expect(counts).toBe(1);
  });

  it('shares one count between concurrent callers', async () => {
    const cache = new CountCache();
    let counts = 0;
    const count = () => new Promise<number>((resolve) => setTimeout(() => resolve(++counts), 5));
    expect(await Promise.all([cache.total('a', key('a'), count), cache.total('a', key('a'), count)])).toEqual([1, 1]);
    expect(counts).toBe(1);
  });

  it('drops the totals of one source only', async () => {
    const cache = new CountCache();
    cache.set('a', key('a'), 1);
    cache.set('a', key('a', ' WHERE x'), 2);
    cache.set('b', key('b'), 3);
    cache.invalidateSource('a');
    expect(cache.get('a', key('a'))).toBeUndefined();
    expect(cache.get('a', key('a', ' WHERE x'))).toBeUndefined();
    expect(cache.get('b', key('b'))).toBe(3);
    expect(cache.size).toBe(1);
  });

  it('does not store a count that started before an invalidation', async () => {
    const cache = new CountCache();
    let release!: (total: number) => void;
    const pending = cache.total('a', key('a'), () => new Promise<number>((resolve) => (release = resolve)));
    cache.invalidateSource('a');
    release(5);
    expect(await pending).toBe(5);
    expect(cache.get('a', key('a'))).toBeUndefined();
    const epoch = cache.epoch('a');
    cache.invalidateSource('a');
    cache.set('a', key('a'), 7, epoch);
    expect(cache.get('a', key('a'))).toBeUndefined();
  });

  it('evicts the least recently used', () => {
    const cache = new CountCache({ maxEntries: 2 });
    cache.set('a', 'k1', 1);
    cache.set('a', 'k2', 2);
    cache.get('a', 'k1');
    cache.set('a', 'k3', 3);
    expect([cache.get('a', 'k1'), cache.get('a', 'k2'), cache.get('a', 'k3')]).toEqual([1, undefined, 3]);
  });

  it('counts again after the time to live', () => {
    let now = 0;
    const cache = new CountCache({ ttlMs: 1000, now: () => now });
    cache.set('a', 'k', 1);
    now = 999;
    expect(cache.get('a', 'k')).toBe(1);
    now = 1000;
    expect(cache.get('a', 'k')).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('a failed count is not cached', async () => {
    const cache = new CountCache();
    await expect(cache.total('a', 'k', () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(await cache.total('a', 'k', async () => 4)).toBe(4);
  });
});
