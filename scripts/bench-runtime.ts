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
//          [--compare-ref REV | --compare-dir DIR] [--together] [--profile-dir DIR]
//   --rounds N  run every case N times (the order of sds and baseline alternates) and keep each
//               target's best round: useful when other work on the machine adds noise.
// PostgreSQL: BENCH_PG_URL (default postgres://postgres@127.0.0.1:5432/postgres), where a database
// sds_bench_<random> is created and dropped at the end (bench-service.ts: the schema and the set-up).
// Profiling sds: node --import tsx --cpu-prof --cpu-prof-dir=/tmp/sds-prof scripts/bench-runtime.ts --only read
// (the children do not inherit --cpu-prof / --prof).
//
// A/B against another build (--compare-ref <git rev>, or --compare-dir <checkout>): this checkout and the
// other each serve the same source (same control-plane and data database, same key) from a child process
// of its own started alike (`src/main.ts` of its tree, the same environment), both afresh each round; the
// bare baseline is not run.
// Every round runs each case on both, the order alternating (A B, B A, …) or both at once (--together),
// and prints the ratio of that round; the report gives every round's ratio and their median, so that
// noise on a shared machine falls on both sides of each ratio instead of on one run.
import { execFileSync, fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { existsSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
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

type TargetName = 'sds' | 'baseline' | 'baseline-nocount' | 'compare';

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
  /** A git revision of this repository to serve the same source with, beside this checkout (A/B). */
  compareRef?: string;
  /** A checkout (with its node_modules) to serve the same source with, beside this checkout (A/B). */
  compareDir?: string;
  /** A/B: where both services write a CPU profile (`sds/`, `compare/`) when they stop. */
  profileDir?: string;
  /** A/B: both builds under load at once (each by a driver of its own) instead of one after the other. */
  together: boolean;
}

/** Rounds of an A/B when --rounds is not given: one ratio says nothing about noise. */
const COMPARE_ROUNDS = 5;

function parseArgs(argv: string[]): Options {
  const options: Options = { duration: 10, warmup: 2, connections: 32, rounds: 1, only: CASES, users: 500_000, posts: 50_000, baseline: true, together: false };
  let roundsGiven = false;
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
    else if (arg === '--rounds') {
      options.rounds = Math.max(1, Math.floor(number()));
      roundsGiven = true;
    } else if (arg === '--compare-ref') options.compareRef = value();
    else if (arg === '--compare-dir') options.compareDir = path.resolve(value());
    else if (arg === '--profile-dir') options.profileDir = path.resolve(value());
    else if (arg === '--together') options.together = true;
    else if (arg === '--users') options.users = Math.floor(number());
    else if (arg === '--posts') options.posts = Math.floor(number());
    else if (arg === '--no-baseline') options.baseline = false;
    else if (arg === '--only') {
      const names = value().split(',').map((name) => name.trim());
      for (const name of names) if (!CASES.includes(name as CaseName)) throw new Error(`--only: unknown case "${name}" (cases: ${CASES.join(', ')})`);
      options.only = CASES.filter((name) => names.includes(name));
    } else throw new Error(`unknown argument ${arg} (see --help)`);
  }
  if (options.compareRef !== undefined && options.compareDir !== undefined) throw new Error('--compare-ref and --compare-dir: give one of them');
  if (options.together && options.compareRef === undefined && options.compareDir === undefined) throw new Error('--together runs the two services of an A/B (--compare-ref, --compare-dir) at once');
  if (options.profileDir !== undefined && options.compareRef === undefined && options.compareDir === undefined) {
    throw new Error('--profile-dir profiles the two services of an A/B (--compare-ref, --compare-dir); without one, run this script under node --cpu-prof');
  }
  if (options.compareRef !== undefined || options.compareDir !== undefined) {
    options.baseline = false;
    if (!roundsGiven) options.rounds = COMPARE_ROUNDS;
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

/** utime + stime (clock ticks) of a process of this machine; throws when it has ended. */
async function processTicks(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // Fields 14 and 15 of proc(5), counted from after the command name (field 3 is index 0).
  return Number(fields[11]) + Number(fields[12]);
}

/** utime + stime (clock ticks) of each PostgreSQL backend connected to `database` (same machine). */
async function backendTicks(admin: pg.Client, database: string): Promise<Map<number, number>> {
  const { rows } = await admin.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = $1', [database]);
  const ticks = new Map<number, number>();
  for (const { pid } of rows) {
    try {
      ticks.set(pid, await processTicks(pid));
    } catch {
      // The backend ended, or PostgreSQL is not on this machine: not counted.
    }
  }
  return ticks;
}

// ─── A/B: another build serving the same source ──────────────────────────────────────────────────

const ROOT = path.resolve(path.dirname(SELF), '..');

/** The other build's tree: the checkout given, or a worktree of the revision made for the run (`remove` deletes it). */
interface CompareTree {
  dir: string;
  label: string;
  remove: () => void;
}

const git = (dir: string, ...args: string[]) => execFileSync('git', ['-C', dir, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();

/** What this checkout is: its commit, and whether it holds changes not committed. */
function describeTree(dir: string): string {
  try {
    return `${git(dir, 'rev-parse', '--short', 'HEAD')}${git(dir, 'status', '--porcelain', '--untracked-files=no') ? ' with changes not committed' : ''}`;
  } catch {
    return 'not a git checkout';
  }
}

function compareTree(options: Options): CompareTree | undefined {
  if (options.compareDir !== undefined) {
    const dir = options.compareDir;
    for (const needed of ['src/main.ts', 'node_modules']) if (!existsSync(path.join(dir, needed))) throw new Error(`--compare-dir: ${dir} has no ${needed}`);
    return { dir, label: `${dir} (${describeTree(dir)})`, remove: () => {} };
  }
  if (options.compareRef === undefined) return undefined;
  let commit: string;
  try {
    commit = git(ROOT, 'rev-parse', '--verify', '--quiet', `${options.compareRef}^{commit}`);
  } catch {
    throw new Error(`--compare-ref: "${options.compareRef}" is not a commit of ${ROOT}`);
  }
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sds-compare-'));
  let removed = false;
  const remove = () => {
    if (removed) return;
    removed = true;
    try {
      git(ROOT, 'worktree', 'remove', '--force', dir);
    } catch (error) {
      console.error(`removing the worktree ${dir}:`, error instanceof Error ? error.message : error);
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    git(ROOT, 'worktree', 'add', '--detach', dir, commit);
    // The revision runs on this checkout's packages: fine for nearby revisions, which is what an A/B is for.
    symlinkSync(realpathSync(path.join(ROOT, 'node_modules')), path.join(dir, 'node_modules'));
  } catch (error) {
    remove();
    throw error;
  }
  return { dir, label: `${options.compareRef} (${commit.slice(0, 7)}, worktree ${dir})`, remove };
}

interface ServerChild {
  child: ChildProcess;
  pid: number;
  url: string;
}

/**
 * Starts the service of the tree `dir` (its own `src/main.ts`) in a child process, and waits until it
 * prints where it listens. Both sides of an A/B start so, with the same environment.
 */
function startServerChild(dir: string, env: NodeJS.ProcessEnv, profileDir?: string): Promise<ServerChild> {
  const profile = profileDir === undefined ? [] : ['--cpu-prof', `--cpu-prof-dir=${profileDir}`];
  const child = fork(SELF, ['--serve', dir], { cwd: dir, env, execArgv: [...childExecArgv(), ...profile], stdio: ['ignore', 'pipe', 'inherit', 'ipc'] });
  return new Promise((resolve, reject) => {
    let printed = '';
    const timer = setTimeout(() => fail(new Error(`the service of ${dir} did not start within 60 s: ${printed}`)), 60_000);
    const onData = (chunk: Buffer) => {
      printed += chunk.toString('utf8');
      const listening = /sds is serving (http:\/\/\S+)/.exec(printed);
      if (!listening) return;
      clearTimeout(timer);
      child.off('exit', onExit);
      resolve({ child, pid: child.pid!, url: listening[1]! });
    };
    const onExit = (code: number | null) => fail(new Error(`the service of ${dir} exited (${code}) before listening: ${printed}`));
    const fail = (error: Error) => {
      clearTimeout(timer);
      child.off('exit', onExit);
      child.kill('SIGKILL');
      reject(error);
    };
    // Read to the end, so that a later line never fills the pipe.
    child.stdout!.on('data', onData);
    child.once('exit', onExit);
  });
}

/** Stops a service child the way an operator does (SIGTERM: it closes, then exits); killed after 10 s. */
async function stopServerChild(server: ServerChild | undefined): Promise<void> {
  const child = server?.child;
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

/** The service child's side: runs `dir`'s entry point, and stops it when the benchmark goes away. */
async function serveTree(dir: string): Promise<void> {
  process.on('disconnect', () => process.kill(process.pid, 'SIGTERM'));
  await import(pathToFileURL(path.join(dir, 'src/main.ts')).href);
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

const USAGE = `Usage: npm run bench:runtime -- [--duration 10] [--warmup 2] [--connections 32] [--rounds 1]
         [--only list,read,populate,patch] [--users 500000] [--posts 50000] [--no-baseline]
         [--compare-ref REV | --compare-dir DIR] [--together] [--profile-dir DIR]
The runtime API (list, read, populate, patch) under autocannon against a bare Express 5 + pg server
running the same SQL, in the same run.
  --duration S     seconds measured per run (default 10)
  --warmup S       seconds of warm-up before each run (default 2)
  --connections N  concurrent connections (default 32)
  --rounds N       run every case N times, alternating sds and baseline; each target's best round is kept
  --only CASES     some of: list, read, populate, patch
  --users N        rows of users (default 500000); --posts N rows of posts (default 50000)
  --no-baseline    measure sds alone
  --compare-ref REV  A/B against another revision of this repository (a worktree of it is made in the
                   temporary folder, on this checkout's node_modules, and removed at the end): both
                   builds serve the same source from child processes started alike; each round runs every
                   case on both (order alternating) and prints sds ÷ compare; the report gives every
                   round's ratio and the median. Both services start afresh each round. No bare
                   baseline; --rounds defaults to ${COMPARE_ROUNDS}. --compare-ref HEAD on a clean checkout
                   is an A/A: its spread is the noise of the machine at that load.
  --compare-dir DIR  the same against a checkout of your own (with its node_modules), kept between runs
  --together       with an A/B: both services under load at the same time (each by an autocannon of its
                   own, --connections each) instead of one after the other: the machine's other work
                   then falls on both in the same seconds; PostgreSQL's CPU is given per request of both
  --profile-dir DIR  with an A/B: both services write a CPU profile (node --cpu-prof) into DIR/sds and
                   DIR/compare when they stop (profiling slows both alike; measure without it)
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
  const tree = compareTree(options);
  if (tree) console.log(`A/B: sds = this checkout (${describeTree(ROOT)}), compare = ${tree.label}; each served by a child process of its own`);

  // startBenchService imports the service only when called: the child processes, which load this file, do not.
  // Closing stops the children first, then sds.
  let baseline: ChildProcess | undefined;
  const drivers: ChildProcess[] = [];
  // A/B: both builds, each in a child process (the in-process sds only sets up the source).
  let sides: { sds: ServerChild; compare: ServerChild } | undefined;
  let startSides: ((compareFirst: boolean) => Promise<void>) | undefined;
  const children: Array<ServerChild | undefined> = [];
  const dataDir = tree ? mkdtempSync(path.join(os.tmpdir(), 'sds-bench-data-')) : undefined;
  let service: Awaited<ReturnType<typeof startBenchService>>;
  try {
    service = await startBenchService('bench', {
      // On SIGINT too: the children, then what the A/B made on disk.
      beforeClose: async () => {
        await Promise.allSettled([...drivers.map(stopChild), stopChild(baseline), ...children.map(stopServerChild)]);
        tree?.remove();
        if (dataDir) rmSync(dataDir, { recursive: true, force: true });
      },
    });
  } catch (error) {
    tree?.remove();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  try {
    const { admin, databaseName, databaseUrl } = service;
    let { url } = service;
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
    if (tree) {
      // The same control plane (so the same source and key) and the same data for both, the same settings.
      const env: NodeJS.ProcessEnv = {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        NODE_ENV: 'production',
        DATABASE_URL: databaseUrl,
        PORT: '0',
        LOG_LEVEL: 'silent',
        SDS_WORKER: 'false',
        SDS_VALIDATE_RESPONSES: 'false',
        SDS_SECRET_KEY: randomBytes(32).toString('base64url'),
        SDS_DATA_DIR: dataDir,
      };
      const profile = (side: TargetName) => options.profileDir && path.join(options.profileDir, side);
      // One after the other (loading the service is most of a start's CPU), which first alternating.
      startSides = async (compareFirst) => {
        const start = async (side: 'sds' | 'compare') => {
          const server = await startServerChild(side === 'sds' ? ROOT : tree.dir, env, profile(side));
          children.push(server);
          return server;
        };
        const [first, second] = compareFirst ? [await start('compare'), await start('sds')] : [await start('sds'), await start('compare')];
        sides = compareFirst ? { sds: second, compare: first } : { sds: first, compare: second };
        url = sides.sds.url;
      };
      await startSides(false);
    }
    drivers.push(spawnChild('--driver'));
    if (sides && options.together) drivers.push(spawnChild('--driver'));

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
    if (sides) await sanityCheck(sides.compare.url, sourceKey, runtime, undefined);
    const serverPid = (target: TargetName) => (target === 'compare' ? sides?.compare.pid : target === 'sds' ? sides?.sds.pid : undefined);

    const results = new Map<CaseName, Map<TargetName, Measurement>>();
    /** Every round's measurements, by case (the A/B's ratios). */
    const rounds = new Map<CaseName, Array<Map<TargetName, Measurement>>>();
    for (let round = 0; round < options.rounds; round++) {
      if (sides && round > 0) {
        // Both services afresh each round: what one process met (its core, its heap, its JIT's choices,
        // its connections' backends) stays with it for its life, and would favour one side all run long.
        await Promise.all([stopServerChild(sides.sds), stopServerChild(sides.compare)]);
        await startSides!(round % 2 === 1);
      }
      for (const name of options.only) {
        let entries = specs(name);
        if (sides) entries = entries.map((entry) => [entry, { target: 'compare' as const, spec: { ...entry.spec, origin: sides!.compare.url } }]).flat();
        if (round % 2 === 1) entries = [...entries].reverse();
        const thisRound = new Map<TargetName, Measurement>();
        // Measured one after the other; with --together, the A/B's two builds at once, each by a driver of its own.
        const groups = sides && options.together ? [entries] : entries.map((entry) => [entry]);
        for (const group of groups) {
          const run = (duration: number) =>
            Promise.all(group.map(({ spec }, i) => ask<LoadResult>(drivers[i]!, { type: 'run', spec: { ...spec, connections: options.connections, duration } })));
          if (options.warmup > 0) await run(options.warmup);
          const serverMicros = async (target: TargetName): Promise<number> => {
            const pid = serverPid(target);
            if (pid !== undefined) return (await processTicks(pid)) * CLOCK_TICK_MS * 1000;
            return target === 'sds' ? cpuMicros() : ask<number>(baseline!, { type: 'cpu' });
          };
          const snapshot = async (): Promise<{ servers: number[]; backends: Map<number, number> }> => ({
            servers: await Promise.all(group.map(({ target }) => serverMicros(target))),
            backends: await backendTicks(admin, databaseName),
          });
          const loadBefore = load1();
          const before = await snapshot();
          const measured = await run(options.duration);
          const after = await snapshot();
          let backendTicksUsed = 0;
          for (const [pid, ticks] of after.backends) backendTicksUsed += ticks - (before.backends.get(pid) ?? 0);
          // The PostgreSQL backends serve every server of the group: their CPU is per request of them all.
          const groupRequests = Math.max(1, measured.reduce((sum, result) => sum + result.requests, 0));
          const loadAfter = load1();
          group.forEach(({ target }, i) => {
            const result = measured[i]!;
            const measurement: Measurement = {
              ...result,
              target,
              loadBefore,
              loadAfter,
              serverCpuMs: (after.servers[i]! - before.servers[i]!) / 1000 / Math.max(1, result.requests),
              postgresCpuMs: (backendTicksUsed * CLOCK_TICK_MS) / groupRequests,
            };
            console.log(
              `  round ${round + 1} ${name.padEnd(8)} ${target.padEnd(16)} ${fmt(result.rps, 0).padStart(7)} req/s  p50 ${fmt(result.p50, 1)} ms  p99 ${fmt(result.p99, 1)} ms  ` +
                `non-2xx ${result.non2xx}  errors ${result.errors}  CPU/req ${fmt(measurement.serverCpuMs, 2)} + ${fmt(measurement.postgresCpuMs, 2)} ms  ` +
                `load ${loadBefore.toFixed(2)}→${loadAfter.toFixed(2)}`,
            );
            const byTarget = results.get(name) ?? new Map<TargetName, Measurement>();
            results.set(name, byTarget);
            const best = byTarget.get(target);
            if (!best || measurement.rps > best.rps) byTarget.set(target, measurement);
            thisRound.set(target, measurement);
          });
        }
        rounds.set(name, [...(rounds.get(name) ?? []), thisRound]);
        if (sides) console.log(`  round ${round + 1} ${name.padEnd(8)} ${abRatios(thisRound)}`);
      }
    }

    const ok = sides ? reportComparison(rounds, options, startLoad) : report(results, options, startLoad);
    if (!ok) process.exitCode = 1;
  } finally {
    await service.close();
  }
}

/** One round's A/B ratios: requests/s, server CPU and PostgreSQL CPU per request, sds ÷ compare. */
function abRatios(round: Map<TargetName, Measurement>): string {
  const a = round.get('sds')!;
  const b = round.get('compare')!;
  const ratio = (x: number, y: number, digits: number) => (y > 0 ? fmt(x / y, digits) : '–');
  return `sds/compare ${ratio(a.rps, b.rps, 3)} req/s  (CPU/req ${ratio(a.serverCpuMs, b.serverCpuMs, 2)}, PG/req ${ratio(a.postgresCpuMs, b.postgresCpuMs, 2)})`;
}

/** The A/B's report: per case, every round's ratio (sds ÷ compare) and their median; false when a request failed. */
function reportComparison(rounds: Map<CaseName, Array<Map<TargetName, Measurement>>>, options: Options, startLoad: string): boolean {
  let ok = true;
  console.log('');
  const how = options.together ? `both at once, ${options.connections} connections each` : `${options.connections} connections, order alternating`;
  console.log(`Runtime API A/B, ${how}, ${options.duration} s per run after ${options.warmup} s of warm-up, ${options.rounds} rounds`);
  console.log('ratios are sds ÷ compare (above 1: sds serves more requests/s; below 1: sds spends less CPU per request)');
  for (const [name, measured] of rounds) {
    const ratios = measured.map((round) => round.get('sds')!.rps / round.get('compare')!.rps);
    const cpuRatios = measured.map((round) => round.get('sds')!.serverCpuMs / round.get('compare')!.serverCpuMs);
    const side = (target: TargetName, key: 'rps' | 'serverCpuMs' | 'postgresCpuMs' | 'p99') => median(measured.map((round) => round.get(target)![key]));
    const loads = measured.flatMap((round) => [...round.values()].flatMap((m) => [m.loadBefore, m.loadAfter]));
    const failed = measured.some((round) => [...round.values()].some((m) => m.non2xx > 0 || m.errors > 0));
    ok &&= !failed;
    console.log(`${CASE_TITLES[name]}:`);
    console.log(`  req/s ratio per round    ${ratios.map((ratio) => fmt(ratio, 3)).join('  ')}  → median ${fmt(median(ratios), 3)}`);
    console.log(`  CPU/req ratio per round  ${cpuRatios.map((ratio) => fmt(ratio, 3)).join('  ')}  → median ${fmt(median(cpuRatios), 3)}`);
    console.log(
      `  medians  req/s ${fmt(side('sds', 'rps'), 0)} vs ${fmt(side('compare', 'rps'), 0)}  p99 ${fmt(side('sds', 'p99'), 1)} vs ${fmt(side('compare', 'p99'), 1)} ms  ` +
        `CPU/req ${fmt(side('sds', 'serverCpuMs'), 3)} vs ${fmt(side('compare', 'serverCpuMs'), 3)} ms  PG/req ${fmt(side('sds', 'postgresCpuMs'), 3)} vs ${fmt(side('compare', 'postgresCpuMs'), 3)} ms  ` +
        `load ${fmt(Math.min(...loads), 1)}–${fmt(Math.max(...loads), 1)}${failed ? '  FAILED REQUESTS' : ''}`,
    );
  }
  console.log(`Load average (1/5/15 min) at start: ${startLoad}; at end: ${fmtLoad()}.`);
  return ok;
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
else if (mode === '--serve') void serveTree(process.argv[3]!);
else runMain(main);
