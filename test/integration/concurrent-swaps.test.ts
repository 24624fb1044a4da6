// Two runs of one source reaching its swap at once (issue 30), on both engines. A worker slow to
// finish its job (keys still building, or its tasks all made) while another worker took the job over,
// or failed it and ran the source's next job, used to swap in whatever the other run had in the
// staging namespace by then (empty tables: the served data was lost) and to drop it on its way out.
// The swap now happens only while the job's row is held by its worker (JobStore.whileHeld): the slow
// one is refused and the served data stays; a takeover or stale check during a swap waits for it,
// and then finds the job alive.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SchemaConfig } from '../../src/contract.ts';
import type { TargetConnection } from '../../src/dialects/dialect.ts';
import { runGeneration, type RunOptions } from '../../src/generation/run.ts';
import { planTasks } from '../../src/generation/tasks/plan-tasks.ts';
import { finishStaging, prepareStaging, runTask } from '../../src/generation/tasks/run-task.ts';
import { holdJob } from '../../src/management/generation-worker.ts';
import { JobTakenOver } from '../../src/management/task-worker.ts';
import { stagingNamespace } from '../../src/model/namespace-names.ts';
import { JobStore } from '../../src/store/jobs.ts';
import { splitConfig } from '../fixtures/split-config.ts';
import { dialectTargets, openTarget, uniqueNamespace } from '../helpers/dialect-targets.ts';
import { blogProject, startTestService, type TestService } from '../helpers/service.ts';
import { tableDigest } from '../helpers/target-sql.ts';
import { waitFor } from '../helpers/wait.ts';

const targets = await dialectTargets();
const STALE_MS = 30_000;
const small = { rowCounts: { users: 40, posts: 60, tags: 10, events: 300, nodes: 20 }, generatorVersion: 4 as const };

let t: TestService;
let jobs: JobStore;
let control: pg.Pool;
let source: { projectId: string; sourceId: string };

beforeAll(async () => {
  // No worker: the test plays the workers, claiming the source's jobs itself.
  t = await startTestService('concurrent_swaps', { runWorker: false });
  jobs = new JobStore(t.service.db);
  control = new pg.Pool({ connectionString: t.database.url, max: 2 });
  const api = t.client(t.teamKey);
  const { projectId, versionId } = await blogProject(api, 'Swaps');
  const created = await api.POST('/public/v1/projects/{projectId}/sources', { params: { path: { projectId } }, body: { name: 'Swaps', kind: 'postgres', schemaVersionId: versionId } });
  source = { projectId, sourceId: created.data!.id };
});

afterAll(async () => {
  await control?.end();
  await t?.stop();
});

/** The source's next job, running on `worker` (a job left running by the test before is failed first). */
async function runningJob(worker: string): Promise<string> {
  await control.query(`UPDATE generation_jobs SET status = 'failed', finished_at = now() WHERE source_id = $1 AND status = 'running'`, [source.sourceId]);
  const queued = await control.query(`SELECT 1 FROM generation_jobs WHERE source_id = $1 AND status = 'queued'`, [source.sourceId]);
  if (queued.rowCount === 0) {
    const { response } = await t.client(t.teamKey).POST('/public/v1/projects/{projectId}/sources/{sourceId}/regenerate', { params: { path: source }, body: {} });
    expect(response.status).toBe(202);
  }
  const job = await jobs.claim(worker);
  return job!.id;
}

/** As the stale check sees a worker that stopped renewing its job (its process hung, or lost the control plane). */
const goStale = (jobId: string) => control.query(`UPDATE generation_jobs SET heartbeat_at = now() - interval '1 hour' WHERE id = $1`, [jobId]);

const hold = (jobId: string, worker: string) => holdJob(jobs, jobId, worker, new Error('the job no longer runs'));

