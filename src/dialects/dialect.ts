// The Dialect interface: everything sds does to a target database (PostgreSQL or MySQL) goes
// through it, split by role: DialectFacts (no driver), SqlHooks (the query compiler's), the driver's
// TargetConnection (a LoadAdapter and a CatalogReader), SqlDump (scripts). Differences between
// databases are capabilities and small hooks written once here; callers never ask `kind === 'mysql'`.
import type { LookupFunction } from 'node:net';
import type { Catalog, ScratchDatabase, ScriptSyntax } from './catalog.ts';

import type { SourceKind } from '../contract.ts';
import type { RowValue, RowValues } from '../model/row-value.ts';
import type { ColumnSpec, TableSpec } from '../model/table-spec.ts';

export type RowBatches = AsyncIterable<RowValues[]> | Iterable<RowValues[]>;

/** A piece of bulk-load text: whole encoded rows, one a line. */
export interface TextChunk {
  text: string;
  /** Set on the last chunk of a batch: the rows of that batch (progress is reported after it). */
  batchRows?: number;
}
export type TextChunks = AsyncIterable<TextChunk> | Iterable<TextChunk>;

/**
 * Bulk loading of rows the caller encodes itself (PostgreSQL COPY text, MySQL LOAD DATA): a
 * generator can then turn each row into text as it makes it, instead of keeping batches of row
 * arrays for the loader to encode.
 */
export interface TextLoader {
  /** One row (values in `table.columns` order) as a line of the load text, '\n' included: the dialect's `bulkTextEncoder`. */
  encoder(table: TableSpec): (row: RowValues) => string;
  /**
   * Streams the chunks into a table as `loadRows` streams rows, calling `onBatch` with the running
   * total after each batch. Resolves to the rows written, or to undefined when the target refuses
   * bulk loading before reading any chunk: the caller then uses `loadRows`.
   */
  load(namespace: string, table: TableSpec, chunks: TextChunks, onBatch?: (written: number) => void): Promise<number | undefined>;
}

/**
 * A SQL script that builds a namespace and its data the way a generation does (tables with primary
 * keys, the rows, then unique keys, indexes and foreign keys), for the engine's own client
 * (`psql -f`, `mysql <`). Each hook returns text, statements ended and followed by a newline.
 */
export interface SqlDump {
  /** Session settings, then the namespace dropped and created empty (sds owns its namespaces). */
  begin(namespace: string): string;
  /** Tables with their columns and primary keys. */
  createTables(namespace: string, tables: TableSpec[]): string;
  /** One table's rows (values in `table.columns` order): text before the first row, a row's text, text after the last. */
  rows(namespace: string, table: TableSpec): DumpRows;
  /** Unique keys and secondary indexes of every table, then foreign keys. */
  finish(namespace: string, tables: TableSpec[]): string;
}

/**
 * One table's rows in a script. Stateless, so that row ranges can be encoded apart (in worker
 * threads) and joined: a row's text depends on its values and its index in the table alone.
 */
export interface DumpRows {
  head: string;
  /** The text of row `index` (counting from 0). */
  row(values: RowValues, index: number): string;
  /** Closes what the rows opened, after `rows` rows. */
  tail(rows: number): string;
}

export interface DialectCapabilities {
  /** INSERT/UPDATE … RETURNING (PostgreSQL yes, MySQL no: insert, then read back in the same transaction). */
  supportsReturning: boolean;
  /** DDL inside transactions (PostgreSQL yes, MySQL no). */
  transactionalDdl: boolean;
  /** Longest identifier. */
  maxIdentifierLength: number;
}

/** Ordering direction of an ORDER BY term. */
export type SortDirection = 'asc' | 'desc';

/**
 * What the rest of sds needs to know about an engine beyond SQL: how its sources are configured and
 * named, and which of its namespaces are not sds's to replace.
 */
