// GET …/sources/{sourceId}/api-changes: what moving a source to another schema version changes for
// its runtime API's clients, classified as `npm run api:diff` classifies the contract's changes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SchemaConfig } from '../../src/contract.ts';
import { TeamStore } from '../../src/store/teams.ts';
import { blogConfig } from '../fixtures/configs.ts';
import { blogProject, startTestService, type TestService } from '../helpers/service.ts';

let t: TestService;
let projectId: string;
let schemaId: string;
let v1: string;
let v2: string;
let sourceId: string;
let otherProjectVersion: string;

/** Version 2 of the blog: users lose `firstName` and get an optional `nickname`, `posts.title` may be null, and `tags` is new. */
function blogV2(): SchemaConfig {
  const config = blogConfig();
  const users = config.entities.find((entity) => entity.id === 'users')!;
  users.fields = users.fields.filter((field) => field.id !== 'firstName');
  users.fields.push({ id: 'nickname', type: 'string', nullable: true });
  const title = config.entities.find((entity) => entity.id === 'posts')!.fields.find((field) => field.id === 'title')!;
  title.nullable = true;
  config.entities.push({ id: 'tags', primaryKey: ['id'], fields: [{ id: 'id', type: 'integer' }, { id: 'label', type: 'string' }] } as SchemaConfig['entities'][number]);
  return config;
}

beforeAll(async () => {
  t = await startTestService('source_api_changes');
  const api = t.client(t.teamKey);
  ({ projectId, schemaId, versionId: v1 } = await blogProject(api, 'API changes'));
  const created = await api.POST('/public/v1/projects/{projectId}/schemas/{schemaId}/versions', { params: { path: { projectId, schemaId } }, body: { schema: blogV2() } });
  expect(created.response.status, JSON.stringify(created.error)).toBe(201);
  v2 = created.data!.id;
  const source = await api.POST('/public/v1/projects/{projectId}/sources', {
    params: { path: { projectId } },
    body: { name: 'Blog data', kind: 'postgres', schemaVersionId: v1, generatorConfig: { rowCounts: { users: 5, posts: 5 } } },
  });
  sourceId = source.data!.id;
  otherProjectVersion = (await blogProject(api, 'Another project')).versionId;
});
afterAll(() => t?.stop());

const changesOf = (query: Record<string, string>, key = t.teamKey) =>
  t.client(key).GET('/public/v1/projects/{projectId}/sources/{sourceId}/api-changes', { params: { path: { projectId, sourceId }, query: query as { to: string } } });

