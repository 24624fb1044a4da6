// More of the sources surface: rebinding regenerates (a new seed or settings wait for the next regeneration), admin source-key paths, the per-source OpenAPI
// document passes the linter, and secrets stay out of logs.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { promisify } from 'node:util';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SchemaConfig } from '../../src/contract.ts';
import { stagingNamespace } from '../../src/generation/run.ts';
import { TeamStore } from '../../src/store/teams.ts';
import { blogConfig } from '../fixtures/configs.ts';
import { waitForLatestJob } from '../helpers/generation.ts';
import { ADMIN_TOKEN, startTestService, type TestService } from '../helpers/service.ts';
import { withTarget } from '../helpers/target-sql.ts';

const run = promisify(execFile);
const logLines: string[] = [];
const sink = new Writable({
  write(chunk, _encoding, done) {
    logLines.push(String(chunk));
    done();
  },
});

let t: TestService;
let projectId: string;
let schemaId: string;
let versionOne: string;
let sourceId: string;

beforeAll(async () => {
  t = await startTestService('sources_more', {}, pino({ level: 'debug' }, sink));
  const api = t.client(t.teamKey);
  projectId = (await api.POST('/public/v1/projects', { body: { name: 'More' } })).data!.id;
  const schema = (await api.POST('/public/v1/projects/{projectId}/schemas', { params: { path: { projectId } }, body: { name: 'Blog', initialVersion: { schema: blogConfig() } } })).data!;
  schemaId = schema.id;
  versionOne = (await api.GET('/public/v1/projects/{projectId}/schemas/{schemaId}/versions', { params: { path: { projectId, schemaId } } })).data![0]!.id;
  sourceId = (await api.POST('/public/v1/projects/{projectId}/sources', {
    params: { path: { projectId } },
    body: { name: 'Rebind', kind: 'postgres', schemaVersionId: versionOne, generatorConfig: { rowCounts: { users: 4, posts: 4 } } },
  })).data!.id;
  await waitForLatestJob(t, projectId, sourceId);
});
afterAll(() => t?.stop());

describe('rebinding a source', () => {
  it('regenerates it with the new version’s tables', async () => {
    const api = t.client(t.teamKey);
    const config: SchemaConfig = blogConfig();
    config.entities[0]!.fields.push({ id: 'nickname', type: 'string', maxLength: 30, nullable: true });
    const two = (await api.POST('/public/v1/projects/{projectId}/schemas/{schemaId}/versions', { params: { path: { projectId, schemaId } }, body: { schema: config } })).data!;
    const path = { projectId, sourceId };
    const updated = await api.PATCH('/public/v1/projects/{projectId}/sources/{sourceId}', { params: { path }, body: { schemaVersionId: two.id } });
    expect(updated.data!.schemaVersionId).toBe(two.id);
    const job = await waitForLatestJob(t, projectId, sourceId);
    expect(job.schemaVersionId).toBe(two.id);
    const columns = await withTarget('postgres', t.database.url, (query) =>
      query(`SELECT column_name FROM information_schema.columns WHERE table_schema = '${updated.data!.config.schema}' AND table_name = 'users'`),
    );
    expect(columns.map((column) => column.column_name)).toContain('nickname');
  });

  it('keeps a new seed and new generator settings for the next regeneration, which uses them', async () => {
    const api = t.client(t.teamKey);
    const path = { projectId, sourceId };
    const jobs = async () => (await api.GET('/public/v1/projects/{projectId}/sources/{sourceId}/generation-jobs', { params: { path } })).data!;
    await waitForLatestJob(t, projectId, sourceId);
    const before = (await jobs()).length;
    const current = (await api.GET('/public/v1/projects/{projectId}/sources/{sourceId}', { params: { path } })).data!;

    // Clients change settings and then regenerate (or not): an update alone queues nothing.
    const updated = await api.PATCH('/public/v1/projects/{projectId}/sources/{sourceId}', {
      params: { path },
      body: { seed: 'another seed', generatorConfig: { ...current.generatorConfig, rowCounts: { users: 6, posts: 4 } } },
    });
    expect(updated.data!.seed).toBe('another seed');
    expect(await jobs()).toHaveLength(before);

    await api.POST('/public/v1/projects/{projectId}/sources/{sourceId}/regenerate', { params: { path }, body: {} });
    const job = await waitForLatestJob(t, projectId, sourceId);
    expect(await jobs()).toHaveLength(before + 1);
    expect(job.seed).toBe('another seed');
    const counted = await withTarget('postgres', t.database.url, (query) => query(`SELECT count(*)::int AS count FROM "${current.config.schema}"."users"`));
    expect(counted[0]?.count).toBe(6);
  });

  it('refuses a version of another project', async () => {
    const api = t.client(t.teamKey);
    const otherProject = (await api.POST('/public/v1/projects', { body: { name: 'Other' } })).data!.id;
    const otherSchema = (await api.POST('/public/v1/projects/{projectId}/schemas', { params: { path: { projectId: otherProject } }, body: { name: 'x', initialVersion: { schema: blogConfig() } } })).data!;
    const foreign = (await api.GET('/public/v1/projects/{projectId}/schemas/{schemaId}/versions', { params: { path: { projectId: otherProject, schemaId: otherSchema.id } } })).data![0]!;
    const { response } = await api.PATCH('/public/v1/projects/{projectId}/sources/{sourceId}', { params: { path: { projectId, sourceId } }, body: { schemaVersionId: foreign.id } });
    expect(response.status).toBe(400);
  });
});

