// Shared client construction: auth header, the bracket-form query serializer, error bodies, and the
// transport (timeouts, abort, retries).
import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
import { serializeQuery } from './query.js';
import { errorBodyMiddleware } from './result.js';
import { transportFetch, type TransportOptions } from './transport.js';

/**
 * openapi-fetch's client options, minus the base URL that the SDK's options require, plus the
 * transport's: `retry` (default on for idempotent methods) and `timeoutMs` (default 60 s per attempt).
 */
export type BaseClientOptions = Omit<ClientOptions, 'baseUrl'> & TransportOptions;

export function headerRecord(headers: ClientOptions['headers']): Record<string, string> {
  if (!headers) return {};
  if (headers instanceof Headers || Array.isArray(headers)) return Object.fromEntries(new Headers(headers).entries());
  const record: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === null || value === undefined) continue;
    record[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
  }
  return record;
}

/**
 * The media type the SDK's clients are typed for. Operations that also answer other types (event
 * streams, table exports as CSV or JSON Lines) are read through the SDK's helpers for them, so the
 * JSON answers stay typed as JSON.
 */
export type JsonMedia = 'application/json';

/** An openapi-fetch client with the SDK's defaults: `x-api-key`, `serializeQuery`, `{error}` bodies. */
export function createSdsClient<Paths extends {}>(baseUrl: string, apiKey: string | undefined, options: BaseClientOptions): Client<Paths, JsonMedia> {
  const { headers, querySerializer, fetch, retry, timeoutMs, ...rest } = options;
  const client = createClient<Paths, JsonMedia>({
    ...rest,
    // globalThis.fetch is looked up per request, so a fetch replaced after creation is still used.
    fetch: transportFetch(() => fetch ?? globalThis.fetch, { retry, timeoutMs }),
    baseUrl: baseUrl.replace(/\/+$/, ''),
    querySerializer: querySerializer ?? ((query) => serializeQuery(query as Record<string, unknown>)),
    headers: { ...headerRecord(headers), ...(apiKey ? { 'x-api-key': apiKey } : {}) },
  });
  client.use(errorBodyMiddleware);
  return client;
}
