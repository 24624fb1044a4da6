// Async iteration over a management list (projects, schemas, sources, keys, jobs…): pages of `limit`
// by `offset` until `X-Total-Count` items have come, yielding the items one by one.
import { toRequestError } from './errors.js';
import type { ManagementClient, ManagementPaths } from './management.js';
import type { CallOptions } from './transport.js';

type GetOperation<P extends keyof ManagementPaths> = ManagementPaths[P] extends { get: infer G } ? G : never;
type Json200<G> = G extends { responses: { 200: { content: { 'application/json': infer B } } } } ? B : never;
type QueryOf<G> = G extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;

/** Management paths whose GET answers a JSON array and pages by `limit` and `offset`. */
export type ListPath = {
  [P in keyof ManagementPaths]: Json200<GetOperation<P>> extends readonly unknown[] ? ('offset' extends keyof QueryOf<GetOperation<P>> ? P : never) : never;
}[keyof ManagementPaths];

/** What a list path's pages hold, e.g. `Project` for `/public/v1/projects`. */
export type ListItem<P extends ListPath> = Json200<GetOperation<P>> extends readonly (infer I)[] ? I : never;

/** The path parameters and other query parameters of a list path (not `limit`/`offset`: paging is done for you). */
export interface ListParams<P extends ListPath> {
  path?: GetOperation<P> extends { parameters: { path?: infer A } } ? A : never;
  query?: Omit<QueryOf<GetOperation<P>>, 'limit' | 'offset'> & { offset?: number };
}

export interface PaginateOptions<P extends ListPath> extends CallOptions {
  params?: ListParams<P>;
  /** Items per request (default 100, at most the API's maximum of 1000). */
  pageSize?: number;
}

/**
 * Every item of a management list, requesting pages as it goes:
 * `for await (const project of paginate(sds, '/public/v1/projects')) …`. From `params.query.offset`
 * (default 0) to the `X-Total-Count`-th item. A failed page throws an `SdsRequestError` subclass
 * (an iterator has no result to put it in); each page is retried like any call.
 */
export async function* paginate<P extends ListPath>(
  client: Pick<ManagementClient, 'GET'>,
  path: P,
  { params, pageSize = 100, ...call }: PaginateOptions<P> = {},
): AsyncGenerator<ListItem<P>, void, undefined> {
  const { offset: start = 0, ...query } = (params?.query ?? {}) as { offset?: number };
  const get = client.GET as unknown as (path: string, init: object) => Promise<{ data?: unknown[]; error?: unknown; response: Response }>;
  let offset = start;
  for (;;) {
    const page = await get(path, { ...call, params: { ...params, query: { ...query, limit: pageSize, offset } } });
    if (page.error !== undefined || !page.data) throw toRequestError(page.response, page.error);
    yield* page.data as ListItem<P>[];
    offset += page.data.length;
    const total = Number(page.response.headers.get('x-total-count') ?? Number.NaN);
    if (page.data.length === 0 || (Number.isFinite(total) ? offset >= total : page.data.length < pageSize)) return;
  }
}
