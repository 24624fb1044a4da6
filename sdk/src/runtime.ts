// The runtime client (`/runtime/{sourceId}/{table}`, source API key): typed CRUD per table, and
// async iteration over every page of a list.
import type { Client } from 'openapi-fetch';
import type { components, paths } from './generated/openapi.js';
import { createSdsClient, type BaseClientOptions, type JsonMedia } from './options.js';
import type { AnyPopulate, Fields, ListQuery, Populate, ReadQuery, Row, Selected } from './query.js';
import { toRequestError } from './errors.js';
import type { SdsResult } from './result.js';
import type { CallOptions } from './transport.js';

/** The contract's runtime paths. */
export type RuntimePaths = { [P in keyof paths as P extends `/runtime/${string}` ? P : never]: paths[P] };

export type RuntimePagination = components['schemas']['RuntimePagination'];

/** A page of rows: `{data: rows, meta: {pagination: {offset, limit, total}}}`. */
export interface RowList<R = Row> {
  data: R[];
  meta: { pagination: RuntimePagination };
}

/** Table name of a tables map. */
export type TableName<Tables> = Extract<keyof Tables, string>;

/** Create bodies of a tables map when none are given: every column optional. */
export type DefaultInputs<Tables> = { [K in keyof Tables]: Partial<Tables[K]> };

/**
 * Which table each reference field of each table points to, e.g. `{ posts: { authorId: 'users' } }`
 * (`sds types` writes it as `SourceReferences`).
 */
export type TableReferences<Tables> = { [T in keyof Tables]?: { [field: string]: keyof Tables } };

/** The row types the reference fields of table `T` point to, e.g. `{ authorId: UsersRow }`. */
export type ReferencedRowsOf<Tables, References, T> = T extends keyof References
  ? { [K in keyof References[T]]: References[T][K] extends keyof Tables ? Tables[References[T][K]] : Row }
  : {};

/** Query of `pages()` and `rows()`: a list query whose paging is done for you. */
export interface PageQuery<R = Row, F extends Fields<R> | undefined = Fields<R> | undefined, P extends AnyPopulate | undefined = Populate<R> | undefined>
  extends Omit<ListQuery<R, F, P>, 'limit'> {
  /** Rows per request (default 100, at most 1000). */
  pageSize?: number;
}

export interface RuntimeClientOptions extends BaseClientOptions {
  /** API root, e.g. `http://localhost:3000` (no `/runtime`). */
  baseUrl: string;
  /** The source whose tables the client reads and writes. */
  sourceId: string;
  /** A source API key (`svc_src_…`); omit it for sources with `requireAuth: false`. */
  apiKey?: string;
}

/**
 * A client of one source's runtime API. `Tables` maps table names to row types (`sds types` writes
 * it as `SourceTables`); `Inputs` maps them to create bodies (`SourceTableInputs`). Every method
 * resolves to `{data, error, response}` and never throws on an HTTP error.
 */
export interface RuntimeClient<Tables = Record<string, Row>, Inputs = DefaultInputs<Tables>, References = {}> {
  readonly sourceId: string;
  /** The underlying openapi-fetch client, for anything the methods below do not cover. */
  readonly client: Client<RuntimePaths, JsonMedia>;

  /** One page of rows: filtered, sorted, projected (`fields`) and populated. */
  list<T extends TableName<Tables>, const F extends Fields<Tables[T]> | undefined = undefined, const P extends Populate<Tables[T], ReferencedRowsOf<Tables, References, T>> | undefined = undefined>(
    table: T,
    query?: ListQuery<Tables[T], F, P>,
    call?: CallOptions,
  ): Promise<SdsResult<RowList<Selected<Tables[T], F, P, ReferencedRowsOf<Tables, References, T>>>>>;

  /** The row with this primary key value. */
  get<T extends TableName<Tables>, const F extends Fields<Tables[T]> | undefined = undefined, const P extends Populate<Tables[T], ReferencedRowsOf<Tables, References, T>> | undefined = undefined>(
    table: T,
    id: string | number,
    query?: ReadQuery<Tables[T], F, P>,
    call?: CallOptions,
  ): Promise<SdsResult<Selected<Tables[T], F, P, ReferencedRowsOf<Tables, References, T>>>>;

