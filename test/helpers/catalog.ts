// Reads back from a database's own catalog (pg_catalog / information_schema) what a generation
// created: columns and their nullability, primary keys, indexes, foreign keys with their actions,
// in one shape for both dialects, plus quoting and table digests for data checks.
import { createHash } from 'node:crypto';
import type { DialectTarget, Inspector, RawRow } from './dialect-targets.ts';

export type Action = 'restrict' | 'cascade' | 'set-null' | 'no action' | 'set default';

export interface CatalogIndex {
  name: string;
  columns: string[];
  unique: boolean;
  primary: boolean;
}

export interface CatalogForeignKey {
  name: string;
  columns: string[];
  table: string;
  /** Schema (PostgreSQL) or database (MySQL) of the referenced table. */
  namespace: string;
  referenced: string[];
  onDelete: Action;
  onUpdate: Action;
}

const PG_ACTIONS: Record<string, Action> = { r: 'restrict', c: 'cascade', n: 'set-null', a: 'no action', d: 'set default' };
const MYSQL_ACTIONS: Record<string, Action> = { RESTRICT: 'restrict', CASCADE: 'cascade', 'SET NULL': 'set-null', 'NO ACTION': 'no action', 'SET DEFAULT': 'set default' };

export class Catalog {
  constructor(
    private readonly target: DialectTarget,
    private readonly inspector: Inspector,
    readonly namespace: string,
  ) {}

  get postgres(): boolean {
    return this.target.name === 'postgres';
  }

  // Arrow properties, so tests can destructure them: `const { q, t, p } = catalog`.
  /** A quoted identifier. */
  readonly q = (name: string): string => (this.postgres ? `"${name}"` : `\`${name}\``);

  /** A quoted table of this namespace. */
  readonly t = (table: string): string => `${this.q(this.namespace)}.${this.q(table)}`;

  /** The n-th (1-based) placeholder. */
  readonly p = (index: number): string => (this.postgres ? `$${index}` : '?');

  query(sql: string, params?: unknown[]): Promise<RawRow[]> {
    return this.inspector.query(sql, params);
  }

  /** A single number from a one-row, one-column query. */
  async count(sql: string, params?: unknown[]): Promise<number> {
    const [row] = await this.query(sql, params);
    return Number(Object.values(row ?? {})[0]);
  }

  async tables(): Promise<string[]> {
    const rows = await this.query(
      `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = ${this.p(1)} AND table_type = 'BASE TABLE' ORDER BY 1`,
      [this.namespace],
    );
    return rows.map((row) => String(row.name));
  }

  /** Columns in order; `type` is information_schema's data_type (e.g. `character varying`, `varchar`). */
  async columns(table: string): Promise<Array<{ name: string; type: string; nullable: boolean }>> {
    const rows = await this.query(
      `SELECT column_name AS name, data_type AS type, is_nullable AS nullable FROM information_schema.columns
        WHERE table_schema = ${this.p(1)} AND table_name = ${this.p(2)} ORDER BY ordinal_position`,
      [this.namespace, table],
    );
    return rows.map((row) => ({ name: String(row.name), type: String(row.type).toLowerCase(), nullable: row.nullable === 'YES' }));
  }

  async indexes(table: string): Promise<CatalogIndex[]> {
    if (this.postgres) {
      const rows = await this.query(
        `SELECT i.relname AS name, ix.indisunique AS is_unique, ix.indisprimary AS is_primary,
                array_to_string(array(SELECT a.attname FROM unnest(ix.indkey) WITH ORDINALITY AS k(attnum, n)
                  JOIN pg_attribute a ON a.attrelid = ix.indrelid AND a.attnum = k.attnum ORDER BY k.n), ',') AS columns
           FROM pg_index ix JOIN pg_class t ON t.oid = ix.indrelid JOIN pg_class i ON i.oid = ix.indexrelid
           JOIN pg_namespace n ON n.oid = t.relnamespace
          WHERE n.nspname = $1 AND t.relname = $2 ORDER BY 1`,
        [this.namespace, table],
      );
      return rows.map((row) => ({ name: String(row.name), columns: String(row.columns).split(','), unique: row.is_unique === 't', primary: row.is_primary === 't' }));
    }
    const rows = await this.query(
      'SELECT INDEX_NAME AS name, NON_UNIQUE AS nonUnique, COLUMN_NAME AS col FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? ORDER BY INDEX_NAME, SEQ_IN_INDEX',
      [this.namespace, table],
    );
    const byName = new Map<string, CatalogIndex>();
    for (const row of rows) {
      const name = String(row.name);
      const index = byName.get(name) ?? { name, columns: [], unique: Number(row.nonUnique) === 0, primary: name === 'PRIMARY' };
      index.columns.push(String(row.col));
      byName.set(name, index);
    }
    return [...byName.values()];
  }

