// A source's target database going away and coming back, on both kinds, with sds running throughout:
// a regeneration cut off mid-load fails with a clear error (no hang, no crash), runtime requests
// answer 503 with a plain {"error"} while the target is down, and once it is back the runtime serves
// the previous generation's data (untouched by the failed one) and a new generation succeeds — all
// without restarting sds. PostgreSQL: a second embedded PostgreSQL, really stopped and started.
// MySQL: the shared MariaDB cannot be stopped, so a TCP proxy in front of it drops every connection
// and refuses new ones.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitForJob, waitForLatestJob } from '../helpers/generation.ts';
import { mysqlTarget } from '../helpers/mysql.ts';
import { blogProject, startTestService, type TestService } from '../helpers/service.ts';
import { startTargetPostgres, type TargetPostgres } from '../helpers/target-postgres.ts';
import { countRows, namespaceExists, type Kind } from '../helpers/target-sql.ts';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy.ts';
import { waitFor } from '../helpers/wait.ts';

const mysqlUrl = await mysqlTarget();

/** Users of the big regeneration: far more than load before the target is cut off. */
const BIG_USERS = 2_000_000;

let t: TestService;
let projectId: string;
let versionId: string;

// The service runs in this process: an 'error' event nobody listens to (a pg client losing its server
// while checked out) would kill a real sds. Vitest catches it; these tests assert there was none.
const uncaught: unknown[] = [];
const onUncaught = (error: unknown) => void uncaught.push(error);

beforeAll(async () => {
  process.on('uncaughtException', onUncaught);
  t = await startTestService('target_outage');
  ({ projectId, versionId } = await blogProject(t.client(t.teamKey), 'Outages'));
});
afterAll(async () => {
  process.off('uncaughtException', onUncaught);
  await t?.stop();
});

function expectNoCrash(): void {
  expect(uncaught.map((error) => String((error as Error)?.stack ?? error))).toEqual([]);
}

/** A target sds reaches through `connectionString`, that the test can take away and bring back. */
interface Outage {
  /** What the source is configured with. */
  connectionString: string;
  /** Where the test reads the target directly (the same server, not through any proxy). */
  directUrl: string;
  /** Texts no error answer may contain (the connection string, its password, its address). */
  secrets: string[];
  stop(): Promise<void>;
  start(): Promise<void>;
}


function expectNoSecrets(text: string, outage: Outage): void {
  for (const secret of outage.secrets) expect(text, `"${text}" must not contain ${secret}`).not.toContain(secret);
}

/** A clear error answer: exactly {"error": text}, the text a sentence, not a stack or a driver dump. */
async function expectUnavailable(response: Response, outage: Outage, what: string): Promise<void> {
  const text = await response.text();
  expect(response.status, `${what}: ${text}`).toBe(503);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  const body = JSON.parse(text) as Record<string, unknown>;
  expect(Object.keys(body), what).toEqual(['error']);
  expect(body.error).toMatch(/target database is unavailable/i);
  expect(body.error).not.toMatch(/\n\s+at |ECONN|Error:/);
  expectNoSecrets(text, outage);
}

