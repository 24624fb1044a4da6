// Soak test (issue 7, Load): several minutes of mixed runtime traffic against the real service, started in
// this process on a fresh database of the local PostgreSQL (as in bench-runtime.ts), on a PostgreSQL source
// and a MySQL source at once:
//   reads    list users (filters, sort, offset, projection), list posts with populate, read one (+ populate)
//   writes   POST new rows, PATCH (rows it created, and generated rows of its own partition), DELETE (rows
//            it created) — every acknowledged write is checked against what was sent
//   regens   each source is regenerated (new seed) about every 30 s while reads and writes go on: the
//            atomic swap must keep every read answering
// A write-only phase without regenerations ends the run. It checks, and prints at the end:
//   - requests per kind and source: req/s, p50/p99 latency, 5xx (must be 0), other non-2xx by status
//     (429 must not happen: the sources get a high rateLimitRpm);
//   - every write: the writes acknowledged since a source's last regeneration are read back (GET each row,
//     deleted rows must answer 404) right before its next regeneration, and those of the final write-only
//     phase at the end (the source's writes pause meanwhile; its reads go on). A regeneration replaces the
//     data, so rows written while it runs are not tracked; a 404 on such a row is counted as expected
//     (categorised), never as a failure. Generated rows (ids 1..rowCount) exist in every generation: a 404
//     on one is always a failure;
//   - the memory of the sds process (this one), sampled every 2 s: RSS growth = peak RSS of the last minute
//     of the mixed traffic minus that of the first minute (catches native memory too: buffers, sockets,
//     drivers), and live-heap growth = the same for heapUsed right after a forced full GC (one sample in
//     five), which is what a JS leak grows; each held to a bound (see RSS_GROWTH_BOUND_MB).
// Exit code 1 on any 5xx, 429, unexpected status, wrong answer, unverified write, failed regeneration or
// memory growth beyond the bound.
//
// Not part of `npm run bench` (it runs for minutes): npm run bench:soak -- [--duration 180] [--help]
//
// Processes: this one runs sds only (so its RSS and heap are sds's); the load driver (a hand-written
// concurrent loop over fetch, which needs per-request verification) runs in a child process (this file
// with `--driver`), so it never shares an event loop or a heap with the server.
// PostgreSQL: BENCH_PG_URL (default postgres://postgres@127.0.0.1:5432/postgres), where a database
// sds_soak_<random> is created and dropped at the end (bench-service.ts: the schema and the set-up).
// MySQL: MYSQL_URL (default mysql://root@127.0.0.1:3306/test); the MySQL source is skipped, saying why,
// when it is unreachable.
import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import v8 from 'node:v8';
import vm from 'node:vm';
import mysql from 'mysql2/promise';
import { createBenchProject, createGeneratedSource, fmtLoad, ROLES, runMain, startBenchService } from './bench-service.ts';

const MYSQL_URL = process.env.MYSQL_URL ?? 'mysql://root@127.0.0.1:3306/test';
const SELF = fileURLToPath(import.meta.url);
const MB = 1024 * 1024;
/** Memory samples of the sds process, every … ms. */
const SAMPLE_EVERY_MS = 2_000;
/** Every …th sample follows a forced full GC (every 10 s): the live heap, beside the peaks. */
const GC_SAMPLE_EVERY = 5;
/**
 * Bounds of the growth between the first and the last minute (MB), from measurements on a busy 2-core
 * machine at the defaults (~25k requests, 12 regenerations of 50k rows in 3 minutes):
 * - RSS peak: +14 to +18 MB with the forced GCs (the regenerations' transient buffers, ~20–30 MB above
 *   the steady level while one runs, land in either window). Without forced GCs V8 lets garbage pile up
 *   longer as the run goes on and the peak drifted by +77 MB with a flat live heap, which is why one
 *   sample in five follows a full GC. 50 MB is about three times the noise.
 * - live heap (post-GC heapUsed): ~55 MB, flat within +1.2 MB over a default run and within +0.7 MB over
 *   29 regenerations (one every 10 s). 10 MB catches a leak of ~400 bytes per request, or of ~1 MB per
 *   regeneration, in a default run.
 */
const RSS_GROWTH_BOUND_MB = 50;
const LIVE_HEAP_GROWTH_BOUND_MB = 10;
/** Page of the list reads and the largest offset they use. */
const LIST_LIMIT = 25;
const MAX_OFFSET = 200;
/** Concurrent GETs of a verification pass. */
const VERIFY_CONCURRENCY = 8;
const REQUEST_TIMEOUT_MS = 30_000;
const GENERATION_TIMEOUT_MS = 5 * 60_000;

const USAGE = `Usage: npm run bench:soak -- [options]

Mixed runtime traffic (reads, writes, regenerations every ~30 s) on a PostgreSQL and a MySQL source of a
real sds started in this process; verifies every write and bounds the memory growth of sds.

Options:
  --duration <s>          seconds of mixed traffic (default 180), then a write-only phase and the checks
  --final-writes <s>      seconds of the closing write-only phase (default 10)
  --regenerate-every <s>  seconds between the regenerations of a source (default 30; 0: none)
  --readers <n>           concurrent read loops per source (default 6)
  --writers <n>           concurrent write loops per source (default 3)
  --users <n>             generated users per source (default 10000)
  --posts <n>             generated posts per source (default 40000)
  --rss-growth-mb <MB>    bound of the RSS growth, last minute vs first minute (default ${RSS_GROWTH_BOUND_MB})
  --heap-growth-mb <MB>   bound of the live heap growth, heapUsed after a full GC (default ${LIVE_HEAP_GROWTH_BOUND_MB})
  --no-mysql              PostgreSQL source only
  --help                  this text

Environment: BENCH_PG_URL (PostgreSQL server for sds's database and the postgres source; default
postgres://postgres@127.0.0.1:5432/postgres), MYSQL_URL (default mysql://root@127.0.0.1:3306/test).`;

// ─── arguments ───────────────────────────────────────────────────────────────────────────────────

interface Options {
  help: boolean;
  duration: number;
  finalWrites: number;
  regenerateEvery: number;
  readers: number;
  writers: number;
  users: number;
  posts: number;
  rssGrowthMb: number;
  heapGrowthMb: number;
  mysql: boolean;
}

