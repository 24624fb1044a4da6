// The SDK's clients against a fake fetch: auth headers, paging, error results that never throw,
// error bodies normalised to {error}, and waiting for generation jobs.
import { describe, expect, it } from 'vitest';
import { createManagementClient, createRuntimeClient, SdsRequestError, waitForJob } from '../../sdk/src/index.ts';
import { parseQuery } from '../../src/runtime/parse-query.ts';

const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

/**
 * A fake runtime API over one in-memory table of `total` users, serving at most `max` rows a page. It
 * reads the query with the server's own parser, so what the SDK sends is what the server would read.
 */
function fakeRuntime(total: number, max = 1000) {
  const users = Array.from({ length: total }, (_, index) => ({ id: index + 1, email: `u${index + 1}@example.com` }));
  const requests: { url: URL; key: string | null; method: string; body?: unknown }[] = [];
  const fetch = async (request: Request) => {
    const url = new URL(request.url);
    requests.push({ url, key: request.headers.get('x-api-key'), method: request.method, body: request.body ? await request.clone().json() : undefined });
    const query = parseQuery(url.search.slice(1));
    if (url.pathname === '/runtime/src-1/users' && request.method === 'GET') {
      const limit = Math.min(Number(query.limit ?? 25), max);
      const offset = Number(query.offset ?? 0);
      const idAbove = query.filters.find((filter) => filter.field === 'id' && filter.operator === '$gt');
      const minId = Number(idAbove?.values[0] ?? 0);
      const matching = users.filter((user) => user.id > minId);
      return json({ data: matching.slice(offset, offset + limit), meta: { pagination: { offset, limit, total: matching.length } } });
    }
    if (url.pathname === '/runtime/src-1/users/7' && request.method === 'PATCH') return json({ ...users[6], ...((await request.json()) as object) });
    if (url.pathname === '/runtime/src-1/users/7' && request.method === 'DELETE') return new Response(null, { status: 204 });
    if (url.pathname === '/runtime/src-1/broken') return new Response('<html>Bad gateway</html>', { status: 502, statusText: 'Bad Gateway' });
    if (url.pathname === '/runtime/src-1/plain') return new Response('upstream timed out', { status: 504 });
    return json({ error: 'Not implemented' }, 501);
  };
  return { fetch, requests };
}

describe('runtime client', () => {
  it('sends the source key and the bracket-form query', async () => {
    const fake = fakeRuntime(3);
    const runtime = createRuntimeClient({ baseUrl: 'http://sds.test/', sourceId: 'src-1', apiKey: 'svc_src_abc', fetch: fake.fetch });
    const { data, error } = await runtime.list('users', { filters: { id: { $gt: 1 } }, sort: 'id:desc', fields: ['id'], limit: 5 });
    expect(error).toBeUndefined();
    expect(data!.data.map((row) => row.id)).toEqual([2, 3]);
    expect(fake.requests[0]!.key).toBe('svc_src_abc');
    expect(fake.requests[0]!.url.search).toBe('?filters[id][$gt]=1&sort=id:desc&fields=id&limit=5');
  });

  it('iterates every page, asking for pageSize rows at a time', async () => {
    const fake = fakeRuntime(23);
    const runtime = createRuntimeClient<{ users: { id: number; email: string } }>({ baseUrl: 'http://sds.test', sourceId: 'src-1', fetch: fake.fetch });
    const ids: number[] = [];
    for await (const user of runtime.rows('users', { pageSize: 10, filters: { id: { $gt: 2 } } })) ids.push(user.id);
    expect(ids).toEqual(Array.from({ length: 21 }, (_, index) => index + 3));
    expect(fake.requests.map((request) => request.url.searchParams.get('offset'))).toEqual(['0', '10', '20']);
    expect(fake.requests[0]!.key).toBeNull();
  });

  it('trusts the page size the server grants', async () => {
    const fake = fakeRuntime(25, 10);
    const runtime = createRuntimeClient({ baseUrl: 'http://sds.test', sourceId: 'src-1', fetch: fake.fetch });
    let count = 0;
    for await (const _ of runtime.rows('users', { pageSize: 1000 })) count++;
    expect(count).toBe(25);
    expect(fake.requests).toHaveLength(3);
  });

  it('stops at an exact multiple of the page size without an empty request', async () => {
    const fake = fakeRuntime(20);
    const runtime = createRuntimeClient({ baseUrl: 'http://sds.test', sourceId: 'src-1', fetch: fake.fetch });
    const pages = [];
    for await (const page of runtime.pages('users', { pageSize: 10 })) pages.push(page.data!.data.length);
    expect(pages).toEqual([10, 10]);
  });

  it('patches and deletes rows by primary key', async () => {
    const fake = fakeRuntime(10);
    const runtime = createRuntimeClient({ baseUrl: 'http://sds.test', sourceId: 'src-1', apiKey: 'k', fetch: fake.fetch });
    const patched = await runtime.update('users', 7, { email: 'new@example.com' });
    expect(patched.data).toEqual({ id: 7, email: 'new@example.com' });
    expect(fake.requests[0]!.body).toEqual({ email: 'new@example.com' });
    const deleted = await runtime.delete('users', 7);
    expect(deleted.response.status).toBe(204);
    expect(deleted.error).toBeUndefined();
  });

  it('answers HTTP errors as results, never as exceptions', async () => {
    const runtime = createRuntimeClient({ baseUrl: 'http://sds.test', sourceId: 'src-1', fetch: fakeRuntime(1).fetch });
    const result = await runtime.get('users', 1);
    expect(result.data).toBeUndefined();
    expect(result.error).toEqual({ error: 'Not implemented' });
    expect(result.response.status).toBe(501);
  });

  it('turns error bodies that are not {error} into {error}', async () => {
    const runtime = createRuntimeClient({ baseUrl: 'http://sds.test', sourceId: 'src-1', fetch: fakeRuntime(1).fetch });
    expect((await runtime.list('broken')).error).toEqual({ error: '502 Bad Gateway' });
    expect((await runtime.list('plain')).error).toEqual({ error: 'upstream timed out' });
  });

  it('yields the failed page from pages() and throws it from rows()', async () => {
    const runtime = createRuntimeClient({ baseUrl: 'http://sds.test', sourceId: 'src-1', fetch: fakeRuntime(1).fetch });
    const pages = [];
    for await (const page of runtime.pages('posts')) pages.push(page);
    expect(pages).toHaveLength(1);
    expect(pages[0]!.error).toEqual({ error: 'Not implemented' });
    const iterate = async () => {
      for await (const _ of runtime.rows('posts')) void _;
    };
    await expect(iterate()).rejects.toThrow(SdsRequestError);
    await expect(iterate()).rejects.toMatchObject({ status: 501, body: { error: 'Not implemented' } });
  });
});

