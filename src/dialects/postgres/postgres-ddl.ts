// PostgreSQL DDL: identifier and literal quoting, column types, CREATE TABLE and the constraints
// added after the bulk load (unique keys, secondary indexes, foreign keys).
import { assertIdentifier } from '../dialect.ts';
import type { ColumnDefault, DefaultFunction } from '../../model/field-default.ts';
import type { ColumnSpec, ColumnType, TableSpec } from '../../model/table-spec.ts';
import { checkedInteger, enumValues, pickColumns, referentialAction } from '../spec-helpers.ts';

export const POSTGRES_MAX_IDENTIFIER_LENGTH = 63;

export function quotePostgresIdentifier(name: string): string {
  assertIdentifier(name, POSTGRES_MAX_IDENTIFIER_LENGTH);
  return `"${name}"`;
}

/** A string literal that reads the same whatever `standard_conforming_strings` says. */
export function quotePostgresLiteral(value: string): string {
  if (value.includes('\0')) throw new Error(`SQL literal ${JSON.stringify(value)} contains a NUL byte, which PostgreSQL cannot store`);
  const quoted = value.replaceAll("'", "''");
  return value.includes('\\') ? `E'${quoted.replaceAll('\\', '\\\\')}'` : `'${quoted}'`;
}

/** `"namespace"."table"` */
export function postgresTableName(namespace: string, table: string): string {
  return `${quotePostgresIdentifier(namespace)}.${quotePostgresIdentifier(table)}`;
}

export function postgresColumnList(names: string[]): string {
  return names.map(quotePostgresIdentifier).join(', ');
}

const MAX_VARCHAR = 10_485_760;

/** A field type's column on PostgreSQL: its SQL type, and the CHECK it needs, if any. */
interface PostgresColumnType {
  sql(column: ColumnSpec): string;
  /** A CHECK constraint of the column `name` (quoted), written in CREATE TABLE. */
  check?(name: string, table: TableSpec, column: ColumnSpec): string;
}

const fixed = (sql: string): PostgresColumnType => ({ sql: () => sql });

const POSTGRES_COLUMN_TYPES = {
  string: {
    // varchar's largest length; above it the runtime's write checks alone hold maxLength.
    sql: (column) =>
      column.maxLength === undefined || checkedInteger(column, 'maxLength', column.maxLength, 1, 1_073_741_823) > MAX_VARCHAR ? 'text' : `varchar(${column.maxLength})`,
  },
  text: fixed('text'),
  enum: { sql: () => 'text', check: (name, table, column) => `CHECK (${name} IN (${enumValues(table, column).map(quotePostgresLiteral).join(', ')}))` },
  integer: { sql: (column) => (column.big ? 'bigint' : 'integer') },
  number: {
    sql: (column) => {
      if (column.precision === undefined) return 'double precision';
      const scale = checkedInteger(column, 'precision', column.precision, 0, 100);
      const digits = column.digits === undefined ? 18 + scale : checkedInteger(column, 'digits', column.digits, Math.max(scale, 1), 1000);
      return `numeric(${digits}, ${scale})`;
    },
  },
  boolean: fixed('boolean'),
  date: fixed('date'),
  datetime: fixed('timestamptz'),
  time: fixed('time'),
  uuid: fixed('uuid'),
  json: fixed('jsonb'),
} as const satisfies Record<ColumnType, PostgresColumnType>;

export function postgresColumnType(column: ColumnSpec): string {
  return POSTGRES_COLUMN_TYPES[column.type].sql(column);
}

/** The type a parameter is cast to: like the column's, but never a length-limited varchar (casts truncate silently). */
export function postgresParameterType(column: ColumnSpec): string {
  return column.type === 'string' ? 'text' : postgresColumnType(column);
}

const POSTGRES_DEFAULT_FUNCTIONS = { now: 'now()', current_date: 'CURRENT_DATE', uuid: 'gen_random_uuid()' } as const satisfies Record<DefaultFunction, string>;

/** A column default as PostgreSQL DDL writes it: a literal of the column's type, or a function call. */
export function postgresDefault(declared: ColumnDefault, column: ColumnSpec): string {
  if ('function' in declared) return POSTGRES_DEFAULT_FUNCTIONS[declared.function];
  const { value } = declared;
  if (column.type === 'json') return quotePostgresLiteral(JSON.stringify(value));
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  return quotePostgresLiteral(String(value));
}

export function createPostgresTable(namespace: string, table: TableSpec): string {
  const lines = table.columns.map((column) => {
    const name = quotePostgresIdentifier(column.name);
    const type: PostgresColumnType = POSTGRES_COLUMN_TYPES[column.type];
    // A column filled after insert is NOT NULL once filled (postgresNotNullStatements).
    const line = `${name} ${type.sql(column)}${column.nullable || column.fillAfterInsert ? '' : ' NOT NULL'}${column.default ? ` DEFAULT ${postgresDefault(column.default, column)}` : ''}`;
    return type.check ? `${line} ${type.check(name, table, column)}` : line;
  });
  if (table.primaryKey.length > 0) {
    pickColumns(table, table.primaryKey);
    lines.push(`PRIMARY KEY (${postgresColumnList(table.primaryKey)})`);
  }
  return `CREATE TABLE ${postgresTableName(namespace, table.name)} (\n  ${lines.join(',\n  ')}\n)`;
}

/** NOT NULL on the columns filled after insert (ColumnSpec.fillAfterInsert), once they are filled. */
export function postgresNotNullStatements(namespace: string, table: TableSpec): string[] {
  const target = postgresTableName(namespace, table.name);
  return table.columns
    .filter((column) => column.fillAfterInsert)
    .map((column) => `ALTER TABLE ${target} ALTER COLUMN ${quotePostgresIdentifier(column.name)} SET NOT NULL`);
}

/** NOT NULL restored on columns filled after insert, then unique keys and secondary indexes of one table, unique ones first. */
export function postgresIndexStatements(namespace: string, table: TableSpec): string[] {
  return [...postgresNotNullStatements(namespace, table), ...postgresKeyStatements(namespace, table)];
}

function postgresKeyStatements(namespace: string, table: TableSpec): string[] {
  const target = postgresTableName(namespace, table.name);
  const ordered = [...table.indexes.filter((index) => index.unique), ...table.indexes.filter((index) => !index.unique)];
  return ordered.map((index) => {
    pickColumns(table, index.columns);
    const columns = postgresColumnList(index.columns);
    // A UNIQUE constraint (not just a unique index) so foreign keys may reference it and catalogs list it.
    return index.unique
      ? `ALTER TABLE ${target} ADD CONSTRAINT ${quotePostgresIdentifier(index.name)} UNIQUE (${columns})`
      : `CREATE INDEX ${quotePostgresIdentifier(index.name)} ON ${target} (${columns})`;
  });
}

export function postgresForeignKeyStatements(namespace: string, table: TableSpec): string[] {
  return table.foreignKeys.map((foreignKey) => {
    pickColumns(table, foreignKey.columns);
    return (
      `ALTER TABLE ${postgresTableName(namespace, table.name)} ADD CONSTRAINT ${quotePostgresIdentifier(foreignKey.name)} ` +
      `FOREIGN KEY (${postgresColumnList(foreignKey.columns)}) ` +
      `REFERENCES ${postgresTableName(namespace, foreignKey.references.table)} (${postgresColumnList(foreignKey.references.columns)}) ` +
      `ON DELETE ${referentialAction(foreignKey.onDelete)} ON UPDATE ${referentialAction(foreignKey.onUpdate)}`
    );
  });
}
