// What an operation (a handler of the management or runtime API, by operationId) sees and returns:
// plain data, no Express. src/http turns requests into contexts and replies into responses. Bodies
// are typed from the contract (generated/openapi.ts), so a contract change a handler does not follow
// fails the type check.
import type { operations, SchemaConfig } from './contract.ts';
import type { Source } from './store/sources.ts';
import type { TeamPrincipal } from './store/teams.ts';

/** The contract's operation ids. */
export type OperationId = keyof operations;

type JsonContent<T> = T extends { content: { 'application/json': infer Body } } ? Body : never;

/** The JSON request body of an operation as the contract types it; undefined when it takes none. */
export type RequestBody<K extends OperationId> = operations[K] extends { requestBody: infer Body }
  ? JsonContent<Body>
  : operations[K] extends { requestBody?: infer Body }
    ? JsonContent<NonNullable<Body>> | undefined
    : undefined;

type Responses<K extends OperationId> = operations[K]['responses'];
type SuccessStatus<K extends OperationId> = Extract<keyof Responses<K>, 200 | 201 | 202 | 204>;

/** The JSON bodies of an operation's success responses, as the contract types them. */
export type ResponseBody<K extends OperationId> = { [S in SuccessStatus<K>]: JsonContent<Responses<K>[S]> }[SuccessStatus<K>];

/** A source as runtime operations see it (src/runtime/runtime-sources.ts caches them): the row and its config. */
export interface RuntimeSource {
  source: Source;
  config: SchemaConfig;
  /**
   * Whether sds created the namespace the source reads and writes: a source never serves a schema or
   * database it found on its target (another application's, another source's), even by name.
   */
  ownsNamespace: boolean;
}

export interface OperationContext<K extends OperationId = OperationId> {
  /** Path parameters, already validated against the OpenAPI document. */
  params: Record<string, string>;
  /** Query parameters, validated and coerced by the OpenAPI validator. */
  query: Record<string, unknown>;
  /** The query string as sent (after `?`), for parsers with their own syntax (runtime filters). */
  rawQuery: string;
  /**
   * The body as sent: validated against the contract on management operations; runtime operations
   * check theirs against the source's tables (src/runtime/validate-body.ts).
   */
  body: RequestBody<K>;
  /** Request headers, lower-case names. */
  headers: Record<string, string | undefined>;
  /** The team key's principal on team-key operations. */
  principal?: TeamPrincipal;
  /** The source and its config on runtime operations (set by source-key auth). */
  runtime?: RuntimeSource;
  /** API root as the client sees it (`SDS_PUBLIC_URL` or derived from the request). */
  baseUrl: string;
}

export interface ServerSentEvent {
  id: string;
  event: string;
  data: unknown;
}

export interface Reply<K extends OperationId = OperationId> {
  status: number;
  body?: ResponseBody<K>;
  headers?: Record<string, string>;
  /** A live `text/event-stream` instead of a body; ends when the client disconnects (signal aborts). */
  events?: (signal: AbortSignal) => AsyncIterable<ServerSentEvent>;
  /** A streamed file instead of a body (a table export): its media type and its text in pieces. */
  stream?: { contentType: string; chunks: AsyncIterable<string | Uint8Array> };
}

/** The handler of operation `K`. */
export type Operation<K extends OperationId> = (context: OperationContext<K>) => Promise<Reply<K>>;

/** Handlers by operation id; an operation without one answers 501. */
export type OperationHandlers = { [K in OperationId]?: Operation<K> };

/** The handler of some operation, as the HTTP layer calls it (it builds the context from the request). */
export type AnyOperation = (context: OperationContext<OperationId>) => Promise<Reply<OperationId>>;

/** Context fields every operation has, for helpers shared by several operations. */
export type BaseContext = Omit<OperationContext, 'body'>;
