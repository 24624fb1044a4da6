// Assembles the running service: control-plane database (embedded when no DATABASE_URL),
// migrations, the bootstrap team key, stores, operations and the HTTP server.
import type { AddressInfo } from 'node:net';
import { createServer, type Server } from 'node:http';
import pino, { type Logger } from 'pino';
import { defaultTargets, type Settings } from './settings.ts';
import { openApiDocument } from './contract.ts';
import { DIALECT_FACTS, ENGINE_KINDS } from './dialects/facts.ts';
import { createApp } from './http/app.ts';
import { KeyUsageRecorder } from './management/key-usage.ts';
import { Metrics } from './metrics/metrics.ts';
import type { OperationHandlers } from './operation.ts';
import { projectOperations } from './management/projects.ts';
import { configPrechecks, schemaOperations } from './management/schemas.ts';
import { previewOperations } from './management/schema-preview.ts';
import { ConfigWork } from './management/config-work.ts';
import { DEFAULT_TEAM, teamKeyOperations } from './management/team-keys.ts';
import { GenerationWorker } from './management/generation-worker.ts';
import { generationJobOperations } from './management/generation-jobs.ts';
import { runtimeDocOperations } from './management/runtime-docs.ts';
import { apiChangeOperations } from './management/api-changes.ts';
import { schemaIntrospectionOperations } from './management/schema-introspection.ts';
import { retireSource, sourceOperations } from './management/sources.ts';
import { sourceKeyOperations } from './management/source-keys.ts';
import { Targets } from './management/targets.ts';
import { SecretBox } from './security/secrets.ts';
import { ConnectionGuard } from './security/connection-guard.ts';
import { RuntimeSources } from './runtime/runtime-sources.ts';
import { SourceKeyCache } from './runtime/source-key-cache.ts';
import { AuthFailureLimiter, SharedRateLimiter } from './http/rate-limit.ts';
import { sourceKeyAuth } from './http/runtime-auth.ts';
import { answerClientError } from './http/client-errors.ts';
import { rowOperations } from './runtime/row-operations.ts';
import { ExportSlots } from './runtime/export-slots.ts';
import { GenerationQuotas } from './management/quotas.ts';
import { Runtime } from './runtime/runtime.ts';
import { ChangeFeed } from './store/change-feed.ts';
import { JobStore } from './store/jobs.ts';
import { SourceKeyStore } from './store/source-keys.ts';
import { SourceStore, toLocation, type NamespaceFields } from './store/sources.ts';
import { createDb, type Db } from './store/db.ts';
import { startEmbeddedPostgres, type EmbeddedDatabase } from './store/embedded.ts';
import { migrate } from './store/migrate.ts';
import { ProjectStore } from './store/projects.ts';
import { SchemaStore } from './store/schemas.ts';
import { TeamStore } from './store/teams.ts';

