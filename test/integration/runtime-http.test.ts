// The runtime API over HTTP: source-key rules with the specification's texts, per-source rate limits
// and their headers, CORS, and CRUD through the typed client with response validation on.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitForLatestJob } from '../helpers/generation.ts';
import { blogProject, startTestService, type TestService } from '../helpers/service.ts';

let t: TestService;
let projectId: string;
let versionId: string;

async function createSource(name: string, options: { requireAuth?: boolean; rateLimitRpm?: number } = {}) {
  const api = t.client(t.teamKey);
  const source = (await api.POST('/public/v1/projects/{projectId}/sources', {
    params: { path: { projectId } },
    body: { name, kind: 'postgres', schemaVersionId: versionId, seed: 'rt', generatorConfig: { rowCounts: { users: 12, posts: 20 } }, ...options },
  })).data!;
  await waitForLatestJob(t, projectId, source.id);
  const key = (await api.POST('/public/v1/projects/{projectId}/sources/{sourceId}/api-keys', { params: { path: { projectId, sourceId: source.id } }, body: {} })).data!;
  return { source, key };
}

const rows = (sourceId: string, key?: string, path = 'users', init: RequestInit = {}) =>
  fetch(`${t.url}/runtime/${sourceId}/${path}`, { ...init, headers: { ...(key ? { 'x-api-key': key } : {}), ...(init.headers ?? {}) } });

let main: Awaited<ReturnType<typeof createSource>>;
let other: Awaited<ReturnType<typeof createSource>>;

beforeAll(async () => {
  t = await startTestService('runtime_http');
  ({ projectId, versionId } = await blogProject(t.client(t.teamKey), 'Runtime'));
  main = await createSource('Main');
  other = await createSource('Other');
});
afterAll(() => t?.stop());

describe('source keys on the runtime API', () => {
  it('answers 401 "API key required" without a key', async () => {
    const response = await rows(main.source.id);
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ error: 'API key required' });
  });

  it('answers 401 "Invalid API key" for unknown keys and team keys', async () => {
    for (const key of ['svc_src_' + 'z'.repeat(43), 'nonsense']) {
      const response = await rows(main.source.id, key);
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({ error: 'Invalid API key' });
    }
  });

  it('tells a team key on the runtime API which key it takes and where to make one', async () => {
    const response = await rows(main.source.id, t.teamKey);
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({
      error: 'Invalid API key',
      details: [
        {
          path: '/header/x-api-key',
          message:
            'this is a team key (svc_api_…): the runtime API takes a source key (svc_src_…); create one with POST /public/v1/projects/{projectId}/sources/{sourceId}/api-keys',
        },
      ],
    });
  });

  it('answers 403 for a valid key of another source', async () => {
    const response = await rows(main.source.id, other.key.key);
    expect(response.status).toBe(403);
  });

  it('serves a valid key, and a source key is no team key', async () => {
    expect((await rows(main.source.id, main.key.key)).status).toBe(200);
    const management = await fetch(`${t.url}/public/v1/projects`, { headers: { 'x-api-key': main.key.key } });
    expect(management.status).toBe(401);
  });

  it('stops a revoked key at once', async () => {
    const api = t.client(t.teamKey);
    const path = { projectId, sourceId: main.source.id };
    const extra = (await api.POST('/public/v1/projects/{projectId}/sources/{sourceId}/api-keys', { params: { path }, body: {} })).data!;
    expect((await rows(main.source.id, extra.key)).status).toBe(200);
    await api.DELETE('/public/v1/projects/{projectId}/sources/{sourceId}/api-keys/{keyId}', { params: { path: { ...path, keyId: extra.id } } });
    const response = await rows(main.source.id, extra.key);
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ error: 'Invalid API key' });
  });

  it('opens a source with requireAuth: false', async () => {
    const open = await createSource('Open', { requireAuth: false });
    expect((await rows(open.source.id)).status).toBe(200);
  });

  it('records lastUsedAt without a write per request', async () => {
    await rows(main.source.id, main.key.key);
    await t.service.flushKeyUsage();
    const keys = (await t.client(t.teamKey).GET('/public/v1/projects/{projectId}/sources/{sourceId}/api-keys', {
      params: { path: { projectId, sourceId: main.source.id } },
    })).data!;
    expect(keys.find((key) => key.id === main.key.id)!.lastUsedAt).not.toBeNull();
  });
});