export interface DialectFacts {
  /** Human name, e.g. "PostgreSQL". */
  label: string;
  /** URL schemes of its connection strings, lower case (`postgres`, `postgresql`). */
  urlSchemes: readonly string[];
  /** A connection string as messages show it, e.g. `postgres://…`. */
  urlExample: string;
  /** What a namespace is on this engine, which is also the name of the source config field that sets it: `schema` or `database`. */
  namespaceField: 'schema' | 'database';
  /** Namespaces that belong to the server or its users: sds never creates, replaces or drops them. */
  reservedNamespace: RegExp;
  /** The environment variable naming the server where its sources keep their data by default. */
  defaultTargetEnv: string;
  /** The port a connection string without one connects to. */
  defaultPort: number;
  /**
   * Query parameters a connection string from a request may carry, each with its allowed values
   * (lower case): everything else (files, sockets, session settings) is refused before connecting.
   */
  urlParameters: Readonly<Record<string, readonly string[]>>;
  /** Tables may inherit others (PostgreSQL INHERITS): a table's own rows are counted and emptied with ONLY. */
  tableInheritance: boolean;
  /**
   * How `sds seed` loads a cycle of NOT NULL foreign keys in place: `constraints` defers DEFERRABLE
   * ones (else moves the cycle's tables in one statement, checked at its end); `checks-off` turns the
   * session's foreign-key checks off and checks every reference before commit.
   */
  notNullCycles: 'constraints' | 'checks-off';
  /** Whether a failed load transaction undoes everything (no table engine keeps its writes, no counter stays moved). */
  rollbackUndoesAll: boolean;
}

/**
 * An engine, by role: its facts (no driver), the hooks of SQL it compiles (SqlHooks), the driver
 * (connect, errors) whose connections load, swap and read catalogs (TargetConnection), its SQL
 * scripts and the scratch databases of introspection. A new engine is a folder implementing these
 * and an entry in the registry (index.ts, facts.ts).
 */
export interface Dialect extends SqlHooks {
  readonly kind: SourceKind;
  readonly facts: DialectFacts;
  /** SQL scripts of generated data (`sds generate --format sql`). */
  readonly dump: SqlDump;
  /**
   * One row as a line of the engine's bulk-load text (COPY text, LOAD DATA text): the encoder of its
   * connections' TextLoader, for rows encoded away from any connection (the worker threads of a load).
   */
  bulkTextEncoder(table: TableSpec): (row: RowValues) => string;
  /**
   * After keys were loaded as given into an auto-increment column (serial, identity), the statement
   * that moves its counter past the largest, never backwards, so the application's next insert gets
   * a free key; undefined where the engine moves it itself on such inserts (InnoDB's AUTO_INCREMENT).
   */
  advanceCounter?(namespace: string, table: string, column: string): { sql: string; params: unknown[] };

  /** Opens connection pools to a target server (connection URL). */
  connect(url: string, options?: ConnectOptions): Promise<TargetConnection>;
  /**
   * Maps a driver error to a DriverError (never carrying row data from the database's message).
   * `table`, when given, resolves constraint names to columns where the driver does not say them.
   */
  mapError(error: unknown, table?: TableSpec): DriverError;

  // Introspection (src/introspection): reading an existing database's schema, and running a user's DDL.
  /** How this engine's SQL scripts are written (for splitting a DDL file into statements). */
  readonly scriptSyntax: ScriptSyntax;
  /**
   * Creates an empty throw-away database on the server of `url` (which needs the right to create
   * databases) for running a user's DDL; `drop()` removes it with everything in it.
   */
  createScratchDatabase(url: string): Promise<ScratchDatabase>;
}

/**
 * The few places an engine's SQL differs, for the runtime query compiler (src/runtime/compile*.ts,
 * Kysely style) and exports: identifiers, placeholders, parameters, comparisons, ordering, paging.
 * Everything the compiler needs from an engine, and nothing else.
 */
