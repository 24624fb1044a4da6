// Environment → typed settings (`Settings`). Every default lives here, once. (Schema-config validation is src/config/.)
import { isIP } from 'node:net';
import path from 'node:path';
import type { SourceKind } from './contract.ts';
import { defaultTargetUrls, ENGINE_KINDS, kindOfUrl } from './dialects/facts.ts';
import type { ConfigWorkLimits } from './management/config-work.ts';
import { parseAllowedHosts, type AllowedHost } from './security/connection-guard.ts';

export interface Settings {
  /** HTTP port; 0 picks a free one (tests). */
  port: number;
  /** Control-plane PostgreSQL; undefined starts the embedded PostgreSQL in `dataDir`. */
  databaseUrl: string | undefined;
  /** Data folder of the embedded database and of local secrets. */
  dataDir: string;
  /**
   * Where sources of each kind keep their data unless they bring their own, from each engine's
   * `defaultTargetEnv` (POSTGRES_TARGET_URL, MYSQL_URL); a kind left out has no default target, but
   * the control plane's engine (PostgreSQL) falls back to the control-plane database (defaultTargets).
   */
  targetUrls: Partial<Record<SourceKind, string>>;
  /** A `svc_api_…` key that start-up makes sure exists for team `default`. */
  bootstrapTeamKey: string | undefined;
  /** Encrypts stored connection strings; undefined means generated once into `dataDir`. */
  secretKey: string | undefined;
  /** Bearer token of the `/api/api-keys` admin endpoints; undefined disables them (401). */
  adminToken: string | undefined;
  /** Bearer token of GET /metrics; undefined disables it (401). */
  metricsToken: string | undefined;
  /** Public root address used in runtime docs; undefined means derived from each request. */
  publicUrl: string | undefined;
  /** Validate every response against the OpenAPI document (tests and development). */
  validateResponses: boolean;
  /** Structured log level (pino): fatal, error, warn, info, debug, trace or silent. */
  logLevel: string;
  /** Largest accepted request body. */
  bodyLimit: string;
  /** Run generation jobs in this process (`SDS_WORKER=false` makes an API-only instance). */
  runWorker: boolean;
  /** Requests a minute per team key (and for the admin token) on `/public/v1` and `/api`; 0: no limit. */
  managementRateLimitRpm: number;
  /** Failed authentications a minute per client address before its failures get 429; 0: no limit. */
  authFailureLimit: number;
  /**
   * The proxies whose `X-Forwarded-For` names the client (Express `trust proxy`: comma-separated
   * addresses, CIDRs and the names loopback, linklocal, uniquelocal); default `loopback`. From any
   * other peer the header is ignored and the peer's own address is the client's.
   */
  trustedProxies: string;
  /** Longest a runtime statement may run on a target database before it is cancelled (504); 0: no limit. */
  queryTimeoutMs: number;
  /** A generation load whose target connection moves nothing for this long fails as lost; 0: no limit. */
  loadIdleTimeoutMs: number;
  /** Connections each target server gives table exports, in a pool of their own (never generation's nor the runtime's). */
  exportPoolSize: number;
  /** Exports of one source that may stream at once in this process; more answer 429. 0: no limit. */
  exportsPerSource: number;
  /** Exports of one team that may stream at once in this process; more answer 429. 0: no limit. Keep it below exportPoolSize. */
  exportsPerTeam: number;
  /** An export whose client takes no bytes for this long is cut and its connection released; 0: no limit. */
  exportWriteTimeoutMs: number;
  /** Most rows one generation job of a source may plan, summed over its entities; 0: no limit. */
  maxRowsPerJob: number;
  /** Most entities a source's schema version may have; 0: no limit. */
  maxEntitiesPerJob: number;
  /** Generation jobs of one team that may be queued or running at once; more answer 429. 0: no limit. */
  maxJobsPerTeam: number;
  /** Generation jobs this process runs at once (worker slots). */
  generationSlots: number;
  /** Loads in flight at once in a job that runs whole on one worker, each on a connection of its own (runGeneration's streams). */
  generationStreams: number;
  /** Generation jobs of one team running at once across every process, so one team never holds every slot. 0: no limit. */
  runningJobsPerTeam: number;
  /**
   * Generation tasks this process runs at once, of any job (SDS_TASK_SLOTS); above 0, the jobs this
   * process claims are split into tasks that every instance with task slots runs. 0: each job runs
   * whole on the worker that claimed it.
   */
  taskSlots: number;
  /** A task whose worker has not renewed its lease for this long is run again by another worker. */
  taskLeaseMs: number;
  /** Rows of one range task. */
  taskRows: number;
  /**
   * Tests only (SDS_TEST_COORDINATOR_DIES_AT): this process kills itself (SIGKILL) at that point of
   * every split job it coordinates: `tasks`, the staging tables made but the tasks not recorded;
   * `swap`, keys built but the namespace not swapped in.
   */
  testCoordinatorDiesAt?: 'tasks' | 'swap';
  /** Schema-config validation and previews: worker threads, time and memory a task, tasks a team may queue. */
  configWork: ConfigWorkLimits;
  /**
   * SDS_ALLOWED_DATABASE_HOSTS: the only hosts (names, `*.domain`, CIDRs, each with an optional port)
   * that connection strings from requests may name; undefined: any host but the control plane's and
   * the default targets' servers and link-local or multicast addresses.
   */
  allowedDatabaseHosts: AllowedHost[] | undefined;
  /** Longest wait for a target database to accept a connection; failures to connect answer no sooner (same time for closed and silent ports). */
  connectTimeoutMs: number;
}

