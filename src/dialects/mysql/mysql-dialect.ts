// The MySQL dialect (MySQL 8 and MariaDB 10.11+): a mysql2 pool per target with a fixed session
// (UTC, strict sql_mode, utf8mb4_bin), namespaces as databases, and a one-statement table swap.
import type { Pool, PoolConnection, PoolOptions, RowDataPacket } from 'mysql2/promise';
import net, { type Socket } from 'node:net';
import type { Readable } from 'node:stream';
import type { Catalog } from '../catalog.ts';
import type { ConnectOptions, Dialect, FinalizeOptions, LoadTransaction, PoolStats, RowBatches, SqlExecutor, TableStorage, TargetConnection, TextChunks, TextLoader } from '../dialect.ts';
import type { TableSpec } from '../../model/table-spec.ts';
import {
  createMysqlDatabase,
  createMysqlTable,
  mysqlForeignKeyStatement,
  mysqlIndexStatement,
  mysqlOrphanQuery,
  mysqlTableName,
  quoteMysqlIdentifier,
  MYSQL_MAX_IDENTIFIER_LENGTH,
} from './mysql-ddl.ts';
import { isClientTimeout, mapMysqlError } from './mysql-errors.ts';
import { createMysqlScratchDatabase, currentMysqlNamespace, mysqlTableStorage, readMysqlCatalog } from './mysql-introspect.ts';
import { watchStall } from '../stall-watch.ts';
import { insertRows, loadDataRowEncoder, loadDataRows, loadDataText, updateMysqlRows, type MysqlLoadMethod } from './mysql-loader.ts';
import {
  mysqlComparable,
  mysqlDistinctFrom,
  mysqlLike,
  mysqlMaxKeyStatements,
  mysqlOrderBy,
  mysqlPaging,
  mysqlPlaceholder,
  mysqlRuntimeParameter,
  MYSQL_LIKE_ESCAPE,
} from './mysql-compiler.ts';
import { mysqlDump } from './mysql-dump.ts';
import { mysqlFacts } from './mysql-facts.ts';
import { replacedNamespace } from '../../model/namespace-names.ts';
import { inTransaction, type PooledClient } from '../../transaction.ts';

/**
 * Every session: UTC (DATETIME values are stored as UTC), and a strict sql_mode without
 * NO_BACKSLASH_ESCAPES (quoteMysqlLiteral and LOAD DATA's ESCAPED BY '\\' rely on it) and without
 * ANSI_QUOTES; ONLY_FULL_GROUP_BY makes MariaDB as strict as MySQL 8's default.
 */
const SESSION_SETUP =
  "SET SESSION time_zone = '+00:00', SESSION sql_mode = 'ONLY_FULL_GROUP_BY,STRICT_TRANS_TABLES,STRICT_ALL_TABLES,NO_ZERO_IN_DATE,NO_ZERO_DATE,ERROR_FOR_DIVISION_BY_ZERO,NO_ENGINE_SUBSTITUTION'";

export const mysqlDialect: Dialect = {
  kind: 'mysql',
  facts: mysqlFacts,
  dump: mysqlDump,
  bulkTextEncoder: loadDataRowEncoder,
  capabilities: { supportsReturning: false, transactionalDdl: false, maxIdentifierLength: MYSQL_MAX_IDENTIFIER_LENGTH },
  quoteIdentifier: quoteMysqlIdentifier,
  placeholder: mysqlPlaceholder,
  typedPlaceholder: mysqlPlaceholder,
  parameter: mysqlRuntimeParameter,
  like: mysqlLike,
  likeEscape: MYSQL_LIKE_ESCAPE,
  distinctFrom: mysqlDistinctFrom,
  comparable: mysqlComparable,
  orderBy: mysqlOrderBy,
  paging: mysqlPaging,
  maxKeyStatements: mysqlMaxKeyStatements,
  connect: (url, options) => connectMysql(url, options),
  mapError: mapMysqlError,
  scriptSyntax: { dollarQuotes: false, hashComments: true, backslashEscapes: true, executableComments: true, delimiterCommand: true, backslashCommands: false },
  createScratchDatabase: (url) => createMysqlScratchDatabase(url, connectMysql),
};

