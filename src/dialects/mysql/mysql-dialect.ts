// The MySQL dialect (MySQL 8 and MariaDB 10.11+): a mysql2 pool per target with a fixed session
// (UTC, strict sql_mode, utf8mb4_bin), namespaces as databases, and a one-statement table swap.
import { randomBytes } from 'node:crypto';
import mysql from 'mysql2/promise';
import type { Pool, PoolConnection, PoolOptions, RowDataPacket } from 'mysql2/promise';
import type { Catalog } from '../catalog.ts';
import type { Dialect, FinalizeOptions, RowBatches, SqlExecutor, TableSpec, TargetConnection, TextLoader } from '../dialect.ts';
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
import { mapMysqlError } from './mysql-errors.ts';
import { createMysqlScratchDatabase, currentMysqlNamespace, readMysqlCatalog } from './mysql-introspect.ts';
import { insertRows, loadDataRowEncoder, loadDataRows, loadDataText, updateMysqlRows, type MysqlLoadMethod } from './mysql-loader.ts';
import {
  mysqlComparable,
  mysqlDistinctFrom,
  mysqlLike,
  mysqlMaxKeyStatements,
  mysqlOrderBy,
  mysqlPlaceholder,
  mysqlRuntimeParameter,
  MYSQL_LIKE_ESCAPE,
} from './mysql-sql.ts';

/**
 * Every session: UTC (DATETIME values are stored as UTC), and a strict sql_mode without
 * NO_BACKSLASH_ESCAPES (quoteMysqlLiteral and LOAD DATA's ESCAPED BY '\\' rely on it) and without
 * ANSI_QUOTES; ONLY_FULL_GROUP_BY makes MariaDB as strict as MySQL 8's default.
 */
const SESSION_SETUP =
  "SET SESSION time_zone = '+00:00', SESSION sql_mode = 'ONLY_FULL_GROUP_BY,STRICT_TRANS_TABLES,STRICT_ALL_TABLES,NO_ZERO_IN_DATE,NO_ZERO_DATE,ERROR_FOR_DIVISION_BY_ZERO,NO_ENGINE_SUBSTITUTION'";

export const mysqlDialect: Dialect = {
  kind: 'mysql',
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
  maxKeyStatements: mysqlMaxKeyStatements,
  connect: (url) => connectMysql(url),
  mapError: mapMysqlError,
  scriptSyntax: { dollarQuotes: false, hashComments: true, backslashEscapes: true, executableComments: true, delimiterCommand: true, backslashCommands: false },
  createScratchDatabase: (url) => createMysqlScratchDatabase(url, connectMysql),
};

export interface MysqlConnectOptions {
  /**
   * How loadRows writes: 'load-data' (default; LOAD DATA LOCAL INFILE, falling back to INSERT when
   * the server has local_infile off) or 'insert' (multi-row INSERT only).
   */
  loadMethod?: MysqlLoadMethod;
  /** false: the client does not offer LOAD DATA LOCAL, so the server refuses it as when local_infile is off (tests of the fallback). */
  clientLocalInfile?: boolean;
}

/** Opens a pool and checks the server answers; `options` are for benchmarks and tests. */
export async function connectMysql(url: string, options: MysqlConnectOptions = {}): Promise<MysqlConnection> {
  const poolOptions = mysqlPoolOptions(url);
  if (options.clientLocalInfile === false) poolOptions.flags = ['-LOCAL_FILES'];
  const connection = new MysqlConnection(poolOptions, options.loadMethod ?? 'load-data');
  try {
    await connection.ping();
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
}

export class MysqlConnection implements TargetConnection {
  readonly dialect = mysqlDialect;
  readonly textLoader: TextLoader | undefined;
  private readonly pool: Pool;

  constructor(
    options: PoolOptions,
    private readonly loadMethod: MysqlLoadMethod,
  ) {
    this.pool = mysql.createPool(options);
    this.textLoader =
      loadMethod === 'load-data'
        ? { encoder: loadDataRowEncoder, load: (namespace, table, chunks, onBatch) => this.withTransaction((connection) => loadDataText(connection, namespace, table, chunks, onBatch)) }
        : undefined;
    // Runs before the pool hands the new connection to anyone (mysql2 queues commands in order).
    this.pool.on('connection', (connection) => {
      const core = connection as unknown as CoreConnection;
      core.query(SESSION_SETUP, (error) => {
        if (error) core.destroy();
      });
    });
  }

  async ping(): Promise<void> {
    await this.pool.query('SELECT 1');
  }

  /** mysql2 escapes the parameters into the statement text (one statement: multipleStatements is off). */
  async query<T = Record<string, unknown>>(sql: string, params: unknown[]): Promise<T[]> {
    const [rows] = await this.pool.query(sql, params);
    return Array.isArray(rows) ? (rows as T[]) : [];
  }

  async transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T> {
    const connection = await this.pool.getConnection();
    let reusable = true;
    try {
      await connection.beginTransaction();
      const result = await work({
        query: async <R>(sql: string, params: unknown[]) => {
          const [rows] = await connection.query(sql, params);
          return Array.isArray(rows) ? (rows as R[]) : [];
        },
      });
      await connection.commit();
      return result;
    } catch (error) {
      // An expected failure (a duplicate key) leaves a healthy connection once rolled back.
      await connection.rollback().catch(() => {
        reusable = false;
      });
      throw error;
    } finally {
      if (reusable) connection.release();
      else connection.destroy();
    }
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
    return this.withTransaction(async (connection) => {
      if (this.loadMethod === 'load-data') {
        const loaded = await loadDataRows(connection, namespace, table, batches, onBatch);
        if (loaded !== undefined) return loaded;
      }
      const [[packet]] = await connection.query<RowDataPacket[]>('SELECT @@max_allowed_packet AS size');
      return insertRows(connection, namespace, table, batches, Number(packet?.size ?? 4_194_304), onBatch);
    });
  }

  updateRows(namespace: string, table: TableSpec, keyColumns: string[], setColumns: string[], batches: RowBatches): Promise<number> {
    return this.withTransaction((connection) => updateMysqlRows(connection, namespace, table, keyColumns, setColumns, batches));
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
    const old = `sds_old_${randomBytes(8).toString('hex')}`;
    if (!(await this.namespaceExists(staging))) throw new Error(`Staging namespace "${staging}" does not exist`);
    await this.pool.query(createMysqlDatabase(live, { ifNotExists: true }));
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

  close(): Promise<void> {
    return this.pool.end();
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

  private withTransaction<T>(work: (connection: PoolConnection) => Promise<T>): Promise<T> {
    return this.withConnection(async (connection) => {
      await connection.beginTransaction();
      try {
        const result = await work(connection);
        await connection.commit();
        return result;
      } catch (error) {
        await connection.rollback().catch(() => {});
        throw error;
      }
    });
  }
}
