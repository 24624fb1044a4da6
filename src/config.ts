// Environment → typed configuration. Every default lives here, once.
import path from 'node:path';
import type { SourceKind } from './contract.ts';
import { parseAllowedHosts, type AllowedHost } from './security/connection-guard.ts';

export interface Config {
  /** HTTP port; 0 picks a free one (tests). */
  port: number;
  /** Control-plane PostgreSQL; undefined starts the embedded PostgreSQL in `dataDir`. */
  databaseUrl: string | undefined;
  /** Data folder of the embedded database and of local secrets. */
  dataDir: string;
  /** Where `postgres` sources keep their data; undefined means the control-plane database. */
  postgresTargetUrl: string | undefined;
  /** Where `mysql` sources keep their data; undefined means mysql sources need their own connection. */
  mysqlUrl: string | undefined;
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
  /** Failed authentications a minute per client address before it gets 429; 0: no limit. */
  authFailureLimit: number;
  /** Longest a runtime statement may run on a target database before it is cancelled (504); 0: no limit. */
  queryTimeoutMs: number;
  /** A generation load whose target connection moves nothing for this long fails as lost; 0: no limit. */
  loadIdleTimeoutMs: number;
  /**
   * SDS_ALLOWED_DATABASE_HOSTS: the only hosts (names, `*.domain`, CIDRs, each with an optional port)
   * that connection strings from requests may name; undefined: any host but the control plane's and
   * the default targets' servers and link-local or multicast addresses.
   */
  allowedDatabaseHosts: AllowedHost[] | undefined;
  /** Longest wait for a target database to accept a connection; failures to connect answer no sooner (same time for closed and silent ports). */
  connectTimeoutMs: number;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const nodeEnv = env.NODE_ENV ?? 'production';
  return {
    port: parsePort(env.PORT ?? '3000'),
    databaseUrl: nonEmpty(env.DATABASE_URL),
    dataDir: path.resolve(nonEmpty(env.SDS_DATA_DIR) ?? '.data'),
    postgresTargetUrl: nonEmpty(env.POSTGRES_TARGET_URL),
    mysqlUrl: nonEmpty(env.MYSQL_URL),
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
    queryTimeoutMs: parseCount('SDS_QUERY_TIMEOUT_MS', env.SDS_QUERY_TIMEOUT_MS ?? '10000'),
    loadIdleTimeoutMs: parseCount('SDS_LOAD_IDLE_TIMEOUT_MS', env.SDS_LOAD_IDLE_TIMEOUT_MS ?? '30000'),
    allowedDatabaseHosts: nonEmpty(env.SDS_ALLOWED_DATABASE_HOSTS) === undefined ? undefined : parseAllowedHosts(env.SDS_ALLOWED_DATABASE_HOSTS!),
    connectTimeoutMs: parsePositive('SDS_CONNECT_TIMEOUT_MS', env.SDS_CONNECT_TIMEOUT_MS ?? '10000'),
  };
}

/**
 * The server where sources of each kind keep their data unless they bring their own: POSTGRES_TARGET_URL
 * (default: the control-plane database, itself PostgreSQL) and MYSQL_URL (default: none).
 */
export function defaultTargets(config: Config, controlPlaneUrl: string): Record<SourceKind, string | undefined> {
  return { postgres: config.postgresTargetUrl ?? controlPlaneUrl, mysql: config.mysqlUrl };
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