export interface MysqlConnectOptions extends ConnectOptions {
  /**
   * How loadRows writes: 'load-data' (default; LOAD DATA LOCAL INFILE, falling back to INSERT when
   * the server has local_infile off) or 'insert' (multi-row INSERT only).
   */
  loadMethod?: MysqlLoadMethod;
  /** false: the client does not offer LOAD DATA LOCAL, so the server refuses it as when local_infile is off (tests of the fallback). */
  clientLocalInfile?: boolean;
}

/** Opens the pools and checks the server answers (learning whether it is MariaDB or MySQL). */
export async function connectMysql(url: string, options: MysqlConnectOptions = {}): Promise<MysqlConnection> {
  const poolOptions = mysqlPoolOptions(url);
  if (options.connectTimeoutMs) poolOptions.connectTimeout = options.connectTimeoutMs;
  if (options.lookup) {
    // The host resolved by the connection guard's lookup, for every new connection (as mysql2 connects: no delay, keep-alive).
    const { host, port } = poolOptions;
    const lookup = options.lookup;
    poolOptions.stream = () => {
      const socket = net.connect({ host: host!, port: port!, lookup });
      socket.setNoDelay(true);
      socket.once('connect', () => socket.setKeepAlive(true, 0));
      return socket;
    };
  }
  if (options.clientLocalInfile === false) poolOptions.flags = ['-LOCAL_FILES'];
  // mysql2 is imported with the first MySQL connection: servers without MySQL targets never load it.
  const { default: mysql } = await import('mysql2/promise');
  const limits = options.queryTimeoutMs ? { pool: mysql.createPool(poolOptions), timeoutMs: options.queryTimeoutMs } : undefined;
  const exportPool = mysql.createPool({ ...poolOptions, connectionLimit: options.exportPoolSize ?? DEFAULT_EXPORT_POOL_SIZE });
  const connection = new MysqlConnection(mysql.createPool(poolOptions), options.loadMethod ?? 'load-data', limits, options.loadIdleTimeoutMs, exportPool);
  try {
    await connection.handshake();
  } catch (error) {
    await connection.close().catch(() => {});
    throw error;
  }
  return connection;
}

/**
 * Pool options from a mysql:// or mariadb:// URL. Only host, port, user, password, database and
 * ssl/sslmode are read from it: the session options below are not the URL's to override.
 */
export function mysqlPoolOptions(url: string): PoolOptions {
  const parsed = new URL(url);
  const ssl = parsed.searchParams.get('ssl') ?? parsed.searchParams.get('sslmode');
  return {
    host: decodeURIComponent(parsed.hostname.replace(/^\[(.*)\]$/, '$1')) || 'localhost',
    port: parsed.port ? Number(parsed.port) : 3306,
    user: decodeURIComponent(parsed.username),
    password: decodeURIComponent(parsed.password),
    database: decodeURIComponent(parsed.pathname.slice(1)) || undefined,
    ...(ssl && !['false', 'disable', 'disabled', '0'].includes(ssl.toLowerCase()) ? { ssl: { rejectUnauthorized: ssl !== 'require' && ssl !== 'required' } } : {}),
    charset: 'UTF8MB4_BIN',
    multipleStatements: false,
    dateStrings: true,
    supportBigNumbers: true,
    bigNumberStrings: false,
    timezone: 'Z',
    connectionLimit: 10,
    connectTimeout: 10_000,
    enableKeepAlive: true,
  };
}

interface CoreConnection {
  query(sql: string, callback: (error: Error | null) => void): unknown;
  destroy(): void;
  stream?: Socket;
}