function parseArgs(argv: string[]): Options {
  const options: Options = {
    help: false,
    duration: 180,
    finalWrites: 10,
    regenerateEvery: 30,
    readers: 6,
    writers: 3,
    users: 10_000,
    posts: 40_000,
    rssGrowthMb: RSS_GROWTH_BOUND_MB,
    heapGrowthMb: LIVE_HEAP_GROWTH_BOUND_MB,
    mysql: true,
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const number = (min: number) => {
      const next = argv[++i];
      const parsed = Number(next);
      if (next === undefined || !Number.isFinite(parsed) || parsed < min) throw new Error(`${arg} needs a number ≥ ${min}`);
      return parsed;
    };
    if (arg === '--help' || arg === '-h') options.help = true;
    else if (arg === '--duration') options.duration = number(1);
    else if (arg === '--final-writes') options.finalWrites = number(0);
    else if (arg === '--regenerate-every') options.regenerateEvery = number(0);
    else if (arg === '--readers') options.readers = Math.floor(number(0));
    else if (arg === '--writers') options.writers = Math.floor(number(0));
    else if (arg === '--users') options.users = Math.floor(number(1));
    else if (arg === '--posts') options.posts = Math.floor(number(1));
    else if (arg === '--rss-growth-mb') options.rssGrowthMb = number(0);
    else if (arg === '--heap-growth-mb') options.heapGrowthMb = number(0);
    else if (arg === '--no-mysql') options.mysql = false;
    else throw new Error(`unknown argument ${arg} (see --help)`);
  }
  return options;
}

// ─── what the main process and the driver child exchange ─────────────────────────────────────────

type SourceLabel = 'postgres' | 'mysql';

interface SourcePlan {
  label: SourceLabel;
  sourceId: string;
  sourceKey: string;
  /** Generated rows: ids 1..users and 1..posts exist in every generation. */
  users: number;
  posts: number;
}

interface DriverPlan {
  url: string;
  teamKey: string;
  projectId: string;
  sources: SourcePlan[];
  duration: number;
  finalWrites: number;
  regenerateEvery: number;
  readers: number;
  writers: number;
}

type Kind = 'list' | 'populate' | 'read' | 'create' | 'patch' | 'delete' | 'verify' | 'regenerate' | 'job status';
const KINDS: Kind[] = ['list', 'populate', 'read', 'create', 'patch', 'delete', 'verify', 'regenerate', 'job status'];

interface KindReport {
  source: SourceLabel;
  kind: Kind;
  requests: number;
  /** From the first request of the kind to the last. */
  seconds: number;
  p50: number;
  p99: number;
  /** Status → count, every status (2xx included). */
  statuses: Record<string, number>;
  /** Non-2xx answers that were expected, by reason. */
  expected: Record<string, number>;
  /** Requests without an answer (network error, timeout). */
  errors: number;
}

interface VerificationReport {
  /** Acknowledged writes that were tracked (outside regeneration windows), by operation. */
  acknowledged: { create: number; patch: number; delete: number };
  /** Rows read back: each the final state of one or more tracked writes. */
  rowsChecked: number;
  rowsOk: number;
  /** A written row answered 404, answered other values, or a deleted row answered 200. */
  missing: number;
  mismatched: number;
  resurrected: number;
  passes: number;
}

interface RegenerationReport {
  source: SourceLabel;
  index: number;
  status: string;
  seconds: number;
  /** Untracked writes that went on during the regeneration. */
  writesDuring: number;
}

interface DriverReport {
  kinds: KindReport[];
  verification: Record<string, VerificationReport>;
  regenerations: RegenerationReport[];
  /** Failures by category, and the first few of them spelled out. */
  failures: Record<string, number>;
  failureSamples: string[];
  /** ms since the driver started: end of the mixed phase, of the write-only phase, of the checks. */
  mixedEndMs: number;
  finalEndMs: number;
}

type DriverMessage = { type: 'ready' } | { type: 'done'; report: DriverReport } | { type: 'error'; error: string };

// ─── the driver child ────────────────────────────────────────────────────────────────────────────

type Row = Record<string, unknown>;
type Table = 'users' | 'posts';

/** One HTTP exchange: status 0 means no answer (network error or timeout, in `error`). */
interface Exchange {
  status: number;
  body: unknown;
  ms: number;
  error?: string;
}

async function exchange(url: string, key: string, method: string, body?: unknown): Promise<Exchange> {
  const started = performance.now();
  try {
    const response = await fetch(url, {
      method,
      headers: { 'x-api-key': key, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // Not JSON: kept as text for the failure message.
    }
    return { status: response.status, body: parsed, ms: performance.now() - started };
  } catch (error) {
    return { status: 0, body: undefined, ms: performance.now() - started, error: error instanceof Error ? error.message : String(error) };
  }
}

/** Latencies and statuses of one kind of request on one source. */
class KindStats {
  readonly latencies: number[] = [];
  readonly statuses = new Map<number, number>();
  readonly expected = new Map<string, number>();
  errors = 0;
  first = 0;
  last = 0;

  add(result: Exchange): void {
    const now = performance.now();
    if (this.latencies.length === 0 && this.errors === 0) this.first = now - result.ms;
    this.last = now;
    if (result.status === 0) this.errors++;
    else {
      this.latencies.push(result.ms);
      this.statuses.set(result.status, (this.statuses.get(result.status) ?? 0) + 1);
    }
  }

  report(source: SourceLabel, kind: Kind): KindReport {
    const sorted = Float64Array.from(this.latencies).sort();
    const at = (q: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]! : 0);
    return {
      source,
      kind,
      requests: this.latencies.length + this.errors,
      seconds: (this.last - this.first) / 1000,
      p50: at(0.5),
      p99: at(0.99),
      statuses: Object.fromEntries([...this.statuses].map(([status, count]) => [String(status), count])),
      expected: Object.fromEntries(this.expected),
      errors: this.errors,
    };
  }
}

/**
 * Lets writes of a source through while open; `close()` stops new ones and resolves once those in
 * flight have finished, so a source's bookkeeping can change (verification, a new generation) with no
 * write of the old state still on the wire.
 */
class WriteGate {
  private inFlight = 0;
  private closed = false;
  private waiting: Array<() => void> = [];
  private draining: Array<() => void> = [];

  async enter(): Promise<void> {
    while (this.closed) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.inFlight++;
  }

  leave(): void {
    if (--this.inFlight === 0) for (const resolve of this.draining.splice(0)) resolve();
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.inFlight > 0) await new Promise<void>((resolve) => this.draining.push(resolve));
  }

  open(): void {
    this.closed = false;
    for (const resolve of this.waiting.splice(0)) resolve();
  }
}