describe('waitForJob', () => {
  const job = (status: string) => ({ id: 'job-1', sourceId: 's', status });

  function fakeJobs(statuses: string[]) {
    const seen: string[] = [];
    const fetch = async (request: Request) => {
      const url = new URL(request.url);
      seen.push(`${url.pathname}${url.search}`);
      expect(request.headers.get('x-api-key')).toBe('svc_api_x');
      if (url.pathname.endsWith('/generation-jobs')) return json([job(statuses[0]!)]);
      return json(job(statuses.length > 1 ? statuses.shift()! : statuses[0]!));
    };
    return { client: createManagementClient({ baseUrl: 'http://sds.test', apiKey: 'svc_api_x', fetch }), seen };
  }

  it('polls until the job has finished', async () => {
    const { client, seen } = fakeJobs(['queued', 'running', 'succeeded']);
    const result = await waitForJob(client, { projectId: 'p', sourceId: 's', jobId: 'job-1' }, { intervalMs: 1 });
    expect(result.data?.status).toBe('succeeded');
    expect(seen).toHaveLength(3);
  });

  it('finds the newest job of the source when no job id is given', async () => {
    const { client, seen } = fakeJobs(['failed']);
    const result = await waitForJob(client, { projectId: 'p', sourceId: 's' }, { intervalMs: 1 });
    expect(result.data?.status).toBe('failed');
    expect(seen[0]).toBe('/public/v1/projects/p/sources/s/generation-jobs?limit=1');
  });

  it('gives up after timeoutMs with an error result', async () => {
    const { client } = fakeJobs(['running']);
    const result = await waitForJob(client, { projectId: 'p', sourceId: 's', jobId: 'job-1' }, { timeoutMs: 30, intervalMs: 5 });
    expect(result.error?.error).toBe('Generation job job-1 is still running after 30 ms');
  });

  it('returns the error of a failed poll', async () => {
    const client = createManagementClient({ baseUrl: 'http://sds.test', apiKey: 'svc_api_x', fetch: async () => json({ error: 'Invalid API key' }, 401) });
    const result = await waitForJob(client, { projectId: 'p', sourceId: 's', jobId: 'j' });
    expect(result).toMatchObject({ error: { error: 'Invalid API key' } });
    expect(result.response.status).toBe(401);
  });
});
