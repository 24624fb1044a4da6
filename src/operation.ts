// What an operation (a handler of the management or runtime API, by operationId) sees and returns:
// plain data, no Express. src/http turns requests into contexts and replies into responses.
import type { RuntimeSource } from './runtime/runtime-sources.ts';
import type { TeamPrincipal } from './store/teams.ts';

export interface OperationContext {
  /** Path parameters, already validated against the OpenAPI document. */
  params: Record<string, string>;
  /** Query parameters, validated and coerced by the OpenAPI validator. */
  query: Record<string, unknown>;
  /** The query string as sent (after `?`), for parsers with their own syntax (runtime filters). */
  rawQuery: string;
  body: unknown;
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

export interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** A live `text/event-stream` instead of a body; ends when the client disconnects (signal aborts). */
  events?: (signal: AbortSignal) => AsyncIterable<ServerSentEvent>;
}

export type Operation = (context: OperationContext) => Promise<Reply>;
