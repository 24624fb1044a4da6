// The file formats sds writes, declared once: what each is called, its extension, and whether it
// holds one table (a file per table: csv, jsonl, parquet) or a whole namespace (sql, a script that
// builds it). `sds generate --format`, `sds export --format` and the runtime API's export media
// types come from this table.
import type { ColumnSpec } from '../model/table-spec.ts';
import type { RowValues } from '../model/row-value.ts';
import type { JsonValue } from '../model/render.ts';
import type { RuntimeColumn } from '../model/tables.ts';
import { csvHeader, csvRowEncoder, csvValuesEncoder, type CsvOptions } from './csv.ts';
import { jsonlRowEncoder, jsonlValuesEncoder } from './jsonl.ts';

/** A text format of one table: its first lines, and one row's text. */
export interface TextTableFormat {
  head: string;
  /** A row of rendered values (JSON, as the runtime API answers them). */
  encode(values: readonly JsonValue[]): string;
}

interface FormatSpec {
  extension: string;
  /** What it is, for help texts. */
  description: string;
  /** `table`: one file per table; `script`: one SQL script for the whole namespace. */
  layout: 'table' | 'script';
  /** Each row's encoding is text (a file is its rows' text between a head and a tail). */
  rowText: boolean;
  /**
   * How the part files of shards (`--shard i/n`, shard.ts) join into the one-process output:
   * `concatenate`: the parts in order are the file byte for byte (its head only in the first part);
   * `files`: each part is a whole file of its rows, read together as one table;
   * `script`: the parts in order are one script (its start in the first, its end in the last) that
   * loads the same rows, each table's rows in several statements.
   */
  parts: 'concatenate' | 'files' | 'script';
  /** Text formats of one table (row by row); absent for binary or script formats. `options` apply to CSV. */
  text?: (columns: readonly ColumnSpec[], options?: CsvOptions) => TextTableFormat;
  /**
   * Text formats: a row of column values (generated, or cast back from a database), the same text
   * `text(columns).encode` makes of their rendering, without rendering each value first.
   */
  values?: (columns: readonly RuntimeColumn[]) => (values: RowValues) => string;
  /** The HTTP media type, for formats the runtime API streams. */
  mediaType?: string;
}

export const FILE_FORMATS = {
  csv: {
    extension: 'csv',
    description: 'CSV (RFC 4180) with a header row; NULL is an empty field, the empty string ""',
    layout: 'table',
    rowText: true,
    parts: 'concatenate',
    text: (columns, options?: CsvOptions) => ({ head: csvHeader(columns), encode: csvRowEncoder(columns, options) }),
    values: csvValuesEncoder,
    mediaType: 'text/csv',
  },
  jsonl: {
    extension: 'jsonl',
    description: 'JSON Lines: one JSON object a row, values as the runtime API renders them',
    layout: 'table',
    rowText: true,
    parts: 'concatenate',
    text: (columns) => ({ head: '', encode: jsonlRowEncoder(columns) }),
    values: jsonlValuesEncoder,
    mediaType: 'application/x-ndjson',
  },
  parquet: {
    extension: 'parquet',
    description: 'Apache Parquet, typed columns, snappy-compressed row groups',
    layout: 'table',
    rowText: false,
    parts: 'files',
  },
  sql: {
    extension: 'sql',
    description: 'one SQL script per namespace for psql -f or mysql <: tables, data, then keys, indexes and foreign keys',
    layout: 'script',
    rowText: true,
    parts: 'script',
  },
} as const satisfies Record<string, FormatSpec>;

export type FileFormat = keyof typeof FILE_FORMATS;

export const FILE_FORMAT_NAMES = Object.keys(FILE_FORMATS) as FileFormat[];

export function isFileFormat(name: string): name is FileFormat {
  return Object.hasOwn(FILE_FORMATS, name);
}

export function formatSpec(format: FileFormat): FormatSpec {
  return FILE_FORMATS[format];
}
