// The SDK's transport against a stub HTTP server on loopback: per-attempt timeouts, the caller's
// abort signal, retries on 503 and 429 with Retry-After (seconds and HTTP dates, capped), only
// idempotent methods retried, per-call overrides, network failures, and the error classes.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createManagementClient,
  createRuntimeClient,
  retryAfterMs,
  SdsBadRequestError,
  SdsClientError,
  SdsConflictError,
  SdsException,
  SdsForbiddenError,
  SdsNetworkError,
  SdsNotFoundError,
  SdsRateLimitError,
  SdsRequestError,
  SdsServerError,
  SdsTimeoutError,
  SdsUnauthorizedError,
  toRequestError,
  unwrap,
  type RetryEvent,
} from '../../sdk/src/index.ts';

const hits = new Map<string, number>();
let server: http.Server;
let baseUrl: string;

/** Stub routes: `/runtime/src/<name>…` and `/public/v1/projects/<name>`, so both clients reach them. */
function handle(req: http.IncomingMessage, res: http.ServerResponse) {
  const segments = new URL(req.url!, 'http://stub').pathname.split('/');
  // An export's path ends in its format (`/runtime/src/slow-csv.csv`).
  const name = (segments[1] === 'public' ? segments[4] : segments[3]?.replace(/\.(csv|jsonl)$/, '')) ?? '';
  const count = (hits.get(`${req.method} ${name}`) ?? 0) + 1;
  hits.set(`${req.method} ${name}`, count);
  const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
    res.writeHead(status, { 'content-type': 'application/json', 'x-request-id': `req-${name}-${count}`, ...headers }).end(JSON.stringify(body));
  switch (name) {
    case 'slow':
      return void setTimeout(() => json(200, { data: [], meta: { pagination: { offset: 0, limit: 25, total: 0 } } }), 1500);
    case 'slow-body':
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"data": [');
      return void setTimeout(() => res.end('], "meta": {"pagination": {"offset": 0, "limit": 25, "total": 0}}}'), 1500);
    case 'slow-csv':
      res.writeHead(200, { 'content-type': 'text/csv' });
      res.write('id\n');
      return void setTimeout(() => res.end('1\n2\n'), 400);
    case 'unavailable-once':
      return count === 1 ? json(503, { error: 'Busy' }, { 'retry-after': '1' }) : json(200, { id: 1 });
    case 'dated-429':
      return count === 1 ? json(429, { error: 'Slow down' }, { 'retry-after': new Date(Date.now() + 30_000).toUTCString() }) : json(200, { id: 2 });
    case 'always-429':
      return json(429, { error: 'Rate limit of 2 requests per minute exceeded' }, { 'retry-after': '60' });
    default: {
      const status = Number(name);
      if (status === 502) return res.writeHead(502, { 'content-type': 'text/html' }).end('<html>Bad gateway</html>');
      return json(status || 404, { error: `Status ${status}`, ...(status === 400 ? { details: [{ path: '/body/name', message: 'must be a string' }] } : {}) });
    }
  }
}

beforeAll(async () => {
  server = http.createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))));

const runtime = (options: Parameters<typeof createRuntimeClient>[0] extends infer O ? Partial<O> : never = {}) =>
  createRuntimeClient({ baseUrl, sourceId: 'src', ...options });
const elapsed = async <T>(work: () => Promise<T>) => {
  const start = performance.now();
  const outcome = await work().then(
    (value) => ({ value, error: undefined }),
    (error: unknown) => ({ value: undefined, error }),
  );
  return { ...outcome, ms: performance.now() - start };
};

