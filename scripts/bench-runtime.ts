// Runtime API benchmark (issue 5): the real service, started in this process on a fresh database of
// the local PostgreSQL, serves a generated 500k-row `users` table and a 50k-row `posts` table
// referencing it; autocannon measures four cases against it and against a bare Express 5 + `pg`
// server running the equivalent SQL on the same tables (the baseline):
//   list      GET /runtime/<id>/users?filters[role][$eq]=admin&limit=25   (page + count(*))
//   read      GET /runtime/<id>/users/<random id>
//   populate  GET /runtime/<id>/posts?limit=25&populate=authorId          (page + count(*) + one batched IN query)
//   patch     PATCH /runtime/<id>/users/<random id> {"firstName": "…"}     (UPDATE … RETURNING)
// The baseline is what a naive handler does: for lists it counts the matching rows on every request
// (DESIGN.md: counting dominates a list's cost); a second baseline without the count is shown for context.
//
// Processes: this one runs sds (so `node --cpu-prof` on it profiles sds only); the baseline server
// and the load generator (autocannon) each run in a child process of their own (this file with
// `--baseline` / `--driver`), so the load generator never shares an event loop with a server.
//
// Usage: npm run bench:runtime -- [--duration 10] [--warmup 2] [--connections 32] [--rounds 1]
//          [--only list,read,populate,patch] [--users 500000] [--posts 50000] [--no-baseline]
//   --rounds N  run every case N times (the order of sds and baseline alternates) and keep each
//               target's best round: useful when other work on the machine adds noise.
// PostgreSQL: BENCH_PG_URL (default postgres://postgres@127.0.0.1:5432/postgres), where a database
// sds_bench_<random> is created and dropped at the end (bench-service.ts: the schema and the set-up).
// Profiling sds: node --import tsx --cpu-prof --cpu-prof-dir=/tmp/sds-prof scripts/bench-runtime.ts --only read
// (the children do not inherit --cpu-prof / --prof).
import { fork, type ChildProcess } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import express, { type NextFunction, type Request, type Response } from 'express';
import { answerHelp } from './bench-usage.ts';
import pg from 'pg';
import { createBenchProject, createGeneratedSource, fmtLoad, runMain, startBenchService } from './bench-service.ts';

const SELF = fileURLToPath(import.meta.url);
const P99_TARGET_MS = 50;

type CaseName = 'list' | 'read' | 'populate' | 'patch';
const CASES: CaseName[] = ['list', 'read', 'populate', 'patch'];
const CASE_TITLES: Record<CaseName, string> = {
  list: 'list, one filter, limit=25',
  read: 'read one by id',
  populate: 'list + populate=authorId',
  patch: 'PATCH one row',
};
/**
 * The share of a baseline's req/s each case is held to (issue 16): read by key 0.8× of the baseline, a
 * list 0.9× of the baseline that never counts (the counting one is far slower: sds caches totals).
 */
const RATIO_TARGETS: Partial<Record<CaseName, { ratio: number; against: TargetName }>> = {
  list: { ratio: 0.9, against: 'baseline-nocount' },
  read: { ratio: 0.8, against: 'baseline' },
};

type TargetName = 'sds' | 'baseline' | 'baseline-nocount';

/** What the driver child is asked to run. */
interface LoadSpec {
  /** Origin, e.g. http://127.0.0.1:1234 */
  origin: string;
  method: 'GET' | 'PATCH';
  /** Fixed path, or the prefix a random row id is appended to (`randomId`). */
  path: string;
  randomId?: { max: number };
  /** PATCH: a body with a fresh firstName per request. */
  patchBody?: boolean;
  headers: Record<string, string>;
  connections: number;
  /** Seconds. */
  duration: number;
}

interface LoadResult {
  requests: number;
  seconds: number;
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  timeouts: number;
}

interface Measurement extends LoadResult {
  target: TargetName;
  loadBefore: number;
  loadAfter: number;
  /** CPU milliseconds per request of the server process, and of the PostgreSQL backends of the bench database. */
  serverCpuMs: number;
  postgresCpuMs: number;
}

/** CPU used so far: the server process (µs) and each PostgreSQL backend of the bench database (clock ticks). */
interface CpuSnapshot {
  serverMicros: number;
  backends: Map<number, number>;
}

// ─── arguments ───────────────────────────────────────────────────────────────────────────────────

