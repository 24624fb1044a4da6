// MySQL's and MariaDB's catalog (information_schema) read into the catalog model: one query per
// kind of object for the whole database, run side by side, then put together per table. Also the
// throw-away database a user's DDL runs in.
import { randomBytes } from 'node:crypto';
import type { Catalog, CatalogAction, CatalogCheck, CatalogColumn, CatalogTable, CatalogType, ScratchDatabase } from '../catalog.ts';
import type { SqlExecutor, TableStorage, TargetConnection } from '../dialect.ts';
import { groupBy, parseCheckClause, parseDefaultExpression } from '../catalog-reading.ts';
import { createMysqlDatabase } from './mysql-ddl.ts';

interface TableRow {
  name: string;
  type: string;
  tuples: number | string | null;
  comment: string | null;
  options: string | null;
}

interface ColumnRow {
  table_name: string;
  name: string;
  data_type: string;
  column_type: string;
  nullable: string;
  length: number | string | null;
  precision: number | string | null;
  scale: number | string | null;
  default: string | null;
  extra: string;
  comment: string;
  generation: string | null;
}

interface IndexRow {
  table_name: string;
  name: string;
  non_unique: number | string;
  column_name: string | null;
  sub_part: number | string | null;
  index_type: string;
}

interface ForeignKeyRow {
  table_name: string;
  name: string;
  column_name: string;
  ref_namespace: string;
  ref_table: string;
  ref_column: string;
  on_update: string;
  on_delete: string;
}

const TABLES = `
SELECT TABLE_NAME AS name, TABLE_TYPE AS type, TABLE_ROWS AS tuples, TABLE_COMMENT AS comment, CREATE_OPTIONS AS options
FROM information_schema.TABLES WHERE TABLE_SCHEMA = ? ORDER BY TABLE_NAME`;

const COLUMNS = `
SELECT TABLE_NAME AS table_name, COLUMN_NAME AS name, DATA_TYPE AS data_type, COLUMN_TYPE AS column_type,
  IS_NULLABLE AS nullable, CHARACTER_MAXIMUM_LENGTH AS length, NUMERIC_PRECISION AS \`precision\`, NUMERIC_SCALE AS scale,
  COLUMN_DEFAULT AS \`default\`, EXTRA AS extra, COLUMN_COMMENT AS comment, GENERATION_EXPRESSION AS generation
FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = ? ORDER BY TABLE_NAME, ORDINAL_POSITION`;

const INDEXES = `
SELECT TABLE_NAME AS table_name, INDEX_NAME AS name, NON_UNIQUE AS non_unique, COLUMN_NAME AS column_name,
  SUB_PART AS sub_part, INDEX_TYPE AS index_type
FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = ? ORDER BY TABLE_NAME, INDEX_NAME, SEQ_IN_INDEX`;

const FOREIGN_KEYS = `
SELECT k.TABLE_NAME AS table_name, k.CONSTRAINT_NAME AS name, k.COLUMN_NAME AS column_name,
  k.REFERENCED_TABLE_SCHEMA AS ref_namespace, k.REFERENCED_TABLE_NAME AS ref_table, k.REFERENCED_COLUMN_NAME AS ref_column,
  r.UPDATE_RULE AS on_update, r.DELETE_RULE AS on_delete
FROM information_schema.KEY_COLUMN_USAGE k
JOIN information_schema.REFERENTIAL_CONSTRAINTS r
  ON r.CONSTRAINT_SCHEMA = k.CONSTRAINT_SCHEMA AND r.TABLE_NAME = k.TABLE_NAME AND r.CONSTRAINT_NAME = k.CONSTRAINT_NAME
WHERE k.TABLE_SCHEMA = ? AND k.REFERENCED_TABLE_NAME IS NOT NULL
ORDER BY k.TABLE_NAME, k.CONSTRAINT_NAME, k.ORDINAL_POSITION`;

// MySQL 8's CHECK_CONSTRAINTS has no TABLE_NAME (names are unique per database); MariaDB's has one
// (names are per table, and a column-level check is named after its column). Both list checks in TABLE_CONSTRAINTS.
const CHECKS = `SELECT * FROM information_schema.CHECK_CONSTRAINTS WHERE CONSTRAINT_SCHEMA = ?`;
const CHECK_TABLES = `
SELECT TABLE_NAME AS table_name, CONSTRAINT_NAME AS name FROM information_schema.TABLE_CONSTRAINTS
WHERE CONSTRAINT_SCHEMA = ? AND CONSTRAINT_TYPE = 'CHECK'`;

