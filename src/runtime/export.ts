// A whole table as a file, streamed: the runtime list's query (filters, fields, sort; limit and
// offset without a maximum) → planExport → compileExport → the dialect's streamed rows (a cursor
// or a streamed result, read as fast as the client takes the answer) → shape → CSV or JSON Lines
// (src/files/formats.ts), in chunks of a batch of rows. Memory holds one batch at a time.
import { FILE_FORMATS } from '../files/formats.ts';
import { compileExport } from './compile.ts';
import { readError } from './execute.ts';
import type { ParsedQuery } from './parse-query.ts';
import { planExport } from './plan.ts';
import { runtimeErrors } from './runtime-errors.ts';
import { columnReader, type JsonValue } from './shape.ts';
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
  /** The file's text in pieces; leaving the loop early closes the database cursor. */
  chunks: AsyncIterable<string>;
}

/** Streams the rows of `context.table` that `parsed` selects, encoded in `format`. */
export function exportTable(context: TableContext, parsed: ParsedQuery, format: ExportFormat): ExportStream {
  const plan = planExport(parsed, context.table);
  const query = compileExport(context.connection.dialect, context.namespace, plan, context.table);
  const columns = plan.fields.map((field) => context.table.byName.get(field)!);
  const text = FILE_FORMATS[format].text(columns);
  // What shapeRow does for each row, without the object it builds.
  const readers = columns.map(columnReader);
  const values: JsonValue[] = new Array<JsonValue>(columns.length).fill(null);
  async function* chunks(): AsyncGenerator<string> {
    if (text.head) yield text.head;
    try {
      for await (const batch of context.connection.streamRows(query.sql, query.params, EXPORT_BATCH_ROWS)) {
        let chunk = '';
        for (const raw of batch) {
          for (let index = 0; index < columns.length; index++) values[index] = readers[index]!(raw[plan.fields[index]!]) ?? null;
          chunk += text.encode(values);
        }
        yield chunk;
      }
    } catch (error) {
      throw readError(context, error);
    }
  }
  return { format, contentType: `${MEDIA_TYPES[format]}; charset=utf-8`, chunks: chunks() };
}
