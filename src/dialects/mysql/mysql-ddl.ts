// MySQL DDL: identifier and literal quoting, column types within InnoDB's key and row limits,
// CREATE TABLE/DATABASE and the constraints added after the bulk load.
import { assertIdentifier } from '../dialect.ts';
import type { ColumnDefault, DefaultFunction } from '../../model/field-default.ts';
import type { ColumnSpec, ColumnType, ForeignKeySpec, TableSpec } from '../../model/table-spec.ts';
import { mysqlValue } from './mysql-loader.ts';
import { checkedInteger, enumValues, keyedColumns, pickColumns, referentialAction } from '../spec-helpers.ts';

export const MYSQL_MAX_IDENTIFIER_LENGTH = 64;
/**
 * utf8mb4_bin: case- and accent-sensitive equality like PostgreSQL's default (the runtime does its
 * own case-insensitive matching with LOWER()). utf8mb4_0900_bin would do too, but MariaDB lacks it.
 */
export const MYSQL_CHARSET = 'utf8mb4';
export const MYSQL_COLLATION = 'utf8mb4_bin';
/** InnoDB (DYNAMIC rows) indexes at most 3072 bytes per key: 768 utf8mb4 characters. */
const MAX_KEY_BYTES = 3072;
const MAX_INDEXED_VARCHAR = MAX_KEY_BYTES / 4;
/** Rows are limited to 65535 bytes, counting each VARCHAR at its full width; TEXT counts ~12 bytes. */
const ROW_BYTES_BUDGET = 60_000;

export function quoteMysqlIdentifier(name: string): string {
  assertIdentifier(name, MYSQL_MAX_IDENTIFIER_LENGTH);
  return `\`${name}\``;
}

/**
 * A string literal. Backslashes are escapes in MySQL literals unless NO_BACKSLASH_ESCAPES is on;
 * every sds session sets a sql_mode without it (see mysql-dialect.ts), so doubling them is right.
 */
export function quoteMysqlLiteral(value: string): string {
  if (value.includes('\0')) throw new Error(`SQL literal ${JSON.stringify(value)} contains a NUL byte, which sds does not write into SQL text`);
  return `'${value.replaceAll('\\', '\\\\').replaceAll("'", "''")}'`;
}

/** `` `namespace`.`table` `` */
export function mysqlTableName(namespace: string, table: string): string {
  return `${quoteMysqlIdentifier(namespace)}.${quoteMysqlIdentifier(table)}`;
}

export function mysqlColumnList(names: string[]): string {
  return names.map(quoteMysqlIdentifier).join(', ');
}

interface MysqlColumnType {
  sql: string;
  /** Bytes the column takes in an index key; undefined when it cannot be indexed. */
  keyBytes: number | undefined;
}

/**
 * Column types of a table. Strings: VARCHAR(maxLength) when set (≤ 768 when keyed); keyed strings
 * without a maxLength VARCHAR(255); other strings TEXT (MEDIUMTEXT for `text`, long-form content),
 * and wide VARCHARs fall back to TEXT when the row would pass InnoDB's row-size limit.
 */
export function mysqlColumnTypes(table: TableSpec): Map<string, MysqlColumnType> {
  const keyed = keyedColumns(table);
  const types = new Map<string, MysqlColumnType>();
  let rowBytes = 0;
  const wideStrings: ColumnSpec[] = [];
  for (const column of table.columns) {
    const type = fixedColumnType(table, column, keyed.has(column.name));
    if (type) {
      types.set(column.name, type);
      rowBytes += type.keyBytes ?? 12;
    } else {
      wideStrings.push(column);
    }
  }
  for (const column of wideStrings) {
    const length = column.maxLength;
    if (length !== undefined && column.type === 'string') {
      checkedInteger(column, 'maxLength', length, 1, 1_073_741_823);
      if (length <= 16_383 && rowBytes + length * 4 + 2 <= ROW_BYTES_BUDGET) {
        types.set(column.name, { sql: `VARCHAR(${length})`, keyBytes: length * 4 });
        rowBytes += length * 4 + 2;
        continue;
      }
      types.set(column.name, { sql: length * 4 <= 65_535 ? 'TEXT' : length * 4 <= 16_777_215 ? 'MEDIUMTEXT' : 'LONGTEXT', keyBytes: undefined });
    } else {
      types.set(column.name, { sql: column.type === 'text' ? 'MEDIUMTEXT' : 'TEXT', keyBytes: undefined });
    }
    rowBytes += 12;
  }
  return types;
}

/** Types that do not depend on the row budget; undefined for unkeyed strings. */
function fixedColumnType(table: TableSpec, column: ColumnSpec, keyed: boolean): MysqlColumnType | undefined {
  const type: FixedColumnType = MYSQL_COLUMN_TYPES[column.type];
  return type(table, column, keyed);
}