const TRIGGERS = `
SELECT EVENT_OBJECT_TABLE AS table_name, TRIGGER_NAME AS name FROM information_schema.TRIGGERS
WHERE TRIGGER_SCHEMA = ? ORDER BY EVENT_OBJECT_TABLE, TRIGGER_NAME`;

const NAMESPACES = `
SELECT SCHEMA_NAME AS name FROM information_schema.SCHEMATA
WHERE SCHEMA_NAME NOT IN ('mysql', 'information_schema', 'performance_schema', 'sys') ORDER BY SCHEMA_NAME`;

const ACTIONS: Record<string, CatalogAction> = { 'NO ACTION': 'no-action', RESTRICT: 'restrict', CASCADE: 'cascade', 'SET NULL': 'set-null', 'SET DEFAULT': 'set-default' };

/** The catalog of database `namespace` (any name: it is a bound parameter, never SQL text). */
export async function readMysqlCatalog(executor: SqlExecutor, namespace: string): Promise<Catalog> {
  const [tableRows, columns, indexes, foreignKeys, checks, checkTables, triggers, namespaces] = await Promise.all([
    executor.query<TableRow>(TABLES, [namespace]),
    executor.query<ColumnRow>(COLUMNS, [namespace]),
    executor.query<IndexRow>(INDEXES, [namespace]),
    executor.query<ForeignKeyRow>(FOREIGN_KEYS, [namespace]),
    executor.query<Record<string, unknown>>(CHECKS, [namespace]),
    executor.query<{ table_name: string; name: string }>(CHECK_TABLES, [namespace]),
    executor.query<{ table_name: string; name: string }>(TRIGGERS, [namespace]),
    executor.query<{ name: string }>(NAMESPACES, []),
  ]);
  const columnsOf = groupBy(columns, (row) => row.table_name);
  const indexesOf = groupBy(indexes, (row) => row.table_name);
  const foreignKeysOf = groupBy(foreignKeys, (row) => row.table_name);
  const triggersOf = groupBy(triggers, (row) => row.table_name);
  const checksOf = tableChecks(checks, checkTables);

  const tables: CatalogTable[] = [];
  const views: string[] = [];
  for (const row of tableRows) {
    if (row.type !== 'BASE TABLE' && row.type !== 'SYSTEM VERSIONED') {
      if (row.type === 'VIEW') views.push(row.name);
      continue;
    }
    const table = buildTable(row, columnsOf.get(row.name) ?? [], indexesOf.get(row.name) ?? [], foreignKeysOf.get(row.name) ?? [], checksOf.get(row.name) ?? []);
    for (const trigger of triggersOf.get(row.name) ?? []) table.unsupported.push(`trigger ${trigger.name}: generated rows do not run it`);
    tables.push(table);
  }
  return { engine: 'mysql', namespace, exists: namespaces.some((row) => row.name === namespace), tables, views, namespaces: namespaces.map((row) => row.name) };
}

function tableChecks(checks: Record<string, unknown>[], checkTables: { table_name: string; name: string }[]): Map<string, CatalogCheck[]> {
  const byTable = new Map<string, CatalogCheck[]>();
  const add = (table: string, name: string, clause: string) => {
    const rules = parseCheckClause(clause, { backslashEscapes: true });
    const check: CatalogCheck = { name, expression: clause, ...(rules ? { rules } : {}) };
    byTable.set(table, [...(byTable.get(table) ?? []), check]);
  };
  const tableOfName = new Map(checkTables.map((row) => [row.name, row.table_name]));
  for (const check of checks) {
    const name = String(check.CONSTRAINT_NAME);
    const clause = String(check.CHECK_CLAUSE);
    const table = typeof check.TABLE_NAME === 'string' ? check.TABLE_NAME : tableOfName.get(name);
    if (table !== undefined) add(table, name, clause);
  }
  return byTable;
}

