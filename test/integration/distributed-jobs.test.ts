// One generation job split across two worker processes on one control plane (issue 30), on both
// engines (each way of dying on one of them, see DIES_ON): the source holds exactly the rows one run makes, the tasks' events name their workers,
// and a worker killed (SIGKILL) while it writes a task costs only that task, which the other
// worker takes over once its lease runs out, the job still succeeding with identical data; and a
// coordinating worker killed mid-job hands the job to the other, which finishes it with identical data,
// also when it dies before it recorded the tasks or once it built the keys, before the swap.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import createClient from 'openapi-fetch';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { paths } from '../../src/contract.ts';
import type { TargetConnection } from '../../src/dialects/dialect.ts';
import { runGeneration } from '../../src/generation/run.ts';
import { issueKey, TEAM_KEY_PREFIX } from '../../src/security/api-keys.ts';
import { splitConfig } from '../fixtures/split-config.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { dialectTargets, uniqueNamespace, type DialectTarget } from '../helpers/dialect-targets.ts';
import { mysqlTarget } from '../helpers/mysql.ts';
import { childEnv, startServerProcess, type ServerProcess } from '../helpers/processes.ts';
import { tableDigest } from '../helpers/target-sql.ts';
import { waitFor } from '../helpers/wait.ts';

const mysqlUrl = await mysqlTarget();
const targets = await dialectTargets();
const teamKey = issueKey(TEAM_KEY_PREFIX).key;
const secretKey = randomBytes(32).toString('base64url');
const dataRoot = path.resolve(`.tmp/dist-jobs-${process.pid}-${randomBytes(3).toString('hex')}`);
const rowCounts = { users: 200, posts: 300, tags: 50, events: 60_000, nodes: 150 };

let database: TestDatabase;
let control: pg.Pool;
let workers: ServerProcess[] = [];
let api: ReturnType<typeof createClient<paths>>;
let projectId: string;
let versionId: string;
const references: Array<{ connection: TargetConnection; namespace: string }> = [];

function startWorker(name: string, extra: NodeJS.ProcessEnv = {}): Promise<ServerProcess> {
  return startServerProcess(
    childEnv({
      DATABASE_URL: database.url,
      SDS_BOOTSTRAP_TEAM_KEY: teamKey,
      SDS_SECRET_KEY: secretKey,
      SDS_DATA_DIR: path.join(dataRoot, name),
      SDS_RUNNING_JOBS_PER_TEAM: '0',
      // Split jobs, two tasks at once per process, small tasks and a tight lease: a dead worker's task is taken over in seconds.
      SDS_TASK_SLOTS: '2',
      SDS_TASK_ROWS: '2500',
      SDS_TASK_LEASE_MS: '5000',
      MYSQL_URL: mysqlUrl,
      POSTGRES_TARGET_URL: undefined,
      PORT: '0',
      ...extra,
    }),
  );
}

beforeAll(async () => {
  database = await createTestDatabase('dist_jobs');
  control = new pg.Pool({ connectionString: database.url, max: 2 });
  // One first: instances starting together on an empty control plane race on the bootstrap key.
  workers = [await startWorker('one')];
  workers.push(await startWorker('two'));
  api = createClient<paths>({ baseUrl: workers[0]!.url, headers: { 'x-api-key': teamKey } });
  projectId = (await api.POST('/public/v1/projects', { body: { name: 'Split jobs' } })).data!.id;
  const schema = (await api.POST('/public/v1/projects/{projectId}/schemas', { params: { path: { projectId } }, body: { name: 'Split', initialVersion: { schema: splitConfig() } } })).data!;
  versionId = (await api.GET('/public/v1/projects/{projectId}/schemas/{schemaId}/versions', { params: { path: { projectId, schemaId: schema.id } } })).data![0]!.id;
}, 240_000);

afterAll(async () => {
  if (projectId) await api?.DELETE('/public/v1/projects/{projectId}', { params: { path: { projectId } } }).catch(() => {});
  await Promise.all(workers.map((worker) => worker.stop('SIGKILL')));
  for (const { connection, namespace } of references) {
    await connection.dropNamespace(namespace).catch(() => {});
    await connection.close();
  }
  await control?.end();
  await database?.drop();
  fs.rmSync(dataRoot, { recursive: true, force: true });
});

/** The job's end, once it has one. */
async function finished(sourceId: string, jobId: string, timeoutMs = 120_000) {
  return waitFor(async () => {
    const { data } = await api.GET('/public/v1/projects/{projectId}/sources/{sourceId}/generation-jobs/{jobId}', { params: { path: { projectId, sourceId, jobId } } });
    return data && (data.status === 'succeeded' || data.status === 'failed') ? data : undefined;
  }, timeoutMs, `job ${jobId} to end`);
}

