// The PostgreSQL dialect: a pg pool per target, namespaces as schemas, DDL in transactions,
// COPY for loads, and an atomic schema swap.
import net, { type LookupFunction } from 'node:net';
import pg from 'pg';
import Cursor from 'pg-cursor';
import { to as copyTo } from 'pg-copy-streams';
import type { Catalog } from '../catalog.ts';
import type { ConnectOptions, Dialect, FinalizeOptions, LoadTransaction, PoolStats, RowBatches, SqlExecutor, TableStorage, TargetConnection, TextLoader } from '../dialect.ts';
import type { TableSpec } from '../../model/table-spec.ts';
import { encodeBatches } from '../bulk-text.ts';
import { createPostgresTable, postgresForeignKeyStatements, postgresIndexStatements, postgresTableName, quotePostgresIdentifier, POSTGRES_MAX_IDENTIFIER_LENGTH } from './postgres-ddl.ts';
import { isClientTimeout, mapPostgresError } from './postgres-errors.ts';
import { inTransaction } from '../../transaction.ts';
import { createPostgresScratchDatabase, currentPostgresNamespace, postgresTableStorage, readPostgresCatalog } from './postgres-introspect.ts';
import { binaryRowWriter } from './postgres-binary-copy.ts';
import { copyBinaryRows, copyRowEncoder, copyRows, copyText, copyTextOn, updatePostgresRowsOn } from './postgres-loader.ts';
import {
  postgresComparable,
  postgresDistinctFrom,
  postgresLike,
  postgresMaxKeyStatements,
  postgresExportText,
  postgresFormulaEscapedText,
  postgresOrderBy,
  postgresPaging,
  postgresPlaceholder,
  postgresRuntimeParameter,
  postgresTypedPlaceholder,
  POSTGRES_LIKE_ESCAPE,
} from './postgres-compiler.ts';
import { postgresDump } from './postgres-dump.ts';
import { postgresFacts } from './postgres-facts.ts';
import { replacedNamespace } from '../../model/namespace-names.ts';

/** Temporal types stay text (pg would build local-time Dates from them); everything else as pg parses it. */
const TEXT_TYPES = new Set([pg.types.builtins.DATE, pg.types.builtins.TIMESTAMP, pg.types.builtins.TIMESTAMPTZ, pg.types.builtins.TIME, pg.types.builtins.TIMETZ]);
const typeParsers = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    TEXT_TYPES.has(oid) ? (value: string) => value : pg.types.getTypeParser(oid, format ?? 'text')) as typeof pg.types.getTypeParser,
};

export const postgresDialect: Dialect = {
  kind: 'postgres',
  facts: postgresFacts,
  dump: postgresDump,
  bulkTextEncoder: copyRowEncoder,
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
  paging: postgresPaging,
  exportText: postgresExportText,
  formulaEscapedText: postgresFormulaEscapedText,
  maxKeyStatements: postgresMaxKeyStatements,
  advanceCounter: (namespace, table, column) => {
    // pg_get_serial_sequence parses its first argument as a (quoted) name, its second as a plain column name.
    const name = postgresTableName(namespace, table);
    const sequence = 'pg_get_serial_sequence($1, $2)::regclass';
    return {
      sql: `SELECT setval(${sequence}, GREATEST(COALESCE(MAX(${quotePostgresIdentifier(column)}), 0) + 1, COALESCE(pg_sequence_last_value(${sequence}) + 1, 1)), false) FROM ${name}`,
      params: [name, column],
    };
  },
  connect: (url, options) => connectPostgres(url, options),
  mapError: mapPostgresError,
  scriptSyntax: { dollarQuotes: true, hashComments: false, backslashEscapes: false, executableComments: false, delimiterCommand: false, backslashCommands: true },
  createScratchDatabase: createPostgresScratchDatabase,
};

export interface PostgresConnectOptions extends ConnectOptions {
  /**
   * The COPY format of loadRows: 'text' (default) or 'binary' (tables with a column that has no
   * binary form in postgres-binary-copy.ts load as text). Internal: measured by bench:loaders.
   */
  copyFormat?: 'text' | 'binary';
}

