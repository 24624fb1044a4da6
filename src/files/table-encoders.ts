// One table's generated rows (values in column order, as the generator makes them) encoded in a
// file format: what goes before the first row, each row, and what goes after the last. Text
// formats render each value as the runtime API does (src/model/render.ts), so a file and the API agree.
import type { Dialect } from '../dialects/dialect.ts';
import type { RowValues } from '../model/row-value.ts';
import { valueRenderer, type JsonValue } from '../model/render.ts';
import type { RuntimeTable } from '../model/tables.ts';
import { FILE_FORMATS, type FileFormat } from './formats.ts';
import { ParquetTableWriter } from './parquet.ts';

/** Encoded output: text, or bytes ready to be written. */
export type Encoded = string | Uint8Array[];

export interface TableEncoder {
  head(): Encoded;
  /** Row `index` of the table (text formats depend on nothing else, so ranges encode apart). */
  row(values: RowValues, index: number): Encoded;
  /** After `rows` rows. */
  tail(rows: number): Encoded;
}

export interface EncoderOptions {
  /** `sql`: the dialect whose script to write and the namespace it builds. */
  dialect?: Dialect;
  namespace?: string;
  /** Written into Parquet files' metadata. */
  createdBy?: string;
}

/** The encoder of one table's rows in `format`. */
export function tableEncoder(format: FileFormat, table: RuntimeTable, options: EncoderOptions = {}): TableEncoder {
  return TABLE_ENCODERS[format](table, options);
}

/** One table's text rows: the format's head, then each row's values as text. */
const textEncoder = (format: 'csv' | 'jsonl') => (table: RuntimeTable): TableEncoder => {
  const { head } = FILE_FORMATS[format].text(table.columns);
  const encode = FILE_FORMATS[format].values(table.columns);
  return { head: () => head, row: (values) => encode(values), tail: () => '' };
};

/** Each format's encoder of one table, by format. */
const TABLE_ENCODERS = {
  csv: textEncoder('csv'),
  jsonl: textEncoder('jsonl'),
  parquet: (table, options) => {
    const renderers = table.columns.map(valueRenderer);
    const rendered: JsonValue[] = new Array<JsonValue>(table.columns.length).fill(null);
    const render = (values: RowValues) => {
      for (let index = 0; index < renderers.length; index++) rendered[index] = renderers[index]!(values[index] ?? null);
      return rendered;
    };
    const writer = new ParquetTableWriter(table.columns, options.createdBy ?? 'sds');
    return { head: () => [], row: (values) => writer.add(render(values)), tail: () => writer.finish() };
  },
  sql: (table, options) => {
    if (!options.dialect || !options.namespace) throw new Error('an SQL script needs a dialect and a namespace');
    const rows = options.dialect.dump.rows(options.namespace, table.spec);
    return { head: () => rows.head, row: (values, index) => rows.row(values, index), tail: (count) => rows.tail(count) };
  },
} satisfies Record<FileFormat, (table: RuntimeTable, options: EncoderOptions) => TableEncoder>;
