// createApp(deps) → the Express application. Routes come from the OpenAPI operation table:
// each operation gets auth by its declared security, request validation, then its handler or a 501.
import cors from 'cors';
import express, { type NextFunction, type Request, type Response } from 'express';
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import { operationTable, type OpenApiDocument, type OperationSpec } from '../contract.ts';
import { errors } from '../errors.ts';
import type { AnyOperation, OperationContext, OperationHandlers, Reply } from '../operation.ts';
import { adminOrTeamAuth, adminTokenAuth, bearerTokenAuth, managementBudget, teamKeyAuth } from './auth.ts';
import { metricsEndpoint, requestMetrics } from './metrics.ts';
import type { AuthFailureLimiter, SharedRateLimiter } from './rate-limit.ts';
import { docsRouter } from './docs.ts';
import { studioRouter } from './studio.ts';
import { errorHandler, notFoundHandler } from './errors.ts';
import { assertBodyDepth } from '../json-depth.ts';
import { requestContext } from './request-context.ts';
import { serveRuntimeLane, type LaneRoute } from './runtime-lane.ts';
import type { KeyUsageRecorder } from '../management/key-usage.ts';
import type { Metrics } from '../metrics/metrics.ts';
import type { TeamPrincipal, TeamStore } from '../store/teams.ts';

export interface AppDeps {
  config: Config;
  document: OpenApiDocument;
  logger: Logger;
  teams: TeamStore;
  keyUsage: KeyUsageRecorder;
  /** Handlers by operationId; operations without one answer 501. */
  operations: OperationHandlers;
  /** Source-key auth and rate limiting of runtime operations. */
  sourceAuth?: (req: Request, res: Response, next: NextFunction) => Promise<void>;
  /** Failed authentications per client address. */
  authFailures: AuthFailureLimiter;
  /** The management API's budget per team key (and for the admin token): `config.managementRateLimitRpm`. */
  managementLimiter: SharedRateLimiter;
  /** Body checks by operationId that run after auth and before request validation. */
  /** Checks of a body before request validation, after authentication (`principal`: the team key's). */
  prechecks?: Partial<Record<string, (body: unknown, principal?: TeamPrincipal) => void | Promise<void>>>;
  /** Anonymous operations served outside the operation table (health). */
  health: () => Promise<boolean>;
  /** Aborted when the server shuts down: open event streams end so their connections can close. */
  shutdown?: AbortSignal;
  /** Where requests are recorded, and what GET /metrics serves. */
  metrics: Metrics;
}

const EXPOSED_HEADERS = [
  'Location',
  'X-Total-Count',
  'X-Request-Id',
  'RateLimit-Limit',
  'RateLimit-Remaining',
  'RateLimit-Reset',
  'Retry-After',
];