/** Opens the pools and checks the server answers. */
export async function connectPostgres(url: string, options: PostgresConnectOptions = {}): Promise<PostgresConnection> {
  const connection = new PostgresConnection(url, options);
  try {
    await connection.ping();
  } catch (error) {
    await connection.close().catch(() => {});
    throw error;
  }
  return connection;
}

/** Connections of the export pool unless ConnectOptions.exportPoolSize says otherwise. */
const DEFAULT_EXPORT_POOL_SIZE = 4;

/** Tries at renaming with the live tables locked (see swapNamespaces), each waiting at most SWAP_LOCK_TIMEOUT. */
const SWAP_LOCK_ATTEMPTS = 20;
const SWAP_LOCK_TIMEOUT = '250ms';

/** Tries at dropping the schema a swap replaced (see dropReplaced). */
const DROP_ATTEMPTS = 10;
/** ConnectOptions.connectTimeoutMs when not given. */
const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;
/** How much longer than the query timeout the client waits for an answer before it gives the connection up. */
const CLIENT_GRACE_MS = 2_000;

/**
 * A pg pool to `url`. `statementTimeoutMs` > 0: its sessions cancel statements that run longer
 * (statement_timeout, error 57014), and a statement that gets no answer at all for that long plus
 * CLIENT_GRACE_MS fails on the client ("Query read timeout"), its connection dropped.
 */
function createPool(url: string, statementTimeoutMs = 0, options: ConnectOptions = {}, max = 10): pg.Pool {
  const limited = statementTimeoutMs > 0;
  const pool = new pg.Pool({
    ...(options.fromRequest ? requestedServer(url) : { connectionString: url }),
    ...(options.lookup ? { stream: socketResolvedBy(options.lookup) } : {}),
    max,
    idleTimeoutMillis: 30_000,
    connectionTimeoutMillis: options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
    application_name: 'sds',
    // TCP keep-alive: a server lost without closing its connections (a partition) is noticed
    // by the operating system within minutes, instead of a query waiting for an answer forever.
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
    // Sessions read and write timestamptz in UTC, whatever the server's default.
    options: `-c timezone=UTC${limited ? ` -c statement_timeout=${statementTimeoutMs}` : ''}`,
    ...(limited ? { query_timeout: statementTimeoutMs + CLIENT_GRACE_MS } : {}),
    types: typeParsers,
  });
  // An idle client losing its server must not crash the process; the next query reconnects.
  pool.on('error', () => {});
  // Nor may a checked-out one (a COPY, a transaction): pg-pool listens to a client's 'error' only
  // while it is idle, and a server going away mid-COPY emits one after the query has already failed
  // (writing CopyFail to the dead socket). The query still rejects; the client is not queryable
  // any more, so its release drops it from the pool.
  pool.on('connect', (client) => client.on('error', () => {}));
  return pool;
}

/** Sockets whose host is resolved by `lookup` (pg connects its stream with `connect(port, host)`). */
function socketResolvedBy(lookup: LookupFunction): () => net.Socket {
  return () => {
    const socket = new net.Socket();
    const connect = socket.connect.bind(socket);
    socket.connect = ((port: number, host: string) => connect({ port, host, lookup })) as typeof socket.connect;
    return socket;
  };
}

/**
 * The server of a connection string from a request (ConnectOptions.fromRequest), as explicit
 * settings: what the string says and nothing else. Handed to pg as a string, its missing parts
 * would come from this server's environment and files (PGPASSWORD, ~/.pgpass, PGPORT, PGSSLMODE…).
 */