interface JobEvent {
  type: string;
  data: Record<string, unknown>;
}

async function events(sourceId: string, jobId: string): Promise<JobEvent[]> {
  const { data } = await api.GET('/public/v1/projects/{projectId}/sources/{sourceId}/generation-events', { params: { path: { projectId, sourceId }, query: { jobId, limit: 1000 } } });
  return data as JobEvent[];
}

/** Per table, the digest of the rows one in-process run makes with the job's seed and counts. */
async function referenceDigests(target: DialectTarget, seed: string): Promise<Record<string, string>> {
  const connection = await target.dialect.connect(target.url);
  const namespace = uniqueNamespace('dist_ref');
  references.push({ connection, namespace });
  await runGeneration(connection, namespace, splitConfig(), { seed, rowCounts, generatorVersion: 3 });
  return digests(target, namespace, target.url);
}

/** `url`: where the namespace is; default, where the service keeps sources of the target's kind. */
async function digests(target: DialectTarget, namespace: string, url = target.name === 'postgres' ? database.url : target.url): Promise<Record<string, string>> {
  const result: Record<string, string> = {};
  for (const entity of splitConfig().entities) result[entity.id] = await tableDigest(target.name, url, namespace, entity.id, 'id');
  return result;
}

const pidOf = (worker: string | null) => Number(worker?.split(':')[1]);
/** Jobs run until the worker that does not coordinate holds a task (each try misses with about even odds). */
const HOLD_ATTEMPTS = 10;

/**
 * Where each way of dying is tried: on one engine each (the split and its byte-identical rows are
 * checked on both), so the file stays near a minute; all on PostgreSQL when MySQL is not reachable.
 * The swap's death is MySQL's (its swap renames tables one by one), the tasks' PostgreSQL's.
 */
const DIES_ON = { 'mid-task': 'postgres', 'mid-job': 'mysql', tasks: 'postgres', swap: 'mysql' } as const;
const diesOn = (death: keyof typeof DIES_ON, target: DialectTarget) =>
  (targets.some((other) => other.name === DIES_ON[death]) ? DIES_ON[death] : 'postgres') === target.name;