export function loadSettings(env: NodeJS.ProcessEnv = process.env): Settings {
  const nodeEnv = env.NODE_ENV ?? 'production';
  return {
    port: parsePort(env.PORT ?? '3000'),
    databaseUrl: nonEmpty(env.DATABASE_URL),
    dataDir: path.resolve(nonEmpty(env.SDS_DATA_DIR) ?? '.data'),
    targetUrls: defaultTargetUrls(env),
    bootstrapTeamKey: nonEmpty(env.SDS_BOOTSTRAP_TEAM_KEY),
    secretKey: nonEmpty(env.SDS_SECRET_KEY),
    adminToken: nonEmpty(env.SDS_ADMIN_TOKEN),
    metricsToken: nonEmpty(env.SDS_METRICS_TOKEN),
    publicUrl: nonEmpty(env.SDS_PUBLIC_URL)?.replace(/\/+$/, ''),
    validateResponses: env.SDS_VALIDATE_RESPONSES
      ? env.SDS_VALIDATE_RESPONSES === 'true' || env.SDS_VALIDATE_RESPONSES === '1'
      : nodeEnv === 'development' || nodeEnv === 'test',
    logLevel: env.LOG_LEVEL ?? (nodeEnv === 'test' ? 'silent' : 'info'),
    bodyLimit: env.SDS_BODY_LIMIT ?? '1mb',
    runWorker: env.SDS_WORKER !== 'false' && env.SDS_WORKER !== '0',
    managementRateLimitRpm: parseCount('SDS_MANAGEMENT_RATE_LIMIT_RPM', env.SDS_MANAGEMENT_RATE_LIMIT_RPM ?? '600'),
    authFailureLimit: parseCount('SDS_AUTH_FAILURE_LIMIT', env.SDS_AUTH_FAILURE_LIMIT ?? '30'),
    trustedProxies: parseTrustedProxies(env.SDS_TRUSTED_PROXIES ?? 'loopback'),
    queryTimeoutMs: parseCount('SDS_QUERY_TIMEOUT_MS', env.SDS_QUERY_TIMEOUT_MS ?? '10000'),
    loadIdleTimeoutMs: parseCount('SDS_LOAD_IDLE_TIMEOUT_MS', env.SDS_LOAD_IDLE_TIMEOUT_MS ?? '30000'),
    exportPoolSize: parsePositive('SDS_EXPORT_POOL_SIZE', env.SDS_EXPORT_POOL_SIZE ?? '4'),
    exportsPerSource: parseCount('SDS_EXPORTS_PER_SOURCE', env.SDS_EXPORTS_PER_SOURCE ?? '2'),
    exportsPerTeam: parseCount('SDS_EXPORTS_PER_TEAM', env.SDS_EXPORTS_PER_TEAM ?? '3'),
    exportWriteTimeoutMs: parseCount('SDS_EXPORT_WRITE_TIMEOUT_MS', env.SDS_EXPORT_WRITE_TIMEOUT_MS ?? '30000'),
    maxRowsPerJob: parseCount('SDS_MAX_ROWS_PER_JOB', env.SDS_MAX_ROWS_PER_JOB ?? '10000000'),
    maxEntitiesPerJob: parseCount('SDS_MAX_ENTITIES_PER_JOB', env.SDS_MAX_ENTITIES_PER_JOB ?? '1000'),
    maxJobsPerTeam: parseCount('SDS_MAX_JOBS_PER_TEAM', env.SDS_MAX_JOBS_PER_TEAM ?? '20'),
    generationSlots: parsePositive('SDS_GENERATION_SLOTS', env.SDS_GENERATION_SLOTS ?? '2'),
    generationStreams: parsePositive('SDS_GENERATION_STREAMS', env.SDS_GENERATION_STREAMS ?? '1'),
    runningJobsPerTeam: parseCount('SDS_RUNNING_JOBS_PER_TEAM', env.SDS_RUNNING_JOBS_PER_TEAM ?? '1'),
    taskSlots: parseCount('SDS_TASK_SLOTS', env.SDS_TASK_SLOTS ?? '0'),
    taskLeaseMs: parsePositive('SDS_TASK_LEASE_MS', env.SDS_TASK_LEASE_MS ?? '30000'),
    taskRows: parsePositive('SDS_TASK_ROWS', env.SDS_TASK_ROWS ?? '50000'),
    ...(env.SDS_TEST_COORDINATOR_DIES_AT === 'tasks' || env.SDS_TEST_COORDINATOR_DIES_AT === 'swap' ? { testCoordinatorDiesAt: env.SDS_TEST_COORDINATOR_DIES_AT } : {}),
    configWork: {
      workers: parsePositive('SDS_CONFIG_WORKERS', env.SDS_CONFIG_WORKERS ?? '2'),
      timeoutMs: parsePositive('SDS_CONFIG_WORK_TIMEOUT_MS', env.SDS_CONFIG_WORK_TIMEOUT_MS ?? '5000'),
      queuePerTeam: parseCount('SDS_CONFIG_WORK_QUEUE', env.SDS_CONFIG_WORK_QUEUE ?? '8'),
      memoryMb: parsePositive('SDS_CONFIG_WORK_MEMORY_MB', env.SDS_CONFIG_WORK_MEMORY_MB ?? '512'),
    },
    allowedDatabaseHosts: nonEmpty(env.SDS_ALLOWED_DATABASE_HOSTS) === undefined ? undefined : parseAllowedHosts(env.SDS_ALLOWED_DATABASE_HOSTS!),
    connectTimeoutMs: parsePositive('SDS_CONNECT_TIMEOUT_MS', env.SDS_CONNECT_TIMEOUT_MS ?? '10000'),
  };
}

