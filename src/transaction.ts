// The one way sds runs a transaction on a pooled client, for the control plane's store and both
// dialects alike (PostgreSQL and MySQL take the same BEGIN, COMMIT and ROLLBACK). Driver-free: it needs only the few methods of a pooled client
// (node-postgres's PoolClient has them), as Kysely's core declares the driver methods it uses.

/** A client checked out of a pool: `release(error)` discards it instead of returning it. */
export interface PooledClient {
  query(sql: string): Promise<unknown>;
  release(discard?: Error | boolean): void;
}

export interface TransactionOptions {
  /**
   * Failures after which the client is not asked to roll back but discarded (a client given up on
   * for want of an answer would wait as long again; the server rolls back when the connection ends).
   */
  abandons?: (error: unknown) => boolean;
  /** Discard the client after any failure, once rolled back: its session state may be off (a MySQL load's). */
  discardOnFailure?: boolean;
}

/**
 * Runs `work` between BEGIN and COMMIT on a client of `connect`, rolling back when it throws. A
 * client whose ROLLBACK fails is in an unknown state: it is discarded, never reused.
 */
export async function inTransaction<C extends PooledClient, T>(connect: () => Promise<C>, work: (client: C) => Promise<T>, options: TransactionOptions = {}): Promise<T> {
  const client = await connect();
  let broken: Error | undefined;
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    if (options.abandons?.(error)) broken = error instanceof Error ? error : new Error(String(error));
    else {
      await client.query('ROLLBACK').catch((rollback: unknown) => {
        broken = rollback instanceof Error ? rollback : new Error(String(rollback));
      });
      if (options.discardOnFailure) broken ??= error instanceof Error ? error : new Error(String(error));
    }
    throw error;
  } finally {
    client.release(broken);
  }
}
