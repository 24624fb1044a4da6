// PostgreSQL SQL scripts of generated data, for `psql -f`: the schema recreated, tables, each
// table's rows as `COPY … FROM stdin` in the loader's own text encoding, then keys, indexes and
// foreign keys, as a generation builds them.
import type { DumpRows, SqlDump } from '../dialect.ts';
import type { TableSpec } from '../../model/table-spec.ts';
import { copyRowEncoder } from './postgres-loader.ts';
import {
  createPostgresTable,
  postgresColumnList,
  postgresForeignKeyStatements,
  postgresIndexStatements,
  postgresTableName,
  quotePostgresIdentifier,
} from './postgres-ddl.ts';

const statements = (list: string[]) => list.map((statement) => `${statement};\n`).join('');

export const postgresDump: SqlDump = {
  begin: (namespace) =>
    statements([
      "SET client_encoding = 'UTF8'",
      'SET standard_conforming_strings = on',
      "SET timezone = 'UTC'",
      'SET client_min_messages = warning',
      `DROP SCHEMA IF EXISTS ${quotePostgresIdentifier(namespace)} CASCADE`,
      `CREATE SCHEMA ${quotePostgresIdentifier(namespace)}`,
    ]),
  createTables: (namespace, tables) => statements(tables.map((table) => createPostgresTable(namespace, table))),
  rows: (namespace: string, table: TableSpec): DumpRows => ({
    head: `COPY ${postgresTableName(namespace, table.name)} (${postgresColumnList(table.columns.map((column) => column.name))}) FROM stdin;\n`,
    row: copyRowEncoder(table),
    tail: () => '\\.\n',
  }),
  finish: (namespace, tables) =>
    statements([
      ...tables.flatMap((table) => postgresIndexStatements(namespace, table)),
      ...tables.flatMap((table) => postgresForeignKeyStatements(namespace, table)),
      ...tables.map((table) => `ANALYZE ${postgresTableName(namespace, table.name)}`),
    ]),
};
