// The fetch every SDK client sends through: a timeout per attempt, the caller's AbortSignal, retries
// with backoff on 429 and 503 (honouring Retry-After) for idempotent methods, and network failures
// as `SdsNetworkError`. Per-call `retry` and `timeoutMs` ride on the call's options, which
// openapi-fetch copies onto the Request it builds.
import { retryAfterMs, SdsNetworkError, SdsTimeoutError } from './errors.js';

/** When and how a client retries. */
export interface RetryOptions {
  /** Tries in all, the first included (default 3: up to two retries). */
  attempts?: number;
  /** First backoff when the answer has no `Retry-After`; doubles each retry, with jitter (default 500 ms). */
  baseDelayMs?: number;
  /** The longest wait before a retry, `Retry-After` included (default 60 000 ms). */
  maxDelayMs?: number;
  /** Methods retried (default the idempotent ones: GET, HEAD, PUT, DELETE, OPTIONS). */
  methods?: readonly string[];
  /** Statuses retried (default 429 and 503). */
  statuses?: readonly number[];
  /** Called before each wait, e.g. to log it. */
  onRetry?: (retry: RetryEvent) => void | Promise<void>;
}

export interface RetryEvent {
  /** The attempt that failed (1 for the first). */
  attempt: number;
  /** How long the client waits before the next attempt. */
  delayMs: number;
  /** The answer that is retried (its body is discarded). */
  response: Response;
  request: Request;
}

/** What a client's options add to openapi-fetch's, and what a call may override. */
export interface TransportOptions {
  /** Retries on 429/503 (on by default for idempotent methods); `false` turns them off. */
  retry?: RetryOptions | false;
  /**
   * How long one attempt may wait for its answer and read a JSON body (default 60 000 ms; 0 or
   * Infinity: no limit). A streamed body (event stream, CSV or JSON Lines export) is not cut once its
   * headers have arrived. Waits between retries do not count; bound a whole call with `signal`.
   */
  timeoutMs?: number;
}

/** Options of one call, next to openapi-fetch's (`params`, `body`, `signal`…): `sds.GET(path, { params, retry: false })`. */
export interface CallOptions extends TransportOptions {
  /** Aborts the call (and any wait between retries); the call rejects with the signal's reason. */
  signal?: AbortSignal;
}

export const DEFAULT_TIMEOUT_MS = 60_000;
const DEFAULT_RETRY = {
  attempts: 3,
  baseDelayMs: 500,
  maxDelayMs: 60_000,
  methods: ['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS'],
  statuses: [429, 503],
} satisfies RetryOptions;

type Fetch = (request: Request, init?: RequestInit) => Promise<Response>;

/** A fetch that applies `defaults`, overridden per call by `retry`/`timeoutMs` found on the Request. */
export function transportFetch(next: () => Fetch, defaults: TransportOptions): Fetch {
  return async (original, init) => {
    const call = original as Request & TransportOptions;
    const retry = call.retry === false || defaults.retry === false && call.retry === undefined ? undefined : { ...DEFAULT_RETRY, ...(defaults.retry || {}), ...(call.retry || {}) };
    const timeoutMs = call.timeoutMs ?? defaults.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const retried = retry !== undefined && retry.attempts > 1 && retry.methods.includes(original.method.toUpperCase());
    const caller = original.signal;
    for (let attempt = 1; ; attempt++) {
      const last = !retried || attempt >= retry.attempts;
      const response = await attemptOnce(next(), last ? original : original.clone(), init, caller, timeoutMs);
      if (last || !retry.statuses.includes(response.status)) return response;
      const delayMs = Math.min(retry.maxDelayMs, retryAfterMs(response.headers.get('retry-after')) ?? backoff(retry.baseDelayMs, attempt));
      await response.body?.cancel().catch(() => undefined);
      await retry.onRetry?.({ attempt, delayMs, response, request: original });
      await sleep(delayMs, caller);
    }
  };
}

/** One try: the caller's signal and the attempt's timer both abort it. */
async function attemptOnce(fetch: Fetch, request: Request, init: RequestInit | undefined, caller: AbortSignal, timeoutMs: number): Promise<Response> {
  // One controller that both sources abort, held strongly by their listeners: a signal from
  // AbortSignal.any() held only by a Request can be garbage-collected (Node 20) and never abort.
  const attempt = new AbortController();
  const follow = () => attempt.abort(caller.reason);
  if (caller.aborted) follow();
  else caller.addEventListener('abort', follow, { once: true });
  const limited = Number.isFinite(timeoutMs) && timeoutMs > 0;
  const handle = limited ? setTimeout(() => attempt.abort(new SdsTimeoutError(timeoutMs)), timeoutMs) : undefined;
  // Unref'd: a timer left to run after a JSON body was read must not keep the process alive.
  (handle as { unref?: () => void } | undefined)?.unref?.();
  try {
    const pending = fetch(new Request(request, { signal: attempt.signal }), init);
    // Raced with the signal too: a fetch may not heed it (a custom one; Node's first fetch in a
    // process, seen under vitest), and a late answer is then discarded.
    const aborted = new Promise<never>((_, reject) => {
      if (attempt.signal.aborted) reject(attempt.signal.reason);
      attempt.signal.addEventListener('abort', () => reject(attempt.signal.reason), { once: true });
    });
    let answered = false;
    aborted.catch(() => {
      if (!answered) void pending.then((late) => late.body?.cancel().catch(() => undefined), () => undefined);
    });
    const response = await Promise.race([pending, aborted]);
    answered = true;
    // A stream loses the timer once it has started; a JSON body keeps it (it bounds the read). The
    // listener stays for both: `caller` is this call's own Request signal, collected with it.
    if (isStreamed(response)) clearTimeout(handle);
    return response;
  } catch (error) {
    clearTimeout(handle);
    caller.removeEventListener('abort', follow);
    if (caller.aborted) throw caller.reason;
    if (attempt.signal.aborted) throw attempt.signal.reason;
    if (error instanceof SdsNetworkError) throw error;
    throw new SdsNetworkError(`${request.method} ${request.url} failed: ${describe(error)}`, { cause: error });
  }
}

/** Bodies read as they come: a timeout must not cut them once they have started. */
function isStreamed(response: Response): boolean {
  const type = response.headers.get('content-type') ?? '';
  return /text\/event-stream|text\/csv|application\/(x-)?ndjson|application\/jsonl/i.test(type);
}

/** Exponential backoff with jitter: between half and all of `base · 2^(attempt-1)`. */
function backoff(baseDelayMs: number, attempt: number): number {
  const ceiling = baseDelayMs * 2 ** (attempt - 1);
  return Math.round(ceiling / 2 + (Math.random() * ceiling) / 2);
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const done = () => (signal.removeEventListener('abort', abort), resolve());
    const timer = setTimeout(done, ms);
    const abort = () => (clearTimeout(timer), reject(signal.reason));
    signal.addEventListener('abort', abort, { once: true });
  });
}

function describe(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } })?.cause;
  return cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
}
