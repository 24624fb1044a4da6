// MySQL bulk writes: LOAD DATA LOCAL INFILE from a stream (the default, measured fastest), batched
// multi-row INSERT when the server refuses local infile, and UPDATE … JOIN for deferred references.
import { Readable } from 'node:stream';
import type { PoolConnection, ResultSetHeader, RowDataPacket } from 'mysql2/promise';
import { unhandledFieldType } from '../../contract.ts';
import { checkRowWidth, chunkTexts, encodeBatches, numberText, plainText, tabSeparatedRows } from '../bulk-text.ts';
import type { ColumnSpec, TableSpec } from '../../model/table-spec.ts';
import type { RowValues, RowValue } from '../../model/row-value.ts';
import type { RowBatches, TextChunks } from '../dialect.ts';
import { rechunkRows } from '../row-chunks.ts';
import { pickColumns } from '../spec-helpers.ts';
import { mysqlColumnList, mysqlTableName, quoteMysqlIdentifier } from './mysql-ddl.ts';

export type MysqlLoadMethod = 'load-data' | 'insert';

/** Server-side prepared statements allow 65535 placeholders; multi-row INSERTs stay well under. */
const MAX_INSERT_PLACEHOLDERS = 30_000;
/** Upper bound on one INSERT's size (also kept under a quarter of max_allowed_packet). */
const MAX_INSERT_BYTES = 4 * 1024 * 1024;
const MAX_UPDATE_ROWS = 1_000;
/** Server answers when LOAD DATA LOCAL is disabled (server or client side): MySQL 5.x, MySQL 8, MariaDB 10.6+. */
const LOCAL_INFILE_REFUSED = new Set([1148, 3948, 4166]);

const LOAD_SPECIAL = /[\\\n\r\t\0]/;
const LOAD_SPECIAL_ALL = /[\\\n\r\t\0]/g;
const LOAD_ESCAPES: Record<string, string> = { '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\0': '\\0' };

/** Escapes a value for LOAD DATA … FIELDS TERMINATED BY '\t' ESCAPED BY '\\' LINES TERMINATED BY '\n'. */
export function escapeLoadDataText(text: string): string {
  return LOAD_SPECIAL.test(text) ? text.replace(LOAD_SPECIAL_ALL, (special) => LOAD_ESCAPES[special]!) : text;
}

const ISO_UTC = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2}(?:\.\d{1,6})?)Z$/;
const EXPLICIT_OFFSET = /(?:Z|[+-]\d{2}:?\d{2})$/;

/** '2024-01-31T12:34:56.789Z' → '2024-01-31 12:34:56.789' (UTC); other offsets are converted to UTC first. */
export function toMysqlDatetime(value: RowValue): string {
  if (value instanceof Date) return toMysqlDatetime(value.toISOString());
  const text = String(value);
  const match = ISO_UTC.exec(text);
  if (match) return `${match[1]} ${match[2]}`;
  if (EXPLICIT_OFFSET.test(text)) {
    const date = new Date(text);
    if (!Number.isNaN(date.getTime())) return toMysqlDatetime(date.toISOString());
  }
  // Already 'YYYY-MM-DD HH:MM:SS' or malformed: the database decides.
  return text;
}

/** A non-null row value as MySQL reads it: booleans 1/0, JSON as text, datetimes without 'T…Z', bigints exact. */
export function mysqlValue(column: ColumnSpec, value: RowValue): string | number {
  switch (column.type) {
    case 'json':
      return JSON.stringify(value);
    case 'boolean':
      return value === true ? 1 : value === false ? 0 : String(value);
    case 'datetime':
      return toMysqlDatetime(value);
    case 'date':
      return value instanceof Date ? value.toISOString().slice(0, 10) : String(value);
    case 'integer':
    case 'number':
      return typeof value === 'number' ? value : String(value);
    case 'string':
    case 'text':
    case 'enum':
    case 'time':
    case 'uuid':
      return typeof value === 'string' ? value : String(value);
  }
  return unhandledFieldType(column.type);
}