export function requestedServer(url: string): pg.ClientConfig {
  const parsed = new URL(url);
  const user = decodeURIComponent(parsed.username);
  const password = decodeURIComponent(parsed.password);
  const sslmode = parsed.searchParams.get('sslmode');
  const ssl = parsed.searchParams.get('ssl');
  return {
    host: parsed.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: parsed.port ? Number(parsed.port) : postgresDialect.facts.defaultPort,
    user,
    // A function: pg then neither reads PGPASSWORD nor ~/.pgpass when the string has no password.
    password: password === '' ? () => '' : password,
    database: decodeURIComponent(parsed.pathname.slice(1)) || user,
    // pg's meaning of sslmode (verified unless no-verify) and ssl; off when neither is given.
    ssl: sslmode !== null ? (sslmode === 'disable' ? false : sslmode === 'no-verify' ? { rejectUnauthorized: false } : {}) : ssl === 'true' || ssl === '1',
  };
}

/**
 * Names for the prepared statements of the runtime's reads (SELECTs through `query`): a statement
 * is parsed and planned once per connection instead of on every request, the larger share of a
 * read by key's time in PostgreSQL. Bounded: past MAX_PREPARED different texts (filters make many),
 * new ones run unnamed, so no connection holds more than that many plans.
 */
class PreparedNames {
  private static readonly MAX_PREPARED = 256;
  private readonly names = new Map<string, string>();

  nameOf(sql: string): string | undefined {
    let name = this.names.get(sql);
    if (name === undefined && this.names.size < PreparedNames.MAX_PREPARED && sql.startsWith('SELECT ')) {
      this.names.set(sql, (name = `sds_read_${this.names.size + 1}`));
    }
    return name;
  }
}

/** A prepared statement whose table changed its column types under it (a regeneration): "cached plan must not change result type". */
function isStalePlan(error: unknown): boolean {
  return (error as { code?: unknown })?.code === '0A000' && /cached plan must not change result type/.test(String((error as Error).message));
}

/** Makes pg parse `name` again on this client's connection (it remembers what it prepared). */
function forgetParsed(client: pg.PoolClient, name: string): void {
  const parsed = (client as unknown as { connection?: { parsedStatements?: Record<string, string> } }).connection?.parsedStatements;
  if (parsed) delete parsed[name];
}

export class PostgresConnection implements TargetConnection {
  readonly dialect = postgresDialect;
  /** Generation's connections (loads, DDL, swaps): no statement timeout. */
  private readonly pool: pg.Pool;
  /** The runtime API's connections (query, transaction): with the query timeout, if any (else the same pool). */
  private readonly runtimePool: pg.Pool;
  private readonly loadIdleTimeoutMs: number;
  private readonly copyFormat: 'text' | 'binary';
  /** Exports' connections (streamRows, copyOut): no statement timeout, and none of generation's or the runtime's. */
  private readonly exportPool: pg.Pool;
  /** The runtime's reads as prepared statements, so each is parsed and planned once per connection. */
  private readonly statements = new PreparedNames();

  constructor(url: string, options: PostgresConnectOptions = {}) {
    this.pool = createPool(url, 0, options);
    this.runtimePool = options.queryTimeoutMs ? createPool(url, options.queryTimeoutMs, options) : this.pool;
    this.exportPool = createPool(url, 0, options, options.exportPoolSize ?? DEFAULT_EXPORT_POOL_SIZE);
    this.loadIdleTimeoutMs = options.loadIdleTimeoutMs ?? 0;
    this.copyFormat = options.copyFormat ?? 'text';
  }

  async ping(): Promise<void> {
    await this.pool.query('SELECT 1');
  }

  async *streamRows(sql: string, params: unknown[], batchRows: number): AsyncIterable<Array<Record<string, unknown>>> {
    // Not on the runtime pool: a cursor's fetches are one statement to PostgreSQL's statement_timeout
    // (no Sync between them) and one query to pg's query_timeout, so an export longer than the query
    // timeout would be cut however quickly each batch comes (as on MySQL, a connection without it).
    // Nor on generation's: a client that reads slowly holds its connection that long.
    const client = await this.exportPool.connect();
    const cursor = client.query(new Cursor<Record<string, unknown>>(sql, params));
    let broken: Error | undefined;
    try {
      // One batch ahead: the database sends the next rows while the caller encodes these.
      let next = cursor.read(batchRows);
      for (;;) {
        const rows = await next;
        if (rows.length === 0) return;
        next = cursor.read(batchRows);
        // Awaited on the next turn; a caller that stops early leaves it to cursor.close().
        next.catch(() => {});
        yield rows;
      }
    } catch (error) {
      broken = error instanceof Error ? error : new Error(String(error));
      throw error;
    } finally {
      await cursor.close().catch((error: unknown) => (broken ??= error instanceof Error ? error : new Error(String(error))));
      client.release(broken);
    }
  }