describe.each(targets)('a job split across two worker processes on $name', (target) => {
  let sourceId: string;
  let namespace: string;

  it('makes the rows one run makes, each task once, its events naming the worker and rows', async () => {
    const { data: source, error } = await api.POST('/public/v1/projects/{projectId}/sources', {
      params: { path: { projectId } },
      body: { name: `Split ${target.name}`, kind: target.name, schemaVersionId: versionId, seed: 'split-jobs', generatorConfig: { rowCounts, generatorVersion: 3 } },
    });
    expect(error).toBeUndefined();
    sourceId = source!.id;
    namespace = (source!.config.schema ?? source!.config.database)!;
    const jobs = (await api.GET('/public/v1/projects/{projectId}/sources/{sourceId}/generation-jobs', { params: { path: { projectId, sourceId } } })).data!;
    const job = await finished(sourceId, jobs[0]!.id);
    expect(job.status, job.error ?? '').toBe('succeeded');
    expect(job.rowsInserted).toBe(Object.values(rowCounts).reduce((sum, rows) => sum + rows, 0));
    expect(job.entities.find((entity) => entity.id === 'events')).toEqual({ id: 'events', rowsPlanned: 60_000, rowsInserted: 60_000 });

    const { rows: tasks } = await control.query<{ seq: number; status: string; worker: string }>('SELECT seq, status, worker FROM generation_tasks WHERE job_id = $1 ORDER BY seq', [job.id]);
    expect(tasks.length).toBe(1 + 3 + 24); // the ordered task (nodes), users, posts and tags in one range each, events in 24
    expect(tasks.every((task) => task.status === 'succeeded')).toBe(true);
    const succeeded = (await events(sourceId, job.id)).filter((event) => event.type === 'task.succeeded');
    expect(succeeded.map((event) => event.data.task).sort((a, b) => Number(a) - Number(b))).toEqual(tasks.map((task) => task.seq));
    expect(succeeded.map((event) => event.data.worker)).toEqual(expect.arrayContaining([expect.stringMatching(/:\d+:/)]));
    expect(succeeded.reduce((sum, event) => sum + Number(event.data.rows), 0)).toBe(job.rowsInserted);
    expect(await digests(target, namespace)).toEqual(await referenceDigests(target, 'split-jobs'));
  }, 240_000);

  it.runIf(diesOn('mid-task', target))('survives a worker killed mid-task: its task is taken over and the data is the same', async () => {
    const path_ = { projectId, sourceId };
    // The other worker is killed while it holds a task of the job. On a loaded machine the job's own
    // worker can make every task before the other polls (its idle slots look every second; a quiet
    // machine makes the job's 28 tasks in about half that): then the next job (same seed) is the try.
    let job: { id: string } | undefined;
    let victim: ServerProcess | undefined;
    let held: { seq: number; worker: string } | undefined;
    const seen: unknown[] = [];
    for (let attempt = 0; attempt < HOLD_ATTEMPTS && !held; attempt++) {
      job = (await api.POST('/public/v1/projects/{projectId}/sources/{sourceId}/regenerate', { params: { path: path_ }, body: { seed: 'after-kill' } })).data!;
      const coordinator = await waitFor(async () => {
        const { rows } = await control.query<{ worker: string | null }>('SELECT worker FROM generation_jobs WHERE id = $1', [job!.id]);
        return rows[0]?.worker ?? undefined;
      }, 60_000, 'the job to be claimed');
      victim = workers.find((worker) => worker.child.pid !== pidOf(coordinator))!;
      const jobId = job.id;
      const candidate = victim;
      held = await waitFor(async () => {
        const { rows } = await control.query<{ seq: number; worker: string; status: string }>(
          `SELECT t.seq, t.worker, j.status FROM generation_jobs j LEFT JOIN generation_tasks t ON t.job_id = j.id AND t.status = 'running' WHERE j.id = $1`,
          [jobId],
        );
        const mine = rows.find((row) => row.worker && pidOf(row.worker) === candidate.child.pid);
        if (mine) return { seq: mine.seq, worker: mine.worker };
        return rows.every((row) => row.status !== 'running') ? null : undefined; // the job ended without it
      }, 60_000, 'the other worker to hold a task', 20).then((found) => found ?? undefined);
      if (!held) {
        const { rows } = await control.query('SELECT seq, status, worker FROM generation_tasks WHERE job_id = $1 ORDER BY seq', [jobId]);
        seen.push(rows);
        await finished(sourceId, jobId);
      }
    }
    if (!held || !victim || !job) throw new Error(`the other worker held no task in ${HOLD_ATTEMPTS} jobs\ntasks: ${JSON.stringify(seen)}\nits output: ${victim?.output().slice(-2000)}`);
    expect(await victim.stop('SIGKILL')).toBeNull();
    workers = workers.filter((worker) => worker !== victim);
    api = createClient<paths>({ baseUrl: workers[0]!.url, headers: { 'x-api-key': teamKey } });
    // The next engine's run has two workers again (this one starts while the job ends, and may join it).
    const replacement = startWorker(`again-${target.name}`).then((worker) => void workers.push(worker));

    const ended = await finished(sourceId, job.id);
    expect(ended.status, ended.error ?? '').toBe('succeeded');
    const log = await events(sourceId, job.id);
    const retried = log.filter((event) => event.type === 'task.retried');
    expect(retried.map((event) => event.data.task)).toContain(held.seq);
    expect(retried.find((event) => event.data.task === held.seq)!.data.previousWorker).toBe(held.worker);
    expect(await digests(target, namespace)).toEqual(await referenceDigests(target, 'after-kill'));
    await replacement;
  }, 300_000);

  it.runIf(diesOn('mid-job', target))('survives its coordinating worker killed mid-job: another worker takes the job over and swaps in the same data', async () => {
    const path_ = { projectId, sourceId };
    const job = (await api.POST('/public/v1/projects/{projectId}/sources/{sourceId}/regenerate', { params: { path: path_ }, body: { seed: 'coordinator-killed' } })).data!;
    const coordinator = await waitFor(async () => {
      const { rows } = await control.query<{ worker: string | null }>('SELECT worker FROM generation_jobs WHERE id = $1', [job.id]);
      return rows[0]?.worker ?? undefined;
    }, 60_000, 'the job to be claimed');
    const victim = workers.find((worker) => worker.child.pid === pidOf(coordinator))!;
    const survivor = workers.find((worker) => worker !== victim)!;
    // Killed while it waits for the tasks: some done, some not.
    await waitFor(async () => {
      const { rows } = await control.query<{ done: number; open: number }>(
        `SELECT count(*) FILTER (WHERE status = 'succeeded')::int AS done, count(*) FILTER (WHERE status <> 'succeeded')::int AS open FROM generation_tasks WHERE job_id = $1`,
        [job.id],
      );
      return rows[0]!.done > 0;
    }, 60_000, 'a task of the job to be done', 20);
    expect(await victim.stop('SIGKILL')).toBeNull();
    const { rows: [left] } = await control.query<{ open: number }>(`SELECT count(*) FILTER (WHERE status <> 'succeeded')::int AS open FROM generation_tasks WHERE job_id = $1`, [job.id]);
    workers = [survivor];
    api = createClient<paths>({ baseUrl: survivor.url, headers: { 'x-api-key': teamKey } });

    const ended = await finished(sourceId, job.id);
    expect(ended.status, `${ended.error ?? ''}\nsurvivor: ${survivor.output().slice(-2000)}`).toBe('succeeded');
    expect(left!.open).toBeGreaterThan(0); // the kill came while tasks were left to make
    const log = await events(sourceId, job.id);
    const resumed = log.filter((event) => event.type === 'job.resumed');
    expect(resumed).toHaveLength(1);
    expect(resumed[0]!.data.previousWorker).toBe(coordinator);
    expect(pidOf(resumed[0]!.data.worker as string)).toBe(survivor.child.pid);
    expect(log.filter((event) => event.type === 'job.started')).toHaveLength(1);
    expect(log.at(-1)!.type).toBe('job.succeeded');
    const { rows: tasks } = await control.query<{ status: string }>('SELECT status FROM generation_tasks WHERE job_id = $1', [job.id]);
    expect(tasks.every((task) => task.status === 'succeeded')).toBe(true);
    const { rows: [record] } = await control.query<{ worker: string }>('SELECT worker FROM generation_jobs WHERE id = $1', [job.id]);
    expect(pidOf(record!.worker)).toBe(survivor.child.pid);
    expect(await digests(target, namespace)).toEqual(await referenceDigests(target, 'coordinator-killed'));
    workers.push(await startWorker(`after-coordinator-${target.name}`));
  }, 300_000);

  for (const point of ['tasks', 'swap'] as const)
  it.runIf(diesOn(point, target))(`survives its coordinating worker dying at "${point}" (before the tasks are recorded; keys built, not swapped): the job is taken over and swaps in the same data`, async () => {
    // Only the doomed worker runs when the job is queued, so it coordinates the job, and kills itself at that point.
    await Promise.all(workers.map((worker) => worker.stop('SIGKILL')));
    workers = [];
    const doomed = await startWorker(`dies-at-${point}-${target.name}`, { SDS_TEST_COORDINATOR_DIES_AT: point });
    try {
      await dieAndTakeOver(point, doomed);
    } finally {
      await doomed.stop('SIGKILL');
      // Whatever happened, the next test has two workers.
      while (workers.length < 2) workers.push(await startWorker(`after-dying-${point}-${workers.length}-${target.name}`));
      api = createClient<paths>({ baseUrl: workers[0]!.url, headers: { 'x-api-key': teamKey } });
    }
  }, 300_000);

  async function dieAndTakeOver(point: 'tasks' | 'swap', doomed: ServerProcess): Promise<void> {
    api = createClient<paths>({ baseUrl: doomed.url, headers: { 'x-api-key': teamKey } });
    const job = (await api.POST('/public/v1/projects/{projectId}/sources/{sourceId}/regenerate', { params: { path: { projectId, sourceId } }, body: { seed: `dies-at-${point}` } })).data!;
    await waitFor(async () => (doomed.child.exitCode !== null || doomed.child.signalCode !== null ? true : undefined), 120_000, 'the coordinator to kill itself');
    expect(doomed.child.signalCode).toBe('SIGKILL');
    const { rows: before } = await control.query<{ status: string }>('SELECT status FROM generation_tasks WHERE job_id = $1', [job.id]);
    if (point === 'tasks') expect(before).toEqual([]);
    else expect(before.length > 0 && before.every((task) => task.status === 'succeeded')).toBe(true);
    const { rows: [dead] } = await control.query<{ worker: string; status: string }>('SELECT worker, status FROM generation_jobs WHERE id = $1', [job.id]);
    expect(dead).toEqual({ worker: expect.stringMatching(new RegExp(`:${doomed.child.pid}:`)), status: 'running' });

    const survivor = await startWorker(`after-dying-${point}-${target.name}`);
    workers.push(survivor);
    api = createClient<paths>({ baseUrl: survivor.url, headers: { 'x-api-key': teamKey } });
    const ended = await finished(sourceId, job.id);
    expect(ended.status, `${ended.error ?? ''}\nsurvivor: ${survivor.output().slice(-2000)}`).toBe('succeeded');
    const log = await events(sourceId, job.id);
    const resumed = log.filter((event) => event.type === 'job.resumed');
    expect(resumed).toHaveLength(1);
    expect(resumed[0]!.data.previousWorker).toBe(dead!.worker);
    expect(pidOf(resumed[0]!.data.worker as string)).toBe(survivor.child.pid);
    expect(log.at(-1)!.type).toBe('job.succeeded');
    const { rows: tasks } = await control.query<{ status: string }>('SELECT status FROM generation_tasks WHERE job_id = $1', [job.id]);
    expect(tasks.length).toBeGreaterThan(0);
    expect(tasks.every((task) => task.status === 'succeeded')).toBe(true);
    expect(await digests(target, namespace)).toEqual(await referenceDigests(target, `dies-at-${point}`));
  }
});
