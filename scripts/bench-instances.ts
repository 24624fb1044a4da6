// `npm run bench:generation -- --instances N` (issue 30): one generation job split into tasks, run by
// one worker process and then by N worker processes on one control plane (a scratch database on
// the PostgreSQL server), round after round, each round's one-instance time measured in that same
// round. Prints the job's wall time (the job's startedAt → finishedAt) beside one instance's, the
// ratio, and the share of tasks (and rows) each instance made.
//
// Two configs: `default`, the bench's 610k rows (users' unique emails are drawn by retry: every
// entity is cut into row ranges, users from the draws the planner finds first), and `ranged`, the
// same tables without that unique key (no draws to find).
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { SchemaConfig } from '../src/contract.ts';
import { issueKey, TEAM_KEY_PREFIX } from '../src/security/api-keys.ts';
import { generationBenchConfig } from './bench-configs.ts';

const CONTROL_SERVER = process.env.BENCH_CONTROL_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const PG_URL = process.env.PG_TARGET_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const MYSQL_URL = process.env.MYSQL_URL ?? 'mysql://root@127.0.0.1:3306/test';

export const INSTANCES_USAGE = `  --instances N  one job split into tasks, by 1 worker process and by N on one control plane, per round
    (with --instances: --scale S (default 0.5), --runs R rounds (default 2), --only postgres|mysql (default postgres),
     --task-slots K tasks per process at once (default 2; a list such as 1,2 measures each in every round),
     --task-rows T rows per range task (default 25000), --configs default,ranged (the default: both))`;

interface Instance {
  child: ChildProcess;
  url: string;
  pid: number;
}

interface Round {
  config: string;
  slots: number;
  instances: number;
  seconds: number;
  /** Per worker pid: tasks and rows it made. */
  shares: Map<number, { tasks: number; rows: number }>;
}

function option(argv: string[], name: string, fallback: string): string {
  const at = argv.findIndex((arg) => arg === `--${name}` || arg.startsWith(`--${name}=`));
  if (at < 0) return fallback;
  return argv[at]!.includes('=') ? argv[at]!.slice(argv[at]!.indexOf('=') + 1) : (argv[at + 1] ?? fallback);
}

export async function benchInstances(argv: string[]): Promise<void> {
  const instances = Number(option(argv, 'instances', '2'));
  const scale = Number(option(argv, 'scale', '0.5'));
  const rounds = Number(option(argv, 'runs', '2'));
  const kind = option(argv, 'only', 'postgres');
  const slotCounts = option(argv, 'task-slots', '2').split(',').map(Number);
  const taskRows = option(argv, 'task-rows', '25000');
  const configNames = option(argv, 'configs', 'default,ranged').split(',');
  if (!Number.isInteger(instances) || instances < 2) throw new Error('--instances takes a whole number of 2 or more');
  if (!slotCounts.every((slots) => Number.isInteger(slots) && slots >= 1)) throw new Error('--task-slots takes whole numbers of 1 or more, separated by commas');
  if (!configNames.every((name) => name === 'default' || name === 'ranged')) throw new Error('--configs takes default, ranged or both');
  if (kind !== 'postgres' && kind !== 'mysql') throw new Error('--only takes postgres or mysql');
  const suffix = randomBytes(3).toString('hex');
  const controlName = `sds_bench_instances_${suffix}`;
  const admin = new pg.Client({ connectionString: CONTROL_SERVER });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${controlName}`);
  const controlUrl = new URL(CONTROL_SERVER);
  controlUrl.pathname = `/${controlName}`;
  const control = new pg.Pool({ connectionString: controlUrl.toString(), max: 2 });
  const teamKey = issueKey(TEAM_KEY_PREFIX).key;
  const env = {
    ...process.env,
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    DATABASE_URL: controlUrl.toString(),
    SDS_BOOTSTRAP_TEAM_KEY: teamKey,
    SDS_SECRET_KEY: randomBytes(32).toString('base64url'),
    POSTGRES_TARGET_URL: PG_URL,
    MYSQL_URL,
    SDS_RUNNING_JOBS_PER_TEAM: '0',
    SDS_GENERATION_SLOTS: '1',
    SDS_TASK_ROWS: taskRows,
    SDS_MAX_ROWS_PER_JOB: '0',
    PORT: '0',
  };
  const started: Instance[] = [];
  // The API instance runs no jobs; worker instances are started per case, with the case's task slots.
  const start = async (name: string, slots: number | 'api'): Promise<Instance> => {
    const role = slots === 'api' ? { SDS_WORKER: 'false' } : { SDS_TASK_SLOTS: String(slots) };
    const instance = await startInstance({ ...env, ...role, SDS_DATA_DIR: path.join(os.tmpdir(), `sds-bench-instances-${suffix}-${name}`) });
    started.push(instance);
    return instance;
  };
  const stop = async (instance: Instance) => {
    instance.child.kill('SIGTERM');
    await new Promise((resolve) => instance.child.once('exit', resolve));
    started.splice(started.indexOf(instance), 1);
  };
  console.log(
    `bench:generation --instances ${instances}: one job split into tasks (${taskRows} rows a range, ${slotCounts.join(' or ')} tasks at once per process), ` +
      `${kind} at ${scale}×, ${rounds} rounds; ${os.cpus().length} CPUs, load average ${os.loadavg().map((n) => n.toFixed(2)).join(' ')}`,
  );
  const results: Round[] = [];
  try {
    const front = await start('api', 'api');
    const api = client(front.url, teamKey);
    const setup = await start('setup', slotCounts[0]!);
    const project = await api('POST', '/public/v1/projects', { name: `bench ${suffix}` });
    const every: Record<string, SchemaConfig> = { default: generationBenchConfig(scale, 'bench-instances'), ranged: withoutUniqueKeys(generationBenchConfig(scale, 'bench-instances')) };
    const configs = Object.fromEntries(configNames.map((name) => [name, every[name]!]));
    const sources: Record<string, string> = {};
    for (const [name, config] of Object.entries(configs)) {
      const schema = await api('POST', `/public/v1/projects/${project.id}/schemas`, { name, initialVersion: { schema: config } });
      const versions = await api('GET', `/public/v1/projects/${project.id}/schemas/${schema.id}/versions`);
      const source = await api('POST', `/public/v1/projects/${project.id}/sources`, { name: `${name} ${suffix}`, kind, schemaVersionId: versions[0].id, seed: 'bench-instances' });
      sources[name] = source.id;
      await waitForJob(api, project.id, source.id, (await api('GET', `/public/v1/projects/${project.id}/sources/${source.id}/generation-jobs`))[0].id);
    }
    await stop(setup);
    for (let round = 1; round <= rounds; round++) {
      for (const [name, sourceId] of Object.entries(sources)) {
        for (const slots of slotCounts) {
          // One instance first, then N, in the same round: load from elsewhere falls on both alike.
          const first = await start(`${round}-${name}-${slots}-1`, slots);
          results.push({ config: name, slots, ...(await regenerate(api, control, project.id, sourceId, 1)) });
          const more = await Promise.all(Array.from({ length: instances - 1 }, (_, i) => start(`${round}-${name}-${slots}-${i + 2}`, slots)));
          results.push({ config: name, slots, ...(await regenerate(api, control, project.id, sourceId, instances)) });
          await Promise.all([first, ...more].map(stop));
          const [alone, together] = results.slice(-2) as [Round, Round];
          console.log(
            `round ${round} ${name.padEnd(7)} ${slots} slot${slots === 1 ? ' ' : 's'}: 1 instance ${alone.seconds.toFixed(2)} s, ${instances} instances ${together.seconds.toFixed(2)} s ` +
              `(${(alone.seconds / together.seconds).toFixed(2)}× the one instance's speed); tasks by instance: ${shares(together)}; load ${os.loadavg()[0]!.toFixed(1)}`,
          );
        }
      }
    }
    await api('DELETE', `/public/v1/projects/${project.id}`);
  } finally {
    await Promise.all([...started].map(stop));
    await control.end();
    await admin.query(`DROP DATABASE IF EXISTS ${controlName} WITH (FORCE)`);
    await admin.end();
  }
  console.log(`load average after: ${os.loadavg().map((n) => n.toFixed(2)).join(' ')} (other processes on the machine skew the times: compare the two columns of one round)`);
}