  /** Inserts a row (`201`); a missing integer or uuid primary key is generated. */
  create<T extends TableName<Tables>>(table: T, body: T extends keyof Inputs ? Inputs[T] : Partial<Tables[T]>, call?: CallOptions): Promise<SdsResult<Tables[T]>>;

  /** Changes some columns of a row; resolves to the whole updated row. */
  update<T extends TableName<Tables>>(table: T, id: string | number, patch: Partial<Tables[T]>, call?: CallOptions): Promise<SdsResult<Tables[T]>>;

  /** Deletes a row (`204`, `data` is `undefined`). */
  delete<T extends TableName<Tables>>(table: T, id: string | number, call?: CallOptions): Promise<SdsResult<undefined>>;

  /**
   * Every page of a list, one result each, from `offset` (default 0) to the last matching row.
   * Stops after a page that failed (that result has `error` set) — it never throws on HTTP errors.
   */
  pages<T extends TableName<Tables>, const F extends Fields<Tables[T]> | undefined = undefined, const P extends Populate<Tables[T], ReferencedRowsOf<Tables, References, T>> | undefined = undefined>(
    table: T,
    query?: PageQuery<Tables[T], F, P>,
    call?: CallOptions,
  ): AsyncGenerator<SdsResult<RowList<Selected<Tables[T], F, P, ReferencedRowsOf<Tables, References, T>>>>, void, undefined>;

  /**
   * Every matching row, requesting pages of `pageSize` as it goes:
   * `for await (const user of runtime.rows('users', { filters, sort, pageSize })) …`.
   * A failed page throws an `SdsRequestError` subclass (an iterator has no result to put it in).
   */
  rows<T extends TableName<Tables>, const F extends Fields<Tables[T]> | undefined = undefined, const P extends Populate<Tables[T], ReferencedRowsOf<Tables, References, T>> | undefined = undefined>(
    table: T,
    query?: PageQuery<Tables[T], F, P>,
    call?: CallOptions,
  ): AsyncGenerator<Selected<Tables[T], F, P, ReferencedRowsOf<Tables, References, T>>, void, undefined>;

  /**
   * Every row the query selects as a file, streamed by the server (no page, no row cap): CSV with a
   * header row, or JSON Lines. `data` is the answer's body as a `ReadableStream`: pipe it to a file,
   * or read it as it comes. `limit` and `offset` are optional, without a maximum; no `populate`.
   */
  export<T extends TableName<Tables>, const F extends Fields<Tables[T]> | undefined = undefined>(
    table: T,
    query: ExportQuery<Tables[T], F>,
    call?: CallOptions,
  ): Promise<SdsResult<ReadableStream<Uint8Array>>>;

  /**
   * Every row the query selects, one at a time, from one JSON Lines export: a whole table in a
   * single request, in bounded memory. A failed request throws an `SdsRequestError`.
   */
  exportRows<T extends TableName<Tables>, const F extends Fields<Tables[T]> | undefined = undefined>(
    table: T,
    query?: Omit<ExportQuery<Tables[T], F>, 'format'>,
    call?: CallOptions,
  ): AsyncGenerator<Selected<Tables[T], F>, void, undefined>;
}

/** Query of a table export: the list's filters, sort and projection, and the file format. */
export interface ExportQuery<R = Row, F extends Fields<R> | undefined = Fields<R> | undefined> extends Omit<ListQuery<R, F, undefined>, 'populate'> {
  format: 'csv' | 'jsonl';
  /**
   * CSV: whether text cells a spreadsheet would run as a formula (starting with `=`, `+`, `-`, `@`,
   * tab or CR) get a `'` in front; default true. Turn it off for files that are loaded, not opened.
   */
  csvFormulaEscape?: boolean;
}

/**
 * A client of `/runtime/{sourceId}`. Pass your `SourceTables` (from `sds types`) to type every
 * table's rows, filters, sort fields, projections and bodies, and `SourceReferences` to type
 * populated references as the rows they point to:
 * `createRuntimeClient<SourceTables, SourceTableInputs, SourceReferences>({ baseUrl, sourceId, apiKey })`.
 */
