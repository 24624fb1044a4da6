// The PostgreSQL dialect: a pg pool per target, namespaces as schemas, DDL in transactions,
// COPY for loads, and an atomic schema swap.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { Dialect, RowBatches, TableSpec, TargetConnection } from '../dialect.ts';
import { createPostgresTable, postgresForeignKeyStatements, postgresIndexStatements, postgresTableName, quotePostgresIdentifier, POSTGRES_MAX_IDENTIFIER_LENGTH } from './postgres-ddl.ts';
import { mapPostgresError } from './postgres-errors.ts';
import { copyRows, updatePostgresRows } from './postgres-loader.ts';

export const postgresDialect: Dialect = {
  kind: 'postgres',
  capabilities: { supportsReturning: true, transactionalDdl: true, maxIdentifierLength: POSTGRES_MAX_IDENTIFIER_LENGTH },
  quoteIdentifier: quotePostgresIdentifier,
  connect: (url) => connectPostgres(url),
  mapError: mapPostgresError,
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
      // Sessions read and write timestamptz in UTC, whatever the server's default.
      options: '-c timezone=UTC',
    });
    // An idle client losing its server must not crash the process; the next query reconnects.
    this.pool.on('error', () => {});
  }

  async ping(): Promise<void> {
    await this.pool.query('SELECT 1');
  }

  async namespaceExists(namespace: string): Promise<boolean> {
    quotePostgresIdentifier(namespace);
    const result = await this.pool.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [namespace]);
    return result.rowCount === 1;
  }

  async recreateNamespace(namespace: string): Promise<void> {
    const schema = quotePostgresIdentifier(namespace);
    await this.transaction(async (client) => {
      await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await client.query(`CREATE SCHEMA ${schema}`);
    });
  }

  async dropNamespace(namespace: string): Promise<void> {
    await this.pool.query(`DROP SCHEMA IF EXISTS ${quotePostgresIdentifier(namespace)} CASCADE`);
  }

  async createTables(namespace: string, tables: TableSpec[]): Promise<void> {
    const statements = tables.map((table) => createPostgresTable(namespace, table));
    await this.transaction(async (client) => {
      for (const statement of statements) await client.query(statement);
    });
  }

  loadRows(namespace: string, table: TableSpec, batches: RowBatches, onBatch?: (written: number) => void): Promise<number> {
    return copyRows(this.pool, namespace, table, batches, onBatch);
  }

  updateRows(namespace: string, table: TableSpec, keyColumns: string[], setColumns: string[], batches: RowBatches): Promise<number> {
    return updatePostgresRows(this.pool, namespace, table, keyColumns, setColumns, batches);
  }

  async finalizeTables(namespace: string, tables: TableSpec[]): Promise<void> {
    // Every table's keys first: foreign keys need the unique keys they reference.
    const statements = [
      ...tables.flatMap((table) => postgresIndexStatements(namespace, table)),
      ...tables.flatMap((table) => postgresForeignKeyStatements(namespace, table)),
    ];
    await this.transaction(async (client) => {
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
    const oldSchema = quotePostgresIdentifier(`sds_old_${randomBytes(8).toString('hex')}`);
    // One transaction: readers see the old schema or the new one, never a mix.
    await this.transaction(async (client) => {
      const existing = await client.query<{ nspname: string }>('SELECT nspname FROM pg_namespace WHERE nspname = ANY($1::text[])', [[staging, live]]);
      const names = new Set(existing.rows.map((row) => row.nspname));
      if (!names.has(staging)) throw new Error(`Staging namespace "${staging}" does not exist`);
      if (names.has(live)) await client.query(`ALTER SCHEMA ${liveSchema} RENAME TO ${oldSchema}`);
      await client.query(`ALTER SCHEMA ${stagingSchema} RENAME TO ${liveSchema}`);
      if (names.has(live)) await client.query(`DROP SCHEMA ${oldSchema} CASCADE`);
    });
  }

  async countRows(namespace: string, table: string): Promise<number> {
    const result = await this.pool.query<{ count: string }>(`SELECT count(*) AS count FROM ${postgresTableName(namespace, table)}`);
    return Number(result.rows[0]!.count);
  }

  close(): Promise<void> {
    return this.pool.end();
  }

  private async transaction(work: (client: pg.PoolClient) => Promise<void>): Promise<void> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      await work(client);
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw error;
    } finally {
      client.release();
    }
  }
}