export function createApp(deps: AppDeps): express.Express {
  const { config, document } = deps;
  const app = express();
  app.disable('x-powered-by');
  // No ETags: runtime rows change under clients, conditional requests are not part of the contract,
  // and hashing every response body is a measurable share of a runtime read.
  app.set('etag', false);
  // X-Forwarded-For only from the proxies the operator names: from anyone else it is the client's own say.
  app.set('trust proxy', config.trustedProxies);
  app.set('query parser', 'extended');

  const table = operationTable(document);
  // Every request's first middlewares; the runtime lane (below) runs the same ones, in the same order.
  const context = requestContext(deps.logger, requestMetrics(deps.metrics, table));
  const corsHeaders = cors({ origin: true, allowedHeaders: ['content-type', 'x-api-key', 'authorization', 'x-request-id'], exposedHeaders: EXPOSED_HEADERS, maxAge: 600 });
  const jsonBody = express.json({ limit: config.bodyLimit, type: ['application/json', 'application/*+json'] });
  app.use(context, securityHeaders, corsHeaders, jsonBody, bodyAsSent);

  const auth = authenticators(deps);
  const validators = createValidators(document, config);

  // The runtime API is the hot path: a router of its own, tried first, holding only its five routes,
  // each with everything it needs in line (auth, body type, handler), so a runtime request never
  // walks the management API's routes.
  //
  // Runtime requests are not checked by the generic request validator: what they may hold depends on
  // the source's tables, which only the runtime's own stages know (parse-query, plan, validate-body
  // check every parameter, field, operator, value and body against them, with messages that name the
  // table's fields), and the generic pass cost as much CPU as the rest of a list request. Runtime
  // responses are still validated against the contract wherever responses are (tests, development).
  //
  // Its requests skip Express's router altogether (runtime-lane.ts): the lane runs each route's whole
  // chain, the application's first middlewares included. The router below still holds the same
  // routes for the requests the lane leaves to Express (preflights, HEAD, odd URLs), answered as ever.
  const runtime = express.Router();
  const runtimeResponses = validators.runtimeResponses ? [validators.runtimeResponses] : [];
  const lane: LaneRoute[] = [];
  for (const operation of table.filter((spec) => isRuntimePath(spec.path))) {
    const handler = handlerOf(deps.operations, operation);
    const withBody = operation.method === 'post' || operation.method === 'patch';
    const chain = [...auth(operation), ...(withBody ? [requireJsonBody] : []), ...runtimeResponses, handle(handler, config, deps.shutdown)];
    runtime[operation.method](operation.expressPath, ...chain);
    const first = [context, securityHeaders, actualRequestCors, ...(withBody ? [jsonBody, bodyAsSent] : [])];
    lane.push({ method: operation.method, expressPath: operation.expressPath, chain: [...first, ...chain] });
  }
  app.use(runtime);

  const management = table.filter((spec) => !isRuntimePath(spec.path));
  for (const operation of management) {
    const authenticate = auth(operation);
    if (authenticate.length) app[operation.method](operation.expressPath, ...authenticate);
    const precheck = handlerOf(deps.operations, operation) && deps.prechecks?.[operation.operationId];
    if (precheck) {
      app[operation.method](operation.expressPath, async (req: Request, res: Response, next: NextFunction) => {
        await precheck(req.body, res.locals.principal as TeamPrincipal | undefined);
        next();
      });
    }
  }

  const health = async (_req: Request, res: Response) => {
    if (await deps.health()) res.json({ status: 'ok', database: 'ok' });
    else res.status(503).json({ error: 'Control-plane database is unavailable' });
  };
  app.get('/healthz', health);
  const metricsToken = bearerTokenAuth(config.metricsToken, deps.authFailures, {
    disabled: errors.metricsDisabled,
    required: errors.metricsTokenRequired,
    invalid: errors.invalidMetricsToken,
  });
  app.get('/metrics', metricsToken, metricsEndpoint(deps.metrics));
  app.use(docsRouter(document));
  app.use(studioRouter());
  app.use(validators.management);
  // Behind the validator: it answers once the validator has loaded (see getReadiness in the contract).
  app.get('/readyz', (req, res) => {
    if (deps.shutdown?.aborted) throw errors.shuttingDown();
    return health(req, res);
  });
  for (const operation of management) {
    if (isServedOutsideTable(operation)) continue;
    app[operation.method](operation.expressPath, handle(handlerOf(deps.operations, operation), config, deps.shutdown));
  }

  app.use(notFoundHandler);
  const answerError = errorHandler(config.bodyLimit);
  app.use(answerError);
  serveRuntimeLane(app, lane, answerError);
  return app;
}

/** express-openapi-validator middlewares (see createValidators). */
interface AppValidators {
  /** Requests (and responses, when validated) of the management API, documents and health. */
  management: express.RequestHandler;
  /** Responses of the runtime API, when responses are validated. */
  runtimeResponses?: express.RequestHandler;
}

/**
 * The validators of the contract, each created by the first request that needs it (a management
 * request, or GET /readyz, which load balancers ask before they send traffic). Creating one loads and
 * compiles its part of the document: about half a second of CPU (express-openapi-validator compiles
 * the OpenAPI meta-schema even with validateApiSpec off, and preprocesses every schema) that start-up
 * and /healthz need not wait for; done in the background after listening instead, it would delay the
 * first health checks just as much, JavaScript being single-threaded.
 *
 * express-openapi-validator compiles the path pattern of every route it tries, on every request, in
 * sorted order where /runtime comes last (upstream PR cdimascio/express-openapi-validator#1217): the
 * runtime API gets an instance of its own over just its paths, the rest of the API another.
 */
function createValidators(document: OpenApiDocument, config: Pick<Config, 'validateResponses'>): AppValidators {
  const validator = (paths: (path: string) => boolean, ignorePaths: (path: string) => boolean, check = { requests: true }) =>
    onFirstUse(async () => {
      const OpenApiValidator = await import('express-openapi-validator');
      return OpenApiValidator.middleware({
        apiSpec: withPaths(document, paths) as never,
        validateApiSpec: false,
        validateRequests: check.requests ? { allErrors: true, allowUnknownQueryParameters: false, removeAdditional: false } : false,
        validateResponses: config.validateResponses ? { allErrors: true } : false,
        validateSecurity: false,
        ignorePaths,
        validateFormats: true,
      });
    });
  const management = validator((path) => !isRuntimePath(path), (path) => /^\/(docs|runtime)(\/|$)/.test(path));
  const runtimeResponses = config.validateResponses ? validator(isRuntimePath, (path) => !isRuntimePath(path), { requests: false }) : undefined;
  return { management, runtimeResponses };
}

