// What the runtime benchmarks (bench-runtime.ts, bench-soak.ts) share: the schema they generate (`users`
// and `posts` referencing it), the real service started in this process on a fresh database of the local
// PostgreSQL with a bootstrap team key, and the management-API calls that give it a project and generated
// sources.
// The benchmarks' child processes (`--driver`, `--baseline`) load this file too but must not load the
// service: it is imported only when startBenchService is called.
// PostgreSQL: BENCH_PG_URL (default postgres://postgres@127.0.0.1:5432/postgres), where a database
// sds_<label>_<random> is created and dropped at the end.
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import pg from 'pg';
import type { SchemaConfig } from '../src/contract.ts';
import type { RunningService } from '../src/service.ts';

export const ADMIN_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** The values of `users.role`, from the most to the least rare. */
export const ROLES = ['admin', 'editor', 'reader'] as const;

// ─── schema of the benchmarks ────────────────────────────────────────────────────────────────────

/** The schema, named and seeded `name`: `users` rows and `posts` rows whose authorId references a user. */
export function benchConfig(name: string, users: number, posts: number): SchemaConfig {
  return {
    formatVersion: 1,
    metadata: { name },
    generationDefaults: { seed: name, locale: 'en', timezone: 'UTC' },
    entities: [
      {
        id: 'users',
        primaryKey: ['id'],
        uniqueKeys: [['email']],
        generation: { rowCount: users },
        fields: [
          { id: 'id', type: 'integer' },
          { id: 'email', type: 'string', format: 'email', maxLength: 120 },
          { id: 'firstName', type: 'string', maxLength: 60 },
          { id: 'lastName', type: 'string', maxLength: 60 },
          { id: 'role', type: 'enum', values: [...ROLES], weights: [1, 3, 6] },
          { id: 'active', type: 'boolean', trueRate: 0.8 },
          { id: 'age', type: 'integer', min: 18, max: 90 },
          { id: 'city', type: 'string', maxLength: 80 },
          { id: 'createdAt', type: 'datetime', generation: { strategy: { kind: 'dateRange', from: '-3y', to: '2026-01-01' } } },
        ],
      },
      {
        id: 'posts',
        primaryKey: ['id'],
        generation: { rowCount: posts },
        fields: [
          { id: 'id', type: 'integer' },
          { id: 'authorId', type: 'integer', references: { entity: 'users', field: 'id', onDelete: 'cascade' } },
          { id: 'title', type: 'string', maxLength: 140 },
          { id: 'publishedOn', type: 'date', outputFormat: 'iso' },
          { id: 'price', type: 'number', min: 0, max: 100, precision: 2 },
        ],
      },
    ],
  };
}

// ─── the service ─────────────────────────────────────────────────────────────────────────────────