export interface RunningService {
  /** Root address, e.g. http://127.0.0.1:3000 */
  url: string;
  db: Db;
  /** The key created for the default team on first start (shown once), if any. */
  firstStartKey: string | undefined;
  /** Writes pending `lastUsedAt` times now instead of at the next interval. */
  flushKeyUsage(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Opens the control-plane database, embedded or at DATABASE_URL, with migrations applied. Without
 * DATABASE_URL, `starting` is the embedded PostgreSQL if the caller has already started it.
 */
export async function openControlPlane(
  config: Settings,
  logger: Logger,
  starting?: Promise<EmbeddedDatabase>,
): Promise<{ db: Db; url: string; embedded?: EmbeddedDatabase }> {
  let embedded: EmbeddedDatabase | undefined;
  let url = config.databaseUrl;
  if (!url) {
    if (!starting) logger.info({ dataDir: config.dataDir }, 'starting embedded PostgreSQL');
    embedded = await (starting ?? startEmbeddedPostgres(config.dataDir, (message) => logger.debug({ postgres: message })));
    url = embedded.url;
  }
  const db = createDb(url);
  try {
    const applied = await migrate(db);
    if (applied.length) logger.info({ migrations: applied }, 'migrations applied');
  } catch (error) {
    await db.close();
    await embedded?.stop();
    throw error;
  }
  return { db, url, embedded };
}

/**
 * Makes sure team `default` exists. With a bootstrap key, makes sure that key exists (idempotent);
 * without one, creates a key only when this start created the team, and returns it to be shown once.
 */
export async function bootstrapTeam(teams: TeamStore, bootstrapKey: string | undefined): Promise<string | undefined> {
  const { team, created } = await teams.ensureTeam(DEFAULT_TEAM, 'Default team');
  if (bootstrapKey) {
    if (await teams.keyExists(bootstrapKey)) return undefined;
    try {
      await teams.createKey(team.id, { name: 'bootstrap', key: bootstrapKey });
    } catch (error) {
      // Instances starting together with the same key: one of them inserts it, the others find it.
      if (!(await teams.keyExists(bootstrapKey))) throw error;
    }
    return undefined;
  }
  if (!created) return undefined;
  return (await teams.createKey(team.id, { name: 'first start' })).key;
}

/** The control plane's stores and the services operations need. */
export interface ServiceParts {
  db: Db;
  teams: TeamStore;
  projects: ProjectStore;
  schemas: SchemaStore;
  sources: SourceStore;
  sourceKeys: SourceKeyStore;
  jobs: JobStore;
  targets: Targets;
  /** Checks connection strings that come from requests. */
  guard: ConnectionGuard;
  /** SDS_CONNECT_TIMEOUT_MS. */
  connectTimeoutMs: number;
  runtime: Runtime;
  /** Admission of table exports (per source, per target server); unset: no limit. */
  exportSlots?: ExportSlots;
  /** Per-job and per-team generation limits; unset: none. */
  quotas?: GenerationQuotas;
  /** Schema-config validation and previews, off the event loop. */
  configWork: ConfigWork;
  /** Wakes the generation worker of this process. */
  onQueued: () => void;
  /** A source's settings, keys or data changed, or it is gone: every process drops what it cached of it. */
  onSourceChanged: (sourceId: string) => Promise<void>;
  /** Calls `listener` when a source changes in any process (a finished regeneration among others); returns the unsubscribe. */
  watchSource?: (sourceId: string, listener: () => void) => () => void;
}

/** Handlers by operationId; every other operation of the contract answers 501. */
export function createOperations(parts: ServiceParts): OperationHandlers {
  const sources = sourceOperations(parts);
  const { accessibleSource, ...sourceOps } = sources;
  return {
    ...projectOperations(parts.projects, async (projectId) => {
      // A project's sources go with it, and so do their keys and generated data.
      for (const source of await parts.sources.listAll(projectId)) await retireSource(parts, source);
    }),
    ...teamKeyOperations(parts.teams, parts.projects),
    ...schemaOperations(parts.projects, parts.schemas, parts.configWork),
    ...previewOperations(parts.configWork),
    ...schemaIntrospectionOperations({ guard: parts.guard, connectTimeoutMs: parts.connectTimeoutMs }),
    ...sourceOps,
    ...sourceKeyOperations(parts.sourceKeys, parts.sources, parts.projects, accessibleSource, parts.onSourceChanged),
    ...generationJobOperations(parts.jobs, accessibleSource, (keyId) => parts.teams.keyActive(keyId)),
    ...runtimeDocOperations(parts.schemas, accessibleSource),
    ...apiChangeOperations(parts.schemas, parts.configWork, accessibleSource),
    ...rowOperations({
      runtime: parts.runtime,
      connect: (source) => parts.targets.connect(toLocation(source)),
      exportSlots: parts.exportSlots,
      teamOf: teamOfProject(parts.projects),
    }),
  };
}

/** The team of a project, remembered (a project never changes teams); at most a few thousand kept. */
function teamOfProject(projects: ProjectStore): (projectId: string) => Promise<string> {
  const known = new Map<string, string>();
  return async (projectId) => {
    let teamId = known.get(projectId);
    if (teamId === undefined) {
      teamId = (await projects.find(projectId))?.teamId ?? '';
      if (known.size >= 5_000) known.clear();
      known.set(projectId, teamId);
    }
    return teamId;
  };
}

export interface StartOptions {
  /** The embedded PostgreSQL (no DATABASE_URL), if already starting: see main.ts. */
  embedded?: Promise<EmbeddedDatabase>;
}

export async function startService(config: Settings, logger: Logger = pino({ level: config.logLevel }), options: StartOptions = {}): Promise<RunningService> {
  // Milliseconds since the process started (performance.now() counts from there), logged once listening.
  const startup: Record<string, number> = { called: performance.now() };
  const { db, embedded, url: controlPlaneUrl } = await openControlPlane(config, logger, options.embedded);
  startup.database = performance.now();
  const teams = new TeamStore(db);
  const projects = new ProjectStore(db);
  const schemas = new SchemaStore(db);
  const namespaceFields = Object.fromEntries(ENGINE_KINDS.map((kind) => [kind, DIALECT_FACTS[kind].namespaceField])) as NamespaceFields;
  const sources = new SourceStore(db, SecretBox.fromConfig(config.secretKey, config.dataDir), namespaceFields);
  const sourceKeys = new SourceKeyStore(db);
  const jobs = new JobStore(db);
  const defaults = defaultTargets(config, controlPlaneUrl);
  // Never the control plane nor a default target's server, whatever database a request names.
  const guard = new ConnectionGuard({ protectedUrls: [controlPlaneUrl, ...Object.values(defaults)], allowedHosts: config.allowedDatabaseHosts });
  const targets = new Targets(
    defaults,
    (id) => sources.connectionString(id),
    {
      queryTimeoutMs: config.queryTimeoutMs,
      loadIdleTimeoutMs: config.loadIdleTimeoutMs,
      connectTimeoutMs: config.connectTimeoutMs,
      exportPoolSize: config.exportPoolSize,
    },
    guard,
  );
  const changes = new ChangeFeed(controlPlaneUrl, db.pool, logger);
  // Runtime writes travel through the change feed: it drops this process's totals at once (the
  // count cache is subscribed below) and tells the other processes.
  const runtime = new Runtime({ onWrite: (sourceId) => changes.rowsWritten(sourceId) });
  const live = () => changes.live;
  const runtimeSources = new RuntimeSources(sources, schemas, live);
  const sourceKeyCache = new SourceKeyCache(sourceKeys, live);
  changes.subscribe(runtimeSources);
  changes.subscribe(sourceKeyCache);
  const dropTotals = (sourceId: string) => runtime.countCache.invalidateSource(sourceId);
  changes.subscribe({ changed: dropTotals, rowsChanged: dropTotals, reset: () => runtime.countCache.clear() });
  const listening = changes.start();
  const onSourceChanged = (sourceId: string) => changes.publish(sourceId);
  const metrics = new Metrics(() => [
    { database: 'control-plane', pool: 'control-plane', total: db.pool.totalCount, idle: db.pool.idleCount, waiting: db.pool.waitingCount },
    ...targets.poolUse(),
  ]);
  const worker = new GenerationWorker({
    db,
    jobs,
    sources,
    schemas,
    targets,
    logger,
    onGenerated: (sourceId) => void onSourceChanged(sourceId),
    onFinished: (job) => metrics.jobFinished(job),
  }, {
    slots: config.generationSlots,
    streams: config.generationStreams,
    runningPerTeam: config.runningJobsPerTeam,
    tasks: { slots: config.taskSlots, leaseMs: config.taskLeaseMs, rowsPerTask: config.taskRows, diesAt: config.testCoordinatorDiesAt },
  });
  // The change feed's connection and the default team's queries need nothing of each other: both at once.
  const [firstStartKey] = await Promise.all([bootstrapTeam(teams, config.bootstrapTeamKey), listening]);
  const onUsageError = (error: unknown) => logger.warn({ error: String(error) }, 'could not record API key usage');
  const keyUsage = new KeyUsageRecorder((ids, at) => teams.touchKeys(ids, at), 5_000, onUsageError);
  const sourceKeyUsage = new KeyUsageRecorder((ids, at) => sourceKeys.touch(ids, at), 5_000, onUsageError);

  const shuttingDown = new AbortController();
  const configWork = new ConfigWork(config.configWork);
  const authFailures = new AuthFailureLimiter(db.pool, config.authFailureLimit);
  const app = createApp({
    shutdown: shuttingDown.signal,
    config,
    document: openApiDocument(),
    logger,
    metrics,
    teams,
    keyUsage,
    operations: createOperations({
      db,
      teams,
      projects,
      schemas,
      sources,
      sourceKeys,
      jobs,
      targets,
      guard,
      connectTimeoutMs: config.connectTimeoutMs,
      runtime,
      exportSlots: new ExportSlots({ perSource: config.exportsPerSource, perTeam: config.exportsPerTeam, perTarget: config.exportPoolSize }),
      quotas: new GenerationQuotas({ maxRowsPerJob: config.maxRowsPerJob, maxEntitiesPerJob: config.maxEntitiesPerJob, maxJobsPerTeam: config.maxJobsPerTeam }, jobs),
      configWork,
      onQueued: () => worker.wake(),
      onSourceChanged,
      watchSource: (sourceId, listener) =>
        changes.subscribe({ changed: (changed) => changed === sourceId && listener(), reset: listener }),
    }),
    sourceAuth: sourceKeyAuth({
      sources: runtimeSources,
      keys: sourceKeyCache,
      usage: sourceKeyUsage,
      limiter: new SharedRateLimiter(db.pool, 'source', 'this source'),
      failures: authFailures,
    }),
    authFailures,
    managementLimiter: new SharedRateLimiter(db.pool, 'team-key', 'this API key'),
    prechecks: configPrechecks(configWork),
    health: async () => {
      try {
        await db.query('SELECT 1');
        return true;
      } catch {
        return false;
      }
    },
  });

  startup.app = performance.now();
  const server: Server = await new Promise((resolve, reject) => {
    const listening = createServer(app).listen(config.port, () => resolve(listening));
    listening.once('error', reject);
    listening.on('clientError', answerClientError);
  });
  // Longer than the idle timeouts of common load balancers (60 s), so they never reuse a connection
  // sds has just closed (a 502); headers must be allowed at least as long.
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  server.headersTimeout = KEEP_ALIVE_MS + 1_000;
  if (config.runWorker) worker.start();
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  startup.listening = performance.now();
  logger.info({ url, embedded: Boolean(embedded), startupMs: Object.fromEntries(Object.entries(startup).map(([phase, ms]) => [phase, Math.round(ms)])) }, 'sds listening');

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      // Stop accepting connections and claiming jobs; end event streams; let in-flight requests
      // finish and the running job stop at its next safe point; then release the database.
      shuttingDown.abort();
      await Promise.all([stopServer(server), worker.stop()]);
      await configWork.close();
      await changes.stop();
      await keyUsage.close();
      await sourceKeyUsage.close();
      await targets.close();
      await db.close();
      await embedded?.stop();
    })());
  return { url, db, firstStartKey, flushKeyUsage: async () => {
      await keyUsage.flush();
      await sourceKeyUsage.flush();
    }, close };
}

const KEEP_ALIVE_MS = 65_000;
/** How long in-flight requests get to finish at shutdown before their connections are cut. */
const SHUTDOWN_GRACE_MS = 10_000;

/**
 * Stops accepting connections and resolves once every open one is gone: idle keep-alive connections
 * are closed as soon as they are idle (checked every 100 ms), and whatever still runs after
 * SHUTDOWN_GRACE_MS is cut.
 */
function stopServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    const sweep = setInterval(() => server.closeIdleConnections(), 100);
    const force = setTimeout(() => server.closeAllConnections(), SHUTDOWN_GRACE_MS);
    server.close(() => {
      clearInterval(sweep);
      clearTimeout(force);
      resolve();
    });
    server.closeIdleConnections();
  });
}