/** The last acknowledged state of a row written since the source's last regeneration. */
interface Entry {
  table: Table;
  id: number;
  state: 'present' | 'deleted';
  /** The full row the last write answered (present rows). */
  row?: Row;
}

/** Per-source state of the driver. */
class SourceRun {
  readonly stats = new Map<Kind, KindStats>();
  readonly gate = new WriteGate();
  /** `tracked`: writes are recorded for verification; `regenerating`: a regeneration runs, they are not. */
  phase: 'tracked' | 'regenerating' = 'tracked';
  /** Bumped at every phase change (while the write gate is closed): writers drop the rows they knew. */
  serial = 0;
  /** Tracked rows by `table/id`. */
  readonly rows = new Map<string, Entry>();
  readonly verification: VerificationReport = {
    acknowledged: { create: 0, patch: 0, delete: 0 },
    rowsChecked: 0,
    rowsOk: 0,
    missing: 0,
    mismatched: 0,
    resurrected: 0,
    passes: 0,
  };
  writesDuringRegeneration = 0;
  readonly runtime: string;

  constructor(
    readonly plan: SourcePlan,
    readonly origin: string,
  ) {
    this.runtime = `${origin}/runtime/${plan.sourceId}`;
  }

  kind(kind: Kind): KindStats {
    let stats = this.stats.get(kind);
    if (!stats) this.stats.set(kind, (stats = new KindStats()));
    return stats;
  }
}

/** Failures of the whole run, by category, with the first few of each category spelled out. */
class Failures {
  readonly counts = new Map<string, number>();
  readonly samples: string[] = [];

  add(category: string, detail: string): void {
    const count = (this.counts.get(category) ?? 0) + 1;
    this.counts.set(category, count);
    if (count <= 5) this.samples.push(`${category}: ${detail}`);
  }
}

const randomInt = (min: number, max: number) => min + Math.floor(Math.random() * (max - min + 1));
const pick = <T>(values: readonly T[]): T => values[Math.floor(Math.random() * values.length)]!;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
const short = (value: unknown) => {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text === undefined ? 'no body' : text.length > 300 ? `${text.slice(0, 300)}…` : text;
};

/** Stable JSON (sorted keys) for comparing rows. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical((value as Row)[key])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

/** The fields of `sent` that `row` does not hold (numbers compared as numbers). */
function echoMismatches(sent: Row, row: Row): string[] {
  return Object.keys(sent).filter((key) => (typeof sent[key] === 'number' ? Number(row[key]) !== sent[key] : row[key] !== sent[key]));
}

function runDriver(): void {
  process.once('message', (message: { type: 'run'; plan: DriverPlan }) => {
    drive(message.plan).then(
      (report) => process.send!({ type: 'done', report } satisfies DriverMessage),
      (error: unknown) => process.send!({ type: 'error', error: error instanceof Error ? (error.stack ?? error.message) : String(error) } satisfies DriverMessage),
    );
  });
  // The parent went away: do not linger.
  process.on('disconnect', () => process.exit(0));
  process.send!({ type: 'ready' } satisfies DriverMessage);
}