/** Connections of the export pool unless ConnectOptions.exportPoolSize says otherwise. */
const DEFAULT_EXPORT_POOL_SIZE = 4;

/** How much longer than the query timeout the client waits for an answer before it gives the connection up. */
const CLIENT_GRACE_MS = 2_000;

/**
 * The session settings that limit a runtime statement to `timeoutMs`: MariaDB's max_statement_time
 * (seconds) limits every statement; MySQL's max_execution_time (ms) limits reads only, so writes are
 * limited where they wait, on row locks (innodb_lock_wait_timeout, whole seconds, on both).
 */
function statementLimits(version: string, timeoutMs: number): string {
  const limit = /mariadb/i.test(version) ? `SESSION max_statement_time = ${timeoutMs / 1000}` : `SESSION max_execution_time = ${Math.ceil(timeoutMs)}`;
  return `, SESSION innodb_lock_wait_timeout = ${Math.max(1, Math.ceil(timeoutMs / 1000))}, ${limit}`;
}

/** mysql2 keeps its pool's connections and queue in fields of the core pool (`pool.pool`); read as far as they are there. */
function mysqlPoolStats(pool: Pool, name: PoolStats['pool']): PoolStats {
  const core = (pool as unknown as { pool?: Record<string, { length?: number } | undefined> }).pool ?? {};
  const count = (field: string) => core[field]?.length ?? 0;
  return { pool: name, total: count('_allConnections'), idle: count('_freeConnections'), waiting: count('_connectionQueue') };
}

export class MysqlConnection implements TargetConnection {
  readonly dialect = mysqlDialect;
  readonly textLoader: TextLoader | undefined;
  /** The runtime API's pool (query, transaction): `limits.pool`, or the load pool when there is no query timeout. */
  private readonly runtimePool: Pool;
  /** Set by handshake(), before the runtime pool makes its first connection. */
  private runtimeSetup = SESSION_SETUP;

  /**
   * `pool` serves generation (loads, DDL, swaps); `limits`, when given, is the runtime API's pool and
   * the query timeout its sessions get (see statementLimits); `exportPool` serves exports (streamRows),
   * by default the load pool. handshake() must run before use.
   */
  constructor(
    private readonly pool: Pool,
    private readonly loadMethod: MysqlLoadMethod,
    private readonly limits?: { pool: Pool; timeoutMs: number },
    private readonly loadIdleTimeoutMs = 0,
    private readonly exportPool: Pool = pool,
  ) {
    this.textLoader =
      loadMethod === 'load-data'
        ? {
            encoder: loadDataRowEncoder,
            load: (namespace, table, chunks, onBatch) =>
              this.withTransaction((connection) => this.watched(connection, () => loadDataText(connection, namespace, table, chunks, onBatch))),
          }
        : undefined;
    this.runtimePool = limits?.pool ?? pool;
    // Runs before the pool hands the new connection to anyone (mysql2 queues commands in order).
    const setUp = (statement: () => string) => (connection: unknown) => {
      const core = connection as CoreConnection;
      core.query(statement(), (error) => {
        if (error) core.destroy();
      });
    };
    this.pool.on('connection', setUp(() => SESSION_SETUP));
    limits?.pool.on('connection', setUp(() => this.runtimeSetup));
    if (exportPool !== pool) exportPool.on('connection', setUp(() => SESSION_SETUP));
  }

  /** Checks the server answers and, with a query timeout, learns how to limit statements on it. */
  async handshake(): Promise<void> {
    const [[row]] = await this.pool.query<RowDataPacket[]>('SELECT VERSION() AS version');
    if (this.limits) this.runtimeSetup = SESSION_SETUP + statementLimits(String(row?.version ?? ''), this.limits.timeoutMs);
  }

