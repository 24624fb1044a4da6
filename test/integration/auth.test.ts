// The specification's authentication rules, on every project operation, with exact texts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrapTeam } from '../../src/service.ts';
import { TeamStore } from '../../src/store/teams.ts';
import { ADMIN_TOKEN, startTestService, type TestService } from '../helpers/service.ts';

let t: TestService;
let projectA: string;
let projectB: string;
let otherTeamKey: string;
let otherTeamProject: string;

const admin = (path: string, init: RequestInit = {}) =>
  fetch(`${t.url}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json', ...(init.headers ?? {}) },
  });

beforeAll(async () => {
  t = await startTestService('auth');
  const api = t.client(t.teamKey);
  projectA = (await api.POST('/public/v1/projects', { body: { name: 'A' } })).data!.id;
  projectB = (await api.POST('/public/v1/projects', { body: { name: 'B' } })).data!.id;
  const teams = new TeamStore(t.service.db);
  const other = await teams.createTeam('Other team');
  otherTeamKey = (await teams.createKey(other.id)).key;
  otherTeamProject = (await t.client(otherTeamKey).POST('/public/v1/projects', { body: { name: 'Theirs' } })).data!.id;
});
afterAll(() => t?.stop());

async function createScopedKey(scope: string[]): Promise<string> {
  const response = await admin('/api/api-keys', { method: 'POST', body: JSON.stringify({ name: 'scoped', projectsScope: scope }) });
  expect(response.status).toBe(201);
  return ((await response.json()) as { key: string }).key;
}

describe('team API keys on the management API', () => {
  it('answers 401 "API key required" without a key', async () => {
    const { response, error } = await t.client().GET('/public/v1/projects');
    expect(response.status).toBe(401);
    expect(error).toEqual({ error: 'API key required' });
  });

  for (const [name, key] of [
    ['an unknown key', 'svc_api_' + 'x'.repeat(43)],
    ['a malformed key', 'hello'],
  ] as const) {
    it(`answers 401 "Invalid API key" for ${name}`, async () => {
      const { response, error } = await t.client(key).GET('/public/v1/projects');
      expect(response.status).toBe(401);
      expect(error).toEqual({ error: 'Invalid API key' });
    });
  }

  it('answers 401 "Invalid API key" for a source key, saying the management API takes a team key', async () => {
    const { response, error } = await t.client('svc_src_' + 'y'.repeat(43)).GET('/public/v1/projects');
    expect(response.status).toBe(401);
    expect(error).toEqual({
      error: 'Invalid API key',
      details: [
        {
          path: '/header/x-api-key',
          message: 'this is a source key (svc_src_…): the management API takes a team key (svc_api_…), printed by the first start or made with sds team-key create',
        },
      ],
    });
  });

  it('checks the key before the body', async () => {
    const { response, error } = await t.client().POST('/public/v1/projects', { body: {} as never });
    expect(response.status).toBe(401);
    expect(error).toEqual({ error: 'API key required' });
  });

  it('stops accepting a revoked key at once', async () => {
    const created = await admin('/api/api-keys', { method: 'POST', body: JSON.stringify({ name: 'short-lived' }) });
    const { id, key } = (await created.json()) as { id: string; key: string };
    expect((await t.client(key).GET('/public/v1/projects')).response.status).toBe(200);
    expect((await admin(`/api/api-keys/${id}`, { method: 'DELETE' })).status).toBe(204);
    const { response, error } = await t.client(key).GET('/public/v1/projects');
    expect(response.status).toBe(401);
    expect(error).toEqual({ error: 'Invalid API key' });
  });

  it('hides another team’s projects: 404 on every project operation, absent from lists', async () => {
    const api = t.client(t.teamKey);
    const path = { params: { path: { projectId: otherTeamProject } } };
    expect((await api.GET('/public/v1/projects/{projectId}', path)).response.status).toBe(404);
    expect((await api.PATCH('/public/v1/projects/{projectId}', { ...path, body: { name: 'mine now' } })).response.status).toBe(404);
    expect((await api.DELETE('/public/v1/projects/{projectId}', path)).response.status).toBe(404);
    const list = await api.GET('/public/v1/projects');
    expect(list.data!.map((project) => project.id)).not.toContain(otherTeamProject);
    const theirs = await t.client(otherTeamKey).GET('/public/v1/projects/{projectId}', path);
    expect(theirs.data!.name).toBe('Theirs');
  });
});

describe('project-scoped keys', () => {
  it('list only their projects and answer 403 outside the scope', async () => {
    const scoped = t.client(await createScopedKey([projectA]));
    const list = await scoped.GET('/public/v1/projects');
    expect(list.data!.map((project) => project.id)).toEqual([projectA]);
    expect(list.response.headers.get('x-total-count')).toBe('1');

    expect((await scoped.GET('/public/v1/projects/{projectId}', { params: { path: { projectId: projectA } } })).response.status).toBe(200);
    const outside = { params: { path: { projectId: projectB } } };
    const read = await scoped.GET('/public/v1/projects/{projectId}', outside);
    expect(read.response.status).toBe(403);
    expect(read.error!.error).toMatch(/not allowed/);
    expect((await scoped.PATCH('/public/v1/projects/{projectId}', { ...outside, body: { name: 'x' } })).response.status).toBe(403);
    expect((await scoped.DELETE('/public/v1/projects/{projectId}', outside)).response.status).toBe(403);
    // Another team's project stays invisible even to a scoped key.
    expect((await scoped.GET('/public/v1/projects/{projectId}', { params: { path: { projectId: otherTeamProject } } })).response.status).toBe(404);
  });

  it('cannot create projects', async () => {
    const scoped = t.client(await createScopedKey([projectA]));
    const { response, error } = await scoped.POST('/public/v1/projects', { body: { name: 'sneaky' } });
    expect(response.status).toBe(403);
    expect(error).toEqual({ error: 'Project-scoped API keys cannot create projects' });
  });
});

describe('admin team-key endpoints', () => {
  it('require the admin bearer token', async () => {
    expect((await fetch(`${t.url}/api/api-keys`)).status).toBe(401);
    const wrong = await fetch(`${t.url}/api/api-keys`, { headers: { authorization: 'Bearer nope' } });
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toEqual({ error: 'Invalid admin token' });
    // A team key is no admin token.
    expect((await fetch(`${t.url}/api/api-keys`, { headers: { 'x-api-key': t.teamKey } })).status).toBe(401);
  });

  it('list keys as metadata, never secrets or hashes', async () => {
    const response = await admin('/api/api-keys?team=default');
    expect(response.status).toBe(200);
    const keys = (await response.json()) as Record<string, unknown>[];
    expect(keys.length).toBeGreaterThan(0);
    expect(Number(response.headers.get('x-total-count'))).toBe(keys.length);
    for (const key of keys) {
      expect(key).not.toHaveProperty('key');
      expect(key).not.toHaveProperty('keyHash');
      expect(key.keyPrefix).toBe('svc_api_');
    }
    expect(JSON.stringify(keys)).not.toContain(t.teamKey);
  });

  it('refuse a scope naming another team’s project', async () => {
    const response = await admin('/api/api-keys', { method: 'POST', body: JSON.stringify({ projectsScope: [otherTeamProject] }) });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { details: { path: string }[] };
    expect(body.details[0]!.path).toBe('/body/projectsScope/0');
  });

  it('answer 404 for an unknown team or key', async () => {
    expect((await admin('/api/api-keys', { method: 'POST', body: JSON.stringify({ team: 'nope' }) })).status).toBe(404);
    expect((await admin('/api/api-keys/00000000-0000-4000-8000-000000000000', { method: 'DELETE' })).status).toBe(404);
  });

  it('store keys hashed', async () => {
    const { rows } = await t.service.db.query<{ key_hash: Buffer; lookup: string }>('SELECT key_hash, lookup FROM team_api_keys');
    for (const row of rows) {
      expect(row.key_hash.length).toBe(32);
      expect(t.teamKey.includes(row.key_hash.toString('utf8'))).toBe(false);
    }
    const dump = JSON.stringify(rows);
    expect(dump).not.toContain(t.teamKey);
  });
});

describe('key bookkeeping', () => {
  it('records lastUsedAt in batches, not per request', async () => {
    const created = await admin('/api/api-keys', { method: 'POST', body: JSON.stringify({ name: 'usage' }) });
    const { id, key, lastUsedAt } = (await created.json()) as { id: string; key: string; lastUsedAt: string | null };
    expect(lastUsedAt).toBeNull();
    const before = Date.now();
    for (let i = 0; i < 3; i++) await t.client(key).GET('/public/v1/projects');
    const unflushed = (await (await admin('/api/api-keys')).json()) as { id: string; lastUsedAt: string | null }[];
    expect(unflushed.find((item) => item.id === id)!.lastUsedAt).toBeNull();
    await t.service.flushKeyUsage();
    const listed = (await (await admin('/api/api-keys')).json()) as { id: string; lastUsedAt: string | null }[];
    const usedAt = Date.parse(listed.find((item) => item.id === id)!.lastUsedAt!);
    expect(usedAt).toBeGreaterThanOrEqual(before - 1000);
  });

  it('makes the bootstrap key idempotent across starts', async () => {
    const teams = new TeamStore(t.service.db);
    const count = async () => (await t.service.db.query<{ n: string }>('SELECT count(*) AS n FROM team_api_keys')).rows[0]!.n;
    const before = await count();
    expect(await bootstrapTeam(teams, t.teamKey)).toBeUndefined();
    expect(await bootstrapTeam(teams, t.teamKey)).toBeUndefined();
    expect(await count()).toBe(before);
    // Without a bootstrap key, an existing default team gets no new key either.
    expect(await bootstrapTeam(teams, undefined)).toBeUndefined();
    expect(await count()).toBe(before);
  });
});
