// The catalog model: what a dialect reads from a database's own catalog (pg_catalog,
// information_schema) for introspection, as plain data in engine-neutral terms. Each dialect
// normalises its types and CHECK clauses into it; src/introspection maps it to a schema config.
import type { SourceKind } from '../contract.ts';

/**
 * A column type in engine-neutral terms. `declared` on the column keeps the database's own spelling
 * (`character varying(40)`, `tinyint(1)`) for messages.
 */
export type CatalogType =
  /** smallint, integer, bigint, MySQL tinyint/mediumint (not tinyint(1)); `bits` is the storage width. */
  | { kind: 'integer'; bits: 8 | 16 | 24 | 32 | 64; unsigned?: boolean }
  /** numeric/decimal; precision and scale when declared. */
  | { kind: 'decimal'; precision?: number; scale?: number }
  /** real, double precision, float, MySQL float/double. */
  | { kind: 'float' }
  | { kind: 'boolean' }
  /** varchar(n), char(n) (`fixed`), MySQL tinytext (255). */
  | { kind: 'string'; length?: number; fixed?: boolean }
  /** text and its MySQL sizes, PostgreSQL citext. */
  | { kind: 'text' }
  | { kind: 'date' }
  | { kind: 'datetime'; timeZone: boolean }
  /** time; `timeZone` for PostgreSQL timetz. */
  | { kind: 'time'; timeZone?: boolean }
  | { kind: 'uuid' }
  | { kind: 'json' }
  /** PostgreSQL enum types (`typeName` set) and MySQL ENUM columns. */
  | { kind: 'enum'; values: string[]; typeName?: string }
  /**
   * Anything the schema config has no type for: arrays, binary data, geometry, ranges, tsvector,
   * intervals, network addresses, MySQL SET… `nearest` is the closest type that still holds the
   * column's values as text or numbers, when there is one; without it the column is left out.
   */
  | { kind: 'unsupported'; what: string; nearest?: Exclude<CatalogType, { kind: 'unsupported' }> };

/** One conjunct of a CHECK clause the config can express, for one column. */
export type CheckRule =
  /** `x IN (…)`, `x = ANY (ARRAY[…])`, `x = 'a' OR x = 'b'`: the values as written (strings or numbers). */
  | { column: string; op: 'in'; values: Array<string | number> }
  | { column: string; op: '>=' | '>' | '<=' | '<'; value: number }
  | { column: string; op: 'not-null' };

export interface CatalogCheck {
  /** Constraint name, when the database gives one. */
  name?: string;
  /** The clause as the database prints it, for warnings. */
  expression: string;
  /** The rules it is made of (a conjunction), when every part of it is one; otherwise undefined. */
  rules?: CheckRule[];
  /** The column of a PostgreSQL domain's check (its `VALUE`). */
  column?: string;
}

export interface CatalogColumn {
  name: string;
  /** The type as the database declares it, e.g. `character varying(40)`, `enum('a','b')`. */
  declared: string;
  type: CatalogType;
  nullable: boolean;
  /** serial, identity or AUTO_INCREMENT: the database counts it up. */
  autoIncrement: boolean;
  /** Default expression as the database prints it (not for auto-increment columns). */
  default?: string;
  /** The default read as a literal (its text, unquoted) or a known function; undefined when it is any other expression. */
  defaultValue?: CatalogDefault;
  /** Generated column expression (GENERATED ALWAYS AS … / VIRTUAL / STORED). */
  generated?: string;
  /** PostgreSQL domain the column is declared with (its base type is `type`). */
  domain?: string;
  comment?: string;
}

/**
 * A column default in engine-neutral terms: a literal's text (quotes and casts removed: `'draft'::text`
 * → draft, `(-1)` → -1), or a function sds can declare on every engine.
 */
export type CatalogDefault = { literal: string } | { function: 'now' | 'current_date' | 'uuid' };

export interface CatalogKey {
  name: string;
  columns: string[];
}

export interface CatalogIndex extends CatalogKey {
  unique: boolean;
  /**
   * Why the index is not a plain list of columns: `partial` (WHERE …), `expression` (on an
   * expression), `prefix` (MySQL column prefix lengths), or another method sds cannot create
   * (`method gist`). Undefined for a plain index.
   */
  unsupported?: string;
}

export type CatalogAction = 'no-action' | 'restrict' | 'cascade' | 'set-null' | 'set-default';

export interface CatalogForeignKey extends CatalogKey {
  references: { table: string; columns: string[]; namespace?: string };
  onDelete: CatalogAction;
  onUpdate: CatalogAction;
  /** PostgreSQL DEFERRABLE: the database itself lets the cycle it closes be filled later. */
  deferrable: boolean;
}

export interface CatalogTable {
  name: string;
  comment?: string;
  /** Rows by the database's statistics (pg_class.reltuples, TABLE_ROWS); undefined when it has none. */
  estimatedRows?: number;
  columns: CatalogColumn[];
  primaryKey?: CatalogKey;
  /** Unique constraints and unique indexes, plain or not (see CatalogIndex.unsupported). */
  indexes: CatalogIndex[];
  foreignKeys: CatalogForeignKey[];
  checks: CatalogCheck[];
  /** Features of the table sds does not reproduce (exclusion constraints, triggers, partitions…), one line each. */
  unsupported: string[];
  /** PostgreSQL: a partitioned table (its rows live in its partitions, which are not tables of the catalog). */
  partitioned?: boolean;
}

/** One namespace (a PostgreSQL schema or a MySQL database) as the database describes it. */
export interface Catalog {
  engine: SourceKind;
  namespace: string;
  /** Whether the namespace exists; when it does not, `tables` is empty and `namespaces` lists the others. */
  exists: boolean;
  /** Base tables. */
  tables: CatalogTable[];
  /** Views, materialized views and foreign tables of the namespace: not introspected, named in warnings. */
  views: string[];
  /** The user namespaces of the database, for hints when the one asked for has no tables. */
  namespaces: string[];
}

/**
 * A throw-away database for running a user's DDL before reading its catalog. `namespace` is where the
 * DDL's unqualified tables land when the engine knows it up front (MySQL: the database itself);
 * PostgreSQL DDL may create its own schemas, so it is undefined there.
 */
export interface ScratchDatabase {
  url: string;
  namespace?: string;
  drop(): Promise<void>;
}

/**
 * How an engine's SQL scripts are written, for splitting one into statements without parsing them:
 * PostgreSQL dollar quoting and psql meta-commands; MySQL `#` comments, backslash escapes in
 * literals, `/*! … *\/` executable comments and the client's DELIMITER command.
 */
export interface ScriptSyntax {
  dollarQuotes: boolean;
  hashComments: boolean;
  backslashEscapes: boolean;
  executableComments: boolean;
  delimiterCommand: boolean;
  /** Lines starting with a backslash are client commands (psql `\connect`, `\restrict`). */
  backslashCommands: boolean;
}