/** A field type's column on MySQL, given its table and whether a key or index uses it; undefined: left to the row budget (mysqlColumnTypes). */
type FixedColumnType = (table: TableSpec, column: ColumnSpec, keyed: boolean) => MysqlColumnType | undefined;

const fixed =
  (sql: string, keyBytes: number | undefined): FixedColumnType =>
  () => ({ sql, keyBytes });

/** Keyed strings are VARCHARs that fit an index key; the others wait for the row budget. */
const keyedString: FixedColumnType = (table, column, keyed) => {
  if (!keyed) return undefined;
  const length = column.type === 'string' && column.maxLength !== undefined ? checkedInteger(column, 'maxLength', column.maxLength, 1, 1_073_741_823) : 255;
  if (length > MAX_INDEXED_VARCHAR) {
    throw new Error(
      `MySQL cannot index "${table.name}.${column.name}": its maxLength ${length} exceeds ${MAX_INDEXED_VARCHAR} characters (${MAX_KEY_BYTES} bytes in utf8mb4)`,
    );
  }
  return { sql: `VARCHAR(${length})`, keyBytes: length * 4 };
};

const MYSQL_COLUMN_TYPES = {
  string: keyedString,
  text: keyedString,
  integer: (_table, column) => (column.big ? { sql: 'BIGINT', keyBytes: 8 } : { sql: 'INT', keyBytes: 4 }),
  number: (_table, column) => {
    if (column.precision === undefined) return { sql: 'DOUBLE', keyBytes: 8 };
    const scale = checkedInteger(column, 'precision', column.precision, 0, 30);
    // DECIMAL holds at most 65 digits: wider configs get the widest.
    const digits = column.digits === undefined ? 18 + scale : Math.min(checkedInteger(column, 'digits', column.digits, Math.max(scale, 1), 1000), 65);
    return { sql: `DECIMAL(${digits}, ${scale})`, keyBytes: Math.ceil(digits / 2) + 1 };
  },
  boolean: fixed('TINYINT(1)', 1),
  date: fixed('DATE', 3),
  datetime: fixed('DATETIME(3)', 7),
  time: fixed('TIME', 3),
  uuid: fixed('CHAR(36)', 36 * 4),
  json: fixed('JSON', undefined),
  enum: (table, column) => ({ sql: `ENUM(${mysqlEnumValues(table, column).map(quoteMysqlLiteral).join(', ')})`, keyBytes: 2 }),
} as const satisfies Record<ColumnType, FixedColumnType>;

/** MySQL strips trailing spaces from ENUM members and caps them at 255 characters: refuse what it would change. */
function mysqlEnumValues(table: TableSpec, column: ColumnSpec): string[] {
  const values = enumValues(table, column);
  for (const value of values) {
    if (/ $/.test(value)) throw new Error(`MySQL cannot keep enum value ${JSON.stringify(value)} of "${table.name}.${column.name}": ENUM drops trailing spaces`);
    if ([...value].length > 255) throw new Error(`MySQL cannot keep enum value of "${table.name}.${column.name}" longer than 255 characters`);
  }
  return values;
}

/** Checks every key of the table against InnoDB's key length before any DDL runs. */
function checkKeyLengths(table: TableSpec, types: Map<string, MysqlColumnType>): void {
  const keys = [
    { name: 'PRIMARY KEY', columns: table.primaryKey },
    ...table.indexes.map((index) => ({ name: index.name, columns: index.columns })),
    ...table.foreignKeys.map((foreignKey) => ({ name: foreignKey.name, columns: foreignKey.columns })),
  ];
  for (const key of keys) {
    let bytes = 0;
    for (const column of pickColumns(table, key.columns)) {
      const keyBytes = types.get(column.name)!.keyBytes;
      if (keyBytes === undefined) throw new Error(`MySQL cannot index ${column.type} column "${table.name}.${column.name}" (in ${key.name})`);
      bytes += keyBytes;
    }
    if (bytes > MAX_KEY_BYTES) {
      throw new Error(`MySQL key ${key.name} of "${table.name}" would take ${bytes} bytes, more than InnoDB's ${MAX_KEY_BYTES}: shorten its strings' maxLength`);
    }
  }
}

export function createMysqlDatabase(namespace: string, options: { ifNotExists?: boolean } = {}): string {
  return `CREATE DATABASE ${options.ifNotExists ? 'IF NOT EXISTS ' : ''}${quoteMysqlIdentifier(namespace)} CHARACTER SET ${MYSQL_CHARSET} COLLATE ${MYSQL_COLLATION}`;
}

/** Expression defaults (parenthesised): MySQL 8 takes only those on TEXT and JSON columns; MariaDB takes both forms. */
const MYSQL_DEFAULT_FUNCTIONS = { now: 'CURRENT_TIMESTAMP(3)', current_date: '(CURRENT_DATE)', uuid: '(UUID())' } as const satisfies Record<DefaultFunction, string>;