  async *streamRows(sql: string, params: unknown[], batchRows: number): AsyncIterable<Array<Record<string, unknown>>> {
    // The export pool: an export is one statement for as long as the client reads, so the runtime
    // pool's max_statement_time would cut it; the stream's buffer pauses the connection instead.
    // Not the load pool either: a client that reads slowly holds its connection that long.
    const connection = await this.exportPool.getConnection();
    const core = (connection as unknown as { connection: { query(sql: string, params: unknown[]): { stream(options: { highWaterMark: number }): Readable } } }).connection;
    const stream = core.query(sql, params).stream({ highWaterMark: batchRows });
    let complete = false;
    try {
      let batch: Array<Record<string, unknown>> = [];
      for await (const row of stream) {
        batch.push(row as Record<string, unknown>);
        if (batch.length >= batchRows) {
          yield batch;
          batch = [];
        }
      }
      if (batch.length > 0) yield batch;
      complete = true;
    } finally {
      stream.destroy();
      // A result left half-read keeps the connection busy: it is not handed back to the pool.
      if (complete) connection.release();
      else connection.destroy();
    }
  }

  /** mysql2 escapes the parameters into the statement text (one statement: multipleStatements is off). */
  async query<T = Record<string, unknown>>(sql: string, params: unknown[]): Promise<T[]> {
    if (!this.limits) {
      const [rows] = await this.pool.query(sql, params);
      return Array.isArray(rows) ? (rows as T[]) : [];
    }
    const connection = await this.runtimePool.getConnection();
    let reusable = true;
    try {
      return await this.limitedQuery<T>(connection, sql, params);
    } catch (error) {
      reusable = !isClientTimeout(error);
      throw error;
    } finally {
      if (reusable) connection.release();
      else connection.destroy();
    }
  }

  async transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T> {
    // An expected failure (a duplicate key) leaves a healthy connection once rolled back. One given
    // up on for want of an answer is not asked (that would wait as long again): it goes, and the
    // server rolls back when it sees the connection end.
    return inTransaction(
      () => checkOut(this.runtimePool),
      ({ connection }) => work({ query: <R>(sql: string, params: unknown[]) => this.limitedQuery<R>(connection, sql, params) }),
      { abandons: isClientTimeout },
    );
  }

  /** A runtime statement: with a query timeout, the client gives up CLIENT_GRACE_MS after the server should have. */
  private async limitedQuery<T>(connection: PoolConnection, sql: string, params: unknown[]): Promise<T[]> {
    const timeout = this.limits ? this.limits.timeoutMs + CLIENT_GRACE_MS : undefined;
    const [rows] = await connection.query({ sql, values: params, ...(timeout ? { timeout } : {}) });
    return Array.isArray(rows) ? (rows as T[]) : [];
  }

  /** Runs a load on `connection`, failing it when its socket stalls (stall-watch.ts). */
  private watched<T>(connection: PoolConnection, work: () => Promise<T>): Promise<T> {
    const socket = (connection as unknown as { connection?: CoreConnection }).connection?.stream;
    return watchStall(socket, this.loadIdleTimeoutMs, work);
  }

  async namespaceExists(namespace: string): Promise<boolean> {
    quoteMysqlIdentifier(namespace);
    const [rows] = await this.pool.query<RowDataPacket[]>('SELECT 1 FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = ?', [namespace]);
    return rows.length > 0;
  }

  async recreateNamespace(namespace: string): Promise<void> {
    await this.dropNamespace(namespace);
    await this.pool.query(createMysqlDatabase(namespace));
  }

  async dropNamespace(namespace: string): Promise<void> {
    const database = quoteMysqlIdentifier(namespace);
    await this.withConnection(async (connection) => {
      // Tables of the database may reference each other: drop without checking those keys.
      await connection.query('SET SESSION foreign_key_checks = 0');
      try {
        await connection.query(`DROP DATABASE IF EXISTS ${database}`);
      } finally {
        await connection.query('SET SESSION foreign_key_checks = 1');
      }
    });
  }

