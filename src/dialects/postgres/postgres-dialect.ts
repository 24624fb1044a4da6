// The PostgreSQL dialect: a pg pool per target, namespaces as schemas, DDL in transactions,
// COPY for loads, and an atomic schema swap.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { Catalog } from '../catalog.ts';
import type { Dialect, FinalizeOptions, RowBatches, SqlExecutor, TableSpec, TargetConnection, TextLoader } from '../dialect.ts';
import { createPostgresTable, postgresForeignKeyStatements, postgresIndexStatements, postgresTableName, quotePostgresIdentifier, POSTGRES_MAX_IDENTIFIER_LENGTH } from './postgres-ddl.ts';
import { mapPostgresError } from './postgres-errors.ts';
import { createPostgresScratchDatabase, currentPostgresNamespace, readPostgresCatalog } from './postgres-introspect.ts';
import { copyRowEncoder, copyRows, copyText, updatePostgresRows } from './postgres-loader.ts';
import {
  postgresComparable,
  postgresDistinctFrom,
  postgresLike,
  postgresMaxKeyStatements,
  postgresOrderBy,
  postgresPlaceholder,
  postgresRuntimeParameter,
  postgresTypedPlaceholder,
  POSTGRES_LIKE_ESCAPE,
} from './postgres-sql.ts';

/** Temporal types stay text (pg would build local-time Dates from them); everything else as pg parses it. */
const TEXT_TYPES = new Set([pg.types.builtins.DATE, pg.types.builtins.TIMESTAMP, pg.types.builtins.TIMESTAMPTZ, pg.types.builtins.TIME, pg.types.builtins.TIMETZ]);
const typeParsers = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    TEXT_TYPES.has(oid) ? (value: string) => value : pg.types.getTypeParser(oid, format ?? 'text')) as typeof pg.types.getTypeParser,
};

export const postgresDialect: Dialect = {
  kind: 'postgres',
  capabilities: { supportsReturning: true, transactionalDdl: true, maxIdentifierLength: POSTGRES_MAX_IDENTIFIER_LENGTH },
  quoteIdentifier: quotePostgresIdentifier,
  placeholder: postgresPlaceholder,
  typedPlaceholder: postgresTypedPlaceholder,
  parameter: postgresRuntimeParameter,
  like: postgresLike,
  likeEscape: POSTGRES_LIKE_ESCAPE,
  distinctFrom: postgresDistinctFrom,
  comparable: postgresComparable,
  orderBy: postgresOrderBy,
  maxKeyStatements: postgresMaxKeyStatements,
  connect: (url) => connectPostgres(url),
  mapError: mapPostgresError,
  scriptSyntax: { dollarQuotes: true, hashComments: false, backslashEscapes: false, executableComments: false, delimiterCommand: false, backslashCommands: true },
  createScratchDatabase: createPostgresScratchDatabase,
};

/** Opens a pool and checks the server answers. */
export async function connectPostgres(url: string): Promise<PostgresConnection> {
  const connection = new PostgresConnection(url);
  try {
    await connection.ping();
  } catch (error) {
    await connection.close().catch(() => {});
    throw error;
  }
  return connection;
}

/** Tries at dropping the schema a swap replaced (see dropReplaced). */
const DROP_ATTEMPTS = 10;

export class PostgresConnection implements TargetConnection {
  readonly dialect = postgresDialect;
  private readonly pool: pg.Pool;

  constructor(url: string) {
    this.pool = new pg.Pool({
      connectionString: url,
      max: 10,
      idleTimeoutMillis: 30_000,
      connectionTimeoutMillis: 10_000,
      application_name: 'sds',
      // TCP keep-alive: a server lost without closing its connections (a partition) is noticed
      // by the operating system within minutes, instead of a query waiting for an answer forever.
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
      // Sessions read and write timestamptz in UTC, whatever the server's default.
      options: '-c timezone=UTC',
      types: typeParsers,
    });
    // An idle client losing its server must not crash the process; the next query reconnects.
    this.pool.on('error', () => {});
    // Nor may a checked-out one (a COPY, a transaction): pg-pool listens to a client's 'error' only
    // while it is idle, and a server going away mid-COPY emits one after the query has already failed
    // (writing CopyFail to the dead socket). The query still rejects; the client is not queryable
    // any more, so its release drops it from the pool.
    this.pool.on('connect', (client) => client.on('error', () => {}));
  }

  async ping(): Promise<void> {
    await this.pool.query('SELECT 1');
  }

  async query<T = Record<string, unknown>>(sql: string, params: unknown[]): Promise<T[]> {
    return (await this.pool.query(sql, params)).rows as T[];
  }

  async transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T> {
    return this.withTransaction((client) => work({ query: async <R>(sql: string, params: unknown[]) => (await client.query(sql, params)).rows as R[] }));
  }

