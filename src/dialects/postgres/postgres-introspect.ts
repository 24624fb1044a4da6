// PostgreSQL's catalog (pg_catalog) read into the catalog model: one set-based query per kind of
// object for the whole schema, run side by side, then put together per table. Also the throw-away
// database a user's DDL runs in.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { Catalog, CatalogAction, CatalogCheck, CatalogColumn, CatalogTable, CatalogType, ScratchDatabase } from '../catalog.ts';
import type { SqlExecutor, TableStorage } from '../dialect.ts';
import { groupBy, parseCheckClause, parseDefaultExpression } from '../catalog-reading.ts';

interface RelationRow {
  oid: number;
  name: string;
  kind: string;
  tuples: number;
  partitions: number;
  comment: string | null;
}

interface ColumnRow {
  table_oid: number;
  name: string;
  declared: string;
  type_name: string;
  type_type: string;
  type_category: string;
  type_oid: number;
  element_name: string | null;
  domain: string | null;
  domain_oid: number | null;
  domain_not_null: boolean;
  not_null: boolean;
  identity: string;
  generated: string;
  default: string | null;
  comment: string | null;
}

interface ConstraintRow {
  table_oid: number;
  name: string;
  type: string;
  columns: string[];
  ref_table: string | null;
  ref_namespace: string | null;
  ref_columns: string[] | null;
  on_delete: string;
  on_update: string;
  deferrable: boolean;
  definition: string;
}

interface IndexRow {
  table_oid: number;
  name: string;
  unique: boolean;
  partial: boolean;
  expression: boolean;
  method: string;
  columns: string[];
}

const RELATIONS = `
SELECT c.oid::int AS oid, c.relname AS name, c.relkind::text AS kind, c.reltuples::float8 AS tuples,
  (SELECT count(*) FROM pg_inherits i WHERE i.inhparent = c.oid)::int AS partitions,
  obj_description(c.oid, 'pg_class') AS comment
FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE n.nspname = $1 AND c.relkind IN ('r', 'p', 'v', 'm', 'f') AND NOT c.relispartition
ORDER BY c.relname`;

// Domains resolve to their base type: the column then reads as the base type, with the domain named.
const COLUMNS = `
SELECT a.attrelid::int AS table_oid, a.attname AS name,
  format_type(CASE WHEN t.typtype = 'd' THEN t.typbasetype ELSE a.atttypid END, CASE WHEN t.typtype = 'd' THEN t.typtypmod ELSE a.atttypmod END) AS declared,
  b.typname AS type_name, b.typtype::text AS type_type, b.typcategory::text AS type_category, b.oid::int AS type_oid,
  e.typname AS element_name,
  CASE WHEN t.typtype = 'd' THEN t.typname END AS domain, CASE WHEN t.typtype = 'd' THEN t.oid::int END AS domain_oid,
  t.typnotnull AS domain_not_null,
  a.attnotnull AS not_null, a.attidentity::text AS identity, a.attgenerated::text AS generated,
  pg_get_expr(d.adbin, d.adrelid) AS default, col_description(a.attrelid, a.attnum) AS comment
FROM pg_attribute a
JOIN pg_class c ON c.oid = a.attrelid
JOIN pg_namespace n ON n.oid = c.relnamespace
JOIN pg_type t ON t.oid = a.atttypid
JOIN pg_type b ON b.oid = CASE WHEN t.typtype = 'd' THEN t.typbasetype ELSE t.oid END
LEFT JOIN pg_type e ON e.oid = b.typelem AND b.typcategory = 'A'
LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
WHERE n.nspname = $1 AND c.relkind IN ('r', 'p') AND NOT c.relispartition AND a.attnum > 0 AND NOT a.attisdropped
ORDER BY a.attrelid, a.attnum`;

const attributeNames = (table: string, numbers: string) =>
  `ARRAY(SELECT a.attname FROM unnest(${numbers}) WITH ORDINALITY k(num, ord) JOIN pg_attribute a ON a.attrelid = ${table} AND a.attnum = k.num ORDER BY k.ord)::text[]`;

