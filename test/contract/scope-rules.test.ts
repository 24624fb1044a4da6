// Team isolation and projectsScope on every management operation under a project, driven by the
// operation table: another team's key gets 404 and a key scoped to another project gets 403, with
// bodies and required query parameters taken from the contract's examples (so the scope check cannot
// hide behind request validation).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApiDocument, operationTable, type OperationSpec } from '../../src/contract.ts';
import { TeamStore } from '../../src/store/teams.ts';
import { blogConfig } from '../fixtures/configs.ts';
import { waitForLatestJob } from '../helpers/generation.ts';
import { startTestService, type TestService } from '../helpers/service.ts';

const operations = operationTable().filter((operation) => operation.path.startsWith('/public/v1/projects/{projectId}'));

let t: TestService;
let ids: Record<string, string>;
let strangerKey: string;
let scopedKey: string;

beforeAll(async () => {
  t = await startTestService('scope_rules');
  const api = t.client(t.teamKey);
  const projectId = (await api.POST('/public/v1/projects', { body: { name: 'Guarded' } })).data!.id;
  const elsewhere = (await api.POST('/public/v1/projects', { body: { name: 'Elsewhere' } })).data!.id;
  const schema = (await api.POST('/public/v1/projects/{projectId}/schemas', { params: { path: { projectId } }, body: { name: 'Blog', initialVersion: { schema: blogConfig() } } })).data!;
  const version = (await api.GET('/public/v1/projects/{projectId}/schemas/{schemaId}/versions', { params: { path: { projectId, schemaId: schema.id } } })).data![0]!;
  const source = (await api.POST('/public/v1/projects/{projectId}/sources', {
    params: { path: { projectId } },
    body: { name: 'Guarded', kind: 'postgres', schemaVersionId: version.id, generatorConfig: { rowCounts: { users: 3, posts: 3 } } },
  })).data!;
  const job = await waitForLatestJob(t, projectId, source.id);
  const key = (await api.POST('/public/v1/projects/{projectId}/sources/{sourceId}/api-keys', { params: { path: { projectId, sourceId: source.id } }, body: {} })).data!;
  ids = { projectId, schemaId: schema.id, version: '1', sourceId: source.id, jobId: job.id, keyId: key.id };
  const teams = new TeamStore(t.service.db);
  strangerKey = (await teams.createKey((await teams.createTeam('Strangers')).id)).key;
  scopedKey = (await teams.createKey((await teams.findTeamBySlug('default'))!.id, { projectsScope: [elsewhere] })).key;
});
afterAll(() => t?.stop());

function request(operation: OperationSpec, key: string) {
  const path = operation.path.replace(/\{([^}]+)\}/g, (_match, name: string) => ids[name]!);
  const item = openApiDocument().paths[operation.path]![operation.method] as {
    requestBody?: { content?: Record<string, { examples?: Record<string, { value: unknown }> }> };
  };
  const example = Object.values(item.requestBody?.content?.['application/json']?.examples ?? {})[0]?.value;
  const body = item.requestBody ? JSON.stringify(example ?? {}) : undefined;
  const query = new URLSearchParams();
  for (const parameter of (item as { parameters?: { in: string; name: string; required?: boolean; example?: unknown }[] }).parameters ?? []) {
    if (parameter.in === 'query' && parameter.required) query.set(parameter.name, String(parameter.example));
  }
  return fetch(`${t.url}${path}${query.size ? `?${query}` : ''}`, {
    method: operation.method.toUpperCase(),
    headers: { 'x-api-key': key, ...(body ? { 'content-type': 'application/json' } : {}) },
    body,
  });
}

describe('every operation under /public/v1/projects/{projectId}', () => {
  it('covers the project, schema and source operations', () => {
    expect(operations.length).toBeGreaterThanOrEqual(20);
  });

  // Destructive operations run last: if one wrongly succeeded, the others would still be checked.
  const ordered = [...operations].sort((a, b) => Number(a.method === 'delete') - Number(b.method === 'delete'));
  for (const operation of ordered) {
    const name = `${operation.operationId} (${operation.method.toUpperCase()} ${operation.path})`;
    it(`${name}: another team's key → 404`, async () => {
      expect((await request(operation, strangerKey)).status).toBe(404);
    });
    it(`${name}: a key scoped to another project → 403`, async () => {
      expect((await request(operation, scopedKey)).status).toBe(403);
    });
  }
});