  async primaryKey(table: string): Promise<string[]> {
    return (await this.indexes(table)).find((index) => index.primary)?.columns ?? [];
  }

  async foreignKeys(table: string): Promise<CatalogForeignKey[]> {
    if (this.postgres) {
      const columnsOf = (relation: string, keys: string) =>
        `array_to_string(array(SELECT a.attname FROM unnest(c.${keys}) WITH ORDINALITY AS k(attnum, n)
           JOIN pg_attribute a ON a.attrelid = c.${relation} AND a.attnum = k.attnum ORDER BY k.n), ',')`;
      const rows = await this.query(
        `SELECT c.conname AS name, c.confdeltype AS del, c.confupdtype AS upd, rt.relname AS ref_table, rn.nspname AS ref_schema,
                ${columnsOf('conrelid', 'conkey')} AS columns, ${columnsOf('confrelid', 'confkey')} AS ref_columns
           FROM pg_constraint c JOIN pg_class t ON t.oid = c.conrelid JOIN pg_namespace n ON n.oid = t.relnamespace
           JOIN pg_class rt ON rt.oid = c.confrelid JOIN pg_namespace rn ON rn.oid = rt.relnamespace
          WHERE c.contype = 'f' AND n.nspname = $1 AND t.relname = $2 ORDER BY 1`,
        [this.namespace, table],
      );
      return rows.map((row) => ({
        name: String(row.name),
        columns: String(row.columns).split(','),
        table: String(row.ref_table),
        namespace: String(row.ref_schema),
        referenced: String(row.ref_columns).split(','),
        onDelete: PG_ACTIONS[String(row.del)]!,
        onUpdate: PG_ACTIONS[String(row.upd)]!,
      }));
    }
    const rows = await this.query(
      `SELECT k.CONSTRAINT_NAME AS name, k.COLUMN_NAME AS col, k.REFERENCED_TABLE_NAME AS refTable, k.REFERENCED_TABLE_SCHEMA AS refSchema,
              k.REFERENCED_COLUMN_NAME AS refCol, r.DELETE_RULE AS del, r.UPDATE_RULE AS upd
         FROM information_schema.KEY_COLUMN_USAGE k
         JOIN information_schema.REFERENTIAL_CONSTRAINTS r
           ON r.CONSTRAINT_SCHEMA = k.CONSTRAINT_SCHEMA AND r.CONSTRAINT_NAME = k.CONSTRAINT_NAME AND r.TABLE_NAME = k.TABLE_NAME
        WHERE k.TABLE_SCHEMA = ? AND k.TABLE_NAME = ? AND k.REFERENCED_TABLE_NAME IS NOT NULL
        ORDER BY k.CONSTRAINT_NAME, k.ORDINAL_POSITION`,
      [this.namespace, table],
    );
    const byName = new Map<string, CatalogForeignKey>();
    for (const row of rows) {
      const name = String(row.name);
      const key = byName.get(name) ?? {
        name,
        columns: [],
        table: String(row.refTable),
        namespace: String(row.refSchema),
        referenced: [],
        onDelete: MYSQL_ACTIONS[String(row.del)]!,
        onUpdate: MYSQL_ACTIONS[String(row.upd)]!,
      };
      key.columns.push(String(row.col));
      key.referenced.push(String(row.refCol));
      byName.set(name, key);
    }
    return [...byName.values()];
  }

  /** SHA-256 of a table's rows in primary-key order, as the driver reads them. */
  async digest(table: string, orderBy: string[]): Promise<string> {
    const rows = await this.query(`SELECT * FROM ${this.t(table)} ORDER BY ${orderBy.map((column) => this.q(column)).join(', ')}`);
    return createHash('sha256').update(JSON.stringify(rows)).digest('hex');
  }
}
