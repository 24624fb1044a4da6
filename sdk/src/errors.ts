// Error classes for what went wrong with a request, by kind: an HTTP error answer (4xx, 5xx, with the
// API's `{error, details}` body and the request id), or no answer at all (network failure, timeout).
// Calls never throw on an HTTP error; `unwrap` and `toRequestError` turn a result's error into these.
import type { SdsError } from './result.js';

/** Base of every error the SDK throws: `catch (e) { if (e instanceof SdsException) … }`. */
export class SdsException extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** An HTTP error answer (status 400 or above): its status, `{error, details}` body and request id. */
export class SdsRequestError extends SdsException {
  readonly status: number;
  /** The answer's body, always `{error, details?}` (a non-API body becomes `{error: text}`). */
  readonly body: SdsError;
  /** `body.details`: problems as `{path, message}`, when the API sent any. */
  readonly details: SdsError['details'];
  /** The `X-Request-Id` the server answered with (quote it in a bug report), if any. */
  readonly requestId: string | undefined;
  readonly response: Response;

  constructor(error: SdsError, response: Response) {
    super(`${response.status} ${error.error}`);
    this.status = response.status;
    this.body = error;
    this.details = error.details;
    this.requestId = response.headers.get('x-request-id') ?? undefined;
    this.response = response;
  }
}

/** A 4xx answer: the request must change before it can succeed (or, for 429, wait). */
export class SdsClientError extends SdsRequestError {}
/** 400: the request is invalid; `details` says where. */
export class SdsBadRequestError extends SdsClientError {}
/** 401: no key, or a key that is unknown or revoked. */
export class SdsUnauthorizedError extends SdsClientError {}
/** 403: the key is valid but not for this (another team's resource, a source key on another source). */
export class SdsForbiddenError extends SdsClientError {}
/** 404: no such resource (or not one this key may see). */
export class SdsNotFoundError extends SdsClientError {}
/** 409: the request conflicts with the resource's state (a duplicate, a job already running). */
export class SdsConflictError extends SdsClientError {}
/** 429: over a request budget; `retryAfterMs` is the server's `Retry-After`. */
export class SdsRateLimitError extends SdsClientError {
  /** How long the server asked to wait, from `Retry-After` (seconds or an HTTP date), if sent. */
  readonly retryAfterMs: number | undefined;
  constructor(error: SdsError, response: Response) {
    super(error, response);
    this.retryAfterMs = retryAfterMs(response.headers.get('retry-after'));
  }
}
/** A 5xx answer: the server failed; a retry may succeed. */
export class SdsServerError extends SdsRequestError {
  /** The server's `Retry-After` (a 503 sends one), if sent. */
  readonly retryAfterMs: number | undefined;
  constructor(error: SdsError, response: Response) {
    super(error, response);
    this.retryAfterMs = retryAfterMs(response.headers.get('retry-after'));
  }
}

/** No answer: the connection failed or broke (`cause` is the underlying error). */
export class SdsNetworkError extends SdsException {}
/** No answer within `timeoutMs` (a per-attempt limit; the attempt was aborted). */
export class SdsTimeoutError extends SdsNetworkError {
  constructor(readonly timeoutMs: number) {
    super(`No answer within ${timeoutMs} ms`);
  }
}

const CLIENT_ERRORS: Record<number, new (error: SdsError, response: Response) => SdsClientError> = {
  400: SdsBadRequestError,
  401: SdsUnauthorizedError,
  403: SdsForbiddenError,
  404: SdsNotFoundError,
  409: SdsConflictError,
  429: SdsRateLimitError,
};

/**
 * The error class instance for an error answer: `SdsNotFoundError` for a 404, `SdsServerError` for
 * a 5xx… `body` is the result's `error` (a non-API body becomes `{error: <text or status>}`).
 */
export function toRequestError(response: Response, body?: unknown): SdsRequestError {
  const error: SdsError = isErrorBody(body)
    ? body
    : { error: typeof body === 'string' && body.trim() ? body.trim() : `${response.status} ${response.statusText || 'HTTP error'}`.trim() };
  const status = response.status;
  if (status >= 500) return new SdsServerError(error, response);
  if (status >= 400) return new (CLIENT_ERRORS[status] ?? SdsClientError)(error, response);
  return new SdsRequestError(error, response);
}

/** A call's result, as openapi-fetch and the SDK's helpers resolve it: `{data, error, response}`. */
export type ResultLike = { data?: unknown; error?: unknown; response: Response };

/** The `data` of a result's success branch. */
export type DataOf<R> = Extract<R, { error?: undefined }> extends { data?: infer D } ? D : never;

/**
 * A call's `data`, or its error thrown as an `SdsRequestError` subclass:
 * `const project = unwrap(await sds.GET('/public/v1/projects/{projectId}', …))`.
 */
export function unwrap<R extends ResultLike>(result: R): DataOf<R> {
  if (result.error !== undefined || !result.response.ok) throw toRequestError(result.response, result.error);
  return result.data as DataOf<R>;
}

/** Milliseconds from a `Retry-After` value (delay-seconds or an HTTP date); undefined if absent or unreadable. */
export function retryAfterMs(value: string | null, now = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  if (/^\s*\d+\s*$/.test(value)) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

function isErrorBody(value: unknown): value is SdsError {
  return typeof value === 'object' && value !== null && typeof (value as { error?: unknown }).error === 'string';
}