async function drive(plan: DriverPlan): Promise<DriverReport> {
  const started = performance.now();
  const elapsed = () => (performance.now() - started) / 1000;
  const stamp = () => `[${elapsed().toFixed(0).padStart(4)} s]`;
  const runs = plan.sources.map((source) => new SourceRun(source, plan.url));
  const failures = new Failures();
  const regenerations: RegenerationReport[] = [];
  const runId = randomBytes(4).toString('hex');
  let stopReads = false;
  let stopWrites = false;
  let stopRegenerations = false;

  /** Records an exchange; 5xx, 429 and network errors are failures whatever the caller expected. */
  const record = (run: SourceRun, kind: Kind, what: string, result: Exchange): Exchange => {
    run.kind(kind).add(result);
    const where = `${run.plan.label} ${kind} ${what}`;
    if (result.status === 0) failures.add('no answer (network error / timeout)', `${where}: ${result.error}`);
    else if (result.status >= 500) failures.add('5xx', `${where} → ${result.status} ${short(result.body)}`);
    else if (result.status === 429) failures.add('429', `${where} → 429 ${short(result.body)}`);
    return result;
  };
  /** A non-2xx status that is not 5xx/429 (already counted) and was not expected. */
  const unexpected = (run: SourceRun, kind: Kind, what: string, result: Exchange) => {
    if (result.status !== 0 && result.status < 500 && result.status !== 429) {
      failures.add(`unexpected ${result.status}`, `${run.plan.label} ${kind} ${what} → ${result.status} ${short(result.body)}`);
    }
  };
  const expected = (run: SourceRun, kind: Kind, reason: string) => {
    const map = run.kind(kind).expected;
    map.set(reason, (map.get(reason) ?? 0) + 1);
  };
  const badAnswer = (run: SourceRun, kind: Kind, what: string, problem: string) =>
    failures.add('wrong answer', `${run.plan.label} ${kind} ${what}: ${problem}`);

  // ── reads ──

  /** One read, checked: status 200 and the shape the query asked for (filters, sort, projection, populate). */
  const readOnce = async (run: SourceRun) => {
    const { users, posts } = run.plan;
    const choice = Math.random();
    if (choice < 0.3) {
      // Filtered, sorted, paged list.
      const role = pick(ROLES);
      const minAge = randomInt(18, 80);
      const query = `filters[role][$eq]=${role}&filters[age][$gte]=${minAge}&sort=age:desc,id:asc&limit=${LIST_LIMIT}&offset=${randomInt(0, MAX_OFFSET)}`;
      const result = record(run, 'list', `users?${query}`, await exchange(`${run.runtime}/users?${query}`, run.plan.sourceKey, 'GET'));
      if (result.status !== 200) return unexpected(run, 'list', `users?${query}`, result);
      const data = (result.body as { data?: Row[] }).data;
      if (!Array.isArray(data) || data.length > LIST_LIMIT) return badAnswer(run, 'list', `users?${query}`, 'no data array of at most limit rows');
      for (let i = 0; i < data.length; i++) {
        const row = data[i]!;
        const previous = data[i - 1];
        if (row.role !== role || (row.age as number) < minAge) return badAnswer(run, 'list', `users?${query}`, `row ${short(row)} does not match the filters`);
        if (previous && ((previous.age as number) < (row.age as number) || (previous.age === row.age && (previous.id as number) > (row.id as number)))) {
          return badAnswer(run, 'list', `users?${query}`, 'rows not sorted by age:desc,id:asc');
        }
      }
    } else if (choice < 0.45) {
      // Text filter and projection.
      const letters = pick(['an', 'er', 'on', 'ma', 'el', 'ri']);
      const query = `filters[lastName][$containsi]=${letters}&fields=id,lastName,city&sort=lastName:asc,id:asc&limit=${LIST_LIMIT}`;
      const result = record(run, 'list', `users?${query}`, await exchange(`${run.runtime}/users?${query}`, run.plan.sourceKey, 'GET'));
      if (result.status !== 200) return unexpected(run, 'list', `users?${query}`, result);
      const data = (result.body as { data?: Row[] }).data;
      if (!Array.isArray(data)) return badAnswer(run, 'list', `users?${query}`, 'no data array');
      for (const row of data) {
        if (Object.keys(row).sort().join() !== 'city,id,lastName') return badAnswer(run, 'list', `users?${query}`, `projection not applied: ${short(row)}`);
        if (!String(row.lastName).toLowerCase().includes(letters)) return badAnswer(run, 'list', `users?${query}`, `row ${short(row)} does not match the filter`);
      }
    } else if (choice < 0.7) {
      // List with populate (and a projection of the populated rows, in the dot form: the documented bracket
      // form `populate[authorId][fields]=…` is answered 400 "query.populate must be string" by the request
      // validator, qs having made `populate` an object).
      const maxPrice = randomInt(5, 100);
      const query = `filters[price][$lt]=${maxPrice}&sort=publishedOn:desc,id:asc&populate=authorId&populate.authorId.fields=id,firstName,role&limit=${LIST_LIMIT}&offset=${randomInt(0, MAX_OFFSET)}`;
      const result = record(run, 'populate', `posts?${query}`, await exchange(`${run.runtime}/posts?${query}`, run.plan.sourceKey, 'GET'));
      if (result.status !== 200) return unexpected(run, 'populate', `posts?${query}`, result);
      const data = (result.body as { data?: Row[] }).data;
      if (!Array.isArray(data) || data.length > LIST_LIMIT) return badAnswer(run, 'populate', `posts?${query}`, 'no data array of at most limit rows');
      for (const row of data) {
        const author = row.authorId as Row | null;
        // Authors are generated users (never deleted), present in every generation.
        if (!author || typeof author !== 'object' || Object.keys(author).sort().join() !== 'firstName,id,role') {
          return badAnswer(run, 'populate', `posts?${query}`, `authorId not populated with id,firstName,role: ${short(row)}`);
        }
        if ((row.price as number) >= maxPrice) return badAnswer(run, 'populate', `posts?${query}`, `row ${short(row)} does not match the filter`);
      }
    } else if (choice < 0.88) {
      // A generated user: exists in every generation, so always 200.
      const id = randomInt(1, users);
      const result = record(run, 'read', `users/${id}`, await exchange(`${run.runtime}/users/${id}`, run.plan.sourceKey, 'GET'));
      if (result.status !== 200) return unexpected(run, 'read', `users/${id} (generated row)`, result);
      if ((result.body as Row).id !== id) badAnswer(run, 'read', `users/${id}`, `answered ${short(result.body)}`);
    } else {
      const id = randomInt(1, posts);
      const result = record(run, 'read', `posts/${id}?populate=authorId`, await exchange(`${run.runtime}/posts/${id}?populate=authorId`, run.plan.sourceKey, 'GET'));
      if (result.status !== 200) return unexpected(run, 'read', `posts/${id}?populate=authorId (generated row)`, result);
      const row = result.body as Row;
      if (row.id !== id || typeof row.authorId !== 'object' || row.authorId === null) badAnswer(run, 'read', `posts/${id}?populate=authorId`, `answered ${short(row)}`);
    }
  };

  const reader = async (run: SourceRun) => {
    while (!stopReads) await readOnce(run);
  };

  // ── writes ──

  /**
   * A write loop of one source. Writer `index` of `count` creates rows, patches rows it created and
   * generated rows of its own partition (id ≡ index mod count), and deletes rows it created, so no two
   * writers touch the same row and the last acknowledged answer of each row is its expected state.
   */
  const writer = async (run: SourceRun, index: number, count: number) => {
    /** Rows this writer created, each with the row its last tracked write answered (the entry it owns). */
    const owned: Record<Table, Array<{ id: number; row?: Row }>> = { users: [], posts: [] };
    let ownedSerial = run.serial;
    let sequence = 0;
    while (!stopWrites) {
      await run.gate.enter();
      try {
        if (stopWrites) break;
        if (ownedSerial !== run.serial) {
          // A regeneration started or ended: the rows this writer created are gone, or untracked.
          owned.users = [];
          owned.posts = [];
          ownedSerial = run.serial;
        }
        const tracked = run.phase === 'tracked';
        const table: Table = Math.random() < 0.5 ? 'users' : 'posts';
        const mine = owned[table];
        const generatedRows = table === 'users' ? run.plan.users : run.plan.posts;
        const choice = Math.random();
        sequence++;
        if (mine.length < 10 || choice < 0.35) {
          // Create.
          const body: Row =
            table === 'users'
              ? {
                  email: `soak.${runId}.${run.plan.label}.${index}.${sequence}@soak.invalid`,
                  firstName: `Soak${sequence}`,
                  lastName: pick(['Writer', 'Tester', 'Loader']),
                  role: pick(ROLES),
                  active: Math.random() < 0.5,
                  age: randomInt(18, 90),
                  city: `City ${randomInt(1, 500)}`,
                  createdAt: new Date(Date.UTC(2025, randomInt(0, 11), randomInt(1, 28), randomInt(0, 23), randomInt(0, 59), randomInt(0, 59), randomInt(0, 999))).toISOString(),
                }
              : {
                  authorId: randomInt(1, run.plan.users),
                  title: `Soak post ${sequence} of writer ${index}`,
                  publishedOn: `2025-${String(randomInt(1, 12)).padStart(2, '0')}-${String(randomInt(1, 28)).padStart(2, '0')}`,
                  price: randomInt(0, 9_999) / 100,
                };
          const result = record(run, 'create', table, await exchange(`${run.runtime}/${table}`, run.plan.sourceKey, 'POST', body));
          if (result.status !== 201) {
            unexpected(run, 'create', table, result);
            continue;
          }
          const row = result.body as Row;
          const wrong = echoMismatches(body, row);
          if (wrong.length || typeof row.id !== 'number') {
            badAnswer(run, 'create', table, `sent ${short(body)}, answered ${short(row)}`);
            continue;
          }
          const id = row.id;
          mine.push({ id, row });
          if (tracked) {
            // A deleted id can be created again (MAX(id) + 1), by any writer: the newest answer wins.
            run.rows.set(`${table}/${id}`, { table, id, state: 'present', row });
            run.verification.acknowledged.create++;
          } else run.writesDuringRegeneration++;
        } else if (choice < 0.8) {
          // Patch one of this writer's rows: a created one, or a generated one of its partition.
          const created = choice < 0.6;
          const generatedId = (() => {
            const base = randomInt(0, Math.floor((generatedRows - 1 - index) / count));
            return 1 + index + base * count;
          })();
          const mineRow = created ? pick(mine) : undefined;
          const id = mineRow ? mineRow.id : generatedId;
          const body: Row =
            table === 'users'
              ? { firstName: `Patched${sequence}`, age: randomInt(18, 90), active: Math.random() < 0.5 }
              : { title: `Patched post ${sequence}`, price: randomInt(0, 9_999) / 100 };
          const what = `${table}/${id}${created ? '' : ' (generated row)'}`;
          const result = record(run, 'patch', what, await exchange(`${run.runtime}/${table}/${id}`, run.plan.sourceKey, 'PATCH', body));
          if (result.status === 404 && created && !tracked) {
            // Created before the regeneration's swap, patched after it: the regeneration replaced it.
            expected(run, 'patch', '404: row replaced by a regeneration');
            mine.splice(mine.indexOf(mineRow!), 1);
            continue;
          }
          if (result.status !== 200) {
            unexpected(run, 'patch', `${what}${tracked ? ' (tracked: a lost write?)' : ''}`, result);
            continue;
          }
          const row = result.body as Row;
          const wrong = echoMismatches({ ...body, id }, row);
          if (wrong.length) {
            badAnswer(run, 'patch', what, `sent ${short(body)}, answered ${short(row)}`);
            continue;
          }
          if (mineRow) mineRow.row = row;
          if (tracked) {
            run.rows.set(`${table}/${id}`, { table, id, state: 'present', row });
            run.verification.acknowledged.patch++;
          } else run.writesDuringRegeneration++;
        } else {
          // Delete one of this writer's created rows (nothing references them: posts point at generated users).
          const { id, row: lastRow } = mine.splice(Math.floor(Math.random() * mine.length), 1)[0]!;
          const result = record(run, 'delete', `${table}/${id}`, await exchange(`${run.runtime}/${table}/${id}`, run.plan.sourceKey, 'DELETE'));
          if (result.status === 404 && !tracked) {
            expected(run, 'delete', '404: row replaced by a regeneration');
            continue;
          }
          if (result.status !== 204) {
            unexpected(run, 'delete', `${table}/${id}${tracked ? ' (tracked: a lost write?)' : ''}`, result);
            continue;
          }
          if (tracked) {
            const key = `${table}/${id}`;
            // The id, freed by this delete, may have been created again by another writer whose answer
            // came first: only the entry of this writer's own last write becomes deleted.
            if (run.rows.get(key)?.row === lastRow) run.rows.set(key, { table, id, state: 'deleted' });
            run.verification.acknowledged.delete++;
          } else run.writesDuringRegeneration++;
        }
      } finally {
        run.gate.leave();
      }
    }
  };

  // ── verification ──

  /** Reads back every tracked row of the source (writes are paused by the caller). */
  const verify = async (run: SourceRun, when: string) => {
    const entries = [...run.rows.values()];
    let ok = 0;
    let next = 0;
    const check = async () => {
      while (next < entries.length) {
        const entry = entries[next++]!;
        const what = `${entry.table}/${entry.id} (${when})`;
        const result = record(run, 'verify', what, await exchange(`${run.runtime}/${entry.table}/${entry.id}`, run.plan.sourceKey, 'GET'));
        run.verification.rowsChecked++;
        if (entry.state === 'deleted') {
          if (result.status === 404) {
            expected(run, 'verify', '404: deleted row');
            ok++;
          } else if (result.status === 200) {
            run.verification.resurrected++;
            failures.add('unverified write', `${run.plan.label} ${what}: deleted, but answers ${short(result.body)}`);
          } else unexpected(run, 'verify', what, result);
        } else if (result.status === 404) {
          run.verification.missing++;
          failures.add('unverified write', `${run.plan.label} ${what}: written as ${short(entry.row)}, answers 404`);
        } else if (result.status === 200) {
          if (canonical(result.body) === canonical(entry.row)) ok++;
          else {
            run.verification.mismatched++;
            failures.add('unverified write', `${run.plan.label} ${what}: written as ${short(entry.row)}, reads ${short(result.body)}`);
          }
        } else unexpected(run, 'verify', what, result);
      }
    };
    await Promise.all(Array.from({ length: VERIFY_CONCURRENCY }, check));
    run.verification.rowsOk += ok;
    run.verification.passes++;
    console.log(`${stamp()} ${run.plan.label}: ${when}: ${ok}/${entries.length} written rows read back as written`);
  };

  // ── regenerations ──

  const sourcePath = (run: SourceRun) => `${plan.url}/public/v1/projects/${plan.projectId}/sources/${run.plan.sourceId}`;

  /** Verifies the tracked writes, regenerates (new seed) with the traffic going on, then tracks anew. */
  const regenerate = async (run: SourceRun, index: number) => {
    await run.gate.close();
    await verify(run, `before regeneration #${index}`);
    run.rows.clear();
    run.phase = 'regenerating';
    run.serial++;
    run.writesDuringRegeneration = 0;
    run.gate.open();

    const begun = performance.now();
    let status = 'failed to queue';
    const queued = record(run, 'regenerate', `#${index}`, await exchange(`${sourcePath(run)}/regenerate`, plan.teamKey, 'POST', { seed: `soak-${runId}-${index}` }));
    if (queued.status === 202) {
      const jobId = (queued.body as { id: string }).id;
      for (;;) {
        if (performance.now() - begun > GENERATION_TIMEOUT_MS) {
          failures.add('regeneration failed', `${run.plan.label} #${index}: still ${status} after ${GENERATION_TIMEOUT_MS / 1000} s`);
          break;
        }
        await sleep(500);
        const job = record(run, 'job status', `#${index}`, await exchange(`${sourcePath(run)}/generation-jobs/${jobId}`, plan.teamKey, 'GET'));
        if (job.status !== 200) {
          unexpected(run, 'job status', `#${index}`, job);
          continue;
        }
        const body = job.body as { status?: string; error?: string | null };
        status = body.status ?? 'unknown';
        if (status === 'failed') failures.add('regeneration failed', `${run.plan.label} #${index}: ${body.error}`);
        if (status !== 'queued' && status !== 'running') break;
      }
    } else unexpected(run, 'regenerate', `#${index}`, queued);
    const seconds = (performance.now() - begun) / 1000;

    await run.gate.close();
    run.rows.clear();
    run.phase = 'tracked';
    run.serial++;
    regenerations.push({ source: run.plan.label, index, status, seconds, writesDuring: run.writesDuringRegeneration });
    console.log(`${stamp()} ${run.plan.label}: regeneration #${index} ${status} in ${seconds.toFixed(1)} s (${run.writesDuringRegeneration} untracked writes during it)`);
    run.gate.open();
  };

  /** Regenerates a source every `regenerateEvery` s, the sources staggered, until the mixed phase ends. */
  const regenerator = async (run: SourceRun, offsetMs: number) => {
    if (plan.regenerateEvery <= 0) return;
    const everyMs = plan.regenerateEvery * 1000;
    let next = started + offsetMs;
    for (let index = 1; ; index++) {
      while (!stopRegenerations && performance.now() < next) await sleep(Math.min(1_000, next - performance.now()));
      if (stopRegenerations) return;
      const begun = performance.now();
      await regenerate(run, index);
      // About every `everyMs`, and never back to back when a regeneration took longer.
      next = Math.max(begun + everyMs, performance.now() + 5_000);
    }
  };

  // ── the run ──

  const progress = setInterval(() => {
    const line = runs
      .map((run) => {
        let requests = 0;
        for (const stats of run.stats.values()) requests += stats.latencies.length + stats.errors;
        return `${run.plan.label} ${requests.toLocaleString('en')} requests`;
      })
      .join(', ');
    const failed = [...failures.counts.values()].reduce((sum, count) => sum + count, 0);
    console.log(`${stamp()} ${line}; failures so far: ${failed}`);
  }, 15_000);

  const readers = runs.flatMap((run) => Array.from({ length: plan.readers }, () => reader(run)));
  const writers = runs.flatMap((run) => Array.from({ length: plan.writers }, (_, index) => writer(run, index, plan.writers)));
  // First regenerations after a third of the interval, the second source half an interval later.
  const regenerators = runs.map((run, index) => regenerator(run, (plan.regenerateEvery * 1000 * (1 + 1.5 * index)) / 3));

  await sleep(plan.duration * 1000);
  stopReads = true;
  stopRegenerations = true;
  // A regeneration under way finishes (and re-opens its source's writes) before the write-only phase.
  await Promise.all([...readers, ...regenerators]);
  const mixedEndMs = performance.now() - started;
  console.log(`${stamp()} mixed traffic over; write-only phase (${plan.finalWrites} s, no regeneration)`);
  await sleep(plan.finalWrites * 1000);
  stopWrites = true;
  await Promise.all(writers);
  for (const run of runs) {
    await run.gate.close();
    await verify(run, 'end of the run');
  }
  clearInterval(progress);

  return {
    kinds: runs.flatMap((run) => KINDS.filter((kind) => run.stats.has(kind)).map((kind) => run.kind(kind).report(run.plan.label, kind))),
    verification: Object.fromEntries(runs.map((run) => [run.plan.label, run.verification])),
    regenerations,
    failures: Object.fromEntries(failures.counts),
    failureSamples: failures.samples,
    mixedEndMs,
    finalEndMs: performance.now() - started,
  };
}

