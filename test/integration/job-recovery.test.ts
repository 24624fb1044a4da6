// A generation interrupted by a killed server: after a restart the job is failed, the old data still
// serves, and the half-built staging namespace is gone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import createClient from 'openapi-fetch';
import type { paths } from '../../src/contract.ts';
import { issueKey, TEAM_KEY_PREFIX } from '../../src/security/api-keys.ts';
import { blogConfig } from '../fixtures/configs.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { childEnv, startServerProcess, type ServerProcess } from '../helpers/processes.ts';
import { countRows, namespaceExists } from '../helpers/target-sql.ts';
import { waitFor } from '../helpers/wait.ts';

let database: TestDatabase;
let server: ServerProcess | undefined;
const key = issueKey(TEAM_KEY_PREFIX).key;

beforeAll(async () => {
  database = await createTestDatabase('recovery');
});
afterAll(async () => {
  await server?.stop('SIGTERM');
  await database?.drop();
});

const env = () => childEnv({ DATABASE_URL: database.url, SDS_BOOTSTRAP_TEAM_KEY: key, PORT: '0' });
const client = (url: string) => createClient<paths>({ baseUrl: url, headers: { 'x-api-key': key } });


describe('a server killed during a generation', () => {
  it('leaves the old data serving and the job failed after a restart', async () => {
    server = await startServerProcess(env());
    let api = client(server.url);
    const projectId = (await api.POST('/public/v1/projects', { body: { name: 'Crash' } })).data!.id;
    const schema = (await api.POST('/public/v1/projects/{projectId}/schemas', {
      params: { path: { projectId } },
      body: { name: 'Blog', initialVersion: { schema: blogConfig() } },
    })).data!;
    const versionId = (await api.GET('/public/v1/projects/{projectId}/schemas/{schemaId}/versions', { params: { path: { projectId, schemaId: schema.id } } })).data![0]!.id;
    const source = (await api.POST('/public/v1/projects/{projectId}/sources', {
      params: { path: { projectId } },
      body: { name: 'Crash', kind: 'postgres', schemaVersionId: versionId, generatorConfig: { rowCounts: { users: 10, posts: 10 } } },
    })).data!;
    const path = { projectId, sourceId: source.id };
    const namespace = source.config.schema!;
    await waitFor(async () => {
      const { data } = await api.GET('/public/v1/projects/{projectId}/sources/{sourceId}', { params: { path } });
      return data?.lastGenerationAt ?? undefined;
    }, 30_000, 'the first generation');
    expect(await countRows('postgres', database.url, namespace, 'users')).toBe(10);

    const served = (await api.GET('/public/v1/projects/{projectId}/sources/{sourceId}', { params: { path } })).data!;
    expect(served.generationAudit!.seed).toBe(served.seed);

    // A big regeneration with a new seed, killed while it runs.
    await api.PATCH('/public/v1/projects/{projectId}/sources/{sourceId}', { params: { path }, body: { generatorConfig: { rowCounts: { users: 300_000, posts: 10 } } } });
    const job = (await api.POST('/public/v1/projects/{projectId}/sources/{sourceId}/regenerate', { params: { path }, body: { seed: 'never-served' } })).data!;
    expect(job.seed).toBe('never-served');
    // Queued or running, the source still shows the seed of the data it serves.
    expect((await api.GET('/public/v1/projects/{projectId}/sources/{sourceId}', { params: { path } })).data!.seed).toBe(served.seed);
    // Killed as soon as it runs: 300k rows take seconds, so the kill lands mid-generation.
    await waitFor(async () => {
      const { data } = await api.GET('/public/v1/projects/{projectId}/sources/{sourceId}/generation-jobs/{jobId}', { params: { path: { ...path, jobId: job.id } } });
      return data && data.status === 'running' ? data : undefined;
    }, 60_000, 'the regeneration to start');
    expect(await server.stop('SIGKILL')).toBeNull();
    server = undefined;
    expect(await countRows('postgres', database.url, namespace, 'users')).toBe(10);

    server = await startServerProcess(env());
    api = client(server.url);
    const failed = await waitFor(async () => {
      const { data } = await api.GET('/public/v1/projects/{projectId}/sources/{sourceId}/generation-jobs/{jobId}', { params: { path: { ...path, jobId: job.id } } });
      return data?.status === 'failed' ? data : undefined;
    }, 30_000, 'the interrupted job to be failed');
    expect(failed.error).toMatch(/Interrupted/);
    expect(await countRows('postgres', database.url, namespace, 'users')).toBe(10);
    expect(await namespaceExists('postgres', database.url, `${namespace}__next`)).toBe(false);
    // The seed of the job that never finished did not become the source's (issue 23: it used to,
    // while the old data served).
    const after = (await api.GET('/public/v1/projects/{projectId}/sources/{sourceId}', { params: { path } })).data!;
    expect(after.seed).toBe(served.seed);
    expect(after.generationAudit).toEqual(served.generationAudit);
  }, 180_000);
});
