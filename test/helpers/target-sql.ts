// Direct SQL on a target database, to check from outside what sds generated there.
import { createHash } from 'node:crypto';
import mysql from 'mysql2/promise';
import pg from 'pg';

export type Kind = 'postgres' | 'mysql';

export async function withTarget<T>(kind: Kind, url: string, work: (query: (sql: string) => Promise<Record<string, unknown>[]>) => Promise<T>): Promise<T> {
  if (kind === 'postgres') {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      return await work(async (sql) => (await client.query(sql)).rows);
    } finally {
      await client.end();
    }
  }
  const connection = await mysql.createConnection({ uri: url, dateStrings: true });
  try {
    return await work(async (sql) => (await connection.query(sql))[0] as Record<string, unknown>[]);
  } finally {
    await connection.end();
  }
}

const quote = (kind: Kind, name: string) => (kind === 'postgres' ? `"${name}"` : `\`${name}\``);

export function qualified(kind: Kind, namespace: string, table: string): string {
  return `${quote(kind, namespace)}.${quote(kind, table)}`;
}

/** Row count of a table, or undefined when the table does not exist. */
export async function countRows(kind: Kind, url: string, namespace: string, table: string): Promise<number | undefined> {
  return withTarget(kind, url, async (query) => {
    try {
      const rows = await query(`SELECT count(*) AS n FROM ${qualified(kind, namespace, table)}`);
      return Number(rows[0]!.n);
    } catch {
      return undefined;
    }
  });
}

/** A digest of a table's full contents in primary-key order. */
export async function tableDigest(kind: Kind, url: string, namespace: string, table: string, orderBy: string): Promise<string> {
  return withTarget(kind, url, async (query) => {
    const rows = await query(`SELECT * FROM ${qualified(kind, namespace, table)} ORDER BY ${quote(kind, orderBy)}`);
    return createHash('sha256').update(JSON.stringify(rows)).digest('hex');
  });
}

export async function namespaceExists(kind: Kind, url: string, namespace: string): Promise<boolean> {
  return withTarget(kind, url, async (query) => {
    const sql =
      kind === 'postgres'
        ? `SELECT 1 FROM information_schema.schemata WHERE schema_name = '${namespace}'`
        : `SELECT 1 FROM information_schema.schemata WHERE schema_name = '${namespace}'`;
    return (await query(sql)).length > 0;
  });
}
