// What several server processes share through the control-plane PostgreSQL, each piece exercised as
// two "processes" (two instances with their own connections) on one database: change notifications,
// the source-key cache that relies on them, and the block-reserving rate limiter.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SharedRateLimiter } from '../../../src/http/rate-limit.ts';
import { SourceKeyCache } from '../../../src/runtime/source-key-cache.ts';
import { ChangeFeed, type ChangeSubscriber } from '../../../src/store/change-feed.ts';
import { createDb, type Db } from '../../../src/store/db.ts';
import { migrate } from '../../../src/store/migrate.ts';
import { SourceKeyStore } from '../../../src/store/source-keys.ts';
import { createTestDatabase, type TestDatabase } from '../../helpers/database.ts';
import { waitFor } from '../../helpers/wait.ts';

const quiet = { warn: () => {}, info: () => {} };

let database: TestDatabase;
let db: Db;
beforeAll(async () => {
  database = await createTestDatabase('shared_state');
  db = createDb(database.url);
  await migrate(db);
});
afterAll(async () => {
  await db?.close();
  await database?.drop();
});

/** Records what a feed delivered. */
class Recorder implements ChangeSubscriber {
  readonly changes: string[] = [];
  readonly rowChanges: string[] = [];
  resets = 0;
  rowsChanged(sourceId: string): void {
    this.rowChanges.push(sourceId);
  }
  changed(sourceId: string): void {
    this.changes.push(sourceId);
  }
  reset(): void {
    this.resets++;
  }
}


async function feedPair() {
  const a = new ChangeFeed(database.url, db.pool, quiet);
  const b = new ChangeFeed(database.url, db.pool, quiet);
  const seenByA = new Recorder();
  const seenByB = new Recorder();
  a.subscribe(seenByA);
  b.subscribe(seenByB);
  await a.start();
  await b.start();
  return { a, b, seenByA, seenByB, stop: () => Promise.all([a.stop(), b.stop()]) };
}

describe('ChangeFeed', () => {
  it('tells the publishing process at once and the other one through NOTIFY', async () => {
    const { a, b, seenByA, seenByB, stop } = await feedPair();
    try {
      expect(a.live && b.live).toBe(true);
      const id = randomUUID();
      const published = a.publish(id);
      // Local subscribers hear it before the notification round trip.
      expect(seenByA.changes).toContain(id);
      await published;
      await waitFor(() => seenByB.changes.includes(id), 5_000, 'the other process to hear the change', 10);
    } finally {
      await stop();
    }
  });

  it('announces a burst of runtime writes once: rows dropped here at once, every cache everywhere after', async () => {
    const { a, seenByA, seenByB, stop } = await feedPair();
    try {
      const id = randomUUID();
      for (let write = 0; write < 20; write++) a.rowsWritten(id);
      // This process drops what it cached of the rows at once, and nothing else yet.
      expect(seenByA.rowChanges.filter((each) => each === id)).toHaveLength(20);
      expect(seenByA.changes).not.toContain(id);
      await waitFor(() => seenByB.changes.includes(id), 5_000, 'the other process to hear the writes', 10);
      await new Promise((resolve) => setTimeout(resolve, 300));
      // One notification for the burst, heard by both processes (the publisher dispatches it locally too).
      expect(seenByB.changes.filter((each) => each === id)).toHaveLength(1);
      expect(seenByA.changes.filter((each) => each === id).length).toBeGreaterThanOrEqual(1);
      expect(seenByB.rowChanges).not.toContain(id);
    } finally {
      await stop();
    }
  });

  it('is not live while its connection is gone, and resets its subscribers when it is back', async () => {
    const { a, b, seenByB, stop } = await feedPair();
    try {
      const resetsBefore = seenByB.resets;
      // Kill every listening connection (both feeds'): as if the database restarted under them.
      await db.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'sds-changes' AND datname = current_database()");
      await waitFor(() => !b.live, 5_000, 'the feed to notice its connection is gone', 10);
      await waitFor(() => b.live && a.live, 5_000, 'the feeds to reconnect', 10);
      expect(seenByB.resets).toBeGreaterThan(resetsBefore);
      const id = randomUUID();
      await a.publish(id);
      await waitFor(() => seenByB.changes.includes(id), 5_000, 'a change after reconnection', 10);
    } finally {
      await stop();
    }
  });
});

