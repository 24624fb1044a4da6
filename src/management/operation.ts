// What a management or runtime operation sees and returns: plain data, no Express.
import type { TeamPrincipal } from '../store/teams.ts';
import type { RuntimeSource } from './runtime-sources.ts';

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

export interface PageQuery {
  limit: number;
  offset: number;
}

export const DEFAULT_PAGE_LIMIT = 100;
export const MAX_PAGE_LIMIT = 1000;

/** Management lists: `limit` (default 100, max 1000) and `offset`; the validator has checked bounds. */
export function pageOf(query: Record<string, unknown>): PageQuery {
  const limit = typeof query.limit === 'number' ? query.limit : DEFAULT_PAGE_LIMIT;
  const offset = typeof query.offset === 'number' ? query.offset : 0;
  return { limit: Math.min(Math.max(limit, 1), MAX_PAGE_LIMIT), offset: boundedCursor(offset) };
}

/**
 * An offset or id cursor the database can take: the contract sets no maximum, but 1e20 or 1e309
 * overflow PostgreSQL's bigint (a 500). Past 2^53 - 1 nothing exists, so the page is empty either way.
 */
export function boundedCursor(value: number): number {
  return Math.min(Math.max(value, 0), Number.MAX_SAFE_INTEGER);
}

/** A list reply: the documented JSON array plus the total in `X-Total-Count`. */
export function listReply<T>(page: { items: T[]; total: number }): Reply {
  return { status: 200, body: page.items, headers: { 'X-Total-Count': String(page.total) } };
}

export function requirePrincipal(context: OperationContext): TeamPrincipal {
  if (!context.principal) throw new Error('operation needs a team principal but the route has no team-key auth');
  return context.principal;
}