describe.each(targets)('$name: two runs of one source at its swap', (target) => {
  let connection: Awaited<ReturnType<typeof openTarget>>;
  const config: SchemaConfig = splitConfig();

  beforeAll(async () => {
    connection = await openTarget(target);
  });
  afterAll(() => connection?.cleanup());

  /** A live namespace serving the rows of seed `served`, and its tables' digests. */
  async function served(label: string): Promise<{ live: string; staging: string; digests: () => Promise<string[]>; before: string[] }> {
    const live = connection.track(uniqueNamespace(label));
    const staging = connection.track(stagingNamespace(live));
    await runGeneration(connection, live, config, { seed: 'served', ...small, atomic: true });
    const digests = () => Promise.all(config.entities.map((entity) => tableDigest(target.name, target.url, live, entity.id, 'id')));
    return { live, staging, digests, before: await digests() };
  }

  /** Empty tables in the staging namespace: what a run that just (re)started has there. */
  const restartStaging = (staging: string) => prepareStaging(connection, staging, planTasks(config, { seed: 'next', ...small }));

  it('a split job taken over while its worker was finishing: the slow worker may not swap in the staging namespace the new one rebuilds', async () => {
    const { live, staging, digests, before } = await served('taken_over');
    const jobId = await runningJob('worker-a');
    const tasks = planTasks(config, { seed: 'new', ...small }, 100);
    await prepareStaging(connection, staging, tasks);
    for (const [seq, task] of tasks.tasks.entries()) await runTask(connection, staging, config, tasks, seq, task);
    // Worker A made every task, then hung long enough to be taken over; B starts the staging anew.
    await goStale(jobId);
    expect(await jobs.takeOver(jobId, 'worker-a', 'worker-b', STALE_MS)).toBe(true);
    await restartStaging(staging);
    // A wakes up and finishes.
    const refused = await finishStaging(connection, staging, live, tasks, hold(jobId, 'worker-a')).catch((error: unknown) => error);
    expect(await digests()).toEqual(before);
    expect(refused).toBeInstanceOf(JobTakenOver);
    expect((refused as JobTakenOver).worker).toBe('worker-b');
    expect(await connection.namespaceExists(staging)).toBe(true);
  });

  it('a job failed as stale while its worker built keys, the next job building: the slow worker neither swaps nor drops its staging', async () => {
    const { live, staging, digests, before } = await served('failed_stale');
    const first = await runningJob('worker-a');
    // Worker A is slow building keys: it waits here until the other runs have moved on.
    let reached!: () => void;
    const atKeys = new Promise<void>((resolve) => (reached = resolve));
    let release!: () => void;
    const slow = new Promise<void>((resolve) => (release = resolve));
    const slowConnection = new Proxy(connection, {
      get(target, property, receiver) {
        if (property === 'finalizeTables') return async (...args: Parameters<TargetConnection['finalizeTables']>) => {
          reached();
          await slow;
          return target.finalizeTables(...args);
        };
        const value = Reflect.get(target, property, receiver);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const options: RunOptions = { seed: 'slow', ...small, atomic: true, hold: hold(first, 'worker-a') };
    const running = runGeneration(slowConnection, live, config, options).catch((error: unknown) => error);
    await atKeys;
    // Another worker's stale check fails the job (dropping its staging), and the source's next job starts on worker D.
    await goStale(first);
    const failed = await jobs.failAbandoned(first, 'worker-a', STALE_MS, 'Interrupted', () => connection.dropNamespace(staging));
    expect(failed?.status).toBe('failed');
    const next = await runningJob('worker-d');
    expect(next).not.toBe(first);
    await restartStaging(staging);
    release();
    const error = await running;
    expect(await digests()).toEqual(before);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(/no longer runs/);
    // D's staging namespace was left to D: A's clean-up was refused too.
    expect(await connection.namespaceExists(staging)).toBe(true);
  });

  it('a takeover or stale check while a swap is under way waits for it, then finds the job alive', async () => {
    const { live, staging, digests, before } = await served('under_way');
    const jobId = await runningJob('worker-a');
    await runGeneration(connection, staging, config, { seed: 'swapped', ...small });
    let entered!: () => void;
    const inside = new Promise<void>((resolve) => (entered = resolve));
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    // Seen stale just before worker A's swap takes the job's row (which renews the heartbeat).
    await goStale(jobId);
    const swapping = hold(jobId, 'worker-a')(async () => {
      entered();
      await gate;
      await connection.swapNamespaces(staging, live);
    });
    await inside;
    const takeOver = jobs.takeOver(jobId, 'worker-a', 'worker-b', STALE_MS);
    const failStale = jobs.failAbandoned(jobId, 'worker-a', STALE_MS, 'Interrupted', () => connection.dropNamespace(staging));
    await waitFor(
      async () => {
        const waiting = await control.query(`SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE 'UPDATE generation_jobs SET%'`);
        return waiting.rowCount === 2;
      },
      10_000,
      'the takeover and the stale check to wait for the swap',
      10,
    );
    release();
    await swapping;
    expect(await takeOver).toBe(false);
    expect(await failStale).toBeUndefined();
    expect(await jobs.runningWorker(jobId)).toBe('worker-a');
    // The swapped-in rows are the ones worker A built.
    const reference = connection.track(uniqueNamespace('swapped_ref'));
    await runGeneration(connection, reference, config, { seed: 'swapped', ...small });
    const expected = await Promise.all(config.entities.map((entity) => tableDigest(target.name, target.url, reference, entity.id, 'id')));
    expect(expected).not.toEqual(before);
    expect(await digests()).toEqual(expected);
    expect(await connection.namespaceExists(staging)).toBe(false);
  });
});
