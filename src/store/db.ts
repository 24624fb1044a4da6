// The control-plane connection: a pg pool plus the two helpers every repository uses.
import pg from 'pg';
import { inTransaction } from '../transaction.ts';

export type Queryable = Pick<pg.Pool | pg.PoolClient, 'query'>;

export interface Db extends Queryable {
  readonly pool: pg.Pool;
  /** Runs `work` in one transaction; rolls back when it throws (src/transaction.ts). */
  transaction<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export function createDb(connectionString: string, options: { max?: number } = {}): Db {
  const pool = new pg.Pool({
    connectionString,
    max: options.max ?? 10,
    idleTimeoutMillis: 30_000,
    connectionTimeoutMillis: 10_000,
    application_name: 'sds',
    // TCP keep-alive: a server lost without closing its connections (a partition) is noticed
    // by the operating system within minutes, instead of a query waiting for an answer forever.
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
  });
  // An idle client losing its server must not crash the process; the next query reconnects.
  pool.on('error', () => {});
  // Nor may a checked-out one (mid-transaction): pg-pool listens to a client's 'error' only while it
  // is idle. The query in flight still rejects, and the broken client leaves the pool on release.
  pool.on('connect', (client) => client.on('error', () => {}));
  return {
    pool,
    query: pool.query.bind(pool) as Queryable['query'],
    transaction: (work) => inTransaction(() => pool.connect(), work),
    close: () => pool.end(),
  };
}