describe('source names', () => {
  it('may repeat across projects of a team: the second gets a namespace of its own', async () => {
    const api = t.client(t.teamKey);
    const other = (await api.POST('/public/v1/projects', { body: { name: 'Twin' } })).data!.id;
    const otherSchema = (await api.POST('/public/v1/projects/{projectId}/schemas', { params: { path: { projectId: other } }, body: { name: 'Blog', initialVersion: { schema: blogConfig() } } })).data!;
    const otherVersion = (await api.GET('/public/v1/projects/{projectId}/schemas/{schemaId}/versions', { params: { path: { projectId: other, schemaId: otherSchema.id } } })).data![0]!.id;
    const body = { name: 'Same name', kind: 'postgres' as const, generatorConfig: { rowCounts: { users: 2, posts: 2 } } };
    const first = await api.POST('/public/v1/projects/{projectId}/sources', { params: { path: { projectId } }, body: { ...body, schemaVersionId: versionOne } });
    const second = await api.POST('/public/v1/projects/{projectId}/sources', { params: { path: { projectId: other } }, body: { ...body, schemaVersionId: otherVersion } });
    expect(first.response.status).toBe(201);
    expect(second.response.status).toBe(201);
    expect([first.data!.name, second.data!.name]).toEqual(['Same name', 'Same name']);
    expect(second.data!.config.schema).not.toBe(first.data!.config.schema);
    await waitForLatestJob(t, projectId, first.data!.id);
    await waitForLatestJob(t, other, second.data!.id);
  });
});

describe('/api/sources/{sourceId}/api-keys', () => {
  const call = (method: string, url: string, headers: Record<string, string>) =>
    fetch(`${t.url}${url}`, { method, headers: { 'content-type': 'application/json', ...headers }, body: method === 'POST' ? '{}' : undefined });

  it('manages keys with the admin token or a team key of the source’s team', async () => {
    const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };
    const created = await call('POST', `/api/sources/${sourceId}/api-keys`, admin);
    expect(created.status).toBe(201);
    const key = (await created.json()) as { id: string; key: string };
    expect(key.key).toMatch(/^svc_src_/);
    const listed = (await (await call('GET', `/api/sources/${sourceId}/api-keys`, { 'x-api-key': t.teamKey })).json()) as { id: string }[];
    expect(listed.map((item) => item.id)).toContain(key.id);
    expect((await call('DELETE', `/api/sources/${sourceId}/api-keys/${key.id}`, { 'x-api-key': t.teamKey })).status).toBe(204);

    const teams = new TeamStore(t.service.db);
    const stranger = (await teams.createKey((await teams.createTeam('Strangers')).id)).key;
    expect((await call('GET', `/api/sources/${sourceId}/api-keys`, { 'x-api-key': stranger })).status).toBe(404);
    expect((await call('GET', `/api/sources/${sourceId}/api-keys`, {})).status).toBe(401);
    expect((await call('GET', `/api/sources/${sourceId}/api-keys`, { authorization: 'Bearer wrong' })).status).toBe(401);
  });
});