interface Options {
  duration: number;
  warmup: number;
  connections: number;
  rounds: number;
  only: CaseName[];
  users: number;
  posts: number;
  baseline: boolean;
}

function parseArgs(argv: string[]): Options {
  const options: Options = { duration: 10, warmup: 2, connections: 32, rounds: 1, only: CASES, users: 500_000, posts: 50_000, baseline: true };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const value = () => {
      const next = argv[++i];
      if (next === undefined) throw new Error(`${arg} needs a value`);
      return next;
    };
    const number = () => {
      const parsed = Number(value());
      if (!Number.isFinite(parsed) || parsed < 0) throw new Error(`${arg} needs a non-negative number`);
      return parsed;
    };
    if (arg === '--duration') options.duration = number();
    else if (arg === '--warmup') options.warmup = number();
    else if (arg === '--connections') options.connections = number();
    else if (arg === '--rounds') options.rounds = Math.max(1, Math.floor(number()));
    else if (arg === '--users') options.users = Math.floor(number());
    else if (arg === '--posts') options.posts = Math.floor(number());
    else if (arg === '--no-baseline') options.baseline = false;
    else if (arg === '--only') {
      const names = value().split(',').map((name) => name.trim());
      for (const name of names) if (!CASES.includes(name as CaseName)) throw new Error(`--only: unknown case "${name}" (cases: ${CASES.join(', ')})`);
      options.only = CASES.filter((name) => names.includes(name));
    } else throw new Error(`unknown argument ${arg} (see --help)`);
  }
  return options;
}

// ─── child processes ─────────────────────────────────────────────────────────────────────────────

/** This process's node flags without the profiler's: children are not profiled. */
function childExecArgv(): string[] {
  return process.execArgv.filter((flag) => !/^--(cpu-prof|heap-prof|prof)/.test(flag));
}