describe('timeouts and abort', () => {
  it('rejects with SdsTimeoutError when an attempt has no answer within the client timeout', async () => {
    const { error, ms } = await elapsed(() => runtime({ timeoutMs: 150 }).list('slow'));
    expect(error).toBeInstanceOf(SdsTimeoutError);
    expect(error).toBeInstanceOf(SdsNetworkError);
    expect(error).toBeInstanceOf(SdsException);
    expect((error as SdsTimeoutError).timeoutMs).toBe(150);
    expect(ms).toBeLessThan(1000);
  });

  it('takes a per-call timeout over the client default', async () => {
    const { error, ms } = await elapsed(() => runtime({ timeoutMs: 10_000 }).list('slow', {}, { timeoutMs: 100 }));
    expect((error as SdsTimeoutError).timeoutMs).toBe(100);
    expect(ms).toBeLessThan(1000);
    const patient = await runtime({ timeoutMs: 100 }).list('slow', {}, { timeoutMs: 5000 });
    expect(patient.data?.meta.pagination.total).toBe(0);
  });

  it('bounds the reading of a JSON body, not only the wait for headers', async () => {
    const { error, ms } = await elapsed(() => runtime({ timeoutMs: 200 }).list('slow-body'));
    expect(error).toBeInstanceOf(SdsTimeoutError);
    expect(ms).toBeLessThan(1200);
  });

  it('does not cut a streamed export once it has started', async () => {
    const answer = await runtime({ timeoutMs: 150 }).export('slow-csv', { format: 'csv' });
    expect(await new Response(answer.data).text()).toBe('id\n1\n2\n');
  });

  it("rejects with the caller's signal's reason on abort, on the management client too", async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('user gave up')), 100);
    const { error, ms } = await elapsed(() => runtime().list('slow', {}, { signal: controller.signal }));
    expect(error).toEqual(new Error('user gave up'));
    expect(error).not.toBeInstanceOf(SdsException);
    expect(ms).toBeLessThan(1000);

    const sds = createManagementClient({ baseUrl, apiKey: 'svc_api_x' });
    const slow = { params: { path: { projectId: 'slow' } } };
    const aborted = await elapsed(() => sds.GET('/public/v1/projects/{projectId}', { ...slow, signal: AbortSignal.timeout(100) }));
    expect((aborted.error as DOMException).name).toBe('TimeoutError');
    const timedOut = await elapsed(() => sds.GET('/public/v1/projects/{projectId}', { ...slow, timeoutMs: 100 }));
    expect(timedOut.error).toBeInstanceOf(SdsTimeoutError);
    expect(timedOut.ms).toBeLessThan(1000);
  });

  it("aborts the reading of a JSON body when the caller's signal aborts", async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('stop reading')), 200);
    const { error, ms } = await elapsed(() => runtime({ timeoutMs: 10_000 }).list('slow-body', {}, { signal: controller.signal }));
    expect(error).toEqual(new Error('stop reading'));
    expect(ms).toBeLessThan(1200);
  });

  it('stops waiting between retries when the caller aborts', async () => {
    const controller = new AbortController();
    const client = runtime({ retry: { maxDelayMs: 60_000, onRetry: () => void setTimeout(() => controller.abort(new Error('enough')), 50) } });
    const { error, ms } = await elapsed(() => client.list('always-429', {}, { signal: controller.signal }));
    expect(error).toEqual(new Error('enough'));
    expect(ms).toBeLessThan(2000);
  });

  it('wraps a refused connection in SdsNetworkError with the cause', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const { error } = await elapsed(() => createRuntimeClient({ baseUrl: `http://127.0.0.1:${port}`, sourceId: 'src' }).list('users'));
    expect(error).toBeInstanceOf(SdsNetworkError);
    expect(error).not.toBeInstanceOf(SdsTimeoutError);
    expect((error as Error).message).toMatch(/ECONNREFUSED/);
    expect((error as Error).cause).toBeInstanceOf(TypeError);
  });
});