  async namespaceExists(namespace: string): Promise<boolean> {
    quotePostgresIdentifier(namespace);
    const result = await this.pool.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [namespace]);
    return result.rowCount === 1;
  }

  async recreateNamespace(namespace: string): Promise<void> {
    const schema = quotePostgresIdentifier(namespace);
    await this.withTransaction(async (client) => {
      await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await client.query(`CREATE SCHEMA ${schema}`);
    });
  }

  async dropNamespace(namespace: string): Promise<void> {
    await this.pool.query(`DROP SCHEMA IF EXISTS ${quotePostgresIdentifier(namespace)} CASCADE`);
  }

  async createTables(namespace: string, tables: TableSpec[]): Promise<void> {
    const statements = tables.map((table) => createPostgresTable(namespace, table));
    await this.withTransaction(async (client) => {
      for (const statement of statements) await client.query(statement);
    });
  }

  loadRows(namespace: string, table: TableSpec, batches: RowBatches, onBatch?: (written: number) => void): Promise<number> {
    return copyRows(this.pool, namespace, table, batches, onBatch);
  }

  readonly textLoader: TextLoader = {
    encoder: copyRowEncoder,
    load: (namespace, table, chunks, onBatch) => copyText(this.pool, namespace, table, chunks, onBatch),
  };

  updateRows(namespace: string, table: TableSpec, keyColumns: string[], setColumns: string[], batches: RowBatches): Promise<number> {
    return updatePostgresRows(this.pool, namespace, table, keyColumns, setColumns, batches);
  }

  indexTable(namespace: string, table: TableSpec): Promise<void> {
    return this.buildKeys(namespace, [table], []);
  }

  async finalizeTables(namespace: string, tables: TableSpec[], options: FinalizeOptions = {}): Promise<void> {
    const pending = tables.filter((table) => !options.indexed?.has(table.name));
    await this.buildKeys(namespace, pending, tables.flatMap((table) => postgresForeignKeyStatements(namespace, table)));
  }

  /** Keys and indexes of `tables`, then `foreignKeys`, then fresh statistics of `tables`, in one transaction. */
  private async buildKeys(namespace: string, tables: TableSpec[], foreignKeys: string[]): Promise<void> {
    // Every table's keys first: foreign keys need the unique keys they reference.
    const statements = [...tables.flatMap((table) => postgresIndexStatements(namespace, table)), ...foreignKeys];
    await this.withTransaction(async (client) => {
      await client.query(`SET LOCAL maintenance_work_mem = '256MB'`);
      for (const statement of statements) await client.query(statement);
      // Fresh statistics, so the first queries after the swap plan well.
      for (const table of tables) await client.query(`ANALYZE ${postgresTableName(namespace, table.name)}`);
    });
  }

  async swapNamespaces(staging: string, live: string): Promise<void> {
    if (staging === live) throw new Error(`Cannot swap namespace "${live}" with itself`);
    const stagingSchema = quotePostgresIdentifier(staging);
    const liveSchema = quotePostgresIdentifier(live);
    const old = `sds_old_${randomBytes(8).toString('hex')}`;
    const oldSchema = quotePostgresIdentifier(old);
    // One transaction of renames, which lock no table: readers see the old schema or the new one,
    // never a mix.
    await this.withTransaction(async (client) => {
      const existing = await client.query<{ nspname: string }>('SELECT nspname FROM pg_namespace WHERE nspname = ANY($1::text[])', [[staging, live]]);
      const names = new Set(existing.rows.map((row) => row.nspname));
      if (!names.has(staging)) throw new Error(`Staging namespace "${staging}" does not exist`);
      if (names.has(live)) await client.query(`ALTER SCHEMA ${liveSchema} RENAME TO ${oldSchema}`);
      await client.query(`ALTER SCHEMA ${stagingSchema} RENAME TO ${liveSchema}`);
    });
    await this.dropReplaced(old);
  }

  /**
   * Drops the schema a swap replaced. Dropping takes an exclusive lock on every old table, which can
   * deadlock with a runtime write still finishing on them (a write locks its table, then the
   * referenced one for its foreign-key check): PostgreSQL cancels one side, and a cancelled drop is
   * tried again. The swap itself is done either way: should every attempt fail, the old schema is
   * left behind rather than failing a generation whose data is already live.
   */
  private async dropReplaced(old: string): Promise<void> {
    for (let attempt = 1; attempt <= DROP_ATTEMPTS; attempt++) {
      try {
        await this.pool.query(`DROP SCHEMA IF EXISTS ${quotePostgresIdentifier(old)} CASCADE`);
        return;
      } catch (error) {
        const code = (error as { code?: string }).code;
        if (code !== '40P01' && code !== '55P03') throw error;
        await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
      }
    }
  }

  async countRows(namespace: string, table: string): Promise<number> {
    const result = await this.pool.query<{ count: string }>(`SELECT count(*) AS count FROM ${postgresTableName(namespace, table)}`);
    return Number(result.rows[0]!.count);
  }

  readCatalog(namespace: string): Promise<Catalog> {
    return readPostgresCatalog(this, namespace);
  }

  currentNamespace(): Promise<string | undefined> {
    return currentPostgresNamespace(this);
  }

  close(): Promise<void> {
    return this.pool.end();
  }

  private async withTransaction<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    let broken: Error | undefined;
    try {
      await client.query('BEGIN');
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      // A client whose ROLLBACK fails is in an unknown state: it is discarded, not reused.
      await client.query('ROLLBACK').catch((rollback: unknown) => {
        broken = rollback instanceof Error ? rollback : new Error(String(rollback));
      });
      throw error;
    } finally {
      client.release(broken);
    }
  }
}