function spawnChild(mode: '--baseline' | '--driver'): ChildProcess {
  return fork(SELF, [mode], { execArgv: childExecArgv(), stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
}

/** Sends a message and waits for the child's answer (one request at a time per child). */
function ask<T>(child: ChildProcess, message: unknown): Promise<T> {
  return new Promise((resolve, reject) => {
    const onMessage = (answer: { ok: boolean; value?: T; error?: string }) => {
      cleanup();
      if (answer.ok) resolve(answer.value as T);
      else reject(new Error(answer.error));
    };
    const onExit = (code: number | null) => {
      cleanup();
      reject(new Error(`child exited (${code}) before answering`));
    };
    const cleanup = () => {
      child.off('message', onMessage);
      child.off('exit', onExit);
    };
    child.on('message', onMessage);
    child.on('exit', onExit);
    child.send(message as never);
  });
}

async function stopChild(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  if (child.connected) child.send({ type: 'stop' });
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}

/** Child side: answers each message with `{ok, value}` or `{ok: false, error}`. */
function serveMessages(handle: (message: { type: string; [key: string]: unknown }) => Promise<unknown>, stop: () => Promise<void>): void {
  process.on('message', (message: { type: string; [key: string]: unknown }) => {
    if (message.type === 'stop') {
      void stop().finally(() => process.exit(0));
      return;
    }
    handle(message).then(
      (value) => process.send!({ ok: true, value }),
      (error: unknown) => process.send!({ ok: false, error: error instanceof Error ? (error.stack ?? error.message) : String(error) }),
    );
  });
  // The parent went away: do not linger.
  process.on('disconnect', () => void stop().finally(() => process.exit(0)));
}

// ─── the driver child: autocannon ────────────────────────────────────────────────────────────────

function runDriver(): void {
  let current: autocannon.Instance | undefined;
  const run = async (spec: LoadSpec, duration: number): Promise<LoadResult> => {
    let sequence = 0;
    const request: autocannon.Request = {
      method: spec.method,
      path: spec.path,
      headers: spec.headers,
      setupRequest: (req) => {
        const id = spec.randomId ? 1 + Math.floor(Math.random() * spec.randomId.max) : undefined;
        return {
          ...req,
          path: id === undefined ? spec.path : `${spec.path}/${id}`,
          ...(spec.patchBody ? { body: JSON.stringify({ firstName: `Bench ${++sequence}` }) } : {}),
        };
      },
    };
    const result = await new Promise<autocannon.Result>((resolve, reject) => {
      current = autocannon({ url: spec.origin, connections: spec.connections, duration, requests: [request], timeout: 10 }, (error, done) =>
        error ? reject(error as Error) : resolve(done),
      );
    });
    current = undefined;
    const seconds = result.duration;
    return {
      requests: result.requests.total,
      seconds,
      rps: result.requests.total / seconds,
      p50: result.latency.p50,
      p99: result.latency.p99,
      non2xx: result.non2xx,
      errors: result.errors,
      timeouts: result.timeouts,
    };
  };
  serveMessages(
    async (message) => run(message.spec as LoadSpec, (message.spec as LoadSpec).duration),
    async () => {
      current?.stop();
    },
  );
}

// ─── the baseline child: bare Express 5 + pg ─────────────────────────────────────────────────────

function runBaseline(): void {
  let pool: pg.Pool | undefined;
  let server: ReturnType<express.Express['listen']> | undefined;
  serveMessages(
    async (message) => {
      if (message.type === 'cpu') return cpuMicros();
      const { databaseUrl, namespace } = message as unknown as { databaseUrl: string; namespace: string };
      // Same pool size as each of sds's pools.
      pool = new pg.Pool({ connectionString: databaseUrl, max: 10 });
      const db = pool;
      const columnsOf = async (table: string) =>
        (await db.query<{ name: string }>('SELECT column_name AS name FROM information_schema.columns WHERE table_schema = $1 AND table_name = $2 ORDER BY ordinal_position', [namespace, table])).rows.map((row) => row.name);
      const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;
      const userColumns = await columnsOf('users');
      const postColumns = await columnsOf('posts');
      if (userColumns.length === 0 || postColumns.length === 0) throw new Error(`tables not found in ${namespace}`);
      const users = `${quote(namespace)}.${quote('users')}`;
      const posts = `${quote(namespace)}.${quote('posts')}`;
      const userList = userColumns.map(quote).join(', ');
      const postList = postColumns.map(quote).join(', ');
      const page = (req: Request) => ({
        limit: Math.min(1000, Number(req.query.limit ?? 25)),
        offset: Number(req.query.offset ?? 0),
        count: req.query.count !== 'false',
      });

      const app = express();
      app.disable('x-powered-by');
      app.use(express.json());
      // GET /users?role=admin&limit=25[&count=false]
      app.get('/users', async (req, res) => {
        const { limit, offset, count } = page(req);
        const role = String(req.query.role);
        const [rows, total] = await Promise.all([
          db.query(`SELECT ${userList} FROM ${users} WHERE "role" = $1 LIMIT $2 OFFSET $3`, [role, limit, offset]),
          count ? db.query<{ total: string }>(`SELECT count(*) AS total FROM ${users} WHERE "role" = $1`, [role]) : undefined,
        ]);
        res.json({ data: rows.rows, meta: { pagination: { offset, limit, total: total ? Number(total.rows[0]!.total) : null } } });
      });
      app.get('/users/:id', async (req, res) => {
        const { rows } = await db.query(`SELECT ${userList} FROM ${users} WHERE "id" = $1`, [Number(req.params.id)]);
        if (rows.length === 0) res.status(404).json({ error: 'Not found' });
        else res.json(rows[0]);
      });
      // GET /posts?limit=25&populate=authorId[&count=false]: the page, its total, then one query for the authors.
      app.get('/posts', async (req, res) => {
        const { limit, offset, count } = page(req);
        const [rows, total] = await Promise.all([
          db.query(`SELECT ${postList} FROM ${posts} LIMIT $1 OFFSET $2`, [limit, offset]),
          count ? db.query<{ total: string }>(`SELECT count(*) AS total FROM ${posts}`) : undefined,
        ]);
        const data = rows.rows as Array<Record<string, unknown>>;
        if (req.query.populate === 'authorId') {
          const ids = [...new Set(data.map((row) => row.authorId).filter((id) => id !== null))];
          const authors = new Map<unknown, unknown>();
          if (ids.length > 0) {
            for (const author of (await db.query(`SELECT ${userList} FROM ${users} WHERE "id" = ANY($1::int[])`, [ids])).rows) authors.set(author.id, author);
          }
          for (const row of data) row.authorId = row.authorId === null ? null : (authors.get(row.authorId) ?? null);
        }
        res.json({ data, meta: { pagination: { offset, limit, total: total ? Number(total.rows[0]!.total) : null } } });
      });
      // PATCH /users/:id with known columns of the body.
      app.patch('/users/:id', async (req, res) => {
        const body = req.body as Record<string, unknown>;
        const names = Object.keys(body).filter((name) => userColumns.includes(name) && name !== 'id');
        if (names.length === 0) {
          res.status(400).json({ error: 'Nothing to update' });
          return;
        }
        const sets = names.map((name, index) => `${quote(name)} = $${index + 2}`).join(', ');
        const { rows } = await db.query(`UPDATE ${users} SET ${sets} WHERE "id" = $1 RETURNING ${userList}`, [Number(req.params.id), ...names.map((name) => body[name])]);
        if (rows.length === 0) res.status(404).json({ error: 'Not found' });
        else res.json(rows[0]);
      });
      app.use((error: unknown, _req: Request, res: Response, _next: NextFunction) => {
        res.status(500).json({ error: String(error) });
      });
      server = await new Promise((resolve, reject) => {
        const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
        listening.once('error', reject);
      });
      return { port: (server!.address() as AddressInfo).port };
    },
    async () => {
      if (server) {
        server.closeAllConnections();
        await new Promise((resolve) => server!.close(resolve));
      }
      await pool?.end();
    },
  );
}

// ─── the main process: sds, set-up, runs, report ─────────────────────────────────────────────────

const load1 = () => os.loadavg()[0]!;
const cpuMicros = () => {
  const usage = process.cpuUsage();
  return usage.user + usage.system;
};
const CLOCK_TICK_MS = 10;

/** utime + stime (clock ticks) of each PostgreSQL backend connected to `database` (same machine). */
async function backendTicks(admin: pg.Client, database: string): Promise<Map<number, number>> {
  const { rows } = await admin.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = $1', [database]);
  const ticks = new Map<number, number>();
  for (const { pid } of rows) {
    try {
      const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      // Fields 14 and 15 of proc(5), counted from after the command name (field 3 is index 0).
      ticks.set(pid, Number(fields[11]) + Number(fields[12]));
    } catch {
      // The backend ended, or PostgreSQL is not on this machine: not counted.
    }
  }
  return ticks;
}

const USAGE = `Usage: npm run bench:runtime -- [--duration 10] [--warmup 2] [--connections 32] [--rounds 1]
         [--only list,read,populate,patch] [--users 500000] [--posts 50000] [--no-baseline]
The runtime API (list, read, populate, patch) under autocannon against a bare Express 5 + pg server
running the same SQL, in the same run.
  --duration S     seconds measured per run (default 10)
  --warmup S       seconds of warm-up before each run (default 2)
  --connections N  concurrent connections (default 32)
  --rounds N       run every case N times, alternating sds and baseline; each target's best round is kept
  --only CASES     some of: list, read, populate, patch
  --users N        rows of users (default 500000); --posts N rows of posts (default 50000)
  --no-baseline    measure sds alone
  --help           this text
PostgreSQL: BENCH_PG_URL (default postgres://postgres@127.0.0.1:5432/postgres); a database
sds_bench_<random> is created there and dropped at the end.`;

async function main(): Promise<void> {
  answerHelp(USAGE);
  const options = parseArgs(process.argv.slice(2));
  const startLoad = fmtLoad();
  console.log(`bench:runtime — ${os.cpus().length} CPUs, Node ${process.version}, load average (1/5/15 min) at start: ${startLoad}`);
  console.log(
    `users ${options.users.toLocaleString('en')} rows, posts ${options.posts.toLocaleString('en')} rows; autocannon ${options.connections} connections, ` +
      `${options.warmup} s warm-up + ${options.duration} s per run, ${options.rounds} round(s)`,
  );

  // startBenchService imports the service only when called: the child processes, which load this file, do not.
  // Closing stops the children first, then sds.
  let baseline: ChildProcess | undefined;
  let driver: ChildProcess | undefined;
  const service = await startBenchService('bench', { beforeClose: () => Promise.allSettled([stopChild(driver), stopChild(baseline)]) });
  try {
    const { url, admin, databaseName, databaseUrl } = service;
    const project = await createBenchProject(service, 'bench-runtime', options.users, options.posts);
    const source = await createGeneratedSource(service, project, { name: 'bench-runtime', kind: 'postgres', seed: 'bench-runtime', pollMs: 2_000, timeoutMinutes: 30 });
    const sourceKey = source.key;
    const namespace = source.config.schema;
    if (!namespace) throw new Error('the source has no PostgreSQL schema in its config');
    // Fresh statistics and visibility map for both servers alike.
    const data = new pg.Client({ connectionString: databaseUrl });
    await data.connect();
    await data.query(`VACUUM ANALYZE "${namespace}"."users"`);
    await data.query(`VACUUM ANALYZE "${namespace}"."posts"`);
    await data.end();

    let baselineUrl: string | undefined;
    if (options.baseline) {
      baseline = spawnChild('--baseline');
      const { port } = await ask<{ port: number }>(baseline, { type: 'start', databaseUrl, namespace });
      baselineUrl = `http://127.0.0.1:${port}`;
    }
    driver = spawnChild('--driver');

    const runtime = `/runtime/${source.id}`;
    const sdsHeaders = { 'x-api-key': sourceKey };
    type Entry = { target: TargetName; spec: Omit<LoadSpec, 'connections' | 'duration'> };
    const specs = (name: CaseName): Entry[] => {
      const sds = { origin: url, headers: sdsHeaders };
      const base = { origin: baselineUrl!, headers: {} };
      const json = { 'content-type': 'application/json' };
      const withBaseline = (entries: Entry[], baselines: Entry[]) => (options.baseline ? [...entries, ...baselines] : entries);
      switch (name) {
        case 'list':
          return withBaseline(
            [{ target: 'sds', spec: { ...sds, method: 'GET', path: `${runtime}/users?filters[role][$eq]=admin&limit=25` } }],
            [
              { target: 'baseline', spec: { ...base, method: 'GET', path: '/users?role=admin&limit=25' } },
              { target: 'baseline-nocount', spec: { ...base, method: 'GET', path: '/users?role=admin&limit=25&count=false' } },
            ],
          );
        case 'read':
          return withBaseline(
            [{ target: 'sds', spec: { ...sds, method: 'GET', path: `${runtime}/users`, randomId: { max: options.users } } }],
            [{ target: 'baseline', spec: { ...base, method: 'GET', path: '/users', randomId: { max: options.users } } }],
          );
        case 'populate':
          return withBaseline(
            [{ target: 'sds', spec: { ...sds, method: 'GET', path: `${runtime}/posts?limit=25&populate=authorId` } }],
            [
              { target: 'baseline', spec: { ...base, method: 'GET', path: '/posts?limit=25&populate=authorId' } },
              { target: 'baseline-nocount', spec: { ...base, method: 'GET', path: '/posts?limit=25&populate=authorId&count=false' } },
            ],
          );
        case 'patch':
          return withBaseline(
            [{ target: 'sds', spec: { ...sds, headers: { ...sdsHeaders, ...json }, method: 'PATCH', path: `${runtime}/users`, randomId: { max: options.users }, patchBody: true } }],
            [{ target: 'baseline', spec: { ...base, headers: json, method: 'PATCH', path: '/users', randomId: { max: options.users }, patchBody: true } }],
          );
      }
    };

    await sanityCheck(url, sourceKey, runtime, baselineUrl);

    const results = new Map<CaseName, Map<TargetName, Measurement>>();
    for (let round = 0; round < options.rounds; round++) {
      for (const name of options.only) {
        let entries = specs(name);
        if (round % 2 === 1) entries = [...entries].reverse();
        for (const { target, spec } of entries) {
          const run = (duration: number) => ask<LoadResult>(driver!, { type: 'run', spec: { ...spec, connections: options.connections, duration } });
          if (options.warmup > 0) await run(options.warmup);
          const snapshot = async (): Promise<CpuSnapshot> => ({
            serverMicros: target === 'sds' ? cpuMicros() : await ask<number>(baseline!, { type: 'cpu' }),
            backends: await backendTicks(admin, databaseName),
          });
          const loadBefore = load1();
          const before = await snapshot();
          const result = await run(options.duration);
          const after = await snapshot();
          let backendTicksUsed = 0;
          for (const [pid, ticks] of after.backends) backendTicksUsed += ticks - (before.backends.get(pid) ?? 0);
          const requests = Math.max(1, result.requests);
          const measurement: Measurement = {
            ...result,
            target,
            loadBefore,
            loadAfter: load1(),
            serverCpuMs: (after.serverMicros - before.serverMicros) / 1000 / requests,
            postgresCpuMs: (backendTicksUsed * CLOCK_TICK_MS) / requests,
          };
          console.log(
            `  round ${round + 1} ${name.padEnd(8)} ${target.padEnd(16)} ${fmt(result.rps, 0).padStart(7)} req/s  p50 ${fmt(result.p50, 1)} ms  p99 ${fmt(result.p99, 1)} ms  ` +
              `non-2xx ${result.non2xx}  errors ${result.errors}  CPU/req ${fmt(measurement.serverCpuMs, 2)} + ${fmt(measurement.postgresCpuMs, 2)} ms  ` +
              `load ${loadBefore.toFixed(2)}→${measurement.loadAfter.toFixed(2)}`,
          );
          const byTarget = results.get(name) ?? new Map<TargetName, Measurement>();
          results.set(name, byTarget);
          const best = byTarget.get(target);
          if (!best || measurement.rps > best.rps) byTarget.set(target, measurement);
        }
      }
    }

    const ok = report(results, options, startLoad);
    if (!ok) process.exitCode = 1;
  } finally {
    await service.close();
  }
}

/** One request of each case against both servers before measuring: 200s, the expected shapes, the same rows. */
async function sanityCheck(url: string, key: string, runtime: string, baselineUrl: string | undefined): Promise<void> {
  const get = async (origin: string, path: string, headers: Record<string, string>, init: RequestInit = {}) => {
    const response = await fetch(`${origin}${path}`, { ...init, headers: { ...headers, ...(init.headers as Record<string, string>) } });
    const body = (await response.json()) as Record<string, unknown> & { data?: Array<Record<string, unknown>>; meta?: { pagination: { total: number } } };
    if (response.status !== 200) throw new Error(`sanity check: ${init.method ?? 'GET'} ${origin}${path} → ${response.status} ${JSON.stringify(body)}`);
    return body;
  };
  const sdsHeaders = { 'x-api-key': key };
  const list = await get(url, `${runtime}/users?filters[role][$eq]=admin&limit=25`, sdsHeaders);
  if (list.data?.length !== 25 || list.data.some((row) => row.role !== 'admin')) throw new Error('sanity check: sds list did not answer 25 admins');
  const populated = await get(url, `${runtime}/posts?limit=25&populate=authorId`, sdsHeaders);
  if (populated.data?.length !== 25 || populated.data.some((row) => typeof row.authorId !== 'object' || row.authorId === null)) {
    throw new Error('sanity check: sds populate did not answer 25 posts with their authors');
  }
  const one = await get(url, `${runtime}/users/7`, sdsHeaders);
  if (one.id !== 7) throw new Error('sanity check: sds read did not answer user 7');
  const patched = await get(url, `${runtime}/users/7`, { ...sdsHeaders, 'content-type': 'application/json' }, { method: 'PATCH', body: JSON.stringify({ firstName: 'Sanity' }) });
  if (patched.firstName !== 'Sanity') throw new Error('sanity check: sds PATCH did not update firstName');
  console.log(`sanity: sds list total ${list.meta!.pagination.total} admins, posts total ${populated.meta!.pagination.total}`);
  if (!baselineUrl) return;
  const baseList = await get(baselineUrl, '/users?role=admin&limit=25', {});
  const basePosts = await get(baselineUrl, '/posts?limit=25&populate=authorId', {});
  const baseOne = await get(baselineUrl, '/users/7', {});
  const ids = (rows: Array<Record<string, unknown>> | undefined) => JSON.stringify(rows?.map((row) => row.id));
  const authors = (rows: Array<Record<string, unknown>> | undefined) => JSON.stringify(rows?.map((row) => (row.authorId as { id: unknown } | null)?.id));
  const same =
    ids(list.data) === ids(baseList.data) &&
    list.meta!.pagination.total === baseList.meta!.pagination.total &&
    ids(populated.data) === ids(basePosts.data) &&
    authors(populated.data) === authors(basePosts.data) &&
    baseOne.firstName === 'Sanity';
  console.log(same ? 'sanity: baseline answers the same rows and totals' : 'sanity: WARNING — the baseline answers other rows than sds (plans differ?)');
}

function report(results: Map<CaseName, Map<TargetName, Measurement>>, options: Options, startLoad: string): boolean {
  const header = ['case', 'server', 'req/s', 'p50 ms', 'p99 ms', 'non-2xx', 'errors', 'CPU ms/req', 'PG ms/req', 'load', 'sds/baseline', 'targets'];
  const lines: string[][] = [];
  let ok = true;
  for (const [name, byTarget] of results) {
    const base = byTarget.get('baseline');
    const noCount = byTarget.get('baseline-nocount');
    let first = true;
    for (const [target, measurement] of byTarget) {
      let ratio = '';
      const flags: string[] = [];
      if (target === 'sds') {
        if (base) ratio = `${fmt(measurement.rps / base.rps, 2)}×${noCount ? ` (${fmt(measurement.rps / noCount.rps, 2)}× no-count)` : ''}`;
        const ratioTarget = RATIO_TARGETS[name];
        const against = ratioTarget && byTarget.get(ratioTarget.against);
        if (ratioTarget && against) {
          const pass = measurement.rps >= ratioTarget.ratio * against.rps;
          ok &&= pass;
          flags.push(`${pass ? 'ok' : 'MISS'} ≥${Math.round(ratioTarget.ratio * 100)}% of ${ratioTarget.against}`);
        }
        const p99pass = measurement.p99 < P99_TARGET_MS;
        ok &&= p99pass;
        flags.push(`${p99pass ? 'ok' : 'MISS'} p99<${P99_TARGET_MS}`);
        if (measurement.non2xx > 0 || measurement.errors > 0) {
          ok = false;
          flags.push('FAILED REQUESTS');
        }
      }
      lines.push([
        first ? CASE_TITLES[name] : '',
        target,
        fmt(measurement.rps, 0),
        fmt(measurement.p50, 1),
        fmt(measurement.p99, 1),
        String(measurement.non2xx),
        String(measurement.errors + measurement.timeouts),
        fmt(measurement.serverCpuMs, 2),
        fmt(measurement.postgresCpuMs, 2),
        `${measurement.loadBefore.toFixed(1)}→${measurement.loadAfter.toFixed(1)}`,
        ratio,
        flags.join(', '),
      ]);
      first = false;
    }
  }
  const widths = header.map((title, column) => Math.max(title.length, ...lines.map((line) => line[column]!.length)));
  const row = (cells: string[]) => cells.map((cell, column) => (column >= 2 && column <= 8 ? cell.padStart(widths[column]!) : cell.padEnd(widths[column]!))).join('  ');
  console.log('');
  console.log(`Runtime API, ${options.connections} connections, ${options.duration} s per run${options.rounds > 1 ? `, best of ${options.rounds} rounds` : ''}`);
  console.log(row(header));
  console.log(widths.map((width) => '─'.repeat(width)).join('  '));
  for (const line of lines) console.log(row(line));
  console.log('');
  console.log(
    'baseline: bare Express 5 + pg (pool 10), no auth, no rate limit, no validation; lists run the page and count(*) together on every request.\n' +
      'baseline-nocount: the same without the count (context only). CPU ms/req: CPU time of the server process per request; PG ms/req: of the\n' +
      'PostgreSQL backends of the bench database (both less sensitive to other load than req/s). load: 1-min load average before→after the run\n' +
      `(the benchmark itself keeps about 2–3 busy: server, PostgreSQL, autocannon). Load average (1/5/15 min) at start: ${startLoad}; at end: ${fmtLoad()}.`,
  );
  console.log(
    `targets (issue 16): list ≥ ${RATIO_TARGETS.list!.ratio * 100}% of baseline-nocount's req/s, read-one ≥ ${RATIO_TARGETS.read!.ratio * 100}% of the baseline's; p99 < ${P99_TARGET_MS} ms at ${options.connections} connections → ${ok ? 'all met' : 'NOT all met'}`,
  );
  if (os.loadavg()[0]! > os.cpus().length * 1.5 || Number(startLoad.split(' / ')[0]) > os.cpus().length) {
    console.log(`note: the machine was busy with other work (load average above ${os.cpus().length} at start); figures may be low — run again when it is quieter.`);
  }
  return ok;
}

function fmt(value: number, digits: number): string {
  return value.toLocaleString('en', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

const mode = process.argv[2];
if (mode === '--baseline') runBaseline();
else if (mode === '--driver') runDriver();
else runMain(main);
