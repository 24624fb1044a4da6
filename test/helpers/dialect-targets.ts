// The target databases every dialect test loops over, unique namespaces, and a raw inspector that
// reads back what the dialects wrote (through the drivers, as the runtime's own queries will).
import { randomBytes } from 'node:crypto';
import mysql from 'mysql2/promise';
import pg from 'pg';
import type { Dialect, TargetConnection } from '../../src/dialects/dialect.ts';
import { mysqlDialect, mysqlPoolOptions } from '../../src/dialects/mysql/mysql-dialect.ts';
import { postgresDialect } from '../../src/dialects/postgres/postgres-dialect.ts';
import { mysqlTarget } from './mysql.ts';

export const PG_TARGET_URL = process.env.PG_TARGET_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export interface DialectTarget {
  name: 'postgres' | 'mysql';
  dialect: Dialect;
  url: string;
}

/** PostgreSQL always; MySQL when reachable (see test/helpers/mysql.ts). Call at a file's top level. */
export async function dialectTargets(): Promise<DialectTarget[]> {
  const targets: DialectTarget[] = [{ name: 'postgres', dialect: postgresDialect, url: PG_TARGET_URL }];
  const mysqlUrl = await mysqlTarget();
  if (mysqlUrl) targets.push({ name: 'mysql', dialect: mysqlDialect, url: mysqlUrl });
  return targets;
}

export function uniqueNamespace(label: string): string {
  return `sds_t_${label}_${randomBytes(4).toString('hex')}`;
}

export type RawRow = Record<string, unknown>;

/** Raw SQL on a target: PostgreSQL values come back as text; MySQL as mysql2 reads them (dates as strings, big numbers as strings). */
export interface Inspector {
  query(sql: string, params?: unknown[]): Promise<RawRow[]>;
  close(): Promise<void>;
}

export async function openInspector(target: DialectTarget): Promise<Inspector> {
  if (target.name === 'postgres') {
    const pool = new pg.Pool({ connectionString: target.url, max: 2, options: '-c timezone=UTC', types: { getTypeParser: () => (value: string) => value } });
    pool.on('error', () => {});
    return {
      query: async (sql, params) => (await pool.query(sql, params)).rows as RawRow[],
      close: () => pool.end(),
    };
  }
  const pool = mysql.createPool({ ...mysqlPoolOptions(target.url), connectionLimit: 2, bigNumberStrings: true });
  return {
    query: async (sql, params) => {
      const [rows] = await pool.query(sql, params);
      return Array.isArray(rows) ? (rows as RawRow[]) : [];
    },
    close: () => pool.end(),
  };
}

/** Connects and remembers namespaces to drop after the file's tests. */
export async function openTarget(target: DialectTarget): Promise<TargetConnection & { track(namespace: string): string; cleanup(): Promise<void> }> {
  const connection = await target.dialect.connect(target.url);
  const namespaces = new Set<string>();
  return Object.assign(connection, {
    track(namespace: string) {
      namespaces.add(namespace);
      return namespace;
    },
    async cleanup() {
      for (const namespace of namespaces) await connection.dropNamespace(namespace);
      await connection.close();
    },
  });
}