describe('rate limits', () => {
  it('count every key of a source, send RateLimit headers, and answer 429 with Retry-After', async () => {
    const limited = await createSource('Limited', { rateLimitRpm: 4 });
    const second = (await t.client(t.teamKey).POST('/public/v1/projects/{projectId}/sources/{sourceId}/api-keys', {
      params: { path: { projectId, sourceId: limited.source.id } },
      body: {},
    })).data!;
    const first = await rows(limited.source.id, limited.key.key);
    expect(first.headers.get('ratelimit-limit')).toBe('4');
    expect(first.headers.get('ratelimit-remaining')).toBe('3');
    expect(Number(first.headers.get('ratelimit-reset'))).toBeGreaterThan(0);
    await rows(limited.source.id, second.key);
    await rows(limited.source.id, limited.key.key);
    expect((await rows(limited.source.id, second.key)).headers.get('ratelimit-remaining')).toBe('0');
    const over = await rows(limited.source.id, limited.key.key);
    expect(over.status).toBe(429);
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(((await over.json()) as { error: string }).error).toMatch(/Rate limit of 4 requests per minute/);
    // Another source is not affected.
    expect((await rows(main.source.id, main.key.key)).status).toBe(200);
  });
});

describe('browsers', () => {
  it('may call the runtime API cross-origin with x-api-key', async () => {
    const preflight = await fetch(`${t.url}/runtime/${main.source.id}/users`, {
      method: 'OPTIONS',
      headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'PATCH', 'access-control-request-headers': 'x-api-key,content-type' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-headers')).toMatch(/x-api-key/);
    const response = await rows(main.source.id, main.key.key, 'users', { headers: { origin: 'http://localhost:5173' } });
    expect(response.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    expect(response.headers.get('access-control-expose-headers')).toMatch(/RateLimit-Remaining/);
  });

  it('gets the same CORS headers from the runtime router as from the cors middleware (Express serves what the router leaves)', async () => {
    const corsHeaders = (response: Response) =>
      Object.fromEntries(['access-control-allow-origin', 'vary', 'access-control-expose-headers', 'access-control-allow-credentials'].map((name) => [name, response.headers.get(name)]));
    for (const headers of [{ origin: 'http://localhost:5173' }, {} as Record<string, string>]) {
      const init = { headers: { 'x-api-key': main.key.key, ...headers } };
      const byRouter = await fetch(`${t.url}/runtime/${main.source.id}/users?limit=1`, init);
      // A path of no runtime route: the router leaves it to the Express application, which answers 404.
      const byExpress = await fetch(`${t.url}/runtime/${main.source.id}`, init);
      expect(byRouter.status).toBe(200);
      expect(byExpress.status).toBe(404);
      expect(corsHeaders(byRouter)).toEqual(corsHeaders(byExpress));
      expect(corsHeaders(byRouter)['access-control-allow-origin']).toBe(headers.origin ?? null);
    }
  });
});

describe('CRUD through the typed client', () => {
  it('lists with the pagination envelope, and reads, creates, patches and deletes rows', async () => {
    const api = t.client(main.key.key);
    const sourceId = main.source.id;
    const list = await api.GET('/runtime/{sourceId}/{table}', { params: { path: { sourceId, table: 'users' }, query: { limit: 5, sort: 'id:desc' } } });
    expect(list.response.status).toBe(200);
    expect(list.data!.meta.pagination).toEqual({ offset: 0, limit: 5, total: 12 });
    expect(list.data!.data.map((row) => row.id)).toEqual([12, 11, 10, 9, 8]);

    const one = await api.GET('/runtime/{sourceId}/{table}/{id}', { params: { path: { sourceId, table: 'users', id: '3' } } });
    expect(one.data).toMatchObject({ id: 3 });

    const created = await api.POST('/runtime/{sourceId}/{table}', {
      params: { path: { sourceId, table: 'users' } },
      body: { email: 'new.person@example.com', firstName: 'New', role: 'reader', active: true, createdAt: '2024-05-01T10:00:00Z' },
    });
    expect(created.response.status).toBe(201);
    const id = created.data!.id as number;
    expect(created.response.headers.get('location')).toBe(`/runtime/${sourceId}/users/${id}`);

    const after = await api.GET('/runtime/{sourceId}/{table}', { params: { path: { sourceId, table: 'users' }, query: { limit: 1 } } });
    expect(after.data!.meta.pagination.total).toBe(13);

    const patched = await api.PATCH('/runtime/{sourceId}/{table}/{id}', { params: { path: { sourceId, table: 'users', id: String(id) } }, body: { firstName: 'Renamed' } });
    expect(patched.data).toMatchObject({ id, firstName: 'Renamed', email: 'new.person@example.com' });

    const deleted = await api.DELETE('/runtime/{sourceId}/{table}/{id}', { params: { path: { sourceId, table: 'users', id: String(id) } } });
    expect(deleted.response.status).toBe(204);
    const gone = await api.GET('/runtime/{sourceId}/{table}/{id}', { params: { path: { sourceId, table: 'users', id: String(id) } } });
    expect(gone.response.status).toBe(404);
  });

  it('answers 404 naming an unknown table and 400 naming an unknown filter field', async () => {
    const unknown = await rows(main.source.id, main.key.key, 'usres');
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { error: string }).error).toMatch(/usres.*users/);
    const filter = await rows(main.source.id, main.key.key, 'users?filters[emial][$eq]=x');
    expect(filter.status).toBe(400);
    expect(((await filter.json()) as { error: string }).error).toMatch(/emial.*email/);
  });

  it('answers 409 naming the fields of a unique violation without echoing data', async () => {
    const api = t.client(main.key.key);
    const existing = (await api.GET('/runtime/{sourceId}/{table}/{id}', { params: { path: { sourceId: main.source.id, table: 'users', id: '1' } } })).data!;
    const response = await rows(main.source.id, main.key.key, 'users', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: existing.email, firstName: 'Dup', role: 'reader', active: true, createdAt: '2024-05-01T10:00:00Z' }),
    });
    expect(response.status).toBe(409);
    const body = (await response.json()) as { error: string };
    expect(body.error).toMatch(/email/);
    expect(body.error).not.toContain(String(existing.email));
  });
});

