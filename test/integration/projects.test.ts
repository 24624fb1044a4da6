// Projects over HTTP on a real PostgreSQL, through the typed client, with response validation on.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../helpers/service.ts';

let t: TestService;
beforeAll(async () => {
  t = await startTestService('projects');
});
afterAll(() => t?.stop());

describe('projects', () => {
  it('creates a project with defaults, a slug from its name and the key’s team', async () => {
    const api = t.client(t.teamKey);
    const { data, response } = await api.POST('/public/v1/projects', { body: { name: 'Blog API' } });
    expect(response.status).toBe(201);
    expect(data).toMatchObject({ name: 'Blog API', slug: 'blog-api', description: '', icon: '' });
    expect(data!.teamId).toMatch(/^[0-9a-f-]{36}$/);
    expect(response.headers.get('location')).toBe(`/public/v1/projects/${data!.id}`);
    expect(Date.parse(data!.createdAt)).not.toBeNaN();
  });

  it('keeps slugs unique within the team', async () => {
    const api = t.client(t.teamKey);
    const first = await api.POST('/public/v1/projects', { body: { name: 'Shop Ünïcode!' } });
    const second = await api.POST('/public/v1/projects', { body: { name: 'shop unicode' } });
    expect(first.data!.slug).toBe('shop-unicode');
    expect(second.data!.slug).toBe('shop-unicode-2');
  });

  it('reads, updates and deletes a project', async () => {
    const api = t.client(t.teamKey);
    const created = (await api.POST('/public/v1/projects', { body: { name: 'CRM', description: 'leads', icon: '📇' } })).data!;
    const read = await api.GET('/public/v1/projects/{projectId}', { params: { path: { projectId: created.id } } });
    expect(read.data).toEqual(created);

    const updated = await api.PATCH('/public/v1/projects/{projectId}', {
      params: { path: { projectId: created.id } },
      body: { name: 'CRM v2', icon: '' },
    });
    expect(updated.response.status).toBe(200);
    expect(updated.data).toMatchObject({ name: 'CRM v2', description: 'leads', icon: '', slug: 'crm' });
    expect(Date.parse(updated.data!.updatedAt)).toBeGreaterThanOrEqual(Date.parse(created.updatedAt));

    const deleted = await api.DELETE('/public/v1/projects/{projectId}', { params: { path: { projectId: created.id } } });
    expect(deleted.response.status).toBe(204);
    const gone = await api.GET('/public/v1/projects/{projectId}', { params: { path: { projectId: created.id } } });
    expect(gone.response.status).toBe(404);
    expect(gone.error).toEqual({ error: 'Project not found' });
  });

  it('lists projects oldest first with limit, offset and X-Total-Count', async () => {
    const api = t.client(t.teamKey);
    const all = await api.GET('/public/v1/projects');
    expect(all.response.status).toBe(200);
    expect(Array.isArray(all.data)).toBe(true);
    const total = Number(all.response.headers.get('x-total-count'));
    expect(total).toBe(all.data!.length);
    expect(total).toBeGreaterThanOrEqual(3);

    const page = await api.GET('/public/v1/projects', { params: { query: { limit: 1, offset: 1 } } });
    expect(page.data).toEqual([all.data![1]]);
    expect(page.response.headers.get('x-total-count')).toBe(String(total));

    const past = await api.GET('/public/v1/projects', { params: { query: { offset: 10_000 } } });
    expect(past.data).toEqual([]);
    expect(past.response.headers.get('x-total-count')).toBe(String(total));
  });

  it('rejects a limit above the maximum', async () => {
    const { response, error } = await t.client(t.teamKey).GET('/public/v1/projects', { params: { query: { limit: 5000 } } });
    expect(response.status).toBe(400);
    expect(error!.error).toMatch(/limit/);
  });
});

describe('bad project bodies', () => {
  const cases: [string, { body: unknown; path: string }][] = [
    ['missing name', { body: { description: 'x' }, path: '/body/name' }],
    ['name of the wrong type', { body: { name: 42 }, path: '/body/name' }],
    ['empty name', { body: { name: '' }, path: '/body/name' }],
    ['blank name', { body: { name: '   ' }, path: '/body/name' }],
    ['unknown property', { body: { name: 'x', colour: 'red' }, path: '/body/colour' }],
    ['name too long', { body: { name: 'x'.repeat(201) }, path: '/body/name' }],
  ];
  for (const [name, { body, path }] of cases) {
    it(`answers 400 naming the field: ${name}`, async () => {
      const response = await fetch(`${t.url}/public/v1/projects`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': t.teamKey },
        body: JSON.stringify(body),
      });
      expect(response.status).toBe(400);
      const json = (await response.json()) as { error: string; details: { path: string; message: string }[] };
      expect(typeof json.error).toBe('string');
      expect(json.details.map((detail) => detail.path)).toContain(path);
    });
  }

  it('answers 400 for an empty PATCH', async () => {
    const api = t.client(t.teamKey);
    const project = (await api.POST('/public/v1/projects', { body: { name: 'Patchy' } })).data!;
    const { response } = await api.PATCH('/public/v1/projects/{projectId}', { params: { path: { projectId: project.id } }, body: {} });
    expect(response.status).toBe(400);
  });

  it('answers 400 for a project id that is not a uuid', async () => {
    const response = await fetch(`${t.url}/public/v1/projects/not-a-uuid`, { headers: { 'x-api-key': t.teamKey } });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toMatch(/projectId/);
  });
});