export interface SqlHooks {
  /** What the engine's SQL can do (RETURNING, transactional DDL) and its longest identifier. */
  readonly capabilities: DialectCapabilities;
  /** Quotes a schema-known identifier ("x" / `x`); throws on anything that is not one. */
  quoteIdentifier(name: string): string;
  /** Bind placeholder of the `index`-th parameter, counting from 1: `$1` (PostgreSQL) or `?` (MySQL). */
  placeholder(index: number): string;
  /**
   * A placeholder typed as a column of `type` (PostgreSQL `$1::bigint`, so an untyped text
   * parameter never decides a comparison; MySQL `?`). Integers are bigint and numbers unbounded
   * numeric or double, so a filter value never fails or rounds by the column's own width.
   */
  typedPlaceholder(index: number, column: ColumnSpec): string;
  /** A runtime value (see RowValue) as this driver's bind parameter (MySQL: booleans 1/0, UTC datetimes without 'T…Z'; JSON as text). */
  parameter(column: ColumnSpec, value: RowValue): unknown;
  /**
   * `expr LIKE pattern ESCAPE '!'`; case-insensitive (PostgreSQL ILIKE; MySQL LOWER() on both
   * sides, whatever the collation) when asked. The pattern must escape %, _ and `likeEscape` itself.
   */
  like(expr: string, pattern: string, caseInsensitive: boolean): string;
  /** The escape character of `like` patterns. */
  readonly likeEscape: string;
  /** Null-aware inequality: true when exactly one side is null or both differ (`IS DISTINCT FROM` / `NOT (a <=> b)`). */
  distinctFrom(left: string, right: string): string;
  /**
   * A column expression that compares and sorts the same on every dialect: text by code point
   * (PostgreSQL COLLATE "C"; MySQL's utf8mb4_bin already is), MySQL enums by value, not position.
   */
  comparable(expr: string, column: ColumnSpec): string;
  /** ORDER BY term(s) where null sorts as the largest value (last ascending, first descending) on every dialect. */
  orderBy(expr: string, direction: SortDirection, nullable: boolean): string;
  /**
   * The page clause of a read: `limit` and `offset` are SQL (placeholders), both always given, as
   * MySQL takes no OFFSET without a LIMIT (`LIMIT ? OFFSET ?` on both engines today).
   */
  paging(limit: string, offset: string): string;
  /**
   * SQL whose text is exactly what the runtime API answers for the column `expr` (null stays null;
   * dates as ISO YYYY-MM-DD), for exports the database writes itself (TargetConnection.copyOut);
   * undefined for a type whose rendering SQL cannot reproduce byte for byte (JSON numbers, json).
   */
  exportText?(column: ColumnSpec, expr: string): string | undefined;
  /**
   * SQL of `text` (an exportText expression of a text column) with `'` in front when it begins with
   * `=`, `+`, `-`, `@`, tab or CR, as src/files/csv.ts formulaEscaped does (NULL stays NULL): CSV
   * exports the database writes itself escape spreadsheet formulas the same way.
   */
  formulaEscapedText?(text: string): string;
  /**
   * Statements run in a write transaction that serialise key generation on `table` (a qualified,
   * quoted name) and whose last one reads `MAX(column)` as `max`: PostgreSQL locks the table in
   * SHARE ROW EXCLUSIVE mode (readers go on, other writers wait), MySQL reads the max FOR UPDATE.
   * `where`: a condition (with its placeholders) the counted rows meet, e.g. the parent of a line number.
   */
  maxKeyStatements(table: string, column: string, where?: string): string[];
}