describe('query string forms', () => {
  type Page = { data: Record<string, unknown>[]; meta: { pagination: { limit: number } } };
  const page = async (query: string) => {
    const response = await rows(main.source.id, main.key.key, `posts?${query}`);
    const body = (await response.json()) as Page & { error?: string };
    expect(response.status, body.error).toBe(200);
    return body;
  };

  it('accepts the bracket form qs writes for populate, fields and sort, with the same answer as the documented one', async () => {
    const documented = await page('limit=3&sort=id:desc&fields=id,authorId&populate=authorId&populate.authorId.fields=id,email');
    const forms = [
      'limit=3&sort[0]=id:desc&fields[0]=id&fields[1]=authorId&populate[0]=authorId&populate[authorId][fields][0]=id&populate[authorId][fields][1]=email',
      'limit=3&sort=id:desc&fields=id,authorId&populate[authorId][fields]=id,email',
    ];
    for (const query of forms) expect(await page(query), query).toEqual(documented);
    const first = documented.data[0]!;
    expect(Object.keys(first).sort()).toEqual(['authorId', 'id']);
    expect(Object.keys(first.authorId as object).sort()).toEqual(['email', 'id']);
  });

  it('answers 400 naming a populate key it does not know, and the forms it does', async () => {
    const response = await rows(main.source.id, main.key.key, 'posts?populate[authorId][sort]=id');
    expect(response.status).toBe(400);
    const { error } = (await response.json()) as { error: string };
    expect(error).toContain('populate[authorId][sort]');
    expect(error).toContain('populate.<field>.fields=a,b');
  });

  it('answers 415 for a write whose body is not JSON', async () => {
    const response = await rows(main.source.id, main.key.key, 'posts', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'title=x' });
    expect(response.status).toBe(415);
    expect(await response.json()).toEqual({ error: 'Unsupported content type text/plain: send application/json' });
  });
});
