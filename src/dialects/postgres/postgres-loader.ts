// PostgreSQL bulk writes: COPY … FROM STDIN in text format for loads (binary when asked), and batched
// UPDATE … FROM (VALUES …) for deferred references.
import type { Socket } from 'node:net';
import { pipeline } from 'node:stream/promises';
import type pg from 'pg';
import type { FieldType } from '../../contract.ts';
import { from as copyFrom } from 'pg-copy-streams';
import { chunkTexts, encodeBatches, numberText, plainText, tabSeparatedRows } from '../bulk-text.ts';
import type { ColumnSpec, TableSpec } from '../../model/table-spec.ts';
import type { RowValues, RowValue } from '../../model/row-value.ts';
import type { RowBatches, TextChunks } from '../dialect.ts';
import { rechunkRows } from '../row-chunks.ts';
import { pickColumns } from '../spec-helpers.ts';
import { watchStall } from '../stall-watch.ts';
import { BINARY_COPY_HEADER, BINARY_COPY_TRAILER, BinaryChunks, binaryRowWriter } from './postgres-binary-copy.ts';
import { postgresColumnList, postgresParameterType, postgresTableName, quotePostgresIdentifier } from './postgres-ddl.ts';

/** PostgreSQL's limit on bind parameters is 65535; keep well under it. */
const MAX_UPDATE_PARAMETERS = 30_000;
const MAX_UPDATE_ROWS = 5_000;