/** How a non-null value of a column is written in LOAD DATA text: mysqlValue, escaped. */
export function loadDataEncoder(column: ColumnSpec): (value: RowValue) => string {
  const general = (value: RowValue) => {
    const converted = mysqlValue(column, value);
    return typeof converted === 'number' ? String(converted) : escapeLoadDataText(converted);
  };
  switch (column.type) {
    case 'json':
      return general;
    case 'boolean':
      return (value) => (value === true ? '1' : value === false ? '0' : general(value));
    case 'integer':
    case 'number': {
      const text = numberText(column.precision);
      return (value) => (typeof value === 'number' ? text(value) : general(value));
    }
    // Generated datetimes are canonical UTC instants; checked character by character, they convert
    // by slicing (what toMysqlDatetime's pattern would return) and need no escaping.
    case 'datetime':
      return (value) => (typeof value === 'string' && canonicalInstant(value) ? `${value.slice(0, 10)} ${value.slice(11, 23)}` : general(value));
    case 'date':
    case 'time':
    case 'uuid':
      return (value) => (typeof value === 'string' && plainText(value) ? value : general(value));
    case 'string':
    case 'text':
    case 'enum':
      return (value) => (typeof value === 'string' ? escapeLoadDataText(value) : general(value));
  }
  return unhandledFieldType(column.type);
}

/** Character classes of 'YYYY-MM-DDTHH:mm:ss.sssZ': 0 a digit, otherwise the character's code. */
const CANONICAL_INSTANT = [...'0000-00-00T00:00:00.000Z'].map((char) => (char === '0' ? 0 : char.charCodeAt(0)));

function canonicalInstant(text: string): boolean {
  if (text.length !== CANONICAL_INSTANT.length) return false;
  for (let index = 0; index < CANONICAL_INSTANT.length; index++) {
    const code = text.charCodeAt(index);
    const want = CANONICAL_INSTANT[index]!;
    if (want === 0 ? code < 48 || code > 57 : code !== want) return false;
  }
  return true;
}

/** One row as a line of LOAD DATA text. */
export function loadDataRowEncoder(table: TableSpec): (row: RowValues) => string {
  return tabSeparatedRows(table, table.columns.map(loadDataEncoder));
}

/** The text as UTF-8 bytes, which the infile stream hands mysql2 as they are. */
async function* bytes(texts: AsyncIterable<string>): AsyncGenerator<Buffer> {
  for await (const text of texts) yield Buffer.from(text);
}

/** LOAD DATA LOCAL INFILE of rows (see loadDataText). */
export function loadDataRows(
  connection: PoolConnection,
  namespace: string,
  table: TableSpec,
  batches: RowBatches,
  onBatch?: (written: number) => void,
): Promise<number | undefined> {
  return loadDataText(connection, namespace, table, encodeBatches(batches, loadDataRowEncoder(table)), onBatch);
}

/**
 * LOAD DATA LOCAL INFILE from a stream of text chunks. mysql2 pauses the stream while the socket
 * is full, and the stream pulls a chunk only when read, so memory stays bounded by a batch. LOCAL
 * makes the server downgrade bad values and duplicate keys to warnings, so the result is checked:
 * every row written and no warning, or the load fails. Resolves undefined when the server refuses
 * local infile before reading any chunk (the caller falls back to INSERT with the same, still
 * unread, rows).
 */
export async function loadDataText(
  connection: PoolConnection,
  namespace: string,
  table: TableSpec,
  chunks: TextChunks,
  onBatch?: (written: number) => void,
): Promise<number | undefined> {
  let written = 0;
  let started = false;
  const sql =
    `LOAD DATA LOCAL INFILE 'sds-rows.tsv' INTO TABLE ${mysqlTableName(namespace, table.name)} CHARACTER SET utf8mb4 ` +
    String.raw`FIELDS TERMINATED BY '\t' ESCAPED BY '\\' LINES TERMINATED BY '\n' ` +
    `(${mysqlColumnList(table.columns.map((column) => column.name))})`;
  const infileStreamFactory = () => {
    // The path the server asks for is ignored: sds only ever sends its own rows.
    started = true;
    const text = chunkTexts(chunks, (total) => {
      written = total;
      onBatch?.(total);
    });
    return Readable.from(bytes(text), { objectMode: true, highWaterMark: 1 });
  };
  let result: ResultSetHeader;
  try {
    [result] = await connection.query<ResultSetHeader>({ sql, infileStreamFactory });
  } catch (error) {
    if (!started && LOCAL_INFILE_REFUSED.has((error as { errno?: number }).errno ?? 0)) return undefined;
    throw error;
  }
  if (result.affectedRows !== written || result.warningStatus > 0) {
    const [warnings] = await connection.query<RowDataPacket[]>('SHOW WARNINGS LIMIT 3');
    const codes = warnings.map((warning) => String(warning.Code)).join(', ');
    throw new Error(
      `LOAD DATA into "${table.name}" stored ${result.affectedRows} of ${written} rows with ${result.warningStatus} warnings` + (codes ? ` (codes ${codes})` : ''),
    );
  }
  return written;
}

/**
 * Multi-row INSERTs with placeholders, each under MAX_INSERT_PLACEHOLDERS values and a quarter of
 * max_allowed_packet (sizes estimated at 3 bytes a character, the worst UTF-8 case for UTF-16 units).
 */
