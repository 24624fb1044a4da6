// Targets that are slow or whose network path goes dark, on both engines: a runtime statement is cut
// at the query timeout (SDS_QUERY_TIMEOUT_MS) and answers 504 with a plain {"error"}, whether the
// server runs it too long (a slow view: pg_sleep, SLEEP()), waits on a locked row, or never answers
// (a black-holed proxy); a generation load whose connection stops moving fails after
// SDS_LOAD_IDLE_TIMEOUT_MS instead of waiting minutes for TCP keep-alive. The service keeps serving
// throughout, and everything works again once the path is back.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConnectOptions, TargetConnection } from '../../src/dialects/dialect.ts';
import { connectMysql } from '../../src/dialects/mysql/mysql-dialect.ts';
import { connectPostgres } from '../../src/dialects/postgres/postgres-dialect.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { waitForJob, waitForLatestJob } from '../helpers/generation.ts';
import { mysqlTarget } from '../helpers/mysql.ts';
import { blogProject, startTestService, type TestService } from '../helpers/service.ts';
import { qualified, withTarget, type Kind } from '../helpers/target-sql.ts';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy.ts';

const mysqlUrl = await mysqlTarget();
const QUERY_TIMEOUT_MS = 800;
const LOAD_IDLE_TIMEOUT_MS = 1_500;
/** Teams' servers' connect timeout (SDS_CONNECT_TIMEOUT_MS): what a failed load's clean-up waits at most for the dark target. */
const CONNECT_TIMEOUT_MS = 2_000;
/** How long the slow statements would run: far past the timeout, so an answer in time is not theirs. */
const SLOW_SECONDS = 20;

let pgTarget: TestDatabase;
let t: TestService;
let projectId: string;
let versionId: string;

beforeAll(async () => {
  pgTarget = await createTestDatabase('timeouts_target');
  t = await startTestService('timeouts', { queryTimeoutMs: QUERY_TIMEOUT_MS, loadIdleTimeoutMs: LOAD_IDLE_TIMEOUT_MS, connectTimeoutMs: CONNECT_TIMEOUT_MS });
  ({ projectId, versionId } = await blogProject(t.client(t.teamKey), 'Timeouts'));
});
afterAll(async () => {
  await t?.stop();
  await pgTarget?.drop();
});

/** `url` with its host and port replaced by the proxy's. */
function throughProxy(url: string, proxy: TcpProxy): string {
  const parsed = new URL(url);
  parsed.hostname = '127.0.0.1';
  parsed.port = String(proxy.port);
  return parsed.toString();
}

function proxied(url: string): Promise<TcpProxy> {
  const parsed = new URL(url);
  return startTcpProxy({ host: parsed.hostname === 'localhost' ? '127.0.0.1' : parsed.hostname, port: Number(parsed.port || (parsed.protocol === 'mysql:' ? 3306 : 5432)) });
}

/** A plain {"error"} answer with `status`, its text a sentence. */
async function expectError(response: Response, status: number, pattern: RegExp): Promise<void> {
  const text = await response.text();
  expect(response.status, text).toBe(status);
  const body = JSON.parse(text) as Record<string, unknown>;
  expect(Object.keys(body)).toEqual(['error']);
  expect(body.error).toMatch(pattern);
  expect(body.error).not.toMatch(/\n\s+at |ECONN|Error:|pg_sleep|SLEEP/);
}

const SLEEP = { postgres: (seconds: number) => `pg_sleep(${seconds})`, mysql: (seconds: number) => `SLEEP(${seconds})` } satisfies Record<Kind, (seconds: number) => string>;

