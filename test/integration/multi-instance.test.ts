// Several sds server processes on one control-plane PostgreSQL, as behind a load balancer: two worker
// instances (A, B) and an API-only one (C, SDS_WORKER=false), all with the same DATABASE_URL,
// SDS_SECRET_KEY and bootstrap team key. Each job runs exactly once, on a worker instance; a
// source's rate limit holds across all instances; runtime reads on every instance keep working
// during a regeneration; changes made through one instance reach the others within a second; the
// control plane stays consistent when instances start or claim jobs at the same moment; an instance
// stopped with SIGTERM exits while the others serve. (docs/operations.md, "Running several instances".)
import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import createClient from 'openapi-fetch';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { paths } from '../../src/contract.ts';
import { issueKey, TEAM_KEY_PREFIX } from '../../src/security/api-keys.ts';
import { bootstrapTeam } from '../../src/service.ts';
import { createDb, type Db } from '../../src/store/db.ts';
import { JobStore } from '../../src/store/jobs.ts';
import { migrate } from '../../src/store/migrate.ts';
import { TeamStore } from '../../src/store/teams.ts';
import { blogConfig } from '../fixtures/configs.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { PG_TARGET_URL } from '../helpers/dialect-targets.ts';
import { ownServer, type OwnServer } from '../helpers/own-server.ts';
import { mysqlTarget } from '../helpers/mysql.ts';
import { childEnv, startServerProcess, type ServerProcess } from '../helpers/processes.ts';
import { waitFor } from '../helpers/wait.ts';

const mysqlUrl = await mysqlTarget();

/** How long a change made through one instance may take to reach the others. */
const INVALIDATION_MS = 1_000;
const SUFFIX = randomBytes(3).toString('hex');
const teamKey = issueKey(TEAM_KEY_PREFIX).key;
const secretKey = randomBytes(32).toString('base64url');
const dataRoot = path.resolve(`.tmp/multi-instance-${process.pid}-${SUFFIX}`);

interface Instance {
  name: 'A' | 'B' | 'C';
  worker: boolean;
  server: ServerProcess;
  url: string;
  pid: number;
  api: ReturnType<typeof createClient<paths>>;
}

let database: TestDatabase;
/** PG_TARGET_URL's server as a team's own (see own-server.ts). */
let own: OwnServer;
let control: pg.Pool;
let instances: Instance[] = [];
let A: Instance;
let B: Instance;
let C: Instance;
let projectId: string;
let versionId: string;

function start(name: Instance['name'], worker: boolean): Promise<Instance> {
  const env = childEnv({
    DATABASE_URL: database.url,
    SDS_BOOTSTRAP_TEAM_KEY: teamKey,
    // Shared by every instance: a connection string sealed by one must open on the others. Each has
    // a data folder of its own, so without it each would generate a different key there.
    SDS_SECRET_KEY: secretKey,
    SDS_DATA_DIR: path.join(dataRoot, name),
    SDS_WORKER: worker ? 'true' : 'false',
    // Every source here is one team's: with the default cap of one running job per team, one job
    // runs at a time and whichever worker ends it claims the next. This file is about jobs spread
    // over instances (fairness between teams is generation-quotas.test.ts's), so no cap here.
    SDS_RUNNING_JOBS_PER_TEAM: '0',
    MYSQL_URL: mysqlUrl,
    POSTGRES_TARGET_URL: undefined,
    PORT: '0',
  });
  return startServerProcess(env).then((server) => ({
    name,
    worker,
    server,
    url: server.url,
    pid: server.child.pid!,
    api: createClient<paths>({ baseUrl: server.url, headers: { 'x-api-key': teamKey } }),
  }));
}

beforeAll(async () => {
  database = await createTestDatabase('multi_instance');
  own = await ownServer(PG_TARGET_URL);
  control = new pg.Pool({ connectionString: database.url, max: 2 });
  // A first, then B and C together: instances starting together on an empty control plane race on
  // the bootstrap key (see 'the control plane, used by several instances at the same moment').
  A = await start('A', true);
  instances = [A];
  const rest = await Promise.allSettled([start('B', true), start('C', false)]);
  for (const result of rest) if (result.status === 'fulfilled') instances.push(result.value);
  for (const result of rest) if (result.status === 'rejected') throw result.reason;
  [, B, C] = instances as [Instance, Instance, Instance];

  projectId = (await A.api.POST('/public/v1/projects', { body: { name: `Multi ${SUFFIX}` } })).data!.id;
  const schema = await C.api.POST('/public/v1/projects/{projectId}/schemas', {
    params: { path: { projectId } },
    body: { name: 'Blog', initialVersion: { schema: blogConfig() } },
  });
  versionId = (await B.api.GET('/public/v1/projects/{projectId}/schemas/{schemaId}/versions', { params: { path: { projectId, schemaId: schema.data!.id } } })).data![0]!.id;
}, 180_000);

