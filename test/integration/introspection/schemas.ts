// The hand-written schemas of test/fixtures/introspection (and schemas/examples/shop.sql), loaded into fresh namespaces of the test
// servers as their own DDL (pg's simple query protocol, mysql2 with multipleStatements), so that
// loading them never depends on sds's own DDL import.
import fs from 'node:fs';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { mysqlPoolOptions } from '../../../src/dialects/mysql/mysql-dialect.ts';
import { uniqueNamespace, type DialectTarget } from '../../helpers/dialect-targets.ts';

export const SCHEMAS = ['shop', 'rental', 'music'] as const;
export type SchemaName = (typeof SCHEMAS)[number];

/** The PostgreSQL shop is the example DDL of docs/own-database.md (schemas/examples/shop.sql); the others are test fixtures. */
export function schemaFile(name: SchemaName, engine: DialectTarget['name']): string {
  return name === 'shop' && engine === 'postgres' ? 'schemas/examples/shop.sql' : `test/fixtures/introspection/${name}.${engine}.sql`;
}

/** Runs SQL text of several statements in `namespace` (created empty first); returns a dropper. */
export async function loadSql(target: DialectTarget, namespace: string, sql: string): Promise<void> {
  if (target.name === 'postgres') {
    const client = new pg.Client({ connectionString: target.url });
    await client.connect();
    try {
      await client.query(`DROP SCHEMA IF EXISTS "${namespace}" CASCADE; CREATE SCHEMA "${namespace}"; SET search_path TO "${namespace}";\n${sql}`);
    } finally {
      await client.end();
    }
    return;
  }
  const connection = await mysql.createConnection({ ...mysqlPoolOptions(target.url), multipleStatements: true });
  try {
    await connection.query(`DROP DATABASE IF EXISTS \`${namespace}\`; CREATE DATABASE \`${namespace}\`; USE \`${namespace}\`;\n${sql}`);
  } finally {
    await connection.end();
  }
}

/** Loads one of the schemas into a new namespace and returns its name. */
export async function loadSchema(target: DialectTarget, name: SchemaName): Promise<string> {
  const namespace = uniqueNamespace(`intro_${name}`);
  await loadSql(target, namespace, fs.readFileSync(schemaFile(name, target.name), 'utf8'));
  return namespace;
}