describe('the dialects limit runtime statements', () => {
  const cases: Array<[Kind, () => string | undefined, (url: string, options: ConnectOptions) => Promise<TargetConnection>]> = [
    ['postgres', () => pgTarget.url, connectPostgres],
    ['mysql', () => mysqlUrl, connectMysql],
  ];
  for (const [kind, url, connect] of cases) {
    it.skipIf(kind === 'mysql' && !mysqlUrl)(`${kind}: query and transaction fail as timeouts at the query timeout, and the connection serves on`, async () => {
      const connection = await connect(url()!, { queryTimeoutMs: QUERY_TIMEOUT_MS });
      try {
        const slow = `SELECT ${SLEEP[kind](SLOW_SECONDS)} AS slept`;
        const read = await connection.query(slow, []).then(() => undefined, (error: unknown) => error);
        expect(connection.dialect.mapError(read)).toMatchObject({ kind: 'timeout' });
        const inTransaction = await connection.transaction((tx) => tx.query(slow, [])).then(() => undefined, (error: unknown) => error);
        expect(connection.dialect.mapError(inTransaction)).toMatchObject({ kind: 'timeout' });
        expect(await connection.query('SELECT 1 AS one', [])).toEqual([{ one: 1 }]);
      } finally {
        await connection.close();
      }
    }, 30_000);

    it.skipIf(kind === 'mysql' && !mysqlUrl)(`${kind}: a streamed export outlives the query timeout: its batches come quickly, the whole takes longer`, async () => {
      const connection = await connect(url()!, { queryTimeoutMs: QUERY_TIMEOUT_MS });
      try {
        // 600 rows, 3 ms each: about 1.8 s in all, each batch of 20 about 60 ms.
        const sql =
          kind === 'postgres'
            ? 'SELECT g AS n, pg_sleep(0.003) AS s FROM generate_series(1, 600) g'
            : 'WITH RECURSIVE seq(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < 600) SELECT n, SLEEP(0.003) AS s FROM seq';
        const started = Date.now();
        let rows = 0;
        for await (const batch of connection.streamRows(sql, [], 20)) rows += batch.length;
        expect(rows).toBe(600);
        expect(Date.now() - started).toBeGreaterThan(QUERY_TIMEOUT_MS);
      } finally {
        await connection.close();
      }
    }, 30_000);
  }
});