export async function insertRows(
  connection: PoolConnection,
  namespace: string,
  table: TableSpec,
  batches: RowBatches,
  maxAllowedPacket: number,
  onBatch?: (written: number) => void,
): Promise<number> {
  const columns = table.columns;
  const width = columns.length;
  const maxRows = Math.max(1, Math.floor(MAX_INSERT_PLACEHOLDERS / width));
  const maxBytes = Math.max(64 * 1024, Math.min(MAX_INSERT_BYTES, Math.floor(maxAllowedPacket / 4)));
  const head = `INSERT INTO ${mysqlTableName(namespace, table.name)} (${mysqlColumnList(columns.map((column) => column.name))}) VALUES `;
  const tuple = `(${new Array(width).fill('?').join(', ')})`;
  let fullStatement: string | undefined;
  const statementFor = (rows: number) =>
    rows === maxRows ? (fullStatement ??= head + new Array(rows).fill(tuple).join(', ')) : head + new Array(rows).fill(tuple).join(', ');

  let values: Array<string | number | null> = [];
  let rows = 0;
  let bytes = 0;
  let inserted = 0;
  const flush = async () => {
    const [result] = await connection.query<ResultSetHeader>(statementFor(rows), values);
    inserted += result.affectedRows;
    values = [];
    rows = 0;
    bytes = 0;
  };
  let written = 0;
  for await (const batch of batches) {
    for (const row of batch) {
      checkRowWidth(table, row, width);
      for (let index = 0; index < width; index++) {
        const value = row[index];
        const converted = value === null || value === undefined ? null : mysqlValue(columns[index]!, value);
        values.push(converted);
        bytes += estimatedBytes(converted);
      }
      rows++;
      if (rows >= maxRows || bytes >= maxBytes) await flush();
    }
    written += batch.length;
    onBatch?.(written);
  }
  if (rows > 0) await flush();
  return inserted;
}

/**
 * Sets `setColumns` of the rows addressed by `keyColumns` (each row `[...keys, ...values]`):
 * `UPDATE t JOIN (SELECT ? … UNION ALL SELECT ? …) v ON keys SET …`, a chunk of rows per statement.
 */
export async function updateMysqlRows(
  connection: PoolConnection,
  namespace: string,
  table: TableSpec,
  keyColumns: string[],
  setColumns: string[],
  batches: RowBatches,
): Promise<number> {
  if (keyColumns.length === 0 || setColumns.length === 0) throw new Error('updateRows needs at least one key column and one column to set');
  const columns = pickColumns(table, [...keyColumns, ...setColumns]);
  const width = columns.length;
  const first = `SELECT ${columns.map((column) => `? AS ${quoteMysqlIdentifier(column.name)}`).join(', ')}`;
  const next = ` UNION ALL SELECT ${new Array(width).fill('?').join(', ')}`;
  const head = `UPDATE ${mysqlTableName(namespace, table.name)} AS t JOIN (`;
  const tail =
    ') AS v ON ' +
    keyColumns.map((name) => `t.${quoteMysqlIdentifier(name)} = v.${quoteMysqlIdentifier(name)}`).join(' AND ') +
    ' SET ' +
    setColumns.map((name) => `t.${quoteMysqlIdentifier(name)} = v.${quoteMysqlIdentifier(name)}`).join(', ');
  const maxRows = Math.max(1, Math.min(MAX_UPDATE_ROWS, Math.floor(MAX_INSERT_PLACEHOLDERS / width)));

  let updated = 0;
  const size = (row: RowValues) => row.reduce<number>((sum, value) => sum + estimatedBytes(value), 0);
  for await (const chunk of rechunkRows(batches, { maxRows, maxBytes: MAX_INSERT_BYTES, size })) {
    const values: Array<string | number | null> = [];
    for (const row of chunk) {
      if (row.length !== width) throw new Error(`Update row for "${table.name}" has ${row.length} values, expected ${width}`);
      for (let index = 0; index < width; index++) {
        const value = row[index];
        values.push(value === null || value === undefined ? null : mysqlValue(columns[index]!, value));
      }
    }
    const sql = head + first + next.repeat(chunk.length - 1) + tail;
    const [result] = await connection.query<ResultSetHeader>(sql, values);
    updated += result.affectedRows;
  }
  return updated;
}

function estimatedBytes(value: RowValue | undefined): number {
  if (typeof value === 'string') return value.length * 3 + 4;
  if (value !== null && typeof value === 'object' && !(value instanceof Date)) return JSON.stringify(value).length * 3 + 4;
  return 24;
}