// ─── the main process: sds, set-up, memory samples, report ───────────────────────────────────────

interface MemorySample {
  /** ms since the load started (negative: before); performance.now() until the start is known. */
  t: number;
  /** Taken right after a forced full GC: heapUsed is then the live heap. */
  afterGc: boolean;
  rss: number;
  heapUsed: number;
  heapTotal: number;
  external: number;
}

/** Why MySQL cannot be used, or undefined when it answers. */
async function mysqlUnreachable(url: string): Promise<string | undefined> {
  try {
    const connection = await mysql.createConnection({ uri: url, connectTimeout: 3_000 });
    await connection.ping();
    await connection.end();
    return undefined;
  } catch (error) {
    return `${url} unreachable: ${error instanceof Error ? error.message : String(error)}`;
  }
}

/**
 * A full GC of this process, so that heapUsed measures the live heap (what a leak grows), not how much
 * garbage V8 let pile up before its last collection (what the peaks mostly show).
 */
const fullGc: () => void = (() => {
  v8.setFlagsFromString('--expose-gc');
  return vm.runInNewContext('gc') as () => void;
})();

const fmt = (value: number, digits = 0) => value.toLocaleString('en', { minimumFractionDigits: digits, maximumFractionDigits: digits });
const mb = (bytes: number) => `${fmt(bytes / MB, 1)} MB`;
const signedMb = (bytes: number) => `${bytes >= 0 ? '+' : '−'}${fmt(Math.abs(bytes) / MB, 1)} MB`;

