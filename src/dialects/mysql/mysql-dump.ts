// MySQL SQL scripts of generated data, for `mysql <`: the session set as sds's own sessions are,
// the database recreated, tables, each table's rows as multi-row INSERTs of literals (values
// converted as the loader converts them), then keys, indexes and foreign keys, as a generation
// builds them.
import { numberText } from '../bulk-text.ts';
import type { ColumnSpec, TableSpec } from '../../model/table-spec.ts';
import type { DumpRows, SqlDump } from '../dialect.ts';
import type { RowValue, RowValues } from '../../model/row-value.ts';
import { createMysqlDatabase, createMysqlTable, mysqlColumnList, mysqlForeignKeyStatement, mysqlIndexStatement, mysqlTableName, quoteMysqlIdentifier, quoteMysqlLiteral } from './mysql-ddl.ts';
import { mysqlValue } from './mysql-loader.ts';

/** Rows per INSERT statement: well under max_allowed_packet for ordinary rows. */
const ROWS_PER_INSERT = 500;

const statements = (list: Array<string | undefined>) =>
  list
    .filter((statement): statement is string => statement !== undefined)
    .map((statement) => `${statement};\n`)
    .join('');

/** A non-null value as a MySQL literal, converted as LOAD DATA's text would be. */
function literalEncoder(column: ColumnSpec): (value: RowValue) => string {
  const number = numberText(column.precision);
  return (value) => {
    if (value === null) return 'NULL';
    if (typeof value === 'bigint') return String(value);
    const converted = mysqlValue(column, value);
    return typeof converted === 'number' ? number(converted) : quoteMysqlLiteral(converted);
  };
}

export const mysqlDump: SqlDump = {
  begin: (namespace) =>
    statements([
      'SET NAMES utf8mb4',
      "SET SESSION time_zone = '+00:00'",
      "SET SESSION sql_mode = 'ONLY_FULL_GROUP_BY,STRICT_TRANS_TABLES,STRICT_ALL_TABLES,NO_ZERO_IN_DATE,NO_ZERO_DATE,ERROR_FOR_DIVISION_BY_ZERO,NO_ENGINE_SUBSTITUTION'",
      `DROP DATABASE IF EXISTS ${quoteMysqlIdentifier(namespace)}`,
      createMysqlDatabase(namespace),
    ]),
  createTables: (namespace, tables) => statements(tables.map((table) => createMysqlTable(namespace, table))),
  rows(namespace: string, table: TableSpec): DumpRows {
    const insert = `INSERT INTO ${mysqlTableName(namespace, table.name)} (${mysqlColumnList(table.columns.map((column) => column.name))}) VALUES\n`;
    const encoders = table.columns.map(literalEncoder);
    return {
      head: '',
      row(values: RowValues, row: number) {
        let text = '(';
        for (let index = 0; index < encoders.length; index++) text += (index === 0 ? '' : ',') + encoders[index]!(values[index] ?? null);
        text += ')';
        // Every ROWS_PER_INSERT-th row closes the statement before it and opens the next.
        if (row % ROWS_PER_INSERT !== 0) return `,\n${text}`;
        return `${row > 0 ? ';\n' : ''}${insert}${text}`;
      },
      tail: (rows) => (rows > 0 ? ';\n' : ''),
    };
  },
  finish: (namespace, tables) =>
    statements([
      ...tables.map((table) => mysqlIndexStatement(namespace, table)),
      ...tables.map((table) => mysqlForeignKeyStatement(namespace, table)),
    ]),
};