export function createRuntimeClient<Tables = Record<string, Row>, Inputs = DefaultInputs<Tables>, References = {}>({
  baseUrl,
  sourceId,
  apiKey,
  ...options
}: RuntimeClientOptions): RuntimeClient<Tables, Inputs, References> {
  const client = createSdsClient<RuntimePaths>(baseUrl, apiKey, options);
  // The contract types rows as free-form objects and the list query as strings; the methods'
  // own signatures carry the table types, so the calls below go through one untyped door.
  const raw = client as unknown as UntypedClient;
  const rowPath = (table: string, id: string | number) => ({ path: { sourceId, table, id: String(id) } });

  const list = (table: string, query?: object, call?: CallOptions) =>
    raw.GET('/runtime/{sourceId}/{table}', { ...call, params: { path: { sourceId, table }, query: query ?? {} } });

  async function* pages(table: string, query: PageQuery<Row> = {}, call?: CallOptions) {
    const { pageSize = 100, offset: start = 0, ...rest } = query;
    let offset = start;
    for (;;) {
      const page = (await list(table, { ...rest, limit: pageSize, offset }, call)) as SdsResult<RowList>;
      yield page;
      if (page.error) return;
      const { data, meta } = page.data;
      offset += data.length;
      // The server may serve fewer rows than asked (a lower maximum): trust its own limit.
      const served = meta?.pagination?.limit ?? pageSize;
      const total = meta?.pagination?.total;
      if (data.length === 0 || data.length < served || (total !== undefined && offset >= total)) return;
    }
  }

  async function* rows(table: string, query: PageQuery<Row> = {}, call?: CallOptions) {
    for await (const page of pages(table, query, call)) {
      if (page.error) throw toRequestError(page.response, page.error);
      yield* page.data.data;
    }
  }

  // exportRows (`/{table}.csv`, `.jsonl`): the export's own operation, whose `limit` has no maximum
  // (listRows declares 1000 for every answer, files included).
  const exportTable = (table: string, { format, ...query }: { format: 'csv' | 'jsonl' } & Record<string, unknown>, call?: CallOptions) =>
    raw.GET('/runtime/{sourceId}/{table}.{format}', { ...call, params: { path: { sourceId, table, format }, query }, parseAs: 'stream' }) as Promise<SdsResult<ReadableStream<Uint8Array>>>;

  async function* exportRows(table: string, query: Record<string, unknown> = {}, call?: CallOptions) {
    const answer = await exportTable(table, { ...query, format: 'jsonl' }, call);
    if (answer.error) throw toRequestError(answer.response, answer.error);
    const decoder = new TextDecoder();
    let rest = '';
    for await (const bytes of answer.data as unknown as AsyncIterable<Uint8Array>) {
      const lines = (rest + decoder.decode(bytes, { stream: true })).split('\n');
      rest = lines.pop()!;
      for (const line of lines) if (line) yield JSON.parse(line) as Row;
    }
    rest += decoder.decode();
    if (rest) yield JSON.parse(rest) as Row;
  }

  const methods = {
    sourceId,
    client,
    export: exportTable,
    exportRows,
    list,
    get: (table: string, id: string | number, query?: object, call?: CallOptions) =>
      raw.GET('/runtime/{sourceId}/{table}/{id}', { ...call, params: { ...rowPath(table, id), query: query ?? {} } }),
    create: (table: string, body: object, call?: CallOptions) => raw.POST('/runtime/{sourceId}/{table}', { ...call, params: { path: { sourceId, table } }, body }),
    update: (table: string, id: string | number, patch: object, call?: CallOptions) =>
      raw.PATCH('/runtime/{sourceId}/{table}/{id}', { ...call, params: rowPath(table, id), body: patch }),
    delete: (table: string, id: string | number, call?: CallOptions) => raw.DELETE('/runtime/{sourceId}/{table}/{id}', { ...call, params: rowPath(table, id) }),
    pages,
    rows,
  };
  return methods as unknown as RuntimeClient<Tables, Inputs, References>;
}

type UntypedCall = (
  path: string,
  init: CallOptions & { params: { path: Record<string, string>; query?: object }; body?: object; parseAs?: 'stream' },
) => Promise<SdsResult<unknown>>;
interface UntypedClient {
  GET: UntypedCall;
  POST: UntypedCall;
  PATCH: UntypedCall;
  DELETE: UntypedCall;
}