describe('SourceKeyCache', () => {
  async function sourceWithKey() {
    // These tests are about checking keys, not sources: this throwaway database lets keys stand
    // alone instead of building a team, project, schema and source for each.
    const sourceId = randomUUID();
    await db.query('ALTER TABLE source_api_keys DROP CONSTRAINT IF EXISTS source_api_keys_source_id_fkey');
    const store = new SourceKeyStore(db);
    const key = await store.create(sourceId, 'cached');
    return { store, sourceId, key };
  }

  it('authenticates from the cache without reading the key again, and forgets a revoked key when told', async () => {
    const { store, sourceId, key } = await sourceWithKey();
    let reads = 0;
    const counting = { credential: (lookup: string) => (reads++, store.credential(lookup)) };
    const cache = new SourceKeyCache(counting, () => true);
    expect(await cache.authenticate(key.key)).toEqual({ keyId: key.id, sourceId });
    expect(await cache.authenticate(key.key)).toEqual({ keyId: key.id, sourceId });
    expect(reads).toBe(1);
    // A wrong secret with the same public lookup part is refused by the hash comparison.
    const tampered = key.key.slice(0, -1) + (key.key.endsWith('A') ? 'B' : 'A');
    expect(await cache.authenticate(tampered)).toBeUndefined();

    await store.revoke(sourceId, key.id);
    cache.changed(sourceId);
    expect(await cache.authenticate(key.key)).toBeUndefined();
    expect(reads).toBe(2);
  });

  it('reads the key every time while changes of other processes cannot reach it', async () => {
    const { store, sourceId, key } = await sourceWithKey();
    let reads = 0;
    const cache = new SourceKeyCache({ credential: (lookup) => (reads++, store.credential(lookup)) }, () => false);
    await cache.authenticate(key.key);
    await store.revoke(sourceId, key.id);
    // No notification: without a live feed the revocation is seen at once anyway.
    expect(await cache.authenticate(key.key)).toBeUndefined();
    expect(reads).toBe(2);
  });

  it('does not keep unknown keys', async () => {
    const { store } = await sourceWithKey();
    let reads = 0;
    const cache = new SourceKeyCache({ credential: (lookup) => (reads++, store.credential(lookup)) }, () => true);
    const unknown = `svc_src_${'x'.repeat(40)}`;
    expect(await cache.authenticate(unknown)).toBeUndefined();
    expect(await cache.authenticate(unknown)).toBeUndefined();
    expect(reads).toBe(2);
  });
});

describe('SharedRateLimiter across processes', () => {
  /** A response that records its headers. */
  const response = () => {
    const headers = new Map<string, string>();
    return { headers, setHeader: (name: string, value: string) => headers.set(name, value) };
  };

  async function spend(limiters: SharedRateLimiter[], sourceId: string, rpm: number, requests: number) {
    let allowed = 0;
    const rejections: { status: number; retryAfter?: string }[] = [];
    for (let i = 0; i < requests; i++) {
      const res = response();
      try {
        await limiters[i % limiters.length]!.consume(sourceId, rpm, res as never);
        allowed++;
      } catch (error) {
        const { status, headers } = error as { status: number; headers?: Record<string, string> };
        rejections.push({ status, retryAfter: headers?.['Retry-After'] });
      }
    }
    return { allowed, rejections };
  }

  it('allows exactly a small budget across two processes, then 429 with Retry-After on both', async () => {
    const processes = [new SharedRateLimiter(db.pool, 'source', 'this source'), new SharedRateLimiter(db.pool, 'source', 'this source')];
    const { allowed, rejections } = await spend(processes, randomUUID(), 20, 30);
    expect(allowed).toBe(20);
    expect(rejections).toHaveLength(10);
    for (const rejection of rejections) {
      expect(rejection.status).toBe(429);
      expect(Number(rejection.retryAfter)).toBeGreaterThanOrEqual(1);
    }
  });

  it('never exceeds a large budget across two processes and loses at most one block each', async () => {
    const rpm = 1_000; // blocks of 10
    const processes = [new SharedRateLimiter(db.pool, 'source', 'this source'), new SharedRateLimiter(db.pool, 'source', 'this source')];
    const { allowed } = await spend(processes, randomUUID(), rpm, 1_100);
    expect(allowed).toBeLessThanOrEqual(rpm);
    expect(allowed).toBeGreaterThanOrEqual(rpm - 2 * 10);
  });

  it('counts a block once for concurrent requests and reports the remaining budget', async () => {
    const limiter = new SharedRateLimiter(db.pool, 'source', 'this source');
    const sourceId = randomUUID();
    const responses = Array.from({ length: 50 }, response);
    await Promise.all(responses.map((res) => limiter.consume(sourceId, 1_000, res as never)));
    const { rows } = await db.query<{ points: number }>('SELECT points FROM sds_rate_limits WHERE key = $1', [`source:${sourceId}`]);
    // 50 requests from blocks of 10: five reservations, not fifty.
    expect(rows[0]!.points).toBe(50);
    const remaining = responses.map((res) => Number(res.headers.get('RateLimit-Remaining')));
    expect(Math.min(...remaining)).toBe(950);
    expect(responses[0]!.headers.get('RateLimit-Limit')).toBe('1000');
  });
});