  async *copyOut(sql: string): AsyncIterable<Uint8Array> {
    // Like streamRows, on the export pool: one statement for the whole table.
    const client = await this.exportPool.connect();
    let finished = false;
    let broken: Error | undefined;
    try {
      for await (const chunk of client.query(copyTo(sql)) as AsyncIterable<Buffer>) yield chunk;
      finished = true;
    } catch (error) {
      broken = error instanceof Error ? error : new Error(String(error));
      throw error;
    } finally {
      // A COPY TO cannot be stopped on its connection: one left unfinished (the reader went away)
      // ends with the connection, which release(error) closes instead of returning to the pool.
      client.release(finished ? undefined : (broken ?? new Error('COPY TO STDOUT abandoned by its reader')));
    }
  }

  async query<T = Record<string, unknown>>(sql: string, params: unknown[]): Promise<T[]> {
    const name = this.statements.nameOf(sql);
    if (name === undefined) return (await this.runtimePool.query(sql, params)).rows as T[];
    const client = await this.runtimePool.connect();
    let broken: Error | undefined;
    try {
      try {
        return (await client.query({ name, text: sql, values: params })).rows as T[];
      } catch (error) {
        if (!isStalePlan(error)) throw error;
        // The table was regenerated with other column types: prepare the statement anew.
        await client.query(`DEALLOCATE ${quotePostgresIdentifier(name)}`);
        forgetParsed(client, name);
        return (await client.query({ name, text: sql, values: params })).rows as T[];
      }
    } catch (error) {
      // As pool.query does: a client whose query failed leaves the pool (a timed-out one must).
      broken = error instanceof Error ? error : new Error(String(error));
      throw error;
    } finally {
      client.release(broken);
    }
  }