afterAll(async () => {
  // The project's sources go with it, their MySQL databases too.
  if (projectId) await instances[0]?.api.DELETE('/public/v1/projects/{projectId}', { params: { path: { projectId } } }).catch(() => {});
  await Promise.all(
    instances.map((instance) => {
      const killLate = setTimeout(() => void instance.server.stop('SIGKILL'), 10_000);
      return instance.server.stop('SIGTERM').finally(() => clearTimeout(killLate));
    }),
  );
  await control?.end();
  await own?.close();
  await database?.drop();
  fs.rmSync(dataRoot, { recursive: true, force: true });
});

// ---------------------------------------------------------------------------------------------
// helpers


/** A source's creation body, less `kind` (default postgres) and `schemaVersionId`. */
type SourceBody = Record<string, unknown>;

async function createSource(through: Instance, body: SourceBody & { name: string }) {
  const { data, error, response } = await through.api.POST('/public/v1/projects/{projectId}/sources', {
    params: { path: { projectId } },
    body: { kind: 'postgres', schemaVersionId: versionId, ...body } as never,
  });
  expect(response.status, JSON.stringify(error)).toBe(201);
  return data!;
}

async function jobsOf(through: Instance, sourceId: string) {
  const { data } = await through.api.GET('/public/v1/projects/{projectId}/sources/{sourceId}/generation-jobs', {
    params: { path: { projectId, sourceId }, query: { limit: 1000 } },
  });
  return data!;
}

/** Waits until no job of these sources is queued or running; answers their jobs by source. */
async function settle(sourceIds: string[], timeoutMs = 60_000) {
  return waitFor(async () => {
    const all = await Promise.all(sourceIds.map((id, index) => jobsOf(instances[index % instances.length]!, id)));
    return all.every((jobs) => jobs.every((job) => job.status === 'succeeded' || job.status === 'failed')) ? all : undefined;
  }, timeoutMs, 'the generation jobs to end', 250);
}

async function regenerate(through: Instance, sourceId: string, seed?: string) {
  const { data, response } = await through.api.POST('/public/v1/projects/{projectId}/sources/{sourceId}/regenerate', {
    params: { path: { projectId, sourceId } },
    body: seed === undefined ? {} : { seed },
  });
  expect(response.status).toBe(202);
  return data!;
}

async function sourceKey(through: Instance, sourceId: string): Promise<{ id: string; key: string }> {
  const { data, response } = await through.api.POST('/public/v1/projects/{projectId}/sources/{sourceId}/api-keys', {
    params: { path: { projectId, sourceId } },
    body: {},
  });
  expect(response.status).toBe(201);
  return { id: data!.id, key: data!.key };
}

interface RuntimeAnswer {
  status: number;
  headers: Headers;
  body: { data?: Record<string, unknown>[] | Record<string, unknown>; meta?: { pagination: { total: number } }; error?: string } & Record<string, unknown>;
}