/** One middleware running the middlewares `make` resolves to, made when first needed. */
function onFirstUse(make: () => Promise<express.RequestHandler[]>): express.RequestHandler {
  let router: Promise<express.Router> | undefined;
  return (req, res, next) => {
    router ??= make().then((handlers) => {
      const made = express.Router();
      made.use(handlers);
      return made;
    });
    router.then((made) => made(req, res, next), next);
  };
}

const isRuntimePath = (path: string) => path.startsWith('/runtime/');

/** The handler of an operation of the table (its id comes from the document, typed by the contract). */
function handlerOf(operations: OperationHandlers, operation: OperationSpec): AnyOperation | undefined {
  return (operations as Partial<Record<string, AnyOperation>>)[operation.operationId];
}

/** The document with only the paths `keep` accepts (components and the rest shared). */
function withPaths(document: OpenApiDocument, keep: (path: string) => boolean): OpenApiDocument {
  return { ...document, paths: Object.fromEntries(Object.entries(document.paths).filter(([path]) => keep(path))) } as OpenApiDocument;
}

/** Health, readiness, metrics and documents are plain routes; their operations document them. */
function isServedOutsideTable(operation: OperationSpec): boolean {
  return ['getHealth', 'getReadiness', 'getMetrics', 'getOpenApiJson', 'getOpenApiYaml', 'getDocs', 'getStudio'].includes(operation.operationId);
}

/** The middlewares that authenticate an operation's caller and count it against its budget. */
function authenticators(deps: AppDeps) {
  const team = teamKeyAuth(deps.teams, deps.keyUsage, deps.authFailures);
  const admin = adminTokenAuth(deps.config.adminToken, deps.authFailures);
  const either = adminOrTeamAuth(admin, team);
  const budget = managementBudget(deps.managementLimiter, deps.config.managementRateLimitRpm);
  // A live event stream is one long request: it stays outside the budget (its JSON pages do not).
  const budgetUnlessStreaming = (req: Request, res: Response, next: NextFunction) =>
    req.get('accept')?.includes('text/event-stream') ? next() : budget(req, res, next);
  type Handler = (req: Request, res: Response, next: NextFunction) => Promise<void> | void;
  return (operation: OperationSpec): Handler[] => {
    // Unimplemented operations answer 501 whoever asks; they get their auth with their handler.
    if (!handlerOf(deps.operations, operation)) return [];
    const schemes = new Set(operation.security.flat());
    const counted = operation.streams ? budgetUnlessStreaming : budget;
    if (schemes.has('sourceApiKey')) return deps.sourceAuth ? [deps.sourceAuth] : [];
    if (schemes.has('adminToken') && schemes.has('teamApiKey')) return [either, counted];
    if (schemes.has('teamApiKey')) return [team, counted];
    if (schemes.has('adminToken')) return [admin, counted];
    return [];
  };
}

function handle(operation: AnyOperation | undefined, config: Config, shutdown?: AbortSignal) {
  return async (req: Request, res: Response, _next: NextFunction) => {
    if (!operation) throw errors.notImplemented();
    const context: OperationContext = {
      params: req.params as Record<string, string>,
      // Parsed (qs) when asked: runtime operations read rawQuery with parsers of their own.
      get query() {
        return req.query as Record<string, unknown>;
      },
      body: res.locals.body,
      headers: req.headers as Record<string, string | undefined>,
      rawQuery: req.originalUrl.includes('?') ? req.originalUrl.slice(req.originalUrl.indexOf('?') + 1) : '',
      runtime: res.locals.runtime,
      principal: res.locals.principal,
      // Only a few operations need it, and req.protocol consults the trust-proxy rules.
      get baseUrl() {
        return config.publicUrl ?? `${req.protocol}://${req.get('host')}`;
      },
    };
    const reply = await operation(context);
    for (const [name, value] of Object.entries(reply.headers ?? {})) res.setHeader(name, value);
    if (reply.events) await streamEvents(req, res, reply.events, shutdown);
    else if (reply.stream) await streamFile(req, res, reply.status, reply.stream, shutdown, config.exportWriteTimeoutMs);
    else if (reply.body === undefined) res.status(reply.status).end();
    else if (config.validateResponses) res.status(reply.status).json(reply.body);
    else sendJson(res, reply.status, reply.body);
  };
}

/**
 * Writes a streamed file answer (a table export). The first piece is read before the status goes
 * out, so a query that fails at once still answers with its error; later, the client's pace sets the
 * reading (a full socket waits for 'drain'), a client that goes away stops it (the database cursor
 * closes), and a failure cuts the connection, as a truncated file must not look complete. A client
 * that takes nothing for `writeTimeoutMs` (0: no limit) is cut the same way, so that it cannot hold
 * a database connection of the export pool by not reading.
 */
