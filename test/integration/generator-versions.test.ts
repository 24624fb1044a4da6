// Generator versions of sources: a new source records the newest version (5) unless told one, keeps
// it through updates of its generatorConfig, and its audit names it; a source that stored version 3
// (the default before version 4) keeps it; a source stored before versions
// existed (no generatorVersion) regenerates with version 1, byte for byte what version 1 gives.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generatorVersionName } from '../../src/generation/plan.ts';
import { blogConfig } from '../fixtures/configs.ts';
import { waitForLatestJob } from '../helpers/generation.ts';
import { blogProject, startTestService, type TestService } from '../helpers/service.ts';
import { tableDigest, withTarget } from '../helpers/target-sql.ts';

let t: TestService;
let projectId: string;
let versionId: string;
const ROWS = { users: 30, posts: 40 };

beforeAll(async () => {
  t = await startTestService('genver');
  ({ projectId, versionId } = await blogProject(t.client(t.teamKey), 'Versions'));
});
afterAll(() => t?.stop());

async function createSource(name: string, generatorConfig: Record<string, unknown>) {
  const api = t.client(t.teamKey);
  const created = await api.POST('/public/v1/projects/{projectId}/sources', {
    params: { path: { projectId } },
    body: { name, kind: 'postgres', schemaVersionId: versionId, seed: 'versions', generatorConfig: generatorConfig as never },
  });
  expect(created.response.status, JSON.stringify(created.error)).toBe(201);
  const job = await waitForLatestJob(t, projectId, created.data!.id);
  const source = (await api.GET('/public/v1/projects/{projectId}/sources/{sourceId}', { params: { path: { projectId, sourceId: created.data!.id } } })).data!;
  return { source, job };
}

async function digests(namespace: string): Promise<Record<string, string>> {
  const result: Record<string, string> = {};
  for (const entity of blogConfig().entities) result[entity.id] = await tableDigest('postgres', t.database.url, namespace, entity.id, 'id');
  return result;
}

describe('generator versions of sources', () => {
  it('a new source records version 5 and its audit and job name it; version 1 on request gives other data', async () => {
    const latest = await createSource('Latest', { rowCounts: ROWS });
    expect(latest.source.generatorConfig).toEqual({ rowCounts: ROWS, generatorVersion: 5 });
    expect(latest.job.generatorVersion).toBe(generatorVersionName(5));
    expect(latest.source.generationAudit!.generatorVersion).toBe(generatorVersionName(5));

    const first = await createSource('First', { rowCounts: ROWS, generatorVersion: 1 });
    expect(first.source.generatorConfig.generatorVersion).toBe(1);
    expect(first.source.generationAudit!.generatorVersion).toBe(generatorVersionName(1));
    // Same schema version, seed and row counts: only the generator version differs, and the users' names do.
    expect((await digests(first.source.config.schema!)).users).not.toBe((await digests(latest.source.config.schema!)).users);
  });

  it('keeps the version through generatorConfig updates and regenerations; an unversioned (older) source stays on version 1', async () => {
    const api = t.client(t.teamKey);
    const reference = await createSource('Reference v1', { rowCounts: ROWS, generatorVersion: 1 });
    const legacy = await createSource('Legacy', { rowCounts: ROWS });
    const path = { projectId, sourceId: legacy.source.id };

    // As a source created before generator versions existed: nothing stored.
    await withTarget('postgres', t.database.url, (query) => query(`UPDATE sources SET generator_config = generator_config - 'generatorVersion' WHERE id = '${legacy.source.id}'`));
    const regenerated = await api.POST('/public/v1/projects/{projectId}/sources/{sourceId}/regenerate', { params: { path, query: { wait: true } } });
    expect(regenerated.data!.status).toBe('succeeded');
    expect(regenerated.data!.generatorVersion).toBe(generatorVersionName(1));
    expect(await digests(legacy.source.config.schema!)).toEqual(await digests(reference.source.config.schema!));

    // Updating its settings without a version leaves it unversioned (version 1)…
    const patched = await api.PATCH('/public/v1/projects/{projectId}/sources/{sourceId}', { params: { path }, body: { generatorConfig: { rowCounts: ROWS, batchSize: 7 } } });
    expect(patched.data!.generatorConfig).toEqual({ rowCounts: ROWS, batchSize: 7 });
    // …until its owner moves it to version 2, which further updates keep.
    await api.PATCH('/public/v1/projects/{projectId}/sources/{sourceId}', { params: { path }, body: { generatorConfig: { rowCounts: ROWS, generatorVersion: 2 } } });
    const kept = await api.PATCH('/public/v1/projects/{projectId}/sources/{sourceId}', { params: { path }, body: { generatorConfig: { rowCounts: ROWS } } });
    expect(kept.data!.generatorConfig).toEqual({ rowCounts: ROWS, generatorVersion: 2 });
    const moved = await api.POST('/public/v1/projects/{projectId}/sources/{sourceId}/regenerate', { params: { path, query: { wait: true } } });
    expect(moved.data!.generatorVersion).toBe(generatorVersionName(2));
  });

  it('a source that stored version 3 (the default before version 4) keeps it through updates and regenerations', async () => {
    const api = t.client(t.teamKey);
    const before = await createSource('Stored v3', { rowCounts: ROWS, generatorVersion: 3 });
    const path = { projectId, sourceId: before.source.id };
    expect(before.job.generatorVersion).toBe(generatorVersionName(3));
    const kept = await api.PATCH('/public/v1/projects/{projectId}/sources/{sourceId}', { params: { path }, body: { generatorConfig: { rowCounts: ROWS, batchSize: 9 } } });
    expect(kept.data!.generatorConfig).toEqual({ rowCounts: ROWS, batchSize: 9, generatorVersion: 3 });
    const regenerated = await api.POST('/public/v1/projects/{projectId}/sources/{sourceId}/regenerate', { params: { path, query: { wait: true } } });
    expect(regenerated.data!.generatorVersion).toBe(generatorVersionName(3));
    const latest = await createSource('Default v5', { rowCounts: ROWS });
    expect((await digests(before.source.config.schema!)).users).not.toBe((await digests(latest.source.config.schema!)).users);
  });

  it('refuses a generator version that does not exist', async () => {
    const api = t.client(t.teamKey);
    const { response } = await api.POST('/public/v1/projects/{projectId}/sources', {
      params: { path: { projectId } },
      body: { name: 'Future', kind: 'postgres', schemaVersionId: versionId, generatorConfig: { generatorVersion: 6 as never } },
    });
    expect(response.status).toBe(400);
  });
});