  async createTables(namespace: string, tables: TableSpec[]): Promise<void> {
    // Build every statement first: a spec MySQL cannot hold fails before any table exists.
    const statements = tables.map((table) => createMysqlTable(namespace, table));
    for (const statement of statements) await this.pool.query(statement);
  }

  loadRows(namespace: string, table: TableSpec, batches: RowBatches, onBatch?: (written: number) => void): Promise<number> {
    return this.withTransaction((connection) => this.watched(connection, () => this.loadOn(connection, namespace, table, batches, onBatch)));
  }

  /** LOAD DATA, or multi-row INSERTs when the server refuses it (or loadMethod says so), on `connection`. */
  private async loadOn(connection: PoolConnection, namespace: string, table: TableSpec, batches: RowBatches, onBatch?: (written: number) => void): Promise<number> {
    if (this.loadMethod === 'load-data') {
      const loaded = await loadDataRows(connection, namespace, table, batches, onBatch);
      if (loaded !== undefined) return loaded;
    }
    const [[packet]] = await connection.query<RowDataPacket[]>('SELECT @@max_allowed_packet AS size');
    return insertRows(connection, namespace, table, batches, Number(packet?.size ?? 4_194_304), onBatch);
  }

  updateRows(namespace: string, table: TableSpec, keyColumns: string[], setColumns: string[], batches: RowBatches): Promise<number> {
    return this.withTransaction((connection) => updateMysqlRows(connection, namespace, table, keyColumns, setColumns, batches));
  }

  loadTransaction<T>(work: (tx: LoadTransaction) => Promise<T>): Promise<T> {
    return this.withTransaction((connection) =>
      work({
        query: async <R>(sql: string, params: unknown[]) => {
          const [rows] = await connection.query(sql, params);
          return Array.isArray(rows) ? (rows as R[]) : [];
        },
        loadRows: (namespace, table, batches, onBatch) => this.watched(connection, () => this.loadOn(connection, namespace, table, batches, onBatch)),
        ...(this.loadMethod === 'load-data'
          ? {
              textLoader: {
                encoder: loadDataRowEncoder,
                load: (namespace: string, table: TableSpec, chunks: TextChunks, onBatch?: (written: number) => void) =>
                  this.watched(connection, () => loadDataText(connection, namespace, table, chunks, onBatch)),
              },
            }
          : {}),
        updateRows: (namespace, table, keyColumns, setColumns, batches) => updateMysqlRows(connection, namespace, table, keyColumns, setColumns, batches),
      }),
    );
  }

  async finalizeTables(namespace: string, tables: TableSpec[], options: FinalizeOptions = {}): Promise<void> {
    for (const table of tables) {
      const statement = mysqlIndexStatement(namespace, table);
      if (statement) await this.pool.query(statement);
    }
    // With foreign_key_checks on, ADD FOREIGN KEY copies the whole table; with them off it is
    // in-place and instant. The check it skips is done first, one anti-join per key — unless the
    // caller vouches for the references (runGeneration, for the namespace it just generated).
    for (const table of options.trustedReferences ? [] : tables) {
      for (const foreignKey of table.foreignKeys) {
        const [orphans] = await this.pool.query<RowDataPacket[]>(mysqlOrphanQuery(namespace, table, foreignKey));
        if (orphans.length > 0) {
          throw new Error(`Foreign key ${foreignKey.name} of "${table.name}" cannot be added: some rows reference a missing "${foreignKey.references.table}" row`);
        }
      }
    }
    await this.withConnection(async (connection) => {
      await connection.query('SET SESSION foreign_key_checks = 0');
      try {
        for (const table of tables) {
          const statement = mysqlForeignKeyStatement(namespace, table);
          if (statement) await connection.query(statement);
        }
      } finally {
        await connection.query('SET SESSION foreign_key_checks = 1');
      }
    });
  }