async function streamFile(
  req: Request,
  res: Response,
  status: number,
  stream: NonNullable<Reply['stream']>,
  shutdown?: AbortSignal,
  writeTimeoutMs = 0,
): Promise<void> {
  const pieces = stream.chunks[Symbol.asyncIterator]();
  const first = await pieces.next();
  res.status(status).setHeader('Content-Type', stream.contentType);
  let gone = false;
  const stop = () => (gone = true);
  req.on('close', stop);
  shutdown?.addEventListener('abort', stop, { once: true });
  try {
    for (let piece = first; !piece.done && !gone; piece = await pieces.next()) {
      if (!res.write(piece.value) && !(await waitForDrain(res, writeTimeoutMs))) {
        throw new Error(`the client took no data for ${writeTimeoutMs} ms (SDS_EXPORT_WRITE_TIMEOUT_MS): export cut`);
      }
    }
    if (gone) await pieces.return?.();
    else res.end();
  } catch (error) {
    await pieces.return?.().catch(() => {});
    res.locals.errorForLog = error instanceof Error ? { name: error.name, message: error.message } : error;
    res.destroy(error instanceof Error ? error : new Error(String(error)));
  } finally {
    req.off('close', stop);
    shutdown?.removeEventListener('abort', stop);
  }
}

/**
 * Resolves when the response can take more, or when its connection is gone (true); or to false when
 * neither happened within `timeoutMs` (0: wait as long as it takes).
 */
function waitForDrain(res: Response, timeoutMs = 0): Promise<boolean> {
  return new Promise((resolve) => {
    const finish = (drained: boolean) => {
      clearTimeout(timer);
      res.off('drain', done);
      res.off('close', done);
      resolve(drained);
    };
    const done = () => finish(true);
    const timer = timeoutMs > 0 ? setTimeout(() => finish(false), timeoutMs) : undefined;
    res.on('drain', done);
    res.on('close', done);
  });
}

/**
 * What res.json writes here (no ETag, no Last-Modified: never a 304), without its steps that cost a
 * measurable share of a runtime read: Content-Type and charset parsed and formatted anew, the status
 * checked, freshness computed. Where responses are validated (tests, development), res.json runs
 * instead: the validator checks what passes through it.
 */
function sendJson(res: Response, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(text));
  res.end(text);
}

/**
 * Writes a live event stream until the client goes away or the server shuts down (clients reconnect
 * with Last-Event-ID to another instance); comments keep idle proxies from closing it.
 */
async function streamEvents(req: Request, res: Response, events: NonNullable<Reply['events']>, shutdown?: AbortSignal): Promise<void> {
  const closed = new AbortController();
  const end = () => closed.abort();
  req.on('close', end);
  if (shutdown?.aborted) end();
  shutdown?.addEventListener('abort', end, { once: true });
  res.status(200).set({ 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache', Connection: 'keep-alive', 'X-Accel-Buffering': 'no' });
  res.flushHeaders();
  const keepAlive = setInterval(() => res.write(': keep-alive\n\n'), 15_000);
  try {
    for await (const event of events(closed.signal)) {
      res.write(`id: ${event.id}\nevent: ${event.event}\ndata: ${JSON.stringify(event.data)}\n\n`);
    }
  } finally {
    clearInterval(keepAlive);
    shutdown?.removeEventListener('abort', end);
    res.end();
  }
}

/** A runtime write's body must be JSON (the management API's validator answers the same 415). */
function requireJsonBody(req: Request, _res: Response, next: NextFunction) {
  if (!req.is(['application/json', 'application/*+json'])) throw errors.unsupportedMediaType(req.get('content-type') ?? '');
  next();
}

/**
 * The request validator fills schema defaults into bodies; handlers get the body as sent, so a PATCH
 * never resets what the client left out and stored configs are exactly what was posted.
 */
function bodyAsSent(req: Request, res: Response, next: NextFunction) {
  if (req.body !== null && typeof req.body === 'object') assertBodyDepth(req.body);
  res.locals.body = req.body === undefined ? undefined : structuredClone(req.body);
  next();
}

const EXPOSED_HEADER_LIST = EXPOSED_HEADERS.join(',');

/**
 * What the cors middleware above writes on a request that is not a preflight (the only kind the
 * runtime lane takes), without its per-request option resolution: the caller's origin reflected,
 * `Vary: Origin`, the exposed headers (test/integration/runtime-http.test.ts compares the two).
 */
function actualRequestCors(req: Request, res: Response, next: NextFunction) {
  const origin = req.headers.origin;
  if (origin) res.setHeader('Access-Control-Allow-Origin', origin);
  const vary = res.getHeader('Vary');
  res.setHeader('Vary', vary ? `${String(vary)}, Origin` : 'Origin');
  res.setHeader('Access-Control-Expose-Headers', EXPOSED_HEADER_LIST);
  next();
}

function securityHeaders(_req: Request, res: Response, next: NextFunction) {
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('Referrer-Policy', 'no-referrer');
  next();
}
