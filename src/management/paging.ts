// Management lists: the documented JSON arrays, paged by `limit` and `offset`, with the total in
// `X-Total-Count`.
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
export function listReply<T>(page: { items: T[]; total: number }): { status: 200; body: T[]; headers: Record<string, string> } {
  return { status: 200, body: page.items, headers: { 'X-Total-Count': String(page.total) } };
}