function buildTable(row: TableRow, columns: ColumnRow[], indexes: IndexRow[], foreignKeys: ForeignKeyRow[], checks: CatalogCheck[]): CatalogTable {
  // MariaDB keeps JSON as LONGTEXT with a json_valid(`column`) check named after the column.
  const jsonColumns = new Set<string>();
  const otherChecks = checks.filter((check) => {
    const column = /^json_valid\(`((?:[^`]|``)+)`\)$/i.exec(check.expression.trim())?.[1]?.replaceAll('``', '`');
    if (column === undefined) return true;
    jsonColumns.add(column);
    return false;
  });
  const table: CatalogTable = {
    name: row.name,
    columns: columns.map((column) => buildColumn(column, jsonColumns.has(column.name))),
    indexes: [],
    foreignKeys: [],
    checks: otherChecks,
    unsupported: [],
  };
  if (row.comment) table.comment = row.comment;
  const tuples = row.tuples === null ? undefined : Number(row.tuples);
  if (tuples !== undefined && Number.isFinite(tuples)) table.estimatedRows = tuples;
  if (/partitioned/i.test(row.options ?? '')) table.unsupported.push('partitioned table: generated as one plain table');

  const keys = new Map<string, { fkeys: string[] }>();
  for (const [name, rows] of groupBy(foreignKeys, (fk) => fk.name)) {
    const first = rows[0]!;
    keys.set(name, { fkeys: rows.map((fk) => fk.column_name) });
    table.foreignKeys.push({
      name,
      columns: rows.map((fk) => fk.column_name),
      references: { table: first.ref_table, columns: rows.map((fk) => fk.ref_column), namespace: first.ref_namespace },
      onDelete: ACTIONS[first.on_delete] ?? 'no-action',
      onUpdate: ACTIONS[first.on_update] ?? 'no-action',
      deferrable: false,
    });
  }
  for (const [name, rows] of groupBy(indexes, (index) => index.name)) {
    const columnNames = rows.map((index) => index.column_name ?? '');
    if (name === 'PRIMARY') {
      table.primaryKey = { name, columns: columnNames };
      continue;
    }
    const unique = Number(rows[0]!.non_unique) === 0;
    // InnoDB indexes a foreign key's columns itself, in an index named after the constraint: it comes with the key.
    if (!unique && sameColumns(keys.get(name)?.fkeys, columnNames)) continue;
    const type = rows[0]!.index_type;
    const unsupported = rows.some((index) => index.column_name === null)
      ? 'expression'
      : rows.some((index) => index.sub_part !== null)
        ? 'prefix'
        : type === 'BTREE' || type === 'HASH'
          ? undefined
          : `method ${type.toLowerCase()}`;
    table.indexes.push({ name, columns: columnNames, unique, ...(unsupported ? { unsupported } : {}) });
  }
  return table;
}

function sameColumns(a: string[] | undefined, b: string[]): boolean {
  return a !== undefined && a.length === b.length && a.every((column, i) => column === b[i]);
}

function buildColumn(row: ColumnRow, json: boolean): CatalogColumn {
  const extra = row.extra.toLowerCase();
  const column: CatalogColumn = {
    name: row.name,
    declared: row.column_type,
    type: json ? { kind: 'json' } : mysqlType(row),
    nullable: row.nullable === 'YES',
    autoIncrement: extra.includes('auto_increment'),
  };
  if (/generated/.test(extra) && !/default_generated/.test(extra)) column.generated = row.generation ?? '';
  // MariaDB writes an explicit NULL default as the text NULL.
  else if (row.default !== null && row.default !== 'NULL' && !column.autoIncrement) {
    column.default = row.default;
    // MySQL prints a literal's text bare and marks expressions DEFAULT_GENERATED; MariaDB quotes literals.
    const value = parseDefaultExpression(row.default, { backslashEscapes: true, bare: !/default_generated/.test(extra) });
    if (value) column.defaultValue = value;
  }
  const onUpdate = /on update (\S+)/.exec(extra)?.[1];
  if (onUpdate) column.default = `${column.default ?? 'NULL'} ON UPDATE ${onUpdate}`;
  if (row.comment) column.comment = row.comment;
  return column;
}

/** `enum('a','it''s')` → ['a', "it's"]. */
function enumMembers(columnType: string): string[] {
  const body = /^(?:enum|set)\((.*)\)$/is.exec(columnType)?.[1] ?? '';
  return [...body.matchAll(/'((?:[^'\\]|''|\\.)*)'/g)].map((match) => match[1]!.replaceAll("''", "'").replace(/\\(.)/g, '$1'));
}