const COPY_SPECIAL = /[\\\n\r\t]/;
const COPY_SPECIAL_ALL = /[\\\n\r\t]/g;
const COPY_ESCAPES: Record<string, string> = { '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** Escapes a value for COPY's text format: backslash, newline, carriage return and tab. */
export function escapeCopyText(text: string): string {
  return COPY_SPECIAL.test(text) ? text.replace(COPY_SPECIAL_ALL, (special) => COPY_ESCAPES[special]!) : text;
}

type CopyEncoder = (value: RowValue) => string;

/** A string value, escaped unless it is one of the generator's short plain strings. */
const plainOrEscaped: CopyEncoder = (value) => (typeof value === 'string' && plainText(value) ? value : escapeCopyText(typeof value === 'string' ? value : String(value)));
const escapedString: CopyEncoder = (value) => escapeCopyText(typeof value === 'string' ? value : String(value));
const numberEncoder = (column: ColumnSpec): CopyEncoder => {
  const text = numberText(column.precision);
  return (value) => (typeof value === 'number' ? text(value) : typeof value === 'bigint' ? String(value) : escapeCopyText(String(value)));
};

/**
 * How a non-null value of a column is written in COPY text, by field type. Generated dates,
 * datetimes (formatInstant: three concatenated pieces), times and uuids are short strings that never
 * need escaping; a plain char scan proves it more cheaply than the regex test in escapeCopyText.
 * Anything else (a Date, a non-string, a string with a special character) still goes through the
 * general path, so the output is the same for every value.
 */
const COPY_ENCODERS = {
  json: () => (value) => escapeCopyText(JSON.stringify(value)),
  boolean: () => (value) => (value === true ? 't' : value === false ? 'f' : escapeCopyText(String(value))),
  integer: numberEncoder,
  number: numberEncoder,
  datetime: () => (value) => (typeof value === 'string' && plainText(value) ? value : value instanceof Date ? value.toISOString() : escapeCopyText(String(value))),
  date: () => (value) => (typeof value === 'string' && plainText(value) ? value : value instanceof Date ? value.toISOString().slice(0, 10) : escapeCopyText(String(value))),
  time: () => plainOrEscaped,
  uuid: () => plainOrEscaped,
  string: () => escapedString,
  text: () => escapedString,
  enum: () => escapedString,
} satisfies Record<FieldType, (column: ColumnSpec) => CopyEncoder>;

/** How a non-null value of a column is written in COPY text. */
export function copyEncoder(column: ColumnSpec): CopyEncoder {
  return COPY_ENCODERS[column.type](column);
}

/** One row as a line of COPY text. */
export function copyRowEncoder(table: TableSpec): (row: RowValues) => string {
  return tabSeparatedRows(table, table.columns.map(copyEncoder));
}

/** Streams rows through COPY FROM STDIN (see copyText). */
export function copyRows(
  pool: pg.Pool,
  namespace: string,
  table: TableSpec,
  batches: RowBatches,
  onBatch?: (written: number) => void,
  idleTimeoutMs = 0,
): Promise<number> {
  return copyText(pool, namespace, table, encodeBatches(batches, copyRowEncoder(table)), onBatch, idleTimeoutMs);
}

/**
 * Streams COPY text chunks through COPY FROM STDIN. `pipeline` writes each chunk and awaits 'drain'
 * whenever the socket is full, so at most one batch (plus the socket's buffer) is in memory at a
 * time; a failing source destroys the stream, which sends CopyFail and rolls the COPY back. A COPY
 * whose connection moves nothing for `idleTimeoutMs` (0: no limit) fails (stall-watch.ts).
 */
export async function copyText(
  pool: pg.Pool,
  namespace: string,
  table: TableSpec,
  chunks: TextChunks,
  onBatch?: (written: number) => void,
  idleTimeoutMs = 0,
): Promise<number> {
  const client = await pool.connect();
  let failure: Error | undefined;
  try {
    return await copyTextOn(client, namespace, table, chunks, onBatch, idleTimeoutMs);
  } catch (error) {
    failure = error instanceof Error ? error : new Error(String(error));
    throw error;
  } finally {
    // A connection that failed mid-COPY is not trusted with the next query: discard it.
    client.release(failure);
  }
}

/**
 * COPY FROM STDIN of text chunks on a client the caller holds (and may have opened a transaction
 * on: seed loads every table in one). A failed COPY leaves the client to the caller to discard.
 */
export async function copyTextOn(
  client: pg.PoolClient,
  namespace: string,
  table: TableSpec,
  chunks: TextChunks,
  onBatch?: (written: number) => void,
  idleTimeoutMs = 0,
): Promise<number> {
  const sql = `COPY ${postgresTableName(namespace, table.name)} (${postgresColumnList(table.columns.map((column) => column.name))}) FROM STDIN`;
  const stream = client.query(copyFrom(sql));
  await watchStall(clientSocket(client), idleTimeoutMs, () => pipeline(chunkTexts(chunks, onBatch), stream));
  return stream.rowCount;
}

/**
 * Streams rows through COPY FROM STDIN in the binary format (postgres-binary-copy.ts), as copyRows
 * does in text; undefined, before connecting, when a column has no binary form there (the caller
 * then loads the table as text).
 */
export async function copyBinaryRows(
  pool: pg.Pool,
  namespace: string,
  table: TableSpec,
  batches: RowBatches,
  onBatch?: (written: number) => void,
  idleTimeoutMs = 0,
): Promise<number | undefined> {
  const writeRow = binaryRowWriter(table);
  if (!writeRow) return undefined;
  const client = await pool.connect();
  let failure: Error | undefined;
  try {
    const sql = `COPY ${postgresTableName(namespace, table.name)} (${postgresColumnList(table.columns.map((column) => column.name))}) FROM STDIN (FORMAT binary)`;
    const stream = client.query(copyFrom(sql));
    async function* chunks(): AsyncGenerator<Buffer> {
      yield BINARY_COPY_HEADER;
      const out = new BinaryChunks();
      let written = 0;
      for await (const batch of batches) {
        for (const row of batch) {
          writeRow!(row, out);
          if (out.at >= 64 * 1024) yield* out.take(false);
        }
        yield* out.take(true);
        written += batch.length;
        onBatch?.(written);
      }
      yield BINARY_COPY_TRAILER;
    }
    await watchStall(clientSocket(client), idleTimeoutMs, () => pipeline(chunks(), stream));
    return stream.rowCount;
  } catch (error) {
    failure = error instanceof Error ? error : new Error(String(error));
    throw error;
  } finally {
    client.release(failure);
  }
}

/** The socket of a pg client (pg keeps it as `connection.stream`). */
function clientSocket(client: pg.PoolClient): Socket | undefined {
  return (client as unknown as { connection?: { stream?: Socket } }).connection?.stream;
}

/** A non-null row value as it is bound to the column's type. */
type ParameterEncoder = (value: RowValue) => unknown;
const asItIs: ParameterEncoder = (value) => (typeof value === 'bigint' ? value.toString() : value);

/** How a non-null row value is bound as a pg parameter, by field type. */
const PARAMETER_ENCODERS = {
  json: (value) => JSON.stringify(value),
  datetime: (value) => (value instanceof Date ? value.toISOString() : value),
  date: (value) => (value instanceof Date ? value.toISOString().slice(0, 10) : value),
  string: asItIs,
  text: asItIs,
  enum: asItIs,
  integer: asItIs,
  number: asItIs,
  boolean: asItIs,
  time: asItIs,
  uuid: asItIs,
} satisfies Record<FieldType, ParameterEncoder>;

/** A row value as a pg parameter of the column's type. */
export function postgresParameter(column: ColumnSpec, value: RowValue | undefined): unknown {
  if (value === null || value === undefined) return null;
  return PARAMETER_ENCODERS[column.type](value);
}

/** Deferred references as batched UPDATE … FROM (VALUES …), on a client the caller holds, in the caller's transaction. */
export async function updatePostgresRowsOn(
  client: pg.PoolClient,
  namespace: string,
  table: TableSpec,
  keyColumns: string[],
  setColumns: string[],
  batches: RowBatches,
): Promise<number> {
  if (keyColumns.length === 0 || setColumns.length === 0) throw new Error('updateRows needs at least one key column and one column to set');
  const columns = pickColumns(table, [...keyColumns, ...setColumns]);
  const width = columns.length;
  const types = columns.map(postgresParameterType);
  const head =
    `UPDATE ${postgresTableName(namespace, table.name)} AS t SET ` +
    setColumns.map((name) => `${quotePostgresIdentifier(name)} = v.${quotePostgresIdentifier(name)}`).join(', ') +
    ' FROM (VALUES ';
  const tail =
    `) AS v (${postgresColumnList([...keyColumns, ...setColumns])}) WHERE ` +
    keyColumns.map((name) => `t.${quotePostgresIdentifier(name)} = v.${quotePostgresIdentifier(name)}`).join(' AND ');
  const maxRows = Math.max(1, Math.min(MAX_UPDATE_ROWS, Math.floor(MAX_UPDATE_PARAMETERS / width)));

  let updated = 0;
  for await (const chunk of rechunkRows(batches, { maxRows })) {
    const parameters: unknown[] = [];
    const tuples = chunk.map((row: RowValues) => {
      if (row.length !== width) throw new Error(`Update row for "${table.name}" has ${row.length} values, expected ${width}`);
      const placeholders = columns.map((column, index) => {
        parameters.push(postgresParameter(column, row[index]));
        return `$${parameters.length}::${types[index]}`;
      });
      return `(${placeholders.join(', ')})`;
    });
    const result = await client.query(head + tuples.join(', ') + tail, parameters);
    updated += result.rowCount ?? 0;
  }
  return updated;
}