async function runtime(instance: Instance, sourceId: string, pathAndQuery: string, key?: string, init: RequestInit = {}): Promise<RuntimeAnswer> {
  const response = await fetch(`${instance.url}/runtime/${sourceId}/${pathAndQuery}`, {
    ...init,
    headers: { ...(key ? { 'x-api-key': key } : {}), ...(init.body ? { 'content-type': 'application/json' } : {}) },
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? (JSON.parse(text) as RuntimeAnswer['body']) : {} };
}

const workerPid = (worker: string | null) => (worker ? Number(worker.split(':')[1]) : undefined);

interface JobRecord {
  id: string;
  source_id: string;
  status: string;
  worker: string | null;
  started_at: Date;
  finished_at: Date;
  created_at: Date;
}

/**
 * What the control plane recorded of these jobs: each row's worker (`host:pid:random`), and per job
 * the number of events of each type (a job run twice would have two `job.started`).
 */
async function recorded(jobIds: string[]) {
  const jobs = (await control.query<JobRecord>('SELECT id, source_id, status, worker, started_at, finished_at, created_at FROM generation_jobs WHERE id = ANY($1::uuid[])', [jobIds])).rows;
  const events = (
    await control.query<{ job_id: string; type: string; workers: string[]; n: string }>(
      `SELECT job_id, type, count(*) AS n, array_agg(data->>'worker') AS workers
       FROM generation_events WHERE job_id = ANY($1::uuid[]) GROUP BY job_id, type`,
      [jobIds],
    )
  ).rows;
  const count = (jobId: string, type: string) => Number(events.find((row) => row.job_id === jobId && row.type === type)?.n ?? 0);
  const startedBy = (jobId: string) => events.find((row) => row.job_id === jobId && row.type === 'job.started')?.workers ?? [];
  return { jobs, count, startedBy };
}

/** Asserts each job ran once, on a worker instance, and jobs of one source never overlapped. */
async function expectRanOnce(jobIds: string[]) {
  const { jobs, count, startedBy } = await recorded(jobIds);
  expect(jobs).toHaveLength(jobIds.length);
  const workerPids = new Set(instances.filter((instance) => instance.worker).map((instance) => instance.pid));
  for (const job of jobs) {
    const label = `job ${job.id}`;
    expect(job.status, label).toBe('succeeded');
    expect(count(job.id, 'job.queued'), label).toBe(1);
    expect(count(job.id, 'job.started'), label).toBe(1);
    expect(count(job.id, 'job.succeeded'), label).toBe(1);
    expect(count(job.id, 'job.failed'), label).toBe(0);
    // The worker that claimed the row is the one that announced the start.
    expect(startedBy(job.id), label).toEqual([job.worker]);
    expect(workerPids, `${label} ran on ${job.worker}`).toContain(workerPid(job.worker));
  }
  // One source, one job at a time (the claim skips sources with a running job).
  const bySource = new Map<string, JobRecord[]>();
  for (const job of jobs) bySource.set(job.source_id, [...(bySource.get(job.source_id) ?? []), job]);
  for (const [sourceId, ofSource] of bySource) {
    const ordered = [...ofSource].sort((a, b) => a.started_at.getTime() - b.started_at.getTime());
    for (let index = 1; index < ordered.length; index++) {
      expect(ordered[index]!.started_at.getTime(), `jobs of source ${sourceId} overlapped`).toBeGreaterThanOrEqual(ordered[index - 1]!.finished_at.getTime());
    }
  }
  return jobs;
}

// ---------------------------------------------------------------------------------------------

describe('generation jobs across instances', () => {
  it('runs every job exactly once, on a worker instance, whichever instance queued it', async () => {
    const via = (index: number) => instances[index % instances.length]!;
    const rowCounts = { users: 3_000, posts: 3_000 };
    const specs: (SourceBody & { name: string })[] = [
      { name: `Alpha ${SUFFIX}`, generatorConfig: { rowCounts } },
      { name: `Beta ${SUFFIX}`, generatorConfig: { rowCounts } },
      { name: `Gamma ${SUFFIX}`, generatorConfig: { rowCounts } },
      // Its connection string is sealed with SDS_SECRET_KEY by the instance that creates it; the
      // worker that generates it and the instances that serve it must open it.
      // Not the control plane's server (refused: connection-guard.test.ts) but the target's, through a
      // proxy (CI's second pass runs both on one server); its schema is dropped with the project.
      { name: `Own ${SUFFIX}`, config: { connectionString: own.url, schema: `sds_own_${SUFFIX}` }, generatorConfig: { rowCounts } },
      ...(mysqlUrl ? [{ name: `Maria ${SUFFIX}`, kind: 'mysql', generatorConfig: { rowCounts } }] : []),
    ];
    // Each creation queues the first generation; then two regenerations of each, through A, B and
    // C in turn, queued while the earlier ones still run.
    const sources = [];
    for (const [index, spec] of specs.entries()) sources.push(await createSource(via(index), spec));
    const queued: string[] = [];
    for (const round of [1, 2]) {
      for (const [index, source] of sources.entries()) queued.push((await regenerate(via(index + round), source.id, `round-${round}`)).id);
    }
    const settled = await settle(sources.map((source) => source.id));
    const jobIds = settled.flat().map((job) => job.id);
    expect(jobIds).toHaveLength(sources.length * 3);
    for (const id of queued) expect(jobIds).toContain(id);
    for (const job of settled.flat()) expect(job.status, job.error ?? '').toBe('succeeded');

    const jobs = await expectRanOnce(jobIds);
    // Both worker instances took part, and the API-only one never claimed a job.
    const pids = new Set(jobs.map((job) => workerPid(job.worker)));
    expect(pids.has(A.pid), 'A ran no job').toBe(true);
    expect(pids.has(B.pid), 'B ran no job').toBe(true);
    expect(pids.has(C.pid), 'C (SDS_WORKER=false) ran a job').toBe(false);

    // Each source serves its last generation, read through every instance (C opens the sealed
    // connection string too).
    for (const [index, source] of sources.entries()) {
      const { data } = await via(index).api.GET('/public/v1/projects/{projectId}/sources/{sourceId}', { params: { path: { projectId, sourceId: source.id } } });
      expect(data!.generationAudit?.jobId).toBe(settled[index]![0]!.id);
      expect(data!.generationAudit?.seed).toBe('round-2');
      const { key } = await sourceKey(via(index), source.id);
      for (const instance of instances) {
        const answer = await runtime(instance, source.id, 'users?limit=1', key);
        expect(answer.status, `${source.name} on ${instance.name}: ${JSON.stringify(answer.body)}`).toBe(200);
        expect(answer.body.meta!.pagination.total).toBe(rowCounts.users);
      }
    }
  }, 90_000);
});

describe('rate limits across instances', () => {
  let limited: string;
  let burst: string;

  beforeAll(async () => {
    limited = (await createSource(A, { name: `Limited ${SUFFIX}`, rateLimitRpm: 20, requireAuth: false, generatorConfig: { rowCounts: { users: 5, posts: 5 } } })).id;
    burst = (await createSource(B, { name: `Burst ${SUFFIX}`, rateLimitRpm: 20, requireAuth: false, generatorConfig: { rowCounts: { users: 5, posts: 5 } } })).id;
    const settled = await settle([limited, burst]);
    for (const job of settled.flat()) expect(job.status, job.error ?? '').toBe('succeeded');
  }, 60_000);

  it('counts one budget for all instances: 20 requests succeed, then 429 with Retry-After on each', async () => {
    for (let index = 0; index < 20; index++) {
      const instance = instances[index % instances.length]!;
      const answer = await runtime(instance, limited, 'users?limit=1');
      expect(answer.status, `request ${index + 1} on ${instance.name}`).toBe(200);
      expect(answer.headers.get('ratelimit-limit')).toBe('20');
      // The remaining budget goes down across instances, not per instance.
      expect(answer.headers.get('ratelimit-remaining'), `request ${index + 1} on ${instance.name}`).toBe(String(19 - index));
    }
    for (const instance of instances) {
      const answer = await runtime(instance, limited, 'users?limit=1');
      expect(answer.status, instance.name).toBe(429);
      expect(answer.body.error).toMatch(/Rate limit of 20 requests per minute/);
      expect(answer.headers.get('ratelimit-remaining')).toBe('0');
      const retryAfter = Number(answer.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
    }
  });

  it('lets exactly the budget through when the instances are hit at the same moment', async () => {
    const answers = await Promise.all(Array.from({ length: 45 }, (_, index) => runtime(instances[index % instances.length]!, burst, 'users?limit=1')));
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(20);
    expect(statuses.filter((status) => status === 429)).toHaveLength(25);
    const remaining = answers.filter((answer) => answer.status === 200).map((answer) => Number(answer.headers.get('ratelimit-remaining')));
    expect(remaining.sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, index) => index));
  });

  it('never lets more than a larger budget through, whichever instances serve it', async () => {
    // From 200 rpm on, each instance reserves points in blocks of 1% of the budget: what an instance
    // reserved but did not spend is lost for the window, so a source gets between budget − one
    // block per instance and the budget, never more.
    const budget = 300;
    const block = 3;
    const wide = (await createSource(C, { name: `Wide ${SUFFIX}`, rateLimitRpm: budget, requireAuth: false, generatorConfig: { rowCounts: { users: 5, posts: 5 } } })).id;
    expect((await settle([wide]))[0]![0]!.status).toBe('succeeded');
    const answers: RuntimeAnswer[] = [];
    // Six rounds of sixty requests at once, spread over the instances.
    for (let round = 0; round < 6; round++) {
      answers.push(...(await Promise.all(Array.from({ length: 60 }, (_, index) => runtime(instances[index % instances.length]!, wide, 'users?limit=1')))));
    }
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status !== 200 && status !== 429)).toEqual([]);
    const served = statuses.filter((status) => status === 200).length;
    expect(served).toBeLessThanOrEqual(budget);
    expect(served).toBeGreaterThanOrEqual(budget - block * instances.length);
    // Once the budget is spent, every instance refuses.
    for (const instance of instances) expect((await runtime(instance, wide, 'users?limit=1')).status, instance.name).toBe(429);
  }, 60_000);
});