describe('the per-source OpenAPI document', () => {
  it('passes Redocly’s recommended rules', async () => {
    const response = await fetch(`${t.url}/public/v1/projects/${projectId}/sources/${sourceId}/openapi.json`, { headers: { 'x-api-key': t.teamKey } });
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sds-source-openapi-'));
    const file = path.join(dir, 'openapi.json');
    fs.writeFileSync(file, await response.text());
    try {
      const { stdout, stderr } = await run(process.execPath, ['node_modules/@redocly/cli/bin/cli.js', 'lint', file, '--extends', 'recommended'], { timeout: 60_000 });
      expect(`${stdout}${stderr}`).toMatch(/valid/i);
    } catch (error) {
      const failed = error as { stdout: string; stderr: string };
      throw new Error(`redocly lint failed:\n${failed.stdout}\n${failed.stderr}`);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('secrets', () => {
  it('never appear in log lines or job errors', async () => {
    const api = t.client(t.teamKey);
    const password = 'sup3r-s3cret-pw';
    const { data } = await api.POST('/public/v1/projects/{projectId}/sources', {
      params: { path: { projectId } },
      body: { name: 'Leaky?', kind: 'postgres', schemaVersionId: versionOne, config: { connectionString: `postgres://owner:${password}@127.0.0.1:1/db` } },
    });
    const job = await waitForLatestJob(t, projectId, data!.id, 'failed');
    expect(job.error).not.toContain(password);
    expect(logLines.length).toBeGreaterThan(0);
    for (const line of logLines) {
      expect(line).not.toContain(password);
      expect(line).not.toContain(t.teamKey);
    }
  });
});

describe('deleting a source while it generates', () => {
  it('leaves neither its data nor its staging namespace behind', async () => {
    const api = t.client(t.teamKey);
    const big = (await api.POST('/public/v1/projects/{projectId}/sources', {
      params: { path: { projectId } },
      body: { name: 'Deleted midway', kind: 'postgres', schemaVersionId: versionOne, generatorConfig: { rowCounts: { users: 300_000, posts: 300_000 } } },
    })).data!;
    const namespace = big.config.schema!;
    const path = { projectId, sourceId: big.id };
    // Delete it once rows are loading.
    for (const deadline = Date.now() + 60_000; ; ) {
      const [job] = (await api.GET('/public/v1/projects/{projectId}/sources/{sourceId}/generation-jobs', { params: { path } })).data!;
      if (job?.status === 'running' && job.rowsInserted > 0) break;
      expect(job?.status, 'the generation ended before the source could be deleted midway').not.toBe('succeeded');
      if (Date.now() > deadline) throw new Error('the generation never started loading');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect((await api.DELETE('/public/v1/projects/{projectId}/sources/{sourceId}', { params: { path } })).response.status).toBe(204);

    // Other jobs go on meanwhile (worker slots): the next source's first job succeeds.
    const next = (await api.POST('/public/v1/projects/{projectId}/sources', {
      params: { path: { projectId } },
      body: { name: 'After the deletion', kind: 'postgres', schemaVersionId: versionOne, generatorConfig: { rowCounts: { users: 2, posts: 2 } } },
    })).data!;
    await waitForLatestJob(t, projectId, next.id);
    // The deleted one's generation stops at its next heartbeat (or at its end) and drops what it built.
    const leftovers = () =>
      withTarget('postgres', t.database.url, (query) =>
        query(`SELECT nspname FROM pg_namespace WHERE nspname IN ('${namespace}', '${stagingNamespace(namespace)}')`),
      );
    await expect.poll(leftovers, { timeout: 30_000, interval: 250 }).toEqual([]);
  }, 120_000);
});
