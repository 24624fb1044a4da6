// A whole table as a file, streamed: the runtime list's query (filters, fields, sort; limit and
// offset without a maximum) → planExport → compileExport → the dialect's streamed rows (a cursor
// or a streamed result, read as fast as the client takes the answer) → shape → CSV or JSON Lines
// (src/files/formats.ts), in chunks of a batch of rows. Memory holds one batch at a time. CSV text
// cells a spreadsheet would run as formulas get a `'` in front unless `csvFormulaEscape=false`.
// A CSV export the database can write itself, byte for byte the same (compileCsvCopy: PostgreSQL,
// no filter values), comes from COPY … TO STDOUT instead, several times faster.
import { FILE_FORMATS } from '../files/formats.ts';
import { compileCsvCopy, compileExport } from './compile.ts';
import { readError } from './execute.ts';
import type { ParsedQuery } from './parse-query.ts';
import { planExport, type ExportPlan } from './plan.ts';
import { runtimeErrors } from './runtime-errors.ts';
import { columnReader, type JsonValue } from '../model/render.ts';
import type { RuntimeColumn } from '../model/tables.ts';
import type { TableContext } from './tables.ts';

/** The formats a table can be exported in through the runtime API. */
export type ExportFormat = 'csv' | 'jsonl';

/** Rows read from the database and encoded at a time. */
const EXPORT_BATCH_ROWS = 1_000;

const MEDIA_TYPES: Record<ExportFormat, string> = {
  csv: FILE_FORMATS.csv.mediaType,
  jsonl: FILE_FORMATS.jsonl.mediaType,
};

/**
 * The format a list request asks for: `format=csv|jsonl|json` wins; otherwise the first media type
 * of `Accept` that sds serves (text/csv, application/x-ndjson, application/json). Undefined means a
 * JSON page, as always.
 */
export function requestedExport(parsed: ParsedQuery, accept: string | undefined): ExportFormat | undefined {
  if (parsed.format !== undefined) {
    const format = parsed.format.toLowerCase();
    if (format === 'json') return undefined;
    if (format === 'csv' || format === 'jsonl') return format;
    throw runtimeErrors.unknownFormat(parsed.format);
  }
  for (const part of (accept ?? '').split(',')) {
    const type = part.split(';')[0]!.trim().toLowerCase();
    if (type === MEDIA_TYPES.csv) return 'csv';
    if (type === MEDIA_TYPES.jsonl || type === 'application/jsonl') return 'jsonl';
    if (type === 'application/json' || type === '*/*' || type === 'application/*') return undefined;
  }
  return undefined;
}

export interface ExportStream {
  format: ExportFormat;
  contentType: string;
  /** The file's bytes or text in pieces; leaving the loop early closes the database cursor or COPY. */
  chunks: AsyncIterable<string | Uint8Array>;
}

/**
 * Streams the rows of `context.table` that `parsed` selects, encoded in `format`: CSV straight from
 * the database's own COPY where it writes the same bytes (compileCsvCopy), else rows read through a
 * cursor and encoded here.
 */
export function exportTable(context: TableContext, parsed: ParsedQuery, format: ExportFormat): ExportStream {
  const plan = planExport(parsed, context.table);
  const columns = plan.fields.map((field) => context.table.byName.get(field)!);
  // Text a spreadsheet would run as a formula is escaped unless the client turns it off.
  const csv = { formulaEscape: parsed.csvFormulaEscape !== false };
  const text = FILE_FORMATS[format].text(columns, csv);
  const { connection } = context;
  const copy = format === 'csv' && connection.copyOut ? compileCsvCopy(connection.dialect, context.namespace, plan, context.table, csv) : undefined;
  const rows = copy === undefined ? encodedRows(context, plan, columns, text.encode) : copiedRows(context, connection.copyOut!(copy));
  async function* chunks(): AsyncGenerator<string | Uint8Array> {
    if (text.head) yield text.head;
    yield* rows;
  }
  return { format, contentType: `${MEDIA_TYPES[format]}; charset=utf-8`, chunks: chunks() };
}

/** Rows through the dialect's cursor, shaped and encoded here, a batch per piece. */
async function* encodedRows(
  context: TableContext,
  plan: ExportPlan,
  columns: RuntimeColumn[],
  encode: (values: readonly JsonValue[]) => string,
): AsyncGenerator<string> {
  const query = compileExport(context.connection.dialect, context.namespace, plan, context.table);
  // What shapeRow does for each row, without the object it builds.
  const readers = columns.map(columnReader);
  const values: JsonValue[] = new Array<JsonValue>(readers.length).fill(null);
  try {
    for await (const batch of context.connection.streamRows(query.sql, query.params, EXPORT_BATCH_ROWS)) {
      let chunk = '';
      for (const raw of batch) {
        for (let index = 0; index < readers.length; index++) values[index] = readers[index]!(raw[plan.fields[index]!]) ?? null;
        chunk += encode(values);
      }
      yield chunk;
    }
  } catch (error) {
    throw readError(context, error);
  }
}

/** The database's CSV, its row ends (LF) made the file's (CRLF). */
async function* copiedRows(context: TableContext, copied: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  const toCrlf = crlfRowEnds();
  try {
    for await (const chunk of copied) yield toCrlf(chunk);
  } catch (error) {
    throw readError(context, error);
  }
}

const QUOTE = 0x22;
const LF = 0x0a;
const CR = 0x0d;

/**
 * LF → CRLF at the end of each CSV row, in a stream of pieces cut anywhere: an LF inside a quoted
 * field is data and stays. Quotes inside a quoted field come doubled, so counting them tells inside
 * from outside; the state carries from piece to piece. (Neither byte occurs inside a multi-byte UTF-8
 * character, so the bytes need no decoding.)
 */
export function crlfRowEnds(): (piece: Uint8Array) => Uint8Array {
  let quoted = false;
  return (piece) => {
    const bytes = Buffer.from(piece.buffer, piece.byteOffset, piece.byteLength);
    if (!quoted && bytes.indexOf(QUOTE) < 0) {
      // No quoted field starts, ends or runs through this piece: every LF ends a row.
      return Buffer.from(bytes.toString('latin1').replaceAll('\n', '\r\n'), 'latin1');
    }
    const out = Buffer.allocUnsafe(bytes.length * 2);
    let at = 0;
    for (let index = 0; index < bytes.length; index++) {
      const byte = bytes[index]!;
      if (byte === QUOTE) quoted = !quoted;
      else if (byte === LF && !quoted) out[at++] = CR;
      out[at++] = byte;
    }
    return out.subarray(0, at);
  };
}