/** Limits of a target connection; the query and idle limits are off (0 or unset) unless given. */
export interface ConnectOptions {
  /**
   * Longest a runtime statement (`query`, and each statement of `transaction`) may run: the server
   * cancels it (PostgreSQL statement_timeout; MariaDB max_statement_time; MySQL max_execution_time
   * for reads and innodb_lock_wait_timeout for writes waiting on locks), and should no answer come
   * at all (a network path gone dark) the client gives up a little later and drops the connection.
   * Either way the statement fails with a DriverError of kind `timeout`. Generation's own work
   * (loads, index builds) is not limited: it runs on connections of its own.
   */
  queryTimeoutMs?: number;
  /**
   * A bulk load (loadRows, textLoader) whose connection sees no traffic either way for this long
   * fails as lost (kind `connection`), instead of waiting minutes for TCP keep-alive.
   */
  loadIdleTimeoutMs?: number;
  /**
   * Connections of the pool that serves exports (streamRows, copyOut), kept apart from generation's
   * and the runtime's pools so that clients reading slowly never take the connections of loads or of
   * runtime requests. Default 4.
   */
  exportPoolSize?: number;
  /** Longest wait for the server to accept a new connection (default 10 s): it then fails as unreachable (kind `connection`, problem `network`). */
  connectTimeoutMs?: number;
  /**
   * The URL came from a request (and passed the connection guard): connect with what it says and
   * nothing from this server's environment or files (PostgreSQL: PGPASSWORD, ~/.pgpass, PGSSLMODE…).
   */
  fromRequest?: boolean;
  /**
   * Resolves the host for every new connection (net.connect's `lookup`): the connection guard's,
   * which refuses addresses it would have refused when it checked the URL (DNS rebinding).
   */
  lookup?: LookupFunction;
}

export type DriverErrorKind =
  | 'unique_violation'
  | 'foreign_key_violation'
  | 'not_null_violation'
  | 'check_violation'
  /** A value the column cannot hold (too long, out of range, malformed date or number). */
  | 'invalid_value'
  | 'undefined_table'
  /** A deadlock or serialization failure: the transaction was rolled back and may simply be run again. */
  | 'serialization_failure'
  /** The statement outran the query timeout (ConnectOptions.queryTimeoutMs): cancelled, or given up on. */
  | 'timeout'
  | 'connection'
  | 'other';

/**
 * A driver error mapped once by its dialect. `message` is written by sds, safe to show to users:
 * it names constraints and columns, never values.
 */
export interface DriverError {
  kind: DriverErrorKind;
  message: string;
  constraint?: string;
  /** The table the constraint belongs to (for a foreign key: the referencing table), when known. */
  table?: string;
  /**
   * The columns concerned: a key's columns; for a foreign key, the referencing columns when the
   * referenced row is missing, or the referenced key's columns when a row is still referenced.
   */
  columns?: string[];
  /**
   * foreign_key_violation only: true when the row written or deleted is still referenced (a
   * restricted delete or key change of a parent); false when the row it references is missing.
   */
  referenced?: boolean;
  /** invalid_value only: the text holds a NUL character (\u0000), which the database cannot store. */
  nulCharacter?: boolean;
  /** SQLSTATE (PostgreSQL) or error number / driver code (MySQL), for logs. */
  code?: string;
  /**
   * connection only, when the cause is known: the server refused the credentials, the database
   * named does not exist, or the server could not be reached (network, refused, timed out).
   */
  connectionProblem?: 'credentials' | 'database' | 'network';
}

/**
 * Runs one statement. Rows come back as objects keyed by column name, normalised only as far as
 * both drivers agree: dates, datetimes and times as text ('YYYY-MM-DD', 'YYYY-MM-DD HH:MM:SS[.fff][+00]',
 * 'HH:MM:SS'), json as parsed values, integers as numbers (text beyond 2^53), decimals as text or
 * numbers, booleans as booleans or 0/1. Statements without a result set resolve to [].
 */
export interface SqlExecutor {
  query<T = Record<string, unknown>>(sql: string, params: unknown[]): Promise<T[]>;
}

