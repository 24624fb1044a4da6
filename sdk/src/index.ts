// @sds/sdk: typed clients for the sds management and runtime APIs (openapi-fetch + generated `paths`).
// Results are {data, error, response}; HTTP errors never throw. The error type is the API's {error, details?}.
import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { paths } from '../../generated/openapi.ts';

export type { components, operations, paths } from '../../generated/openapi.ts';

export interface ManagementClientOptions extends Omit<ClientOptions, 'baseUrl'> {
  /** API root, e.g. http://localhost:3000 */
  baseUrl: string;
  /** A team API key (`svc_api_…`). */
  apiKey: string;
}

/** A client of `/public/v1`, authenticated with a team API key. */
export function createManagementClient({ baseUrl, apiKey, headers, ...options }: ManagementClientOptions): Client<paths> {
  return createClient<paths>({ ...options, baseUrl, headers: { ...toRecord(headers), 'x-api-key': apiKey } });
}

export interface RuntimeClientOptions extends Omit<ClientOptions, 'baseUrl'> {
  baseUrl: string;
  sourceId: string;
  /** A source API key (`svc_src_…`); omit it for sources with `requireAuth: false`. */
  apiKey?: string;
}

/** A client of `/runtime/{sourceId}`, authenticated with a source API key. */
export function createRuntimeClient({ baseUrl, sourceId, apiKey, headers, ...options }: RuntimeClientOptions) {
  const client = createClient<paths>({
    ...options,
    baseUrl,
    headers: { ...toRecord(headers), ...(apiKey ? { 'x-api-key': apiKey } : {}) },
  });
  return { sourceId, client };
}

function toRecord(headers: ClientOptions['headers']): Record<string, string> {
  if (!headers) return {};
  return Object.fromEntries(new Headers(headers as ConstructorParameters<typeof Headers>[0]).entries());
}