/** One call of the management API: the parsed answer, or an error with the status and the body. */
export async function api<T>(url: string, key: string, method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${url}${path}`, {
    method,
    headers: { 'x-api-key': key, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path} → ${response.status}: ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

export interface BenchService {
  /** Origin of sds, e.g. http://127.0.0.1:1234 */
  url: string;
  /** The bootstrap team key: the management API's key. */
  teamKey: string;
  /** Connected to ADMIN_URL until close(). */
  admin: pg.Client;
  databaseName: string;
  /** The fresh database: sds's own, and where its PostgreSQL sources put their tables. */
  databaseUrl: string;
  /** Deletes the source on close(), before sds stops: for sources whose data lives outside the dropped database. */
  deleteOnClose(sourcePath: string): void;
  /** Idempotent: `beforeClose`, the sources to delete, sds, the database, in that order. */
  close(): Promise<void>;
}

export interface BenchServiceOptions {
  /** The MySQL server of MySQL sources; none by default. */
  mysqlUrl?: string;
  /** Runs first on close() (SIGINT and SIGTERM included): stops what talks to sds, e.g. child processes. */
  beforeClose?: () => void | Promise<unknown>;
}

/**
 * Creates the database sds_<label>_<random> and starts sds on it in this process (port 0, silent, no
 * response validation) with a fresh bootstrap team key. SIGINT and SIGTERM close it and exit 130.
 */
export async function startBenchService(label: string, options: BenchServiceOptions = {}): Promise<BenchService> {
  // Imported here so the child processes, which load this file, do not load the service.
  const [{ loadSettings }, { startService }, { issueKey, TEAM_KEY_PREFIX }] = await Promise.all([
    import('../src/settings.ts'),
    import('../src/service.ts'),
    import('../src/security/api-keys.ts'),
  ]);

  const databaseName = `sds_${label}_${randomBytes(6).toString('hex')}`;
  const databaseUrl = withDatabase(ADMIN_URL, databaseName);
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  let databaseCreated = false;
  let service: RunningService | undefined;
  const teamKey = issueKey(TEAM_KEY_PREFIX).key;
  const sourcesToDelete: string[] = [];
  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      try {
        await options.beforeClose?.();
      } catch (error) {
        console.error('cleaning up:', error);
      }
      if (service) {
        for (const path of sourcesToDelete) await api(service.url, teamKey, 'DELETE', path).catch((error: unknown) => console.error(`deleting ${path}:`, error));
        await service.close().catch((error: unknown) => console.error('closing sds:', error));
      }
      if (databaseCreated) {
        await admin.query(`DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`).catch((error: unknown) => console.error(`dropping ${databaseName}:`, error));
      }
      await admin.end().catch(() => undefined);
    })());
  const interrupted = (signal: string) => {
    console.error(`\n${signal}: cleaning up`);
    void close().finally(() => process.exit(130));
  };
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);

  try {
    await admin.query(`CREATE DATABASE ${databaseName}`);
    databaseCreated = true;
    service = await startService({
      ...loadSettings({ NODE_ENV: 'production' }),
      databaseUrl,
      targetUrls: { mysql: options.mysqlUrl },
      port: 0,
      validateResponses: false,
      logLevel: 'silent',
      bootstrapTeamKey: teamKey,
      adminToken: undefined,
    });
  } catch (error) {
    await close();
    throw error;
  }
  return { url: service.url, teamKey, admin, databaseName, databaseUrl, deleteOnClose: (path) => void sourcesToDelete.push(path), close };
}

function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

// ─── project and sources ─────────────────────────────────────────────────────────────────────────

export interface BenchProject {
  id: string;
  /** The one version of its schema. */
  schemaVersionId: string;
  users: number;
  posts: number;
}

/** A project, named `name`, whose one schema (named alike) is benchConfig(name, users, posts). */
export async function createBenchProject(service: BenchService, name: string, users: number, posts: number): Promise<BenchProject> {
  const { url, teamKey } = service;
  const project = await api<{ id: string }>(url, teamKey, 'POST', '/public/v1/projects', { name });
  const schema = await api<{ id: string }>(url, teamKey, 'POST', `/public/v1/projects/${project.id}/schemas`, {
    name,
    initialVersion: { schema: benchConfig(name, users, posts) },
  });
  const versions = await api<Array<{ id: string }>>(url, teamKey, 'GET', `/public/v1/projects/${project.id}/schemas/${schema.id}/versions`);
  return { id: project.id, schemaVersionId: versions[0]!.id, users, posts };
}

export interface SourceOptions {
  name: string;
  kind: 'postgres' | 'mysql';
  seed: string;
  /** How the progress line and the errors name the source ("generating the mysql source"); unnamed by default. */
  what?: string;
  /** How often the first generation job is polled (a dot each), and for how long at the most. */
  pollMs: number;
  timeoutMinutes: number;
  /** See BenchService.deleteOnClose. */
  deleteOnClose?: boolean;
}

export interface BenchSource {
  id: string;
  /** Management-API path of the source. */
  path: string;
  /** An API key of the source, for its runtime API. */
  key: string;
  config: { schema?: string };
}

/**
 * A source of the project with the project's row counts, generated: waits for its first generation job,
 * printing its progress, then issues a key. Its budget is one the rate limiter never reaches, so that the
 * limiter never throttles the benchmark.
 */
export async function createGeneratedSource(service: BenchService, project: BenchProject, options: SourceOptions): Promise<BenchSource> {
  const { url, teamKey } = service;
  const generationStarted = Date.now();
  const source = await api<{ id: string; config: { schema?: string } }>(url, teamKey, 'POST', `/public/v1/projects/${project.id}/sources`, {
    name: options.name,
    kind: options.kind,
    schemaVersionId: project.schemaVersionId,
    seed: options.seed,
    rateLimitRpm: 1_000_000,
    generatorConfig: { rowCounts: { users: project.users, posts: project.posts } },
  });
  const path = `/public/v1/projects/${project.id}/sources/${source.id}`;
  if (options.deleteOnClose) service.deleteOnClose(path);
  process.stdout.write(options.what ? `generating ${options.what}` : 'generating');
  for (;;) {
    const jobs = await api<Array<{ status: string; error?: string | null }>>(url, teamKey, 'GET', `${path}/generation-jobs?limit=1`);
    const job = jobs[0];
    if (job?.status === 'succeeded') break;
    if (job?.status === 'failed') throw new Error(`generation${options.what ? ` of ${options.what}` : ''} failed: ${job.error}`);
    if (Date.now() - generationStarted > options.timeoutMinutes * 60_000) throw new Error(`generation still running after ${options.timeoutMinutes} minutes`);
    process.stdout.write('.');
    await new Promise((resolve) => setTimeout(resolve, options.pollMs));
  }
  console.log(` done in ${((Date.now() - generationStarted) / 1000).toFixed(1)} s`);
  const key = (await api<{ key: string }>(url, teamKey, 'POST', `${path}/api-keys`, {})).key;
  return { id: source.id, path, key, config: source.config };
}

/** The 1, 5 and 15-minute load averages, for telling a busy machine from a slow benchmark. */
export const fmtLoad = () => os.loadavg().map((value) => value.toFixed(2)).join(' / ');

/** Runs the main process's `main`, then exits: with 1 (printing the error) when it throws. */
export function runMain(main: () => Promise<void>): void {
  main().then(
    // Everything is closed by now; exit even if a library left a timer behind.
    () => process.exit(),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