/**
 * A namespace is a PostgreSQL schema or a MySQL database owned by sds (e.g. `sds_blog`). `query` and
 * `transaction` are the runtime API's, limited by ConnectOptions.queryTimeoutMs; the other methods
 * are generation's and run on connections of their own.
 */
export interface TargetConnection extends SqlExecutor, LoadAdapter, CatalogReader {
  readonly dialect: Dialect;
  /**
   * Runs `work` in one transaction on one pooled connection: committed when it resolves, rolled
   * back when it throws (and the error rethrown as it was, for `dialect.mapError`).
   */
  transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T>;
  /**
   * The rows of one SELECT in batches of about `batchRows`, without holding them all (exports of a
   * whole table): a cursor on PostgreSQL, a streamed result on MySQL, both one long statement, so on
   * a connection without the query timeout (the client's pace sets their length), from the export
   * pool (ConnectOptions.exportPoolSize). Rows
   * come as `query` returns them; leaving the loop early closes the cursor or the stream.
   */
  streamRows(sql: string, params: unknown[], batchRows: number): AsyncIterable<Array<Record<string, unknown>>>;
  /**
   * The output of a `COPY … TO STDOUT` statement as it comes (PostgreSQL), on a connection of the
   * export pool, without the query timeout; leaving the loop early drops the connection, which ends the COPY.
   */
  copyOut?(sql: string): AsyncIterable<Uint8Array>;
  /** Use of this connection's pools now (metrics): `runtime` and `generation`, or one `shared` pool; and `export`. */
  poolStats?(): PoolStats[];
  close(): Promise<void>;
}

/**
 * What generation and seeding do to a target, on connections of their own (no query timeout):
 * namespaces created, loaded, indexed and swapped in; rows loaded into existing tables.
 */
export interface LoadAdapter {
  namespaceExists(namespace: string): Promise<boolean>;
  /** Drops the namespace if it exists and creates it empty. */
  recreateNamespace(namespace: string): Promise<void>;
  dropNamespace(namespace: string): Promise<void>;
  /** Creates tables with columns and primary keys only: indexes and foreign keys come after the load. */
  createTables(namespace: string, tables: TableSpec[]): Promise<void>;
  /**
   * Streams rows (arrays in `table.columns` order) into a table in bounded memory
   * (PostgreSQL COPY FROM STDIN; MySQL LOAD DATA LOCAL INFILE or batched multi-row INSERT).
   * Calls `onBatch` with the running total after each batch; resolves to the rows written.
   */
  loadRows(namespace: string, table: TableSpec, batches: RowBatches, onBatch?: (written: number) => void): Promise<number>;
  /** Bulk loading of pre-encoded rows, when this target has it (MySQL with `loadMethod: 'insert'` has not). */
  readonly textLoader?: TextLoader;
  /**
   * Sets `setColumns` of existing rows addressed by `keyColumns` (deferred self and cyclic
   * references). Each row is `[...keyValues, ...setValues]`. Resolves to the rows updated.
   */
  updateRows(namespace: string, table: TableSpec, keyColumns: string[], setColumns: string[], batches: RowBatches): Promise<number>;
  /**
   * Builds the unique keys and secondary indexes of one loaded table (and refreshes its statistics)
   * in a transaction of its own, so that it may run while later tables load; finalizeTables then
   * skips that table's keys (FinalizeOptions.indexed). Only where that pays off: PostgreSQL builds
   * them on a CPU the load leaves idle, while MariaDB measured slower loads and a longer run with
   * an ALTER TABLE running beside LOAD DATA.
   */
  indexTable?(namespace: string, table: TableSpec): Promise<void>;
  /** Adds unique keys, secondary indexes, then foreign keys (in that order) after the bulk load. */
  finalizeTables(namespace: string, tables: TableSpec[], options?: FinalizeOptions): Promise<void>;
  /**
   * Atomically replaces namespace `live` with `staging`: readers see the old tables or the new ones,
   * never a mix. `staging` no longer exists afterwards; the old live data is dropped.
   */
  swapNamespaces(staging: string, live: string): Promise<void>;
  countRows(namespace: string, table: string): Promise<number>;
  /** Runs `work` in one LoadTransaction on a connection of the generation pool (no query timeout): committed when it resolves, rolled back when it throws. */
  loadTransaction<T>(work: (tx: LoadTransaction) => Promise<T>): Promise<T>;
}