describe('GET …/sources/{sourceId}/api-changes', () => {
  it('lists what the next version breaks, breaking changes first, from the version the source is bound to', async () => {
    const { data, response } = await changesOf({ to: v2 });
    expect(response.status).toBe(200);
    expect(data!.sourceId).toBe(sourceId);
    expect(data!.from).toEqual({ schemaVersionId: v1, schemaId, version: 1 });
    expect(data!.to).toEqual({ schemaVersionId: v2, schemaId, version: 2 });
    expect(data!.breaking).toBe(true);
    const changes = data!.changes;
    expect(data!.counts.breaking).toBe(changes.filter((change) => change.type === 'breaking').length);
    expect(data!.counts.breaking + data!.counts.nonBreaking + data!.counts.annotation + data!.counts.deprecated + data!.counts.unclassified).toBe(changes.length);
    // Breaking changes come first.
    const firstOther = changes.findIndex((change) => change.type !== 'breaking');
    expect(changes.slice(firstOther).some((change) => change.type === 'breaking')).toBe(false);
    const breaking = changes.filter((change) => change.type === 'breaking');
    // A client reading users' firstName loses it; a client reading posts' title may now get null.
    // Operations are named as the source's runtime document names them (`GET /users`, relative to its server).
    const on = (method: string, table: string) => (change: { operation?: string }) => new RegExp(`^${method} /${table}(/\\{id\\})?$`).test(change.operation ?? '');
    expect(breaking.some((change) => change.side === 'response' && on('GET', 'users')(change) && change.location.endsWith('/firstName'))).toBe(true);
    expect(breaking.some((change) => change.side === 'response' && on('GET', 'posts')(change) && change.location.includes('/title/'))).toBe(true);
    // Clients that send users no longer need firstName: not a break.
    expect(changes.filter((change) => change.side === 'request' && change.location.includes('firstName')).every((change) => change.type === 'non-breaking')).toBe(true);
    // The new table is an addition, not a break.
    const tags = changes.filter(on('[A-Z]+', 'tags'));
    expect(tags.length).toBeGreaterThan(0);
    expect(tags.every((change) => change.type === 'non-breaking')).toBe(true);
  });

  it('the other way round, the new table going away breaks its clients', async () => {
    const { data } = await changesOf({ from: v2, to: v1 });
    expect(data!.from.version).toBe(2);
    expect(data!.breaking).toBe(true);
    expect(data!.changes.some((change) => change.type === 'breaking' && /^GET \/tags$/.test(change.operation ?? ''))).toBe(true);
  });

  it('answers no changes for the version the source is bound to', async () => {
    const { data } = await changesOf({ to: v1 });
    expect(data).toMatchObject({ breaking: false, changes: [], counts: { breaking: 0, nonBreaking: 0 } });
  });

  it("refuses another project's version with 400 naming the parameter, and leaves the source as it was", async () => {
    const { error, response } = await changesOf({ to: otherProjectVersion });
    expect(response.status).toBe(400);
    expect(error!.error).toMatch(/^to .+ is not a version of a schema in this project$/);
    expect(error!.details).toEqual([{ path: '/query/to', message: 'no such schema version in this project' }]);
    const source = await t.client(t.teamKey).GET('/public/v1/projects/{projectId}/sources/{sourceId}', { params: { path: { projectId, sourceId } } });
    expect(source.data!.schemaVersionId).toBe(v1);
  });

  it('requires `to`, as a uuid', async () => {
    expect((await changesOf({})).response.status).toBe(400);
    const { error, response } = await changesOf({ to: 'not-a-uuid' });
    expect(response.status).toBe(400);
    expect(error!.error).toMatch(/to/);
  });

  it('answers for 120 changed tables within the config work timeout (each table renamed: its operations removed, the new ones added)', async () => {
    const table = (id: string) => ({ id, primaryKey: ['id'], fields: [{ id: 'id', type: 'integer' }, ...['name', 'code', 'note', 'label'].map((field) => ({ id: field, type: 'string' }))] });
    const config = (prefix: string) => ({ formatVersion: 1, generationDefaults: { rowCount: 1 }, entities: Array.from({ length: 120 }, (_, i) => table(`${prefix}${i}`)) }) as SchemaConfig;
    const api = t.client(t.teamKey);
    const schema = (await api.POST('/public/v1/projects/{projectId}/schemas', { params: { path: { projectId } }, body: { name: 'Wide', initialVersion: { schema: config('item') } } })).data!;
    const from = (await api.GET('/public/v1/projects/{projectId}/schemas/{schemaId}/versions', { params: { path: { projectId, schemaId: schema.id } } })).data![0]!.id;
    const to = (await api.POST('/public/v1/projects/{projectId}/schemas/{schemaId}/versions', { params: { path: { projectId, schemaId: schema.id } }, body: { schema: config('thing') } })).data!.id;
    const { data, error, response } = await changesOf({ from, to });
    expect(response.status, JSON.stringify(error)).toBe(200);
    // Six operations per table: list, export, create, get, update, delete.
    expect(data!.counts).toMatchObject({ breaking: 720, nonBreaking: 720 });
    expect(data!.changes).toContainEqual({ type: 'breaking', side: 'operation', operation: 'GET /item7', location: '/', description: '[Removed] operation GET /item7' });
    expect(data!.changes).toContainEqual({ type: 'non-breaking', side: 'operation', operation: 'POST /thing119', location: '/', description: '[Added] operation POST /thing119' });
  }, 60_000);

  it("does not answer another team's key, whose team cannot see the project (404), nor no key (401)", async () => {
    const teams = new TeamStore(t.service.db);
    const other = (await teams.createKey((await teams.createTeam('Another team')).id)).key;
    expect((await changesOf({ to: v2 }, other)).response.status).toBe(404);
    const response = await fetch(`${t.url}/public/v1/projects/${projectId}/sources/${sourceId}/api-changes?to=${v2}`);
    expect(response.status).toBe(401);
  });
});