/**
 * The server where sources of each kind keep their data unless they bring their own: its engine's
 * `defaultTargetEnv` (POSTGRES_TARGET_URL, MYSQL_URL); for the control plane's own engine (PostgreSQL)
 * the control-plane database when that is unset, for the others none.
 */
export function defaultTargets(config: Settings, controlPlaneUrl: string): Record<SourceKind, string | undefined> {
  const controlPlaneKind = kindOfUrl(controlPlaneUrl);
  const targets = Object.fromEntries(ENGINE_KINDS.map((kind) => [kind, config.targetUrls[kind] ?? (kind === controlPlaneKind ? controlPlaneUrl : undefined)]));
  return targets as Record<SourceKind, string | undefined>;
}

function parseCount(name: string, value: string): number {
  const count = Number(value);
  if (!Number.isInteger(count) || count < 0) throw new Error(`${name} must be a whole number of 0 or more, got "${value}"`);
  return count;
}

function parsePositive(name: string, value: string): number {
  const count = Number(value);
  if (!Number.isInteger(count) || count < 1) throw new Error(`${name} must be a whole number of 1 or more, got "${value}"`);
  return count;
}

const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** SDS_TRUSTED_PROXIES checked at start-up, so that a typo stops the server instead of trusting nobody (or everybody). */
export function parseTrustedProxies(value: string): string {
  const items = value.split(',').map((item) => item.trim());
  for (const item of items) {
    const [address, prefix, ...rest] = item.split('/');
    const family = isIP(address ?? '');
    const ok =
      PROXY_RANGE_NAMES.has(item) ||
      (family !== 0 && rest.length === 0 && (prefix === undefined || validPrefix(prefix, family)));
    if (!ok) {
      throw new Error(`SDS_TRUSTED_PROXIES must be comma-separated addresses, CIDRs or loopback, linklocal, uniquelocal; got "${item}" in "${value}"`);
    }
  }
  return items.join(', ');
}

function validPrefix(prefix: string, family: number): boolean {
  if (/^\d{1,3}$/.test(prefix)) return Number(prefix) <= (family === 4 ? 32 : 128);
  // A netmask (255.255.0.0), as proxy-addr also accepts for IPv4.
  return family === 4 && isIP(prefix) === 4;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

function parsePort(value: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`PORT must be an integer between 0 and 65535, got "${value}"`);
  }
  return port;
}