  async transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T> {
    return this.withTransaction(
      (client) => work({ query: async <R>(sql: string, params: unknown[]) => (await client.query(sql, params)).rows as R[] }),
      this.runtimePool,
    );
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

  async loadRows(namespace: string, table: TableSpec, batches: RowBatches, onBatch?: (written: number) => void): Promise<number> {
    if (this.copyFormat === 'binary') {
      const written = await copyBinaryRows(this.pool, namespace, table, batches, onBatch, this.loadIdleTimeoutMs);
      if (written !== undefined) return written;
    }
    return copyRows(this.pool, namespace, table, batches, onBatch, this.loadIdleTimeoutMs);
  }

  readonly textLoader: TextLoader = {
    encoder: copyRowEncoder,
    // In binary, a table that has a binary form is refused as text, before any chunk is read: the
    // caller then gives its rows to loadRows.
    load: async (namespace, table, chunks, onBatch) =>
      this.copyFormat === 'binary' && binaryRowWriter(table) ? undefined : copyText(this.pool, namespace, table, chunks, onBatch, this.loadIdleTimeoutMs),
  };

  updateRows(namespace: string, table: TableSpec, keyColumns: string[], setColumns: string[], batches: RowBatches): Promise<number> {
    return this.withTransaction((client) => updatePostgresRowsOn(client, namespace, table, keyColumns, setColumns, batches));
  }

  loadTransaction<T>(work: (tx: LoadTransaction) => Promise<T>): Promise<T> {
    return this.withTransaction((client) =>
      work({
        query: async <R>(sql: string, params: unknown[]) => (await client.query(sql, params)).rows as R[],
        loadRows: (namespace, table, batches, onBatch) => copyTextOn(client, namespace, table, encodeBatches(batches, copyRowEncoder(table)), onBatch, this.loadIdleTimeoutMs),
        textLoader: {
          encoder: copyRowEncoder,
          load: (namespace, table, chunks, onBatch) => copyTextOn(client, namespace, table, chunks, onBatch, this.loadIdleTimeoutMs),
        },
        updateRows: (namespace, table, keyColumns, setColumns, batches) => updatePostgresRowsOn(client, namespace, table, keyColumns, setColumns, batches),
      }),
    );
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
    // Named after `live`: what a swap of it killed between its renames and its drop left there goes first.
    const old = replacedNamespace(live);
    const oldSchema = quotePostgresIdentifier(old);
    await this.dropReplaced(old);
    // One transaction of renames: readers see the old schema or the new one. A statement reading
    // several tables resolves their names one at a time, so it could see one old table and one new
    // one; holding the live tables exclusively while renaming closes that gap (it then waits, and
    // resolves every name again after the commit). The lock is tried briefly, so a long reader or a
    // runtime write holding a table delays the swap a little instead of deadlocking with it; after
    // SWAP_LOCK_ATTEMPTS the renames go ahead unlocked, as atomic for every single table.
    for (let attempt = 1; ; attempt++) {
      const locking = attempt <= SWAP_LOCK_ATTEMPTS;
      try {
        await this.withTransaction(async (client) => {
          const existing = await client.query<{ nspname: string }>('SELECT nspname FROM pg_namespace WHERE nspname = ANY($1::text[])', [[staging, live]]);
          const names = new Set(existing.rows.map((row) => row.nspname));
          if (!names.has(staging)) throw new Error(`Staging namespace "${staging}" does not exist`);
          if (names.has(live)) {
            if (locking) await this.lockTables(client, live);
            await client.query(`ALTER SCHEMA ${liveSchema} RENAME TO ${oldSchema}`);
          }
          await client.query(`ALTER SCHEMA ${stagingSchema} RENAME TO ${liveSchema}`);
        });
        break;
      } catch (error) {
        const code = (error as { code?: string }).code;
        if (!locking || (code !== '55P03' && code !== '40P01')) throw error;
        await new Promise((resolve) => setTimeout(resolve, 20 * attempt));
      }
    }
    await this.dropReplaced(old);
  }

  /** Every table of a schema, ACCESS EXCLUSIVE, giving up (55P03) after SWAP_LOCK_TIMEOUT. */
  private async lockTables(client: pg.PoolClient, schema: string): Promise<void> {
    const tables = await client.query<{ relname: string }>(
      "SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND c.relkind IN ('r', 'p') ORDER BY c.relname",
      [schema],
    );
    if (tables.rows.length === 0) return;
    await client.query(`SET LOCAL lock_timeout = '${SWAP_LOCK_TIMEOUT}'`);
    await client.query(`LOCK TABLE ${tables.rows.map((row) => postgresTableName(schema, row.relname)).join(', ')} IN ACCESS EXCLUSIVE MODE`);
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

  tableStorage(namespace: string): Promise<Map<string, TableStorage>> {
    return postgresTableStorage(this, namespace);
  }

  poolStats(): PoolStats[] {
    const use = (pool: pg.Pool, name: PoolStats['pool']): PoolStats => ({ pool: name, total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount });
    const main = this.runtimePool === this.pool ? [use(this.pool, 'shared')] : [use(this.runtimePool, 'runtime'), use(this.pool, 'generation')];
    return [...main, use(this.exportPool, 'export')];
  }

  async close(): Promise<void> {
    await Promise.all([this.pool.end(), this.runtimePool === this.pool ? undefined : this.runtimePool.end(), this.exportPool.end()]);
  }

  private withTransaction<T>(work: (client: pg.PoolClient) => Promise<T>, pool: pg.Pool = this.pool): Promise<T> {
    return inTransaction(() => pool.connect(), work, { abandons: isClientTimeout });
  }
}
