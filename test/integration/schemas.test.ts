// Schemas, versions and config validation over HTTP on a real PostgreSQL.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SchemaConfig } from '../../src/contract.ts';
import { TeamStore } from '../../src/store/teams.ts';
import { blogConfig } from '../fixtures/configs.ts';
import { ADMIN_TOKEN, startTestService, type TestService } from '../helpers/service.ts';

let t: TestService;
let projectId: string;
let otherProjectId: string;
beforeAll(async () => {
  t = await startTestService('schemas');
  const api = t.client(t.teamKey);
  projectId = (await api.POST('/public/v1/projects', { body: { name: 'Schemas' } })).data!.id;
  otherProjectId = (await api.POST('/public/v1/projects', { body: { name: 'Elsewhere' } })).data!.id;
});
afterAll(() => t?.stop());

/** The validate endpoint takes any JSON object, typed as a record. */
const loose = (config: SchemaConfig) => config as unknown as Record<string, unknown>;

const withWeightsMismatch = (): SchemaConfig => {
  const config = blogConfig();
  config.entities[0]!.fields[3]!.weights = [1, 2];
  return config;
};

describe('schemas', () => {
  it('creates a schema with its first version in one request', async () => {
    const api = t.client(t.teamKey);
    const { data, response } = await api.POST('/public/v1/projects/{projectId}/schemas', {
      params: { path: { projectId } },
      body: { name: 'Blog', description: 'demo', initialVersion: { schema: blogConfig() } },
    });
    expect(response.status).toBe(201);
    expect(data).toMatchObject({ name: 'Blog', slug: 'blog', description: 'demo', projectId, latestVersion: 1, updatedAt: null });

    const versions = await api.GET('/public/v1/projects/{projectId}/schemas/{schemaId}/versions', {
      params: { path: { projectId, schemaId: data!.id } },
    });
    expect(versions.data).toHaveLength(1);
    expect(versions.data![0]).toMatchObject({ schemaId: data!.id, version: 1, schema: blogConfig() });
    expect(versions.response.headers.get('x-total-count')).toBe('1');
  });

  it('creates a schema without a version, then appends numbered, immutable versions', async () => {
    const api = t.client(t.teamKey);
    const schema = (await api.POST('/public/v1/projects/{projectId}/schemas', { params: { path: { projectId } }, body: { name: 'Shop' } })).data!;
    expect(schema.latestVersion).toBeNull();
    expect(schema.description).toBeNull();
    const path = { projectId, schemaId: schema.id };

    const first = await api.POST('/public/v1/projects/{projectId}/schemas/{schemaId}/versions', { params: { path }, body: { schema: blogConfig() } });
    expect(first.response.status).toBe(201);
    expect(first.data!.version).toBe(1);
    const changed = blogConfig();
    changed.entities[0]!.generation = { rowCount: 5 };
    const second = await api.POST('/public/v1/projects/{projectId}/schemas/{schemaId}/versions', { params: { path }, body: { schema: changed } });
    expect(second.data!.version).toBe(2);
    expect(second.response.headers.get('location')).toBe(`/public/v1/projects/${projectId}/schemas/${schema.id}/versions/2`);

    const one = await api.GET('/public/v1/projects/{projectId}/schemas/{schemaId}/versions/{version}', { params: { path: { ...path, version: 1 } } });
    expect(one.data!.schema).toEqual(blogConfig());
    const missing = await api.GET('/public/v1/projects/{projectId}/schemas/{schemaId}/versions/{version}', { params: { path: { ...path, version: 9 } } });
    expect(missing.response.status).toBe(404);

    const read = await api.GET('/public/v1/projects/{projectId}/schemas/{schemaId}', { params: { path } });
    expect(read.data!.latestVersion).toBe(2);
    expect(read.data!.updatedAt).not.toBeNull();

    const put = await fetch(`${t.url}/public/v1/projects/${projectId}/schemas/${schema.id}/versions/1`, {
      method: 'PATCH',
      headers: { 'x-api-key': t.teamKey, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(put.status).toBe(405);
  });

  it('numbers concurrent versions without gaps or duplicates', async () => {
    const api = t.client(t.teamKey);
    const schema = (await api.POST('/public/v1/projects/{projectId}/schemas', { params: { path: { projectId } }, body: { name: 'Race' } })).data!;
    const path = { projectId, schemaId: schema.id };
    const created = await Promise.all(
      Array.from({ length: 8 }, () => api.POST('/public/v1/projects/{projectId}/schemas/{schemaId}/versions', { params: { path }, body: { schema: blogConfig() } })),
    );
    expect(created.map((result) => result.data!.version).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it('updates name and description, and deletes', async () => {
    const api = t.client(t.teamKey);
    const schema = (await api.POST('/public/v1/projects/{projectId}/schemas', { params: { path: { projectId } }, body: { name: 'Temp', description: 'x' } })).data!;
    const path = { projectId, schemaId: schema.id };
    const updated = await api.PATCH('/public/v1/projects/{projectId}/schemas/{schemaId}', { params: { path }, body: { name: 'Temp 2', description: null } });
    expect(updated.data).toMatchObject({ name: 'Temp 2', description: null, slug: 'temp' });
    expect((await api.DELETE('/public/v1/projects/{projectId}/schemas/{schemaId}', { params: { path } })).response.status).toBe(204);
    expect((await api.GET('/public/v1/projects/{projectId}/schemas/{schemaId}', { params: { path } })).response.status).toBe(404);
  });

  it('does not find a schema through another project’s path', async () => {
    const api = t.client(t.teamKey);
    const schema = (await api.POST('/public/v1/projects/{projectId}/schemas', { params: { path: { projectId } }, body: { name: 'Mine' } })).data!;
    const wrong = await api.GET('/public/v1/projects/{projectId}/schemas/{schemaId}', { params: { path: { projectId: otherProjectId, schemaId: schema.id } } });
    expect(wrong.response.status).toBe(404);
    expect(wrong.error).toEqual({ error: 'Schema not found' });
  });
});

describe('invalid configs', () => {
  it('answer 400 with every error as a JSON pointer into the config, and store nothing', async () => {
    const api = t.client(t.teamKey);
    const before = Number((await api.GET('/public/v1/projects/{projectId}/schemas', { params: { path: { projectId } } })).response.headers.get('x-total-count'));
    const config = withWeightsMismatch();
    config.entities[1]!.fields[1]!.references = { entity: 'authors', field: 'id' };
    const { response, error } = await api.POST('/public/v1/projects/{projectId}/schemas', {
      params: { path: { projectId } },
      body: { name: 'Broken', initialVersion: { schema: config } },
    });
    expect(response.status).toBe(400);
    expect(error!.error).toMatch(/^Invalid schema config \(2 errors\)/);
    const paths = error!.details!.map((detail) => detail.path);
    expect(paths).toContain('/entities/0/fields/3/weights');
    expect(paths.some((path) => path.startsWith('/entities/1/fields/1/references'))).toBe(true);
    expect(error!.details!.find((d) => d.path === '/entities/0/fields/3/weights')!.message).toMatch(/weights has 2 entries but values has 3/);
    const after = Number((await api.GET('/public/v1/projects/{projectId}/schemas', { params: { path: { projectId } } })).response.headers.get('x-total-count'));
    expect(after).toBe(before);
  });

  it('answer 400 on a new version too, with structural errors named', async () => {
    const api = t.client(t.teamKey);
    const schema = (await api.POST('/public/v1/projects/{projectId}/schemas', { params: { path: { projectId } }, body: { name: 'Strict' } })).data!;
    const response = await fetch(`${t.url}/public/v1/projects/${projectId}/schemas/${schema.id}/versions`, {
      method: 'POST',
      headers: { 'x-api-key': t.teamKey, 'content-type': 'application/json' },
      body: JSON.stringify({ schema: { formatVersion: 2, entities: [{ id: '9lives', fields: [] }] } }),
    });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { details: { path: string }[] };
    expect(body.details.map((detail) => detail.path)).toEqual(expect.arrayContaining(['/formatVersion', '/entities/0/id']));
    const versions = await api.GET('/public/v1/projects/{projectId}/schemas/{schemaId}/versions', { params: { path: { projectId, schemaId: schema.id } } });
    expect(versions.data).toEqual([]);
  });

  it('answer 400 when the version body has no schema', async () => {
    const api = t.client(t.teamKey);
    const schema = (await api.POST('/public/v1/projects/{projectId}/schemas', { params: { path: { projectId } }, body: { name: 'Empty body' } })).data!;
    const response = await fetch(`${t.url}/public/v1/projects/${projectId}/schemas/${schema.id}/versions`, {
      method: 'POST',
      headers: { 'x-api-key': t.teamKey, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toMatch(/schema/);
  });
});

/** Three problems of two kinds: an unknown type (JSON Schema), short enum weights and a missing reference target. */
const threeErrors = JSON.parse(fs.readFileSync('test/fixtures/cli/blog-three-errors.json', 'utf8')) as Record<string, unknown>;
const THREE_ERROR_PATHS = ['/entities/0/fields/3/weights', '/entities/0/fields/6/type', '/entities/1/fields/1/references/field'];

describe('structural and semantic errors at once', () => {
  it('are all reported by the validate endpoint', async () => {
    const { data } = await t.client(t.teamKey).POST('/public/v1/schema-config/validate', { body: { schema: threeErrors } });
    expect(data!.valid).toBe(false);
    expect(data!.errors.map((issue) => issue.path)).toEqual(THREE_ERROR_PATHS);
  });

  it('are all in the details of a refused schema and of a refused version, and nothing is stored', async () => {
    const api = t.client(t.teamKey);
    const refused = await fetch(`${t.url}/public/v1/projects/${projectId}/schemas`, {
      method: 'POST',
      headers: { 'x-api-key': t.teamKey, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Three errors', initialVersion: { schema: threeErrors } }),
    });
    expect(refused.status).toBe(400);
    const body = (await refused.json()) as { details: Array<{ path: string }> };
    expect(body.details.map((issue) => issue.path)).toEqual(THREE_ERROR_PATHS);
    const names = (await api.GET('/public/v1/projects/{projectId}/schemas', { params: { path: { projectId } } })).data!.map((s) => s.name);
    expect(names).not.toContain('Three errors');

    const schema = (await api.POST('/public/v1/projects/{projectId}/schemas', { params: { path: { projectId } }, body: { name: 'Versioned' } })).data!;
    const version = await fetch(`${t.url}/public/v1/projects/${projectId}/schemas/${schema.id}/versions`, {
      method: 'POST',
      headers: { 'x-api-key': t.teamKey, 'content-type': 'application/json' },
      body: JSON.stringify({ schema: threeErrors }),
    });
    expect(version.status).toBe(400);
    const details = ((await version.json()) as { details: Array<{ path: string }> }).details;
    expect(details.map((issue) => issue.path)).toEqual(THREE_ERROR_PATHS);
  });
});

describe('POST /public/v1/schema-config/validate', () => {
  it('accepts a valid config', async () => {
    const { data, response } = await t.client(t.teamKey).POST('/public/v1/schema-config/validate', { body: { schema: loose(blogConfig()) } });
    expect(response.status).toBe(200);
    expect(data).toMatchObject({ valid: true, errors: [] });
  });

  it('reports errors and warnings without storing anything', async () => {
    const config = withWeightsMismatch();
    config.entities[0]!.fields[3]!.generation = { uniqueValues: true };
    const { data } = await t.client(t.teamKey).POST('/public/v1/schema-config/validate', { body: { schema: loose(config) } });
    expect(data!.valid).toBe(false);
    expect(data!.errors).toContainEqual({ path: '/entities/0/fields/3/weights', message: expect.stringMatching(/weights has 2 entries but values has 3/) });
  });

  it('warns when a unique pool is smaller than the row count', async () => {
    const config = blogConfig();
    config.entities[0]!.fields[3]!.generation = { uniqueValues: true };
    const { data } = await t.client(t.teamKey).POST('/public/v1/schema-config/validate', { body: { schema: loose(config) } });
    expect(data!.valid).toBe(true);
    const warning = data!.warnings.find((item) => item.path === '/entities/0/fields/3');
    expect(warning?.message).toMatch(/3/);
  });

  it('needs a team key and an object', async () => {
    expect((await t.client().POST('/public/v1/schema-config/validate', { body: { schema: loose(blogConfig()) } })).response.status).toBe(401);
    const response = await fetch(`${t.url}/public/v1/schema-config/validate`, {
      method: 'POST',
      headers: { 'x-api-key': t.teamKey, 'content-type': 'application/json' },
      body: JSON.stringify({ schema: [1, 2] }),
    });
    expect(response.status).toBe(400);
  });
});

describe('scope rules on schema paths', () => {
  it('answers 404 for another team and 403 outside a key’s scope', async () => {
    const api = t.client(t.teamKey);
    const schema = (await api.POST('/public/v1/projects/{projectId}/schemas', { params: { path: { projectId } }, body: { name: 'Scoped' } })).data!;
    const teams = new TeamStore(t.service.db);
    const stranger = t.client((await teams.createKey((await teams.createTeam('Strangers')).id)).key);
    const path = { projectId, schemaId: schema.id };
    expect((await stranger.GET('/public/v1/projects/{projectId}/schemas/{schemaId}', { params: { path } })).response.status).toBe(404);
    expect((await stranger.GET('/public/v1/projects/{projectId}/schemas', { params: { path: { projectId } } })).response.status).toBe(404);

    const scopedResponse = await fetch(`${t.url}/api/api-keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ projectsScope: [otherProjectId] }),
    });
    const scoped = t.client(((await scopedResponse.json()) as { key: string }).key);
    expect((await scoped.GET('/public/v1/projects/{projectId}/schemas/{schemaId}', { params: { path } })).response.status).toBe(403);
    expect((await scoped.POST('/public/v1/projects/{projectId}/schemas', { params: { path: { projectId } }, body: { name: 'x' } })).response.status).toBe(403);
    expect((await scoped.GET('/public/v1/projects/{projectId}/schemas', { params: { path: { projectId: otherProjectId } } })).response.status).toBe(200);
  });
});
