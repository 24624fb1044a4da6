// Generated data for the runtime's integration tests: a fresh namespace `sds_rt_<random>` per file
// and dialect, filled by runGeneration, read through the Runtime facade, dropped afterwards.
import { randomBytes } from 'node:crypto';
import type { SchemaConfig } from '../../src/contract.ts';
import type { TargetConnection } from '../../src/dialects/dialect.ts';
import { dialectFor } from '../../src/dialects/index.ts';
import { runGeneration } from '../../src/generation/run.ts';
import { Runtime } from '../../src/runtime/runtime.ts';
import type { ListEnvelope, JsonRow } from '../../src/runtime/shape.ts';
import { dialectTargets, type DialectTarget } from './dialect-targets.ts';

export { dialectTargets, type DialectTarget };

/** Fixed so both databases hold the same rows. */
export const REFERENCE_DATE = '2024-06-01';

export interface GeneratedSource {
  connection: TargetConnection;
  namespace: string;
  config: SchemaConfig;
  runtime: Runtime;
  list(table: string, query?: string): Promise<ListEnvelope>;
  get(table: string, id: string, query?: string): Promise<JsonRow>;
  create(table: string, body: unknown): Promise<{ row: JsonRow; id: string }>;
  update(table: string, id: string, body: unknown): Promise<JsonRow>;
  remove(table: string, id: string): Promise<void>;
  /** Every row of a table (up to 1000), in primary key order. */
  all(table: string): Promise<JsonRow[]>;
  drop(): Promise<void>;
}

export async function generateSource(target: DialectTarget, config: SchemaConfig, runtime = new Runtime()): Promise<GeneratedSource> {
  const connection = await dialectFor(target.url).connect(target.url);
  const namespace = `sds_rt_${randomBytes(5).toString('hex')}`;
  try {
    await runGeneration(connection, namespace, config, { referenceDate: REFERENCE_DATE });
  } catch (error) {
    await connection.dropNamespace(namespace).catch(() => {});
    await connection.close();
    throw error;
  }
  // The namespace is unique: it stands for the source id that keys cached totals.
  const data = { id: namespace, connection, namespace, config };
  const source: GeneratedSource = {
    connection,
    namespace,
    config,
    runtime,
    list: (table, query = '') => runtime.list(data, table, query),
    get: (table, id, query = '') => runtime.get(data, table, id, query),
    create: (table, body) => runtime.create(data, table, body),
    update: (table, id, body) => runtime.update(data, table, id, body),
    remove: (table, id) => runtime.delete(data, table, id),
    all: async (table) => (await source.list(table, 'limit=1000')).data,
    drop: async () => {
      await connection.dropNamespace(namespace);
      await connection.close();
    },
  };
  return source;
}

/** The AppError a call fails with, as {status, error}; fails the test when it succeeds. */
export async function failure(call: Promise<unknown>): Promise<{ status: number; error: string; details?: unknown }> {
  try {
    await call;
  } catch (error) {
    const { status, message, details } = error as { status?: number; message: string; details?: unknown };
    if (status === undefined) throw error;
    return details === undefined ? { status, error: message } : { status, error: message, details };
  }
  throw new Error('expected the call to fail');
}

export const ids = (rows: JsonRow[]) => rows.map((row) => row.id);