const CONSTRAINTS = `
SELECT con.conrelid::int AS table_oid, con.conname AS name, con.contype::text AS type,
  ${attributeNames('con.conrelid', 'con.conkey')} AS columns,
  rc.relname AS ref_table, rn.nspname AS ref_namespace,
  CASE WHEN con.contype = 'f' THEN ${attributeNames('con.confrelid', 'con.confkey')} END AS ref_columns,
  con.confdeltype::text AS on_delete, con.confupdtype::text AS on_update, con.condeferrable AS deferrable,
  pg_get_constraintdef(con.oid) AS definition
FROM pg_constraint con
JOIN pg_class c ON c.oid = con.conrelid
JOIN pg_namespace n ON n.oid = c.relnamespace
LEFT JOIN pg_class rc ON rc.oid = con.confrelid
LEFT JOIN pg_namespace rn ON rn.oid = rc.relnamespace
WHERE n.nspname = $1 AND con.contype IN ('p', 'f', 'c', 'x') AND NOT c.relispartition
ORDER BY con.conrelid, con.conname`;

// Unique constraints are read through their indexes, like unique indexes; primary and exclusion
// constraints' indexes come with their constraints.
const INDEXES = `
SELECT i.indrelid::int AS table_oid, ic.relname AS name, i.indisunique AS unique,
  i.indpred IS NOT NULL AS partial, i.indexprs IS NOT NULL AS expression, am.amname AS method,
  ${attributeNames('i.indrelid', '(i.indkey::int2[])[0:i.indnkeyatts - 1]')} AS columns
FROM pg_index i
JOIN pg_class ic ON ic.oid = i.indexrelid
JOIN pg_class c ON c.oid = i.indrelid
JOIN pg_namespace n ON n.oid = c.relnamespace
JOIN pg_am am ON am.oid = ic.relam
WHERE n.nspname = $1 AND c.relkind IN ('r', 'p') AND NOT c.relispartition AND NOT i.indisprimary
  AND NOT EXISTS (SELECT 1 FROM pg_constraint x WHERE x.conindid = i.indexrelid AND x.contype = 'x')
ORDER BY i.indrelid, ic.relname`;

const ENUM_VALUES = `
SELECT e.enumtypid::int AS type_oid, e.enumlabel AS label
FROM pg_enum e WHERE e.enumtypid = ANY($1::oid[]) ORDER BY e.enumtypid, e.enumsortorder`;

const DOMAIN_CHECKS = `
SELECT con.contypid::int AS domain_oid, con.conname AS name, pg_get_constraintdef(con.oid) AS definition
FROM pg_constraint con
WHERE con.contypid = ANY($1::oid[]) AND con.contype = 'c'
ORDER BY con.contypid, con.conname`;

const TRIGGERS = `
SELECT t.tgrelid::int AS table_oid, t.tgname AS name
FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE n.nspname = $1 AND NOT t.tgisinternal
ORDER BY t.tgrelid, t.tgname`;

const NAMESPACES = `
SELECT nspname AS name FROM pg_namespace
WHERE nspname NOT LIKE 'pg\\_%' AND nspname <> 'information_schema'
ORDER BY nspname`;

const ACTIONS: Record<string, CatalogAction> = { a: 'no-action', r: 'restrict', c: 'cascade', n: 'set-null', d: 'set-default' };

/** The catalog of schema `namespace` (any name: it is a bound parameter, never SQL text). */
export async function readPostgresCatalog(executor: SqlExecutor, namespace: string): Promise<Catalog> {
  const [relations, columns, constraints, indexes, triggers, namespaces] = await Promise.all([
    executor.query<RelationRow>(RELATIONS, [namespace]),
    executor.query<ColumnRow>(COLUMNS, [namespace]),
    executor.query<ConstraintRow>(CONSTRAINTS, [namespace]),
    executor.query<IndexRow>(INDEXES, [namespace]),
    executor.query<{ table_oid: number; name: string }>(TRIGGERS, [namespace]),
    executor.query<{ name: string }>(NAMESPACES, []),
  ]);
  const enumTypes = [...new Set(columns.filter((column) => column.type_type === 'e').map((column) => column.type_oid))];
  const domains = [...new Set(columns.flatMap((column) => (column.domain_oid === null ? [] : [column.domain_oid])))];
  const [enumRows, domainChecks] = await Promise.all([
    enumTypes.length ? executor.query<{ type_oid: number; label: string }>(ENUM_VALUES, [enumTypes]) : [],
    domains.length ? executor.query<{ domain_oid: number; name: string; definition: string }>(DOMAIN_CHECKS, [domains]) : [],
  ]);
  const enumValues = groupBy(enumRows, (row) => row.type_oid);
  const columnsOf = groupBy(columns, (row) => row.table_oid);
  const constraintsOf = groupBy(constraints, (row) => row.table_oid);
  const indexesOf = groupBy(indexes, (row) => row.table_oid);
  const triggersOf = groupBy(triggers, (row) => row.table_oid);
  const checksOf = groupBy(domainChecks, (row) => row.domain_oid);

  const tables: CatalogTable[] = [];
  const views: string[] = [];
  for (const relation of relations) {
    if (relation.kind !== 'r' && relation.kind !== 'p') {
      views.push(relation.name);
      continue;
    }
    const table = buildTable(relation, columnsOf.get(relation.oid) ?? [], constraintsOf.get(relation.oid) ?? [], indexesOf.get(relation.oid) ?? [], enumValues);
    for (const row of columnsOf.get(relation.oid) ?? []) {
      for (const check of row.domain_oid === null ? [] : (checksOf.get(row.domain_oid) ?? [])) {
        table.checks.push(readCheck(check.definition, check.name, row.name));
      }
    }
    for (const trigger of triggersOf.get(relation.oid) ?? []) table.unsupported.push(`trigger ${trigger.name}: generated rows do not run it`);
    tables.push(table);
  }
  return {
    engine: 'postgres',
    namespace,
    exists: namespaces.some((row) => row.name === namespace),
    tables,
    views,
    namespaces: namespaces.map((row) => row.name),
  };
}