describe('runtime reads during a regeneration', () => {
  const OLD_USERS = 2_000;
  const NEW_USERS = 150_000;
  let busy: string;
  let key: string;
  let jobId: string;

  beforeAll(async () => {
    busy = (await createSource(A, { name: `Busy ${SUFFIX}`, rateLimitRpm: 1_000_000, generatorConfig: { rowCounts: { users: OLD_USERS, posts: 500 } } })).id;
    key = (await sourceKey(B, busy)).key;
    const settled = await settle([busy]);
    expect(settled[0]![0]!.status, settled[0]![0]!.error ?? '').toBe('succeeded');
  }, 60_000);

  it('answers every read on every instance with the old or the new data, never an error or a partial table', async () => {
    const patched = await C.api.PATCH('/public/v1/projects/{projectId}/sources/{sourceId}', {
      params: { path: { projectId, sourceId: busy } },
      body: { generatorConfig: { rowCounts: { users: NEW_USERS, posts: 500 } } },
    });
    expect(patched.response.status).toBe(200);

    // A live event stream on the API-only instance follows the job wherever it runs.
    const before = (await C.api.GET('/public/v1/projects/{projectId}/sources/{sourceId}/generation-events', { params: { path: { projectId, sourceId: busy }, query: { limit: 1000 } } })).data!;
    const stream = new AbortController();
    const streamed = fetch(`${C.url}/public/v1/projects/${projectId}/sources/${busy}/generation-events?after=${(before.at(-1) as { id: number } | undefined)?.id ?? 0}`, {
      headers: { 'x-api-key': teamKey, accept: 'text/event-stream' },
      signal: stream.signal,
    });

    jobId = (await regenerate(A, busy, 'big')).id;
    let phase: 'queued' | 'running' | 'done' = 'queued';
    let finalStatus = '';
    const watcher = (async () => {
      const deadline = Date.now() + 60_000;
      while (phase !== 'done' && Date.now() < deadline) {
        const { data } = await B.api.GET('/public/v1/projects/{projectId}/sources/{sourceId}/generation-jobs/{jobId}', { params: { path: { projectId, sourceId: busy, jobId } } });
        if (data!.status === 'running') phase = 'running';
        if (data!.status === 'succeeded' || data!.status === 'failed') {
          finalStatus = data!.status;
          phase = 'done';
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    })();

    const problems: string[] = [];
    const duringRun = new Map<string, number>();
    const totals = new Set<number>();
    const reader = async (instance: Instance) => {
      let afterDone = 0;
      for (let request = 0; afterDone < 5; request++) {
        const startedIn = phase;
        const answer =
          request % 3 === 2
            ? await runtime(instance, busy, `users/${1 + (request % OLD_USERS)}`, key)
            : request % 3 === 1
              ? await runtime(instance, busy, 'posts?limit=5&fields=id,authorId&populate=authorId&populate.authorId.fields=id,email', key)
              : await runtime(instance, busy, `users?limit=5&offset=${request % 100}&sort=id:asc`, key);
        const where = `${instance.name} request ${request} (${startedIn})`;
        if (answer.status !== 200) problems.push(`${where}: ${answer.status} ${JSON.stringify(answer.body)}`);
        else if (request % 3 === 2) {
          if (answer.body.id !== 1 + (request % OLD_USERS)) problems.push(`${where}: read ${JSON.stringify(answer.body)}`);
        } else {
          const rows = answer.body.data as Record<string, unknown>[];
          const total = answer.body.meta!.pagination.total;
          if (rows.length !== 5) problems.push(`${where}: ${rows.length} rows`);
          if (request % 3 === 0) {
            totals.add(total);
            if (total !== OLD_USERS && total !== NEW_USERS) problems.push(`${where}: total ${total}`);
          } else if (total !== 500) problems.push(`${where}: ${total} posts`);
          if (request % 3 === 1 && rows.some((row) => row.authorId === null || typeof row.authorId !== 'object')) problems.push(`${where}: a post without its author`);
        }
        if (startedIn === 'running' && phase === 'running') duringRun.set(instance.name, (duringRun.get(instance.name) ?? 0) + 1);
        if (phase === 'done') afterDone++;
        if (problems.length > 20) break;
      }
    };
    await Promise.all([...instances.map(reader), watcher]);
    expect(phase, 'the regeneration did not end within 60 s').toBe('done');
    expect(finalStatus).toBe('succeeded');
    expect(problems).toEqual([]);
    // The reads did overlap the generation, on every instance.
    for (const instance of instances) expect(duringRun.get(instance.name) ?? 0, `reads on ${instance.name} while the job ran`).toBeGreaterThanOrEqual(3);
    expect(totals).toContain(OLD_USERS);
    await expectRanOnce([jobId]);

    // The stream on C saw the job start and succeed.
    const response = await streamed;
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(response.headers.get('x-accel-buffering')).toBe('no');
    const reader2 = response.body!.getReader();
    let text = '';
    await waitFor(async () => {
      const { value, done } = await reader2.read();
      if (value) text += Buffer.from(value).toString();
      return done || /event: job\.succeeded/.test(text) ? true : undefined;
    }, 15_000, 'job.succeeded on the event stream of C', 0);
    stream.abort();
    expect(text).toMatch(/event: job\.started/);
    expect(text).toMatch(new RegExp(`^id: \\d+\\nevent: job\\.succeeded\\ndata: .*"jobId":"${jobId}"`, 'm'));
  }, 90_000);

  it('shows the new generation’s totals on every instance within a second of the job’s end', async () => {
    for (const instance of instances) {
      const total = await waitFor(async () => {
        const answer = await runtime(instance, busy, 'users?limit=5&offset=0&sort=id:asc', key);
        return answer.body.meta?.pagination.total === NEW_USERS ? NEW_USERS : undefined;
      }, INVALIDATION_MS, `the new total on ${instance.name}`, 50).catch(async () => (await runtime(instance, busy, 'users?limit=5&offset=0&sort=id:asc', key)).body.meta?.pagination.total);
      expect(total, `users total on ${instance.name} after the regeneration`).toBe(NEW_USERS);
    }
  });
});

describe('changes made through one instance reach the others', () => {
  let guarded: string;
  let open: string;
  let doomed: string;

  beforeAll(async () => {
    guarded = (await createSource(A, { name: `Guarded ${SUFFIX}`, rateLimitRpm: 1_000_000, generatorConfig: { rowCounts: { users: 50, posts: 50 } } })).id;
    open = (await createSource(B, { name: `Open ${SUFFIX}`, rateLimitRpm: 1_000_000, requireAuth: false, generatorConfig: { rowCounts: { users: 50, posts: 50 } } })).id;
    doomed = (await createSource(C, { name: `Doomed ${SUFFIX}`, rateLimitRpm: 1_000_000, requireAuth: false, generatorConfig: { rowCounts: { users: 50, posts: 50 } } })).id;
    const settled = await settle([guarded, open, doomed]);
    for (const job of settled.flat()) expect(job.status, job.error ?? '').toBe('succeeded');
  }, 60_000);

  /** Polls `probe` on the instance for at most INVALIDATION_MS; answers the last status seen. */
  async function statusWithin(instance: Instance, probe: () => Promise<RuntimeAnswer>, wanted: number): Promise<number> {
    const deadline = Date.now() + INVALIDATION_MS;
    for (;;) {
      const { status } = await probe();
      if (status === wanted || Date.now() > deadline) return status;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  it('a source key revoked through A is refused by B and C', async () => {
    const { id, key } = await sourceKey(A, guarded);
    // B and C have just accepted it (whatever they cache of it is fresh).
    for (const instance of [B, C]) expect((await runtime(instance, guarded, 'users?limit=1', key)).status).toBe(200);
    const revoked = await A.api.DELETE('/public/v1/projects/{projectId}/sources/{sourceId}/api-keys/{keyId}', { params: { path: { projectId, sourceId: guarded, keyId: id } } });
    expect(revoked.response.status).toBe(204);
    for (const instance of [B, C]) {
      expect(await statusWithin(instance, () => runtime(instance, guarded, 'users?limit=1', key), 401), instance.name).toBe(401);
      expect((await runtime(instance, guarded, 'users?limit=1', key)).body.error).toBe('Invalid API key');
    }
  });

  it('requireAuth switched on through A makes B and C ask for a key', async () => {
    // B and C have just served the open source (whatever they cache of it is fresh).
    for (const instance of [B, C]) expect((await runtime(instance, open, 'users?limit=1')).status).toBe(200);
    const patched = await A.api.PATCH('/public/v1/projects/{projectId}/sources/{sourceId}', { params: { path: { projectId, sourceId: open } }, body: { requireAuth: true } });
    expect(patched.data!.requireAuth).toBe(true);
    for (const instance of [B, C]) {
      expect(await statusWithin(instance, () => runtime(instance, open, 'users?limit=1'), 401), `${instance.name} still serves without a key`).toBe(401);
      expect((await runtime(instance, open, 'users?limit=1')).body.error).toBe('API key required');
    }
  });

  it('a row written through A counts in the totals B and C answer', async () => {
    const { key } = await sourceKey(A, guarded);
    const list = (instance: Instance) => runtime(instance, guarded, 'users?limit=1', key);
    const before = (await list(B)).body.meta!.pagination.total;
    expect((await list(C)).body.meta!.pagination.total).toBe(before);
    const created = await runtime(A, guarded, 'users', key, {
      method: 'POST',
      body: JSON.stringify({ email: `multi-${SUFFIX}@example.com`, firstName: 'Multi', role: 'reader', active: true, createdAt: '2024-05-01T10:00:00Z' }),
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect((await list(A)).body.meta!.pagination.total).toBe(before + 1);
    for (const instance of [B, C]) {
      const deadline = Date.now() + INVALIDATION_MS;
      let total = before;
      while (total !== before + 1 && Date.now() <= deadline) {
        total = (await list(instance)).body.meta!.pagination.total;
        if (total !== before + 1) await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(total, `users total on ${instance.name} after a write through A`).toBe(before + 1);
    }
  });

  it('a source deleted through A is gone on B and C, never answering an error', async () => {
    // Without a key, an unknown source answers as one that needs a key (its existence is not told).
    const unknown = await runtime(B, '00000000-0000-4000-8000-000000000000', 'users?limit=1');
    expect(unknown.status).toBe(401);
    for (const instance of [B, C]) expect((await runtime(instance, doomed, 'users?limit=1')).status).toBe(200);
    const deleted = await A.api.DELETE('/public/v1/projects/{projectId}/sources/{sourceId}', { params: { path: { projectId, sourceId: doomed } } });
    expect(deleted.response.status).toBe(204);
    for (const instance of [B, C]) {
      const seen: string[] = [];
      const status = await statusWithin(instance, async () => {
        const answer = await runtime(instance, doomed, 'users?limit=1');
        seen.push(`${answer.status} ${answer.body.error ?? ''}`.trim());
        return answer;
      }, unknown.status);
      expect(status, `${instance.name} answered ${seen.join(', ')}`).toBe(unknown.status);
      expect(seen.filter((answer) => answer.startsWith('5')), `${instance.name} answered ${seen.join(', ')}`).toEqual([]);
      expect((await runtime(instance, doomed, 'users?limit=1')).body.error).toBe(unknown.body.error);
    }
  });
});

describe('the control plane, used by several instances at the same moment', () => {
  let fresh: TestDatabase;
  let dbs: Db[];

  beforeAll(async () => {
    fresh = await createTestDatabase('multi_control');
    dbs = [createDb(fresh.url, { max: 2 }), createDb(fresh.url, { max: 2 }), createDb(fresh.url, { max: 2 })];
  });
  afterAll(async () => {
    await Promise.all((dbs ?? []).map((db) => db.close()));
    await fresh?.drop();
  });

  it('instances starting together with one bootstrap team key all start (the key is created once)', async () => {
    // What each instance does on a fresh control plane before it listens: migrate, then bootstrap.
    await Promise.all(dbs.map((db) => migrate(db)));
    const key = issueKey(TEAM_KEY_PREFIX).key;
    const results = await Promise.allSettled(dbs.map((db) => bootstrapTeam(new TeamStore(db), key)));
    expect(results.flatMap((result) => (result.status === 'rejected' ? [String(result.reason)] : []))).toEqual([]);
    const { rows } = await dbs[0]!.query<{ n: string }>('SELECT count(*) AS n FROM team_api_keys');
    expect(Number(rows[0]!.n)).toBe(1);
    expect(await new TeamStore(dbs[0]!).authenticate(key)).toBeDefined();
  });

  it('workers claiming at the same moment never take two jobs of one source', async () => {
    await migrate(dbs[0]!);
    const db = dbs[0]!;
    const [team, project, schema, version] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    await db.query(`INSERT INTO teams (id, slug, name) VALUES ($1, $2, 'Claims')`, [team, `claims-${SUFFIX}`]);
    await db.query(`INSERT INTO projects (id, team_id, slug, name) VALUES ($1, $2, 'claims', 'Claims')`, [project, team]);
    await db.query(`INSERT INTO schemas (id, project_id, slug, name) VALUES ($1, $2, 'blog', 'Blog')`, [schema, project]);
    await db.query(`INSERT INTO schema_versions (id, schema_id, version, config) VALUES ($1, $2, 1, $3)`, [version, schema, JSON.stringify(blogConfig())]);
    const source = async (slug: string) => {
      const id = randomUUID();
      await db.query(
        `INSERT INTO sources (id, project_id, slug, name, kind, schema_version_id, seed, target, namespace) VALUES ($1, $2, $3, $3, 'postgres', $4, 's', 'default', $3)`,
        [id, project, slug, version],
      );
      return id;
    };
    const workers = dbs.slice(0, 2).map((worker) => new JobStore(worker));
    const doubled: string[] = [];
    for (let round = 0; round < 20; round++) {
      // Two jobs of one source, then one of another: two workers claiming at once must take one of
      // each (a source runs one job at a time: two would build into the same staging namespace).
      const [busy, other] = [await source(`busy-${round}`), await source(`other-${round}`)];
      for (const sourceId of [busy, busy, other]) await workers[0]!.enqueue({ sourceId, schemaVersionId: version, seed: 's' });
      const claimed = (await Promise.all(workers.map((worker, index) => worker.claim(`worker-${index}`)))).filter((job) => job !== undefined);
      const sources = claimed.map((job) => job.sourceId);
      if (new Set(sources).size !== sources.length) doubled.push(`round ${round}: both workers took a job of one source`);
      await db.query(`UPDATE generation_jobs SET status = 'succeeded' WHERE source_id = ANY($1::uuid[])`, [[busy, other]]);
    }
    expect(doubled).toEqual([]);
  });
});

// Last: it stops C.
describe('an instance stopped with SIGTERM (a rolling deploy)', () => {
  it('exits on its own, even with a live event stream open on it, while the others keep serving', async () => {
    const sourceId = (await createSource(A, { name: `Last ${SUFFIX}`, generatorConfig: { rowCounts: { users: 5, posts: 5 } } })).id;
    const stream = new AbortController();
    const response = await fetch(`${C.url}/public/v1/projects/${projectId}/sources/${sourceId}/generation-events`, {
      headers: { 'x-api-key': teamKey, accept: 'text/event-stream' },
      signal: stream.signal,
    });
    expect(response.status).toBe(200);
    const ended = response.body!.pipeTo(new WritableStream()).then(() => 'ended', () => 'ended');
    try {
      const exited = C.server.stop('SIGTERM');
      const within = <T,>(promise: Promise<T>, ms: number, late: string) =>
        Promise.race([promise, new Promise<string>((resolve) => setTimeout(() => resolve(late), ms))]);
      expect(await within(exited, 10_000, 'still running 10 s after SIGTERM')).toBe(0);
      // The server closed the stream (its client reconnects elsewhere, resuming with Last-Event-ID).
      expect(await within(ended, 2_000, 'the event stream is still open')).toBe('ended');
      for (const instance of [A, B]) expect((await fetch(`${instance.url}/healthz`)).status, instance.name).toBe(200);
    } finally {
      stream.abort();
      await C.server.stop('SIGKILL');
      instances = instances.filter((instance) => instance !== C);
    }
  }, 30_000);
});