  async swapNamespaces(staging: string, live: string): Promise<void> {
    if (staging === live) throw new Error(`Cannot swap namespace "${live}" with itself`);
    // Named after `live`: what a swap of it killed mid-way left there (the tables it replaced) goes first.
    const old = replacedNamespace(live);
    if (!(await this.namespaceExists(staging))) throw new Error(`Staging namespace "${staging}" does not exist`);
    await this.pool.query(createMysqlDatabase(live, { ifNotExists: true }));
    await this.dropNamespace(old);
    await this.pool.query(createMysqlDatabase(old));
    try {
      const [tables] = await this.pool.query<RowDataPacket[]>(
        "SELECT TABLE_SCHEMA AS ns, TABLE_NAME AS name FROM information_schema.TABLES WHERE TABLE_SCHEMA IN (?, ?) AND TABLE_TYPE = 'BASE TABLE'",
        [live, staging],
      );
      const renames = [
        ...tables.filter((table) => table.ns === live).map((table) => `${mysqlTableName(live, table.name)} TO ${mysqlTableName(old, table.name)}`),
        ...tables.filter((table) => table.ns === staging).map((table) => `${mysqlTableName(staging, table.name)} TO ${mysqlTableName(live, table.name)}`),
      ];
      // One RENAME TABLE is atomic: readers see all old tables or all new ones. Foreign keys follow their tables.
      if (renames.length > 0) await this.pool.query(`RENAME TABLE ${renames.join(', ')}`);
    } finally {
      await this.dropNamespace(old);
    }
    await this.dropNamespace(staging);
  }

  async countRows(namespace: string, table: string): Promise<number> {
    const [rows] = await this.pool.query<RowDataPacket[]>(`SELECT COUNT(*) AS count FROM ${mysqlTableName(namespace, table)}`);
    return Number(rows[0]?.count ?? 0);
  }

  readCatalog(namespace: string): Promise<Catalog> {
    return readMysqlCatalog(this, namespace);
  }

  currentNamespace(): Promise<string | undefined> {
    return currentMysqlNamespace(this);
  }

  tableStorage(namespace: string): Promise<Map<string, TableStorage>> {
    return mysqlTableStorage(this, namespace);
  }

  poolStats(): PoolStats[] {
    const main = this.limits ? [mysqlPoolStats(this.limits.pool, 'runtime'), mysqlPoolStats(this.pool, 'generation')] : [mysqlPoolStats(this.pool, 'shared')];
    return this.exportPool === this.pool ? main : [...main, mysqlPoolStats(this.exportPool, 'export')];
  }

  async close(): Promise<void> {
    await Promise.all([this.pool.end(), this.limits?.pool.end(), this.exportPool === this.pool ? undefined : this.exportPool.end()]);
  }

  private async withConnection<T>(work: (connection: PoolConnection) => Promise<T>): Promise<T> {
    const connection = await this.pool.getConnection();
    let broken = false;
    try {
      return await work(connection);
    } catch (error) {
      broken = true;
      throw error;
    } finally {
      // A connection whose session state may be off (foreign_key_checks, an open LOAD DATA) is not reused.
      if (broken) connection.destroy();
      else connection.release();
    }
  }

  /** A load's transaction: a connection whose session state may be off after a failure (foreign_key_checks, an open LOAD DATA) is not reused. */
  private withTransaction<T>(work: (connection: PoolConnection) => Promise<T>): Promise<T> {
    return inTransaction(() => checkOut(this.pool), ({ connection }) => work(connection), { discardOnFailure: true });
  }
}

/** A pooled connection as inTransaction takes it: `release(discard)` destroys it instead of returning it to the pool. */
async function checkOut(pool: Pool): Promise<PooledClient & { connection: PoolConnection }> {
  const connection = await pool.getConnection();
  return { connection, query: (sql) => connection.query(sql), release: (discard) => (discard ? connection.destroy() : connection.release()) };
}