describe('retries', () => {
  it("retries a 503 after its Retry-After seconds", async () => {
    hits.clear();
    const retries: RetryEvent[] = [];
    const { value, ms } = await elapsed(() => runtime({ retry: { onRetry: (retry) => void retries.push(retry) } }).get('unavailable-once', 1));
    expect(value?.data).toEqual({ id: 1 });
    expect(hits.get('GET unavailable-once')).toBe(2);
    expect(retries.map(({ attempt, delayMs, response }) => ({ attempt, delayMs, status: response.status }))).toEqual([{ attempt: 1, delayMs: 1000, status: 503 }]);
    expect(ms).toBeGreaterThanOrEqual(950);
  });

  it('reads an HTTP-date Retry-After and caps the wait at maxDelayMs', async () => {
    hits.clear();
    const delays: number[] = [];
    const { value, ms } = await elapsed(() => runtime({ retry: { maxDelayMs: 250, onRetry: ({ delayMs }) => void delays.push(delayMs) } }).get('dated-429', 2));
    expect(value?.data).toEqual({ id: 2 });
    expect(delays).toEqual([250]);
    expect(ms).toBeGreaterThanOrEqual(240);
    expect(ms).toBeLessThan(5000);
  });

  it('gives up after `attempts` tries and returns the last answer as a result', async () => {
    hits.clear();
    const result = await runtime({ retry: { attempts: 3, maxDelayMs: 20 } }).list('always-429');
    expect(result.response.status).toBe(429);
    expect(result.error?.error).toMatch(/Rate limit/);
    expect(hits.get('GET always-429')).toBe(3);
  });

  it('does not retry POST or PATCH by default, nor a call with retry: false, nor any call of a client with retry: false', async () => {
    hits.clear();
    const client = runtime({ retry: { maxDelayMs: 20 } });
    expect((await client.create('always-429', {})).response.status).toBe(429);
    expect((await client.update('always-429', 1, {})).response.status).toBe(429);
    expect(hits.get('POST always-429')).toBe(1);
    expect(hits.get('PATCH always-429')).toBe(1);
    expect((await client.list('always-429', {}, { retry: false })).response.status).toBe(429);
    expect(hits.get('GET always-429')).toBe(1);
    expect((await runtime({ retry: false }).list('always-429')).response.status).toBe(429);
    expect(hits.get('GET always-429')).toBe(2);
    // …and retries a POST whose call asks for it.
    await client.create('always-429', { id: 1 }, { retry: { methods: ['POST'], attempts: 2, maxDelayMs: 10 } });
    expect(hits.get('POST always-429')).toBe(3);
  });

  it('parses Retry-After as seconds or an HTTP date', () => {
    const now = Date.parse('2026-11-27T06:00:00Z');
    expect(retryAfterMs('7', now)).toBe(7000);
    expect(retryAfterMs('Fri, 27 Nov 2026 06:00:30 GMT', now)).toBe(30_000);
    expect(retryAfterMs('Fri, 27 Nov 2026 05:59:00 GMT', now)).toBe(0);
    expect(retryAfterMs('soon', now)).toBeUndefined();
    expect(retryAfterMs(null, now)).toBeUndefined();
  });
});

describe('error classes', () => {
  const cases: [number, new (...args: never[]) => SdsRequestError][] = [
    [400, SdsBadRequestError],
    [401, SdsUnauthorizedError],
    [403, SdsForbiddenError],
    [404, SdsNotFoundError],
    [409, SdsConflictError],
    [422, SdsClientError],
    [500, SdsServerError],
    [504, SdsServerError],
  ];
  for (const [status, kind] of cases) {
    it(`unwrap throws a ${kind.name} for ${status}, with the body and request id`, async () => {
      hits.clear();
      const result = await runtime({ retry: false }).get(String(status), 1);
      let thrown: unknown;
      try {
        unwrap(result);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(kind);
      expect(thrown).toBeInstanceOf(SdsRequestError);
      const error = thrown as SdsRequestError;
      expect(error.name).toBe(kind.name);
      expect(error.status).toBe(status);
      expect(error.body.error).toBe(`Status ${status}`);
      expect(error.message).toBe(`${status} Status ${status}`);
      expect(error.requestId).toBe(`req-${status}-1`);
      expect(error instanceof SdsClientError).toBe(status < 500);
      if (status === 400) expect(error.details).toEqual([{ path: '/body/name', message: 'must be a string' }]);
    });
  }

  it('gives a 429 its Retry-After and a non-API body an {error} body', async () => {
    const limited = toRequestError(new Response('{}', { status: 429, headers: { 'retry-after': '60' } }), { error: 'Rate limit' });
    expect(limited).toBeInstanceOf(SdsRateLimitError);
    expect((limited as SdsRateLimitError).retryAfterMs).toBe(60_000);
    const gateway = await runtime({ retry: false }).get('502', 1);
    const error = toRequestError(gateway.response, gateway.error);
    expect(error).toBeInstanceOf(SdsServerError);
    expect(error.body).toEqual({ error: '502 Bad Gateway' });
    expect(unwrap(await runtime().get('200', 1))).toEqual({ error: 'Status 200' });
  });

  it('makes the runtime iterators throw the class of the failed page', async () => {
    await expect(async () => {
      for await (const _ of runtime({ retry: false }).rows('404')) void _;
    }).rejects.toBeInstanceOf(SdsNotFoundError);
  });
});
