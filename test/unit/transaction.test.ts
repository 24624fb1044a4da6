// inTransaction's protocol on a pooled client: BEGIN … COMMIT, ROLLBACK on failure, and when the
// client goes back to the pool or is discarded (a failed ROLLBACK, a failure the caller abandons).
import { describe, expect, it } from 'vitest';
import { inTransaction, type PooledClient } from '../../src/transaction.ts';

/** A client that records its statements and its release; `failing` statements reject. */
function fakeClient(failing: string[] = []) {
  const client = {
    statements: [] as string[],
    released: [] as (Error | boolean | undefined)[],
    async query(sql: string) {
      client.statements.push(sql);
      if (failing.includes(sql)) throw new Error(`${sql} failed`);
      return {};
    },
    release(discard?: Error | boolean) {
      client.released.push(discard);
    },
  } satisfies PooledClient & Record<string, unknown>;
  return client;
}

describe('inTransaction', () => {
  it('commits what the work did and returns its result; the client goes back to the pool', async () => {
    const client = fakeClient();
    expect(await inTransaction(async () => client, async (tx) => (await tx.query('UPDATE t'), 42))).toBe(42);
    expect(client.statements).toEqual(['BEGIN', 'UPDATE t', 'COMMIT']);
    expect(client.released).toEqual([undefined]);
  });

  it('rolls back when the work throws, rethrows its error, and reuses the client', async () => {
    const client = fakeClient(['UPDATE t']);
    await expect(inTransaction(async () => client, (tx) => tx.query('UPDATE t'))).rejects.toThrow('UPDATE t failed');
    expect(client.statements).toEqual(['BEGIN', 'UPDATE t', 'ROLLBACK']);
    expect(client.released).toEqual([undefined]);
  });

  it('discards a client whose ROLLBACK fails (its state is unknown), still rethrowing the first error', async () => {
    const client = fakeClient(['UPDATE t', 'ROLLBACK']);
    await expect(inTransaction(async () => client, (tx) => tx.query('UPDATE t'))).rejects.toThrow('UPDATE t failed');
    expect(client.released).toEqual([new Error('ROLLBACK failed')]);
  });

  it('discards without a ROLLBACK a client whose failure the caller abandons (a client-side timeout)', async () => {
    const client = fakeClient(['SELECT pg_sleep(10)']);
    const abandons = (error: unknown) => String(error).includes('pg_sleep');
    await expect(inTransaction(async () => client, (tx) => tx.query('SELECT pg_sleep(10)'), { abandons })).rejects.toThrow();
    expect(client.statements).toEqual(['BEGIN', 'SELECT pg_sleep(10)']);
    expect(client.released).toEqual([new Error('SELECT pg_sleep(10) failed')]);
  });

  it('with discardOnFailure, rolls back and then discards the client (its session state may be off)', async () => {
    const client = fakeClient(['LOAD DATA']);
    await expect(inTransaction(async () => client, (tx) => tx.query('LOAD DATA'), { discardOnFailure: true })).rejects.toThrow('LOAD DATA failed');
    expect(client.statements).toEqual(['BEGIN', 'LOAD DATA', 'ROLLBACK']);
    expect(client.released).toEqual([new Error('LOAD DATA failed')]);
  });

  it('a COMMIT that fails rolls back and rethrows it', async () => {
    const client = fakeClient(['COMMIT']);
    await expect(inTransaction(async () => client, async () => 1)).rejects.toThrow('COMMIT failed');
    expect(client.statements).toEqual(['BEGIN', 'COMMIT', 'ROLLBACK']);
    expect(client.released).toEqual([undefined]);
  });
});