/** The config without its unique keys: users' emails then need no retry, and every entity splits into ranges. */
function withoutUniqueKeys(config: SchemaConfig): SchemaConfig {
  return { ...config, metadata: { name: 'bench-instances-ranged' }, entities: config.entities.map(({ uniqueKeys: _unique, ...entity }) => entity) };
}

function shares(round: Round): string {
  const total = [...round.shares.values()].reduce((sum, share) => sum + share.tasks, 0);
  return [...round.shares.entries()]
    .map(([pid, share]) => `pid ${pid} ${share.tasks}/${total} (${Math.round((100 * share.tasks) / total)}%, ${share.rows} rows)`)
    .join(', ');
}

async function regenerate(api: Api, control: pg.Pool, projectId: string, sourceId: string, instances: number): Promise<Omit<Round, 'config' | 'slots'>> {
  const job = await api('POST', `/public/v1/projects/${projectId}/sources/${sourceId}/regenerate`, { seed: 'bench-instances' });
  const ended = await waitForJob(api, projectId, sourceId, job.id);
  const { rows } = await control.query<{ worker: string; tasks: string; rows: string }>(
    `SELECT worker, count(*) AS tasks, sum(rows_written) AS rows FROM generation_tasks WHERE job_id = $1 GROUP BY worker`,
    [job.id],
  );
  return {
    instances,
    seconds: (Date.parse(ended.finishedAt) - Date.parse(ended.startedAt)) / 1000,
    shares: new Map(rows.map((row) => [Number(row.worker.split(':')[1]), { tasks: Number(row.tasks), rows: Number(row.rows) }])),
  };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the bench reads a few fields of the API's answers
type Api = (method: string, path: string, body?: unknown) => Promise<any>;

function client(baseUrl: string, key: string): Api {
  return async (method, route, body) => {
    const response = await fetch(`${baseUrl}${route}`, {
      method,
      headers: { 'x-api-key': key, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${route}: ${response.status} ${text}`);
    return text ? JSON.parse(text) : undefined;
  };
}

async function waitForJob(api: Api, projectId: string, sourceId: string, jobId: string) {
  for (;;) {
    const job = await api('GET', `/public/v1/projects/${projectId}/sources/${sourceId}/generation-jobs/${jobId}`);
    if (job.status === 'failed') throw new Error(`job ${jobId} failed: ${job.error}`);
    if (job.status === 'succeeded') return job;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

function startInstance(env: NodeJS.ProcessEnv): Promise<Instance> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /sds is serving (http:\/\/\S+)/.exec(output);
      if (match) resolve({ child, url: match[1]!, pid: child.pid! });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`an instance exited (${code}) before serving:\n${output}`)));
  });
}