/** Introspection's reads of a live database (src/introspection, `sds diff`, `sds seed`'s drift check). */
export interface CatalogReader {
  /**
   * Reads the tables of `namespace` (any name, bound as a parameter: it need not be an sds
   * identifier, nor exist) from the database's catalog, with a few set-based queries whatever the
   * number of tables. A namespace that does not exist gives `exists: false` and no tables.
   */
  readCatalog(namespace: string): Promise<Catalog>;
  /** The namespace the connection works in when none is named: PostgreSQL `current_schema()`, MySQL the URL's database (undefined without one). */
  currentNamespace(): Promise<string | undefined>;
  /**
   * How each table of `namespace` stores its rows, by table name: what a failed seed left behind
   * depends on it. PostgreSQL: the access method (`heap`), every one transactional; MySQL: the
   * storage engine (InnoDB transactional; MyISAM, Aria, MEMORY not: they keep what was written).
   */
  tableStorage(namespace: string): Promise<Map<string, TableStorage>>;
}

/** A table's storage as CatalogReader.tableStorage reads it. */
export interface TableStorage {
  /** As the database names it (`heap`, `InnoDB`, `MyISAM`…); `unknown` when it gives none (a view). */
  engine: string;
  /** Whether a rolled-back transaction undoes what it wrote to the table. */
  transactional: boolean;
}

/**
 * One transaction on one connection with generation's bulk writes (seed into existing tables): every
 * statement, load and update of `work` commits together or not at all. On MySQL, DDL (and anything
 * else that commits implicitly) must not run in it.
 */
export interface LoadTransaction extends SqlExecutor {
  /** As TargetConnection.loadRows, on the transaction's connection. */
  loadRows(namespace: string, table: TableSpec, batches: RowBatches, onBatch?: (written: number) => void): Promise<number>;
  /** As TargetConnection.textLoader, on the transaction's connection (a refusal leaves the transaction usable). */
  readonly textLoader?: TextLoader;
  /** As TargetConnection.updateRows, on the transaction's connection. */
  updateRows(namespace: string, table: TableSpec, keyColumns: string[], setColumns: string[], batches: RowBatches): Promise<number>;
}

export interface PoolStats {
  pool: 'runtime' | 'generation' | 'shared' | 'export';
  /** Connections open, idle among them, and requests waiting for one. */
  total: number;
  idle: number;
  waiting: number;
}

export interface FinalizeOptions {
  /**
   * The caller guarantees every foreign-key value has its referenced row: the namespace was created
   * empty and loaded in this run by sds's own generator, which only draws references from rows it
   * wrote. Dialects that verify references themselves before adding foreign keys unchecked (MySQL:
   * an anti-join per key, then ADD FOREIGN KEY with foreign_key_checks = 0) skip that verification.
   * Never set it for data that came from anywhere else: MySQL would then accept orphan rows.
   * Default false.
   */
  trustedReferences?: boolean;
  /** Names of tables already given their keys and indexes by indexTable: only their foreign keys are added. */
  indexed?: ReadonlySet<string>;
}

/** Schema-known identifiers only: the config's id pattern. Anything else never reaches SQL. */
export const IDENTIFIER = /^[A-Za-z][A-Za-z0-9_]*$/;

export function assertIdentifier(name: string, maxLength: number): void {
  if (!IDENTIFIER.test(name) || name.length > maxLength) {
    throw new Error(`"${name}" is not a valid identifier (letters, digits and underscores, starting with a letter, at most ${maxLength} characters)`);
  }
}