function outageCases(kind: Kind, setup: () => Promise<Outage>, teardown: () => Promise<void>) {
  describe(`a ${kind} target that goes away and comes back`, () => {
    let outage: Outage;
    let sourceId: string;
    let namespace: string;
    let sourceKey: string;
    /** The runtime's users before the outage. */
    let before: { data: Array<Record<string, unknown>>; meta: { pagination: { total: number } } };
    let postsBefore: number;
    /** A second source on the same server, created while it is down. */
    let late: { id: string; key: string };

    beforeAll(async () => {
      outage = await setup();
    });
    afterAll(async () => {
      // Deleting the sources drops their namespaces (the MySQL server is shared).
      if (outage) await outage.start();
      const api = t.client(t.teamKey);
      for (const id of [sourceId, late?.id]) {
        if (id) await api.DELETE('/public/v1/projects/{projectId}/sources/{sourceId}', { params: { path: { projectId, sourceId: id } } });
      }
      await teardown();
    });

    const path = () => ({ projectId, sourceId });
    const runtimeOf = (source: { id: string; key: string }, suffix: string, init: RequestInit = {}) =>
      fetch(`${t.url}/runtime/${source.id}/${suffix}`, {
        ...init,
        headers: { 'x-api-key': source.key, ...(init.body ? { 'content-type': 'application/json' } : {}) },
      });
    const runtime = (suffix: string, init: RequestInit = {}) => runtimeOf({ id: sourceId, key: sourceKey }, suffix, init);

    it('generates into its own server', async () => {
      const api = t.client(t.teamKey);
      const { data, response } = await api.POST('/public/v1/projects/{projectId}/sources', {
        params: { path: { projectId } },
        body: {
          name: `Outage ${kind}`,
          kind,
          schemaVersionId: versionId,
          seed: 'before',
          config: { connectionString: outage.connectionString },
          generatorConfig: { rowCounts: { users: 25, posts: 40 } },
        },
      });
      expect(response.status, JSON.stringify(data)).toBe(201);
      sourceId = data!.id;
      namespace = (kind === 'postgres' ? data!.config.schema : data!.config.database)!;
      await waitForLatestJob(t, projectId, sourceId);
      expect(await countRows(kind, outage.directUrl, namespace, 'users')).toBe(25);
      postsBefore = (await countRows(kind, outage.directUrl, namespace, 'posts'))!;
      expect(postsBefore).toBe(40);
      sourceKey = (await api.POST('/public/v1/projects/{projectId}/sources/{sourceId}/api-keys', { params: { path: path() }, body: {} })).data!.key;
      const list = await runtime('users?limit=1000&sort=id');
      expect(list.status).toBe(200);
      before = (await list.json()) as typeof before;
      expect(before.meta.pagination.total).toBe(25);
      expect(before.data).toHaveLength(25);
    });

    it('fails a regeneration whose target stops mid-load, with a clear error, and stays up', async () => {
      const api = t.client(t.teamKey);
      const patched = await api.PATCH('/public/v1/projects/{projectId}/sources/{sourceId}', {
        params: { path: path() },
        body: { generatorConfig: { rowCounts: { users: BIG_USERS, posts: 10 } } },
      });
      expect(patched.response.status).toBe(200);
      const job = (await api.POST('/public/v1/projects/{projectId}/sources/{sourceId}/regenerate', { params: { path: path() }, body: {} })).data!;

      // Cut off once rows are streaming into the staging tables.
      const loading = await waitFor(async () => {
        const { data } = await api.GET('/public/v1/projects/{projectId}/sources/{sourceId}/generation-jobs/{jobId}', { params: { path: { ...path(), jobId: job.id } } });
        if (data && data.status !== 'queued' && data.status !== 'running') throw new Error(`the big regeneration ended (${data.status}: ${data.error}) before it could be cut off`);
        return data?.status === 'running' && data.rowsInserted > 0 ? data : undefined;
      }, 45_000, 'the big regeneration to load rows');
      expect(loading.rowsInserted).toBeLessThan(BIG_USERS);
      await outage.stop();

      // Ends by itself, promptly: no hang on a connection that is gone.
      const failed = await waitForJob(t, projectId, sourceId, job.id, 30_000);
      expect(failed.status).toBe('failed');
      expect(failed.error).toMatch(/target database/i);
      expect(failed.error!.length).toBeLessThan(300);
      expectNoSecrets(failed.error!, outage);
      const events = (await api.GET('/public/v1/projects/{projectId}/sources/{sourceId}/generation-events', {
        params: { path: path(), query: { jobId: job.id, limit: 1000 } },
      })).data as Array<{ type: string; message: string }>;
      expect(events.at(-1)).toMatchObject({ type: 'job.failed' });
      expectNoSecrets(JSON.stringify(events), outage);

      // The service is up and its control plane fine.
      const health = await fetch(`${t.url}/healthz`);
      expect(health.status).toBe(200);
      expect(await health.json()).toMatchObject({ status: 'ok' });
      expectNoCrash();
    }, 90_000);

    it('answers every runtime operation with 503 and a clear error while the target is down', async () => {
      await expectUnavailable(await runtime('users?limit=5'), outage, 'list');
      await expectUnavailable(await runtime(`posts?limit=5&populate=authorId`), outage, 'list with populate');
      await expectUnavailable(await runtime('users/1'), outage, 'get');
      const user = { id: 1_000_001, email: 'outage@example.com', firstName: 'Out', role: 'reader', active: true, createdAt: '2024-01-01T00:00:00.000Z' };
      await expectUnavailable(await runtime('users', { method: 'POST', body: JSON.stringify(user) }), outage, 'create');
      await expectUnavailable(await runtime('users/1', { method: 'PATCH', body: JSON.stringify({ firstName: 'Changed' }) }), outage, 'update');
      await expectUnavailable(await runtime('users/1', { method: 'DELETE' }), outage, 'delete');
      // Management reads that need only the control plane still work.
      const api = t.client(t.teamKey);
      expect((await api.GET('/public/v1/projects/{projectId}/sources/{sourceId}', { params: { path: path() } })).response.status).toBe(200);
      const health = await fetch(`${t.url}/healthz`);
      expect(health.status).toBe(200);
      expectNoCrash();
    });

    it('fails a generation started while the target is down, at once and clearly', async () => {
      const api = t.client(t.teamKey);
      const job = (await api.POST('/public/v1/projects/{projectId}/sources/{sourceId}/regenerate', { params: { path: path() }, body: {} })).data!;
      const failed = await waitForJob(t, projectId, sourceId, job.id, 30_000);
      expect(failed.status).toBe('failed');
      expect(failed.error).toMatch(/target database/i);
      expectNoSecrets(failed.error!, outage);
    });

    it('fails the first generation of a source created while the target is down, and its runtime answers 503', async () => {
      const api = t.client(t.teamKey);
      const { data, response } = await api.POST('/public/v1/projects/{projectId}/sources', {
        params: { path: { projectId } },
        body: {
          name: `Late ${kind}`,
          kind,
          schemaVersionId: versionId,
          config: { connectionString: outage.connectionString },
          generatorConfig: { rowCounts: { users: 5, posts: 5 } },
        },
      });
      expect(response.status, JSON.stringify(data)).toBe(201);
      const job = await waitForLatestJob(t, projectId, data!.id, 'failed');
      expect(job.error).toMatch(/target database unreachable/i);
      expectNoSecrets(job.error!, outage);
      const key = (await api.POST('/public/v1/projects/{projectId}/sources/{sourceId}/api-keys', { params: { path: { projectId, sourceId: data!.id } }, body: {} })).data!.key;
      late = { id: data!.id, key };
      // This process never reached the server for it: the runtime's first connection is the one refused.
      await expectUnavailable(await runtimeOf(late, 'users?limit=5'), outage, 'list of a never-connected source');
      await expectUnavailable(await runtimeOf(late, 'users/1', { method: 'DELETE' }), outage, 'delete of a never-connected source');
    });

    it('serves the previous data again once the target is back, without a restart, and regenerates', async () => {
      await outage.start();
      // The first request after the target is back already succeeds: no dead pooled connection answers it.
      const list = await runtime('users?limit=1000&sort=id');
      expect(list.status, await list.clone().text()).toBe(200);
      // The failed regenerations never touched the live tables.
      expect(await list.json()).toEqual(before);
      expect((await runtime('users/1')).status).toBe(200);
      expect(await countRows(kind, outage.directUrl, namespace, 'users')).toBe(25);
      expect(await countRows(kind, outage.directUrl, namespace, 'posts')).toBe(postsBefore);

      // Writes work again.
      const id = String(before.data[0]!.id);
      const patched = await runtime(`users/${id}`, { method: 'PATCH', body: JSON.stringify({ firstName: 'Recovered' }) });
      expect(patched.status, await patched.clone().text()).toBe(200);
      expect(await patched.json()).toMatchObject({ firstName: 'Recovered' });

      // And so does generation.
      const api = t.client(t.teamKey);
      await api.PATCH('/public/v1/projects/{projectId}/sources/{sourceId}', {
        params: { path: path() },
        body: { generatorConfig: { rowCounts: { users: 30, posts: 45 } } },
      });
      const job = (await api.POST('/public/v1/projects/{projectId}/sources/{sourceId}/regenerate', { params: { path: path() }, body: {} })).data!;
      const done = await waitForJob(t, projectId, sourceId, job.id, 60_000);
      expect(done.status, done.error ?? '').toBe('succeeded');
      const after = await runtime('users?limit=0');
      expect(after.status).toBe(200);
      expect(((await after.json()) as typeof before).meta.pagination.total).toBe(30);
      expect(await countRows(kind, outage.directUrl, namespace, 'posts')).toBe(45);
      // The staging namespaces the failed runs could not drop while the target was down are gone too.
      expect(await namespaceExists(kind, outage.directUrl, `${namespace}__next`)).toBe(false);

      // The source created during the outage generates and serves too.
      const lateJob = (await api.POST('/public/v1/projects/{projectId}/sources/{sourceId}/regenerate', { params: { path: { projectId, sourceId: late.id } }, body: {} })).data!;
      const lateDone = await waitForJob(t, projectId, late.id, lateJob.id, 60_000);
      expect(lateDone.status, lateDone.error ?? '').toBe('succeeded');
      const lateList = await runtimeOf(late, 'users?limit=0');
      expect(lateList.status, await lateList.clone().text()).toBe(200);
      expect(((await lateList.json()) as typeof before).meta.pagination.total).toBe(5);
      expectNoCrash();
    }, 90_000);
  });
}

let targetPostgres: TargetPostgres | undefined;
outageCases(
  'postgres',
  async () => {
    targetPostgres = await startTargetPostgres();
    const server = targetPostgres;
    return {
      connectionString: server.url,
      directUrl: server.url,
      secrets: [server.url, server.password, `:${server.port}`],
      stop: () => server.stop(),
      start: () => server.start(),
    };
  },
  async () => {
    await targetPostgres?.destroy();
  },
);

let proxy: TcpProxy | undefined;
if (mysqlUrl) {
  outageCases(
    'mysql',
    async () => {
      const direct = new URL(mysqlUrl);
      proxy = await startTcpProxy({ host: direct.hostname, port: Number(direct.port || 3306) });
      const through = new URL(mysqlUrl);
      through.host = `127.0.0.1:${proxy.port}`;
      const running = proxy;
      return {
        connectionString: through.toString(),
        directUrl: mysqlUrl,
        secrets: [through.toString(), `:${running.port}`, ...(direct.password ? [decodeURIComponent(direct.password)] : [])],
        stop: () => running.stop(),
        start: () => running.start(),
      };
    },
    async () => {
      await proxy?.close();
    },
  );
}