function buildTable(relation: RelationRow, columns: ColumnRow[], constraints: ConstraintRow[], indexes: IndexRow[], enumValues: Map<number, { label: string }[]>): CatalogTable {
  const table: CatalogTable = {
    name: relation.name,
    columns: columns.map((row) => buildColumn(row, enumValues)),
    indexes: indexes.map((row) => ({
      name: row.name,
      columns: row.columns,
      unique: row.unique,
      ...(unsupportedIndex(row) ? { unsupported: unsupportedIndex(row) } : {}),
    })),
    foreignKeys: [],
    checks: [],
    unsupported: [],
  };
  if (relation.comment) table.comment = relation.comment;
  // reltuples is -1 (PostgreSQL 14+) until the table is first vacuumed or analyzed.
  if (relation.tuples >= 0) table.estimatedRows = Math.round(relation.tuples);
  if (relation.kind === 'p') table.partitioned = true;
  if (relation.kind === 'p') table.unsupported.push(`partitioned table (${relation.partitions} partitions): generated as one plain table`);
  for (const constraint of constraints) {
    switch (constraint.type) {
      case 'p':
        table.primaryKey = { name: constraint.name, columns: constraint.columns };
        break;
      case 'f':
        table.foreignKeys.push({
          name: constraint.name,
          columns: constraint.columns,
          references: { table: constraint.ref_table ?? '', columns: constraint.ref_columns ?? [], namespace: constraint.ref_namespace ?? undefined },
          onDelete: ACTIONS[constraint.on_delete] ?? 'no-action',
          onUpdate: ACTIONS[constraint.on_update] ?? 'no-action',
          deferrable: constraint.deferrable,
        });
        break;
      case 'c':
        table.checks.push(readCheck(constraint.definition, constraint.name));
        break;
      case 'x':
        table.unsupported.push(`exclusion constraint ${constraint.name} ${constraint.definition}: not enforced on generated rows`);
        break;
    }
  }
  return table;
}

function unsupportedIndex(row: IndexRow): string | undefined {
  if (row.partial) return 'partial';
  if (row.expression) return 'expression';
  if (row.method !== 'btree' && row.method !== 'hash') return `method ${row.method}`;
  return undefined;
}

function readCheck(definition: string, name: string, valueColumn?: string): CatalogCheck {
  const rules = parseCheckClause(definition, valueColumn ? { valueColumn } : {});
  return { name, expression: definition, ...(rules ? { rules } : {}), ...(valueColumn ? { column: valueColumn } : {}) };
}