function mysqlType(row: ColumnRow): CatalogType {
  const unsigned = /unsigned/i.test(row.column_type);
  const length = row.length === null ? undefined : Number(row.length);
  switch (row.data_type.toLowerCase()) {
    case 'tinyint':
      return /^tinyint\(1\)/i.test(row.column_type) ? { kind: 'boolean' } : { kind: 'integer', bits: 8, unsigned };
    case 'bool':
    case 'boolean':
      return { kind: 'boolean' };
    case 'smallint':
      return { kind: 'integer', bits: 16, unsigned };
    case 'mediumint':
      return { kind: 'integer', bits: 24, unsigned };
    case 'int':
    case 'integer':
      return { kind: 'integer', bits: 32, unsigned };
    case 'bigint':
      return { kind: 'integer', bits: 64, unsigned };
    case 'decimal':
    case 'numeric':
      return { kind: 'decimal', precision: Number(row.precision), scale: Number(row.scale ?? 0) };
    case 'float':
    case 'double':
    case 'real':
      return { kind: 'float' };
    case 'char':
      // sds, Prisma and most ORMs keep UUIDs in CHAR(36) on MySQL.
      return length === 36 ? { kind: 'uuid' } : { kind: 'string', length: length ?? 1, fixed: true };
    case 'varchar':
      return { kind: 'string', ...(length !== undefined ? { length } : {}) };
    case 'tinytext':
      return { kind: 'string', length: 255 };
    case 'text':
    case 'mediumtext':
    case 'longtext':
      return { kind: 'text' };
    case 'date':
      return { kind: 'date' };
    case 'datetime':
      return { kind: 'datetime', timeZone: false };
    case 'timestamp':
      return { kind: 'datetime', timeZone: true };
    case 'time':
      return { kind: 'time' };
    case 'uuid':
      return { kind: 'uuid' };
    case 'json':
      return { kind: 'json' };
    case 'enum':
      return { kind: 'enum', values: enumMembers(row.column_type) };
    case 'set':
      return { kind: 'unsupported', what: row.column_type, nearest: { kind: 'string' } };
    case 'year':
      return { kind: 'unsupported', what: 'year', nearest: { kind: 'integer', bits: 16 } };
    case 'bit':
      return { kind: 'unsupported', what: row.column_type, nearest: length === 1 || /^bit\(1\)$/i.test(row.column_type) ? { kind: 'boolean' } : { kind: 'string' } };
    case 'inet4':
    case 'inet6':
      return { kind: 'unsupported', what: row.data_type, nearest: { kind: 'string' } };
    case 'binary':
    case 'varbinary':
    case 'tinyblob':
    case 'blob':
    case 'mediumblob':
    case 'longblob':
      return { kind: 'unsupported', what: `binary data (${row.column_type})` };
    case 'geometry':
    case 'point':
    case 'linestring':
    case 'polygon':
    case 'multipoint':
    case 'multilinestring':
    case 'multipolygon':
    case 'geometrycollection':
    case 'geomcollection':
      return { kind: 'unsupported', what: `geometry (${row.column_type})` };
    default:
      return { kind: 'unsupported', what: row.column_type };
  }
}

export async function currentMysqlNamespace(executor: SqlExecutor): Promise<string | undefined> {
  const [row] = await executor.query<{ name: string | null }>('SELECT DATABASE() AS name', []);
  return row?.name ?? undefined;
}

/** Each table's storage engine: only InnoDB's writes are undone by a rollback (MyISAM, Aria and MEMORY keep them). */
export async function mysqlTableStorage(executor: SqlExecutor, namespace: string): Promise<Map<string, TableStorage>> {
  const rows = await executor.query<{ t: string; e: string | null }>('SELECT TABLE_NAME AS t, ENGINE AS e FROM information_schema.TABLES WHERE TABLE_SCHEMA = ?', [namespace]);
  return new Map(rows.map((row) => [row.t, { engine: row.e ?? 'unknown', transactional: row.e?.toLowerCase() === 'innodb' }]));
}

/** An empty database `sds_ddl_<random>` on the server of `url`: a MySQL script's unqualified tables land there. */
export async function createMysqlScratchDatabase(url: string, connect: (url: string) => Promise<TargetConnection>): Promise<ScratchDatabase> {
  const name = `sds_ddl_${randomBytes(6).toString('hex')}`;
  const connection = await connect(url);
  try {
    await connection.query(createMysqlDatabase(name), []);
  } finally {
    await connection.close();
  }
  const scratch = new URL(url);
  scratch.pathname = `/${name}`;
  return {
    url: scratch.toString(),
    namespace: name,
    drop: async () => {
      const admin = await connect(url);
      try {
        await admin.dropNamespace(name);
      } finally {
        await admin.close();
      }
    },
  };
}
