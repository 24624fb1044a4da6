// What every SDK call resolves to: `{data, error, response}`, never a thrown HTTP error.
import type { Middleware } from 'openapi-fetch';
import type { components } from './generated/openapi.js';

/** The error body of every sds error response: `{"error": "…"}`, optionally `details`. */
export type SdsError = components['schemas']['ErrorBody'];

/**
 * The outcome of a request. Exactly one of `data` and `error` is set; `response` is the raw
 * `Response` (status, headers such as `X-Total-Count` or `RateLimit-Remaining`). HTTP errors are
 * values, not exceptions: only a call with no answer rejects (`SdsNetworkError`, `SdsTimeoutError`,
 * or the reason of the call's aborted `signal`). `unwrap` throws the error as an `SdsRequestError` subclass.
 */
export type SdsResult<T> =
  | { data: T; error?: never; response: Response }
  | { data?: never; error: SdsError; response: Response };

/** Thrown by the async iterators (`rows()`), which have no result to carry an error in. */
export { SdsRequestError } from './errors.js';

/** Whether a value has the shape of the error body. */
export function isSdsError(value: unknown): value is SdsError {
  return typeof value === 'object' && value !== null && typeof (value as { error?: unknown }).error === 'string';
}

/**
 * Middleware that makes every error response carry the `{error}` body, so `result.error` is always
 * an `SdsError`: a proxy's HTML page, a plain-text body or an empty one becomes
 * `{error: "<text, or the status text>"}` with the same status and headers.
 */
export const errorBodyMiddleware: Middleware = {
  async onResponse({ response }) {
    if (response.ok || response.status < 400) return undefined;
    const text = await response.clone().text();
    try {
      if (isSdsError(JSON.parse(text))) return undefined;
    } catch {
      // not JSON: rewritten below
    }
    const headers = new Headers(response.headers);
    headers.set('content-type', 'application/json');
    headers.delete('content-length');
    const message = text.trim() && text.length <= 500 && !/^\s*</.test(text) ? text.trim() : `${response.status} ${response.statusText || 'HTTP error'}`.trim();
    return new Response(JSON.stringify({ error: message }), { status: response.status, statusText: response.statusText, headers });
  },
};