function timeoutCases(kind: Kind, targetUrl: () => string) {
  describe(`a ${kind} target that is slow, then goes dark`, () => {
    let proxy: TcpProxy;
    let sourceId: string;
    let namespace: string;
    let key: string;
    const path = () => ({ projectId, sourceId });
    const runtime = (suffix: string, init: RequestInit = {}) =>
      fetch(`${t.url}/runtime/${sourceId}/${suffix}`, { ...init, headers: { 'x-api-key': key, ...(init.body ? { 'content-type': 'application/json' } : {}) } });
    const users = () => qualified(kind, namespace, 'users');

    beforeAll(async () => {
      proxy = await proxied(targetUrl());
      const api = t.client(t.teamKey);
      const { data, response } = await api.POST('/public/v1/projects/{projectId}/sources', {
        params: { path: { projectId } },
        body: {
          name: `Timeouts ${kind}`,
          kind,
          schemaVersionId: versionId,
          config: { connectionString: throughProxy(targetUrl(), proxy) },
          generatorConfig: { rowCounts: { users: 25, posts: 40 } },
        },
      });
      expect(response.status, JSON.stringify(data)).toBe(201);
      sourceId = data!.id;
      namespace = (kind === 'postgres' ? data!.config.schema : data!.config.database)!;
      await waitForLatestJob(t, projectId, sourceId);
      key = (await api.POST('/public/v1/projects/{projectId}/sources/{sourceId}/api-keys', { params: { path: path() }, body: {} })).data!.key;
    }, 90_000);
    afterAll(async () => {
      proxy?.restore();
      if (sourceId) await t.client(t.teamKey).DELETE('/public/v1/projects/{projectId}/sources/{sourceId}', { params: { path: path() } });
      await proxy?.close();
    });

    it('answers a read the server runs past the query timeout with 504, then serves on', async () => {
      // users becomes a view that sleeps before it answers.
      const hidden = qualified(kind, namespace, 'users_rows');
      await withTarget(kind, targetUrl(), async (query) => {
        await query(kind === 'postgres' ? `ALTER TABLE ${users()} RENAME TO "users_rows"` : `RENAME TABLE ${users()} TO ${hidden}`);
        await query(`CREATE VIEW ${users()} AS SELECT u.* FROM ${hidden} u, (SELECT ${SLEEP[kind](SLOW_SECONDS)} AS slept) s`);
      });
      try {
        await expectError(await runtime('users?limit=5'), 504, /^Target database did not answer in time/);
        await expectError(await runtime('users/1'), 504, /did not answer in time/);
        expect((await runtime('posts?limit=5')).status).toBe(200);
      } finally {
        await withTarget(kind, targetUrl(), async (query) => {
          await query(`DROP VIEW ${users()}`);
          await query(kind === 'postgres' ? `ALTER TABLE ${hidden} RENAME TO "users"` : `RENAME TABLE ${hidden} TO ${users()}`);
        });
      }
      expect((await runtime('users?limit=5')).status).toBe(200);
    }, 60_000);

    it('answers a write that waits on a locked row past the query timeout with 504, and changes nothing', async () => {
      const release = await lockUser(kind, targetUrl(), users(), 1);
      try {
        await expectError(await runtime('users/1', { method: 'PATCH', body: JSON.stringify({ firstName: 'Blocked' }) }), 504, /did not answer in time/);
      } finally {
        await release();
      }
      const user = (await (await runtime('users/1')).json()) as { firstName: string };
      expect(user.firstName).not.toBe('Blocked');
      const patched = await runtime('users/1', { method: 'PATCH', body: JSON.stringify({ firstName: 'Free' }) });
      expect(patched.status, await patched.clone().text()).toBe(200);
    }, 60_000);

    it('answers 504 instead of hanging when the target stops answering, and serves again once it is back', async () => {
      expect((await runtime('users?limit=5')).status).toBe(200);
      proxy.blackhole();
      try {
        // The pooled connection's request gets no answer: the client gives up on it.
        await expectError(await runtime('users/2'), 504, /did not answer in time/);
        expect((await fetch(`${t.url}/healthz`)).status).toBe(200);
      } finally {
        proxy.restore();
      }
      const list = await runtime('users?limit=5');
      expect(list.status, await list.clone().text()).toBe(200);
    }, 60_000);

    it('fails a generation whose target stops answering mid-load after the idle limit, clearly, and generates once it is back', async () => {
      const api = t.client(t.teamKey);
      await api.PATCH('/public/v1/projects/{projectId}/sources/{sourceId}', { params: { path: path() }, body: { generatorConfig: { rowCounts: { users: 2_000_000, posts: 10 } } } });
      const job = (await api.POST('/public/v1/projects/{projectId}/sources/{sourceId}/regenerate', { params: { path: path() }, body: {} })).data!;
      for (let loaded = false; !loaded; ) {
        const { data } = await api.GET('/public/v1/projects/{projectId}/sources/{sourceId}/generation-jobs/{jobId}', { params: { path: { ...path(), jobId: job.id } } });
        if (data!.status !== 'queued' && data!.status !== 'running') throw new Error(`the regeneration ended (${data!.status}: ${data!.error}) before its target went dark`);
        loaded = data!.status === 'running' && data!.rowsInserted > 0;
        if (!loaded) await new Promise((resolve) => setTimeout(resolve, 50));
      }
      proxy.blackhole();
      let failed;
      try {
        // TCP keep-alive would take minutes; the load gives up after LOAD_IDLE_TIMEOUT_MS, and the worker's
        // clean-up of the staging data waits at most the pool's connect timeout (CONNECT_TIMEOUT_MS).
        failed = await waitForJob(t, projectId, sourceId, job.id, 45_000);
      } finally {
        proxy.restore();
      }
      expect(failed.status).toBe('failed');
      expect(failed.error).toMatch(/^Target database connection failed \(ESTALLED\): nothing went to or came from the target database for 1\.5 s during a load/);
      expect(failed.error).not.toContain(String(proxy.port));

      await api.PATCH('/public/v1/projects/{projectId}/sources/{sourceId}', { params: { path: path() }, body: { generatorConfig: { rowCounts: { users: 30, posts: 20 } } } });
      const again = (await api.POST('/public/v1/projects/{projectId}/sources/{sourceId}/regenerate', { params: { path: path() }, body: {} })).data!;
      const done = await waitForJob(t, projectId, sourceId, again.id, 60_000);
      expect(done.status, done.error ?? '').toBe('succeeded');
      expect(((await (await runtime('users?limit=0')).json()) as { meta: { pagination: { total: number } } }).meta.pagination.total).toBe(30);
    }, 120_000);
  });
}

/** Locks a user row in a transaction of a connection of its own; resolves to the function that lets it go. */
async function lockUser(kind: Kind, url: string, table: string, id: number): Promise<() => Promise<void>> {
  if (kind === 'postgres') {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query('BEGIN');
    await client.query(`SELECT 1 FROM ${table} WHERE "id" = $1 FOR UPDATE`, [id]);
    return async () => {
      await client.query('ROLLBACK');
      await client.end();
    };
  }
  const { default: mysql } = await import('mysql2/promise');
  const connection = await mysql.createConnection({ uri: url });
  await connection.beginTransaction();
  await connection.query(`SELECT 1 FROM ${table} WHERE \`id\` = ? FOR UPDATE`, [id]);
  return async () => {
    await connection.rollback();
    await connection.end();
  };
}

timeoutCases('postgres', () => pgTarget.url);
if (mysqlUrl) timeoutCases('mysql', () => mysqlUrl);