function buildColumn(row: ColumnRow, enumValues: Map<number, { label: string }[]>): CatalogColumn {
  const column: CatalogColumn = {
    name: row.name,
    declared: row.declared,
    type: postgresType(row, enumValues),
    nullable: !row.not_null && !row.domain_not_null,
    autoIncrement: row.identity !== '' || /^nextval\(/.test(row.default ?? ''),
  };
  if (row.generated === 's') column.generated = row.default ?? '';
  else if (row.default !== null && !column.autoIncrement) {
    column.default = row.default;
    const value = parseDefaultExpression(row.default);
    if (value) column.defaultValue = value;
  }
  if (row.domain) column.domain = row.domain;
  if (row.comment) column.comment = row.comment;
  return column;
}

/** `numeric(10,2)` → [10, 2]; `character varying(40)` → [40]. */
function modifiers(declared: string): number[] {
  const match = /\(([\d, ]+)\)/.exec(declared);
  return match ? match[1]!.split(',').map((part) => Number(part.trim())) : [];
}

function postgresType(row: ColumnRow, enumValues: Map<number, { label: string }[]>): CatalogType {
  if (row.type_category === 'A') {
    return { kind: 'unsupported', what: `array (${row.declared})`, nearest: { kind: 'json' } };
  }
  if (row.type_type === 'e') return { kind: 'enum', values: (enumValues.get(row.type_oid) ?? []).map((value) => value.label), typeName: row.type_name };
  if (row.type_type === 'r' || row.type_type === 'm') return { kind: 'unsupported', what: `range type ${row.declared}` };
  if (row.type_type === 'c') return { kind: 'unsupported', what: `composite type ${row.declared}`, nearest: { kind: 'json' } };
  const [first, second] = modifiers(row.declared);
  switch (row.type_name) {
    case 'int2':
      return { kind: 'integer', bits: 16 };
    case 'int4':
      return { kind: 'integer', bits: 32 };
    case 'int8':
      return { kind: 'integer', bits: 64 };
    case 'numeric':
      return { kind: 'decimal', ...(first !== undefined ? { precision: first, scale: second ?? 0 } : {}) };
    case 'float4':
    case 'float8':
      return { kind: 'float' };
    case 'bool':
      return { kind: 'boolean' };
    case 'varchar':
      return { kind: 'string', ...(first !== undefined ? { length: first } : {}) };
    case 'bpchar':
      return { kind: 'string', length: first ?? 1, fixed: true };
    case 'name':
      return { kind: 'string', length: 63 };
    case 'text':
    case 'citext':
      return { kind: 'text' };
    case 'date':
      return { kind: 'date' };
    case 'timestamp':
      return { kind: 'datetime', timeZone: false };
    case 'timestamptz':
      return { kind: 'datetime', timeZone: true };
    case 'time':
      return { kind: 'time' };
    case 'timetz':
      return { kind: 'time', timeZone: true };
    case 'uuid':
      return { kind: 'uuid' };
    case 'json':
    case 'jsonb':
      return { kind: 'json' };
    case 'money':
      return { kind: 'unsupported', what: 'money', nearest: { kind: 'decimal', precision: 19, scale: 2 } };
    case 'interval':
    case 'inet':
    case 'cidr':
    case 'macaddr':
    case 'macaddr8':
    case 'bit':
    case 'varbit':
      return { kind: 'unsupported', what: row.declared, nearest: { kind: 'string' } };
    case 'xml':
      return { kind: 'unsupported', what: 'xml', nearest: { kind: 'text' } };
    case 'hstore':
      return { kind: 'unsupported', what: 'hstore', nearest: { kind: 'json' } };
    case 'bytea':
      return { kind: 'unsupported', what: 'binary data (bytea)' };
    case 'tsvector':
    case 'tsquery':
      return { kind: 'unsupported', what: `full-text search (${row.declared})` };
    default:
      return { kind: 'unsupported', what: row.type_category === 'G' ? `geometry (${row.declared})` : row.declared };
  }
}

export async function currentPostgresNamespace(executor: SqlExecutor): Promise<string | undefined> {
  const [row] = await executor.query<{ name: string | null }>('SELECT current_schema() AS name', []);
  return row?.name ?? undefined;
}

/** Each table's access method (`heap`, or an extension's): PostgreSQL's tables are all transactional. */
export async function postgresTableStorage(executor: SqlExecutor, namespace: string): Promise<Map<string, TableStorage>> {
  const rows = await executor.query<{ t: string; e: string | null }>(
    `SELECT c.relname AS t, am.amname AS e FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     LEFT JOIN pg_am am ON am.oid = c.relam WHERE n.nspname = $1 AND c.relkind IN ('r', 'p')`,
    [namespace],
  );
  return new Map(rows.map((row) => [row.t, { engine: row.e ?? 'unknown', transactional: true }]));
}

/**
 * An empty database `sds_ddl_<random>` on the server of `url`, for a user's DDL (pg_dump output names
 * its schemas, so a schema of its own would not hold it). Dropped with its connections.
 */
export async function createPostgresScratchDatabase(url: string): Promise<ScratchDatabase> {
  const name = `sds_ddl_${randomBytes(6).toString('hex')}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
    client.on('error', () => {});
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end().catch(() => {});
    }
  };
  await admin(`CREATE DATABASE "${name}"`);
  const scratch = new URL(url);
  scratch.pathname = `/${name}`;
  return { url: scratch.toString(), drop: () => admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`) };
}