/** A column default as MySQL DDL writes it, for a column of SQL type `type`. */
export function mysqlDefault(declared: ColumnDefault, column: ColumnSpec, type: string): string {
  if ('function' in declared) return MYSQL_DEFAULT_FUNCTIONS[declared.function];
  const value = mysqlValue(column, declared.value);
  const literal = typeof value === 'number' ? String(value) : quoteMysqlLiteral(value);
  return /TEXT$|^JSON$/.test(type) ? `(${literal})` : literal;
}

export function createMysqlTable(namespace: string, table: TableSpec): string {
  const types = mysqlColumnTypes(table);
  checkKeyLengths(table, types);
  // A column filled after insert is NOT NULL once filled (mysqlIndexStatement).
  const lines = table.columns.map((column) => {
    const type = types.get(column.name)!.sql;
    const line = `${quoteMysqlIdentifier(column.name)} ${type} ${column.nullable || column.fillAfterInsert ? 'NULL' : 'NOT NULL'}`;
    return column.default ? `${line} DEFAULT ${mysqlDefault(column.default, column, type)}` : line;
  });
  if (table.primaryKey.length > 0) lines.push(`PRIMARY KEY (${mysqlColumnList(table.primaryKey)})`);
  return (
    `CREATE TABLE ${mysqlTableName(namespace, table.name)} (\n  ${lines.join(',\n  ')}\n) ` +
    `ENGINE=InnoDB DEFAULT CHARSET=${MYSQL_CHARSET} COLLATE=${MYSQL_COLLATION}`
  );
}

/**
 * One ALTER making the columns filled after insert NOT NULL, then adding all unique keys and
 * secondary indexes of a table (InnoDB builds them in one pass); undefined when none.
 */
export function mysqlIndexStatement(namespace: string, table: TableSpec): string | undefined {
  const filled = table.columns.filter((column) => column.fillAfterInsert);
  if (table.indexes.length === 0 && filled.length === 0) return undefined;
  const types = filled.length > 0 ? mysqlColumnTypes(table) : undefined;
  // MODIFY restates the whole column: its default too.
  const notNull = filled.map((column) => {
    const type = types!.get(column.name)!.sql;
    const line = `MODIFY ${quoteMysqlIdentifier(column.name)} ${type} NOT NULL`;
    return column.default ? `${line} DEFAULT ${mysqlDefault(column.default, column, type)}` : line;
  });
  const ordered = [...table.indexes.filter((index) => index.unique), ...table.indexes.filter((index) => !index.unique)];
  const clauses = [
    ...notNull,
    ...ordered.map((index) => {
      pickColumns(table, index.columns);
      return `ADD ${index.unique ? 'UNIQUE KEY' : 'KEY'} ${quoteMysqlIdentifier(index.name)} (${mysqlColumnList(index.columns)})`;
    }),
  ];
  return `ALTER TABLE ${mysqlTableName(namespace, table.name)} ${clauses.join(', ')}`;
}

/** One ALTER adding all foreign keys of a table; undefined when none. */
export function mysqlForeignKeyStatement(namespace: string, table: TableSpec): string | undefined {
  if (table.foreignKeys.length === 0) return undefined;
  const clauses = table.foreignKeys.map((foreignKey) => {
    pickColumns(table, foreignKey.columns);
    return (
      `ADD CONSTRAINT ${quoteMysqlIdentifier(foreignKey.name)} FOREIGN KEY (${mysqlColumnList(foreignKey.columns)}) ` +
      `REFERENCES ${mysqlTableName(namespace, foreignKey.references.table)} (${mysqlColumnList(foreignKey.references.columns)}) ` +
      `ON DELETE ${referentialAction(foreignKey.onDelete)} ON UPDATE ${referentialAction(foreignKey.onUpdate)}`
    );
  });
  return `ALTER TABLE ${mysqlTableName(namespace, table.name)} ${clauses.join(', ')}`;
}

/** Finds one child row whose (non-null) key has no parent: the check InnoDB skips with foreign_key_checks=0. */
export function mysqlOrphanQuery(namespace: string, table: TableSpec, foreignKey: ForeignKeySpec): string {
  const child = foreignKey.columns.map(quoteMysqlIdentifier);
  const parent = foreignKey.references.columns.map(quoteMysqlIdentifier);
  const join = child.map((column, index) => `p.${parent[index]} = c.${column}`).join(' AND ');
  const present = child.map((column) => `c.${column} IS NOT NULL`).join(' AND ');
  return (
    `SELECT 1 AS orphan FROM ${mysqlTableName(namespace, table.name)} AS c ` +
    `WHERE ${present} AND NOT EXISTS (SELECT 1 FROM ${mysqlTableName(namespace, foreignKey.references.table)} AS p WHERE ${join}) LIMIT 1`
  );
}