/** Prints a table: columns after the first `leftColumns` are right-aligned. */
function printTable(header: string[], lines: string[][], leftColumns: number): void {
  const widths = header.map((title, column) => Math.max(title.length, ...lines.map((line) => line[column]!.length)));
  const row = (cells: string[]) => cells.map((cell, column) => (column < leftColumns ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join('  ');
  console.log(row(header));
  console.log(widths.map((width) => '─'.repeat(width)).join('  '));
  for (const line of lines) console.log(row(line));
}

async function main(): Promise<void> {
  const options = parseArgs(process.argv.slice(2));
  if (options.help) {
    console.log(USAGE);
    return;
  }
  console.log(`bench:soak — ${os.cpus().length} CPUs, Node ${process.version}, load average (1/5/15 min) at start: ${fmtLoad()}`);
  console.log(
    `${options.duration} s of mixed traffic (${options.readers} read + ${options.writers} write loops per source, a regeneration of each source every ` +
      `${options.regenerateEvery} s), then ${options.finalWrites} s of writes only; ${fmt(options.users)} users and ${fmt(options.posts)} posts per source`,
  );
  const mysqlSkipped = options.mysql ? await mysqlUnreachable(MYSQL_URL) : '--no-mysql';
  if (mysqlSkipped) console.log(`MySQL source skipped: ${mysqlSkipped}`);

  let driver: ChildProcess | undefined;
  let sampler: NodeJS.Timeout | undefined;
  const service = await startBenchService('soak', {
    mysqlUrl: mysqlSkipped ? undefined : MYSQL_URL,
    beforeClose: () => {
      clearInterval(sampler);
      if (driver && driver.exitCode === null && driver.signalCode === null) driver.kill('SIGKILL');
    },
  });
  try {
    const { url, teamKey } = service;
    // One source per database, each deleted at the end (that drops the MySQL source's database).
    const project = await createBenchProject(service, 'bench-soak', options.users, options.posts);
    const labels: SourceLabel[] = mysqlSkipped ? ['postgres'] : ['postgres', 'mysql'];
    const sources: SourcePlan[] = [];
    for (const label of labels) {
      const source = await createGeneratedSource(service, project, {
        name: `bench-soak-${label}-${randomBytes(3).toString('hex')}`,
        kind: label,
        seed: 'bench-soak',
        what: `the ${label} source`,
        pollMs: 1_000,
        timeoutMinutes: 10,
        deleteOnClose: true,
      });
      sources.push({ label, sourceId: source.id, sourceKey: source.key, users: options.users, posts: options.posts });
    }

    // Memory of this process (sds), from before the load to the end of the checks; `t` is made relative
    // to the start of the load once it is known.
    const samples: MemorySample[] = [];
    let loadStarted = Number.POSITIVE_INFINITY;
    const sample = (afterGc = false) => {
      if (afterGc) fullGc();
      const usage = process.memoryUsage();
      samples.push({ t: performance.now(), afterGc, rss: usage.rss, heapUsed: usage.heapUsed, heapTotal: usage.heapTotal, external: usage.external });
    };
    sample(true);
    sampler = setInterval(() => {
      sample(samples.length % GC_SAMPLE_EVERY === 0);
      const last = samples[samples.length - 1]!;
      if (samples.length % 15 === 0) console.log(`[${fmt((last.t - loadStarted) / 1000).padStart(4)} s] sds RSS ${mb(last.rss)}, heap ${mb(last.heapUsed)} used / ${mb(last.heapTotal)}`);
    }, SAMPLE_EVERY_MS);

    driver = fork(SELF, ['--driver'], { execArgv: process.execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    const child = driver;
    const report = await new Promise<DriverReport>((resolve, reject) => {
      child.once('exit', (code) => reject(new Error(`the driver exited (${code}) before reporting`)));
      child.once('message', (ready: DriverMessage) => {
        if (ready.type !== 'ready') return reject(new Error(`driver: unexpected first message ${ready.type}`));
        child.once('message', (message: DriverMessage) =>
          message.type === 'done' ? resolve(message.report) : reject(new Error(`driver: ${message.type === 'error' ? message.error : message.type}`)),
        );
        loadStarted = performance.now();
        child.send({
          type: 'run',
          plan: {
            url,
            teamKey,
            projectId: project.id,
            sources,
            duration: options.duration,
            finalWrites: options.finalWrites,
            regenerateEvery: options.regenerateEvery,
            readers: options.readers,
            writers: options.writers,
          } satisfies DriverPlan,
        });
      });
    });
    clearInterval(sampler);
    sample(true);
    child.disconnect();
    for (const entry of samples) entry.t -= loadStarted;

    const ok = printReport(report, samples, options, mysqlSkipped);
    if (!ok) process.exitCode = 1;
  } finally {
    await service.close();
  }
}

function printReport(report: DriverReport, samples: MemorySample[], options: Options, mysqlSkipped: string | undefined): boolean {
  // ── requests ──
  console.log('');
  console.log(`Requests (${fmt(report.mixedEndMs / 1000)} s mixed + ${options.finalWrites} s write-only + checks; req/s over each kind's own span)`);
  const lines = report.kinds.map((kind) => {
    const ok = Object.entries(kind.statuses).filter(([status]) => status.startsWith('2')).reduce((sum, [, count]) => sum + count, 0);
    const expectedTotal = Object.values(kind.expected).reduce((sum, count) => sum + count, 0);
    const fiveHundreds = Object.entries(kind.statuses).filter(([status]) => status.startsWith('5')).reduce((sum, [, count]) => sum + count, 0);
    const others = Object.entries(kind.statuses)
      .filter(([status]) => !status.startsWith('2') && !status.startsWith('5'))
      .map(([status, count]) => `${status}×${count}`)
      .join(' ');
    return [
      kind.source,
      kind.kind,
      fmt(kind.requests),
      fmt(kind.seconds > 0 ? kind.requests / kind.seconds : 0, 1),
      fmt(kind.p50, 1),
      fmt(kind.p99, 1),
      fmt(ok),
      fmt(expectedTotal),
      others || '—',
      fmt(fiveHundreds),
      fmt(kind.errors),
    ];
  });
  printTable(['source', 'kind', 'requests', 'req/s', 'p50 ms', 'p99 ms', '2xx', 'expected non-2xx', 'non-2xx by status', '5xx', 'no answer'], lines, 2);
  const expectedReasons = new Map<string, number>();
  for (const kind of report.kinds) for (const [reason, count] of Object.entries(kind.expected)) expectedReasons.set(`${kind.source} ${kind.kind}: ${reason}`, count);
  if (expectedReasons.size) {
    console.log('expected non-2xx (not failures):');
    for (const [reason, count] of expectedReasons) console.log(`  ${reason} ×${count}`);
  }
  const total = report.kinds.reduce((sum, kind) => sum + kind.requests, 0);
  console.log(`total ${fmt(total)} requests, ${fmt(total / (report.finalEndMs / 1000), 1)} req/s overall`);

  // ── regenerations and writes ──
  console.log('');
  console.log(`Regenerations (with reads and writes going on):${report.regenerations.length ? '' : ' none (--regenerate-every 0)'}`);
  for (const regeneration of report.regenerations) {
    console.log(`  ${regeneration.source} #${regeneration.index}: ${regeneration.status} in ${fmt(regeneration.seconds, 1)} s, ${regeneration.writesDuring} untracked writes during it`);
  }
  console.log('Writes verified (acknowledged since the last regeneration, read back before the next one and at the end):');
  for (const [source, verification] of Object.entries(report.verification)) {
    const { create, patch, delete: deleted } = verification.acknowledged;
    console.log(
      `  ${source}: ${fmt(create + patch + deleted)} acknowledged writes (${fmt(create)} creates, ${fmt(patch)} patches, ${fmt(deleted)} deletes) → ` +
        `${fmt(verification.rowsOk)}/${fmt(verification.rowsChecked)} rows as written in ${verification.passes} pass${verification.passes === 1 ? '' : 'es'}; ` +
        `missing ${verification.missing}, other values ${verification.mismatched}, deleted but present ${verification.resurrected}`,
    );
  }

  // ── memory ──
  const mixedEnd = report.mixedEndMs;
  const windowMs = Math.min(60_000, mixedEnd / 3);
  const inWindow = (list: MemorySample[], from: number, to: number) => list.filter((s) => s.t >= from && s.t <= to);
  const peak = (list: MemorySample[], field: keyof Omit<MemorySample, 't' | 'afterGc'>) => Math.max(...list.map((s) => s[field]));
  /** before load, first-window peak, last-window peak, overall peak, end, growth (last − first). */
  const figures = (list: MemorySample[], field: keyof Omit<MemorySample, 't' | 'afterGc'>) => {
    // A short run may leave a window without a sample: the nearest one then stands for it.
    const firstWindow = inWindow(list, 0, windowMs);
    const lastWindow = inWindow(list, mixedEnd - windowMs, mixedEnd);
    const first = peak(firstWindow.length ? firstWindow : list.filter((s) => s.t >= 0).slice(0, 1), field);
    const last = peak(lastWindow.length ? lastWindow : list.filter((s) => s.t <= mixedEnd).slice(-1), field);
    return { before: list[0]![field], first, last, overall: peak(list, field), end: list.at(-1)![field], growth: last - first };
  };
  const afterGc = samples.filter((s) => s.afterGc);
  const rows: Array<[string, ReturnType<typeof figures>]> = [
    ['rss', figures(samples, 'rss')],
    ['heapUsed', figures(samples, 'heapUsed')],
    ['heapTotal', figures(samples, 'heapTotal')],
    ['external', figures(samples, 'external')],
    ['live heap (heapUsed after GC)', figures(afterGc, 'heapUsed')],
  ];
  console.log('');
  console.log(
    `Memory of the sds process (${samples.length} samples every ${SAMPLE_EVERY_MS / 1000} s, one in ${GC_SAMPLE_EVERY} right after a forced full GC; ` +
      `growth = peak of the last ${fmt(windowMs / 1000)} s of mixed traffic − peak of the first ${fmt(windowMs / 1000)} s)`,
  );
  printTable(
    ['', 'before load', 'first-window peak', 'last-window peak', 'overall peak', 'end', 'growth'],
    rows.map(([name, f]) => [name, mb(f.before), mb(f.first), mb(f.last), mb(f.overall), mb(f.end), signedMb(f.growth)]),
    1,
  );
  console.log(`live heap over time (s: MB): ${afterGc.map((s) => `${fmt(s.t / 1000)}: ${fmt(s.heapUsed / MB)}`).join(', ')}`);
  const rssGrowth = rows[0]![1].growth;
  const liveGrowth = rows[4]![1].growth;

  // ── summary ──
  const failures = report.failures;
  const count = (predicate: (category: string) => boolean) => Object.entries(failures).filter(([category]) => predicate(category)).reduce((sum, [, n]) => sum + n, 0);
  const fiveHundreds = count((category) => category === '5xx');
  const tooMany = count((category) => category === '429');
  const unexpectedStatuses = count((category) => category.startsWith('unexpected'));
  const noAnswer = count((category) => category.startsWith('no answer'));
  const wrong = count((category) => category === 'wrong answer');
  const unverified = count((category) => category === 'unverified write');
  const regenerationsOk = report.regenerations.filter((regeneration) => regeneration.status === 'succeeded').length;
  const rowsChecked = Object.values(report.verification).reduce((sum, verification) => sum + verification.rowsChecked, 0);
  const rowsOk = Object.values(report.verification).reduce((sum, verification) => sum + verification.rowsOk, 0);
  const shortRun = mixedEnd < 120_000;
  const checks: Array<[string, string, string, boolean]> = [
    ['5xx answers', fmt(fiveHundreds), '0', fiveHundreds === 0],
    ['429 answers', fmt(tooMany), '0', tooMany === 0],
    ['other unexpected non-2xx', fmt(unexpectedStatuses), '0', unexpectedStatuses === 0],
    ['requests without an answer', fmt(noAnswer), '0', noAnswer === 0],
    ['wrong answers (filters, sort, projection, populate, echo)', fmt(wrong), '0', wrong === 0],
    ['writes read back as written', `${fmt(rowsOk)}/${fmt(rowsChecked)} rows (${unverified} not)`, 'all', unverified === 0 && rowsOk === rowsChecked && rowsChecked > 0],
    ['regenerations succeeded', `${regenerationsOk}/${report.regenerations.length}`, 'all', regenerationsOk === report.regenerations.length],
    ['RSS growth (last vs first minute peak)', signedMb(rssGrowth), `< ${options.rssGrowthMb} MB`, rssGrowth < options.rssGrowthMb * MB],
    ['live heap growth (post-GC heapUsed, last vs first minute)', signedMb(liveGrowth), `< ${options.heapGrowthMb} MB`, liveGrowth < options.heapGrowthMb * MB],
  ];
  const ok = checks.every(([, , , pass]) => pass);
  console.log('');
  printTable(
    ['check', 'value', 'bound', 'result'],
    checks.map(([name, value, bound, pass]) => [name, value, bound, pass ? 'PASS' : 'FAIL']),
    1,
  );
  if (report.failureSamples.length) {
    console.log('');
    console.log('failures (the first few of each category):');
    for (const sample of report.failureSamples) console.log(`  ${sample}`);
  }
  if (mysqlSkipped) console.log(`note: MySQL source skipped (${mysqlSkipped})`);
  if (shortRun) console.log('note: under 2 minutes of mixed traffic, the first and last windows are thirds of the run: the growth figure is rough');
  console.log(`load average (1/5/15 min) at end: ${fmtLoad()}`);
  console.log(`\nbench:soak ${ok ? 'PASS' : 'FAIL'}`);
  return ok;
}

if (process.argv[2] === '--driver') runDriver();
else runMain(main);
