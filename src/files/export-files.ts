// A source's tables into files (`sds export`), from what its runtime API exports: CSV and JSON Lines
// are written as the server sends them; Parquet and SQL scripts are encoded here from the JSON Lines
// rows, each value cast back to its column's type (the runtime's castJson) as a write would cast it.
import fs from 'node:fs';
import path from 'node:path';
import type { SchemaConfig, SourceKind } from '../contract.ts';
import type { RowValue, RowValues } from '../model/row-value.ts';
import { dialectOfKind, isReservedNamespace } from '../dialects/index.ts';
import { castJson } from '../model/cast.ts';
import { plannedRowCounts } from '../generation/plan.ts';
import { buildRuntimeTables, type RuntimeTable } from '../model/tables.ts';
import { FileSink } from './file-sink.ts';
import { FILE_FORMATS, type FileFormat } from './formats.ts';
import { tableEncoder } from './table-encoders.ts';
import { TableWriter } from './table-writer.ts';
import type { WrittenFile } from './generate-files.ts';

/** What the runtime API streams: the file formats it serves. */
export type WireFormat = 'csv' | 'jsonl';

export interface ExportOptions {
  out: string;
  format: FileFormat;
  /** The tables to write, in order (default: every entity of the config). */
  tables?: string[];
  /** `sql`: the engine of the script and the namespace it builds. */
  dialect?: SourceKind;
  namespace?: string;
  gzip?: boolean;
  onTable?: (table: string, rows: number) => void;
}

/** Reads one table from the runtime API in a wire format: its bytes as they come. */
export type ReadTable = (table: string, format: WireFormat) => AsyncIterable<Uint8Array>;

/** Rows cast back at a time, for the encoders. */
const BATCH_ROWS = 1_000;

export async function exportFiles(config: SchemaConfig, read: ReadTable, options: ExportOptions): Promise<WrittenFile[]> {
  const tables = buildRuntimeTables(config, plannedRowCounts(config));
  const names = options.tables ?? tables.names;
  for (const name of names) tables.get(name);
  const spec = FILE_FORMATS[options.format];
  const suffix = options.gzip ? '.gz' : '';
  await fs.promises.mkdir(options.out, { recursive: true });
  const files: WrittenFile[] = [];

  if (spec.layout === 'script') {
    if (options.tables && names.length !== tables.names.length) throw new Error('an SQL script holds every table of the source (its foreign keys need them): leave out --tables');
    const dialect = dialectOfKind(options.dialect ?? 'postgres');
    const namespace = options.namespace ?? 'sds_export';
    if (isReservedNamespace(namespace)) throw new Error(`refusing to write a script that replaces "${namespace}": it must be a namespace of sds's own`);
    const specs = names.map((name) => tables.get(name).spec);
    const sink = await FileSink.open(path.join(options.out, `${namespace}.${spec.extension}${suffix}`), options.gzip === true);
    try {
      await sink.write(dialect.dump.begin(namespace) + dialect.dump.createTables(namespace, specs));
      let total = 0;
      for (const name of names) {
        const rows = await writeTable(sink, tables.get(name), 'sql', read, { dialect, namespace });
        options.onTable?.(name, rows);
        total += rows;
      }
      await sink.write(dialect.dump.finish(namespace, specs));
      files.push({ path: sink.path, rows: total, bytes: await sink.close() });
    } catch (error) {
      await sink.discard();
      throw error;
    }
    return files;
  }

  for (const name of names) {
    const sink = await FileSink.open(path.join(options.out, `${name}.${spec.extension}${suffix}`), options.gzip === true);
    try {
      const table = tables.get(name);
      let rows: number;
      if (options.format === 'csv' || options.format === 'jsonl') {
        // The server's own file, as it sends it.
        // Rows are the line ends outside quoted CSV fields ("" inside a field toggles twice).
        // (JSON Lines escape every quote and line end inside their strings.)
        const csv = options.format === 'csv';
        let lines = 0;
        let quoted = false;
        for await (const bytes of read(name, options.format)) {
          await sink.write(bytes);
          for (const byte of bytes) {
            if (csv && byte === 34) quoted = !quoted;
            else if (byte === 10 && !quoted) lines++;
          }
        }
        rows = csv ? Math.max(0, lines - 1) : lines;
      } else {
        rows = await writeTable(sink, table, options.format, read, {});
      }
      options.onTable?.(name, rows);
      files.push({ path: sink.path, entity: name, rows, bytes: await sink.close() });
    } catch (error) {
      await sink.discard();
      throw error;
    }
  }
  return files;
}

/** One table's JSON Lines export, cast back to column values, through an encoder. */
async function writeTable(sink: FileSink, table: RuntimeTable, format: FileFormat, read: ReadTable, encoding: Parameters<typeof tableEncoder>[2]): Promise<number> {
  const writer = new TableWriter(sink, tableEncoder(format, table, encoding));
  await writer.begin();
  let batch: RowValues[] = [];
  for await (const row of jsonLines(read(table.name, 'jsonl'))) {
    batch.push(table.columns.map((column) => castBack(table, column.name, row[column.name])));
    if (batch.length >= BATCH_ROWS) {
      await writer.write(batch);
      batch = [];
    }
  }
  await writer.write(batch);
  return writer.finish();
}

/** A value as the API rendered it → the column's value (a date in any output format, a big integer as text…). */
function castBack(table: RuntimeTable, field: string, value: unknown): RowValue {
  if (value === null || value === undefined) return null;
  const column = table.byName.get(field)!;
  const cast = castJson(column, value);
  if (cast === undefined) throw new Error(`${table.name}.${field}: the export holds ${JSON.stringify(value)}, which is not a ${column.type}`);
  return cast;
}

/** JSON objects, one a line, from a byte stream. */
async function* jsonLines(bytes: AsyncIterable<Uint8Array>): AsyncGenerator<Record<string, unknown>> {
  const decoder = new TextDecoder();
  let rest = '';
  for await (const piece of bytes) {
    const lines = (rest + decoder.decode(piece, { stream: true })).split('\n');
    rest = lines.pop()!;
    for (const line of lines) if (line) yield JSON.parse(line) as Record<string, unknown>;
  }
  rest += decoder.decode();
  if (rest) yield JSON.parse(rest) as Record<string, unknown>;
}
