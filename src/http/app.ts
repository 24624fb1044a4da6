// createApp(deps) → the service's request listener: the runtime router (runtime-router.ts) for the
// runtime API, the Express application for everything else. Routes come from the OpenAPI operation
// table: each operation gets auth by its declared security, request validation, then its handler or a 501.
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import cors from 'cors';
import express, { type NextFunction, type Request, type Response } from 'express';
import type { Logger } from 'pino';
import type { Settings } from '../settings.ts';
import { operationTable, type OpenApiDocument, type OperationSpec } from '../contract.ts';
import { errors } from '../errors.ts';
import type { AnyOperation, OperationContext, OperationHandlers, Reply } from '../operation.ts';
import { adminOrTeamAuth, adminTokenAuth, bearerTokenAuth, managementBudget, teamKeyAuth } from './auth.ts';
import { metricsEndpoint, requestMetrics, runtimeRequestMetrics } from './metrics.ts';
import type { AuthFailureLimiter, SharedRateLimiter } from './rate-limit.ts';
import { docsRouter } from './docs.ts';
import { studioRouter } from './studio.ts';
import { errorHandler, notFoundHandler } from './errors.ts';
import { assertBodyDepth } from '../json-depth.ts';
import { requestContext } from './request-context.ts';
import { CORS_OPTIONS, setSecurityHeaders } from './common-headers.ts';
import { clientAddressOf, protocolOf, type TrustProxy } from './forwarded.ts';
import { sendJson, streamFile } from './replies.ts';
import { ResponseValidator } from './response-validator.ts';
import type { SourceAuth } from './runtime-auth.ts';
import { runtimeRouter, type NodeMiddleware } from './runtime-router.ts';
import type { KeyUsageRecorder } from '../management/key-usage.ts';
import type { Metrics } from '../metrics/metrics.ts';
import type { TeamPrincipal, TeamStore } from '../store/teams.ts';

export interface AppDeps {
  config: Settings;
  document: OpenApiDocument;
  logger: Logger;
  teams: TeamStore;
  keyUsage: KeyUsageRecorder;
  /** Handlers by operationId; operations without one answer 501. */
  operations: OperationHandlers;
  /** Source-key auth and rate limiting of runtime operations. */
  sourceAuth?: SourceAuth;
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

export function createApp(deps: AppDeps): RequestListener {
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
  // Every request's first middlewares; the runtime router (below) takes the same steps, in the same order.
  const context = requestContext(deps.logger, requestMetrics(deps.metrics, table));
  const corsHeaders = cors(CORS_OPTIONS);
  const jsonBody = express.json({ limit: config.bodyLimit, type: ['application/json', 'application/*+json'] });
  app.use(context, securityHeaders, corsHeaders, jsonBody, bodyAsSent);

  const auth = authenticators(deps);
  const validators = createValidators(document, config);

  // The runtime API is the hot path: a router of its own (runtime-router.ts), without Express, tried
  // before the application, holding only its five routes, each with everything it needs in line.
  //
  // Runtime requests are not checked by the generic request validator: what they may hold depends on
  // the source's tables, which only the runtime's own stages know (parse-query, plan, validate-body
  // check every parameter, field, operator, value and body against them, with messages that name the
  // table's fields), and the generic pass cost as much CPU as the rest of a list request. Runtime
  // responses are still checked against the contract wherever responses are (tests, development).
  const trust = app.get('trust proxy fn') as TrustProxy;
  let responses: ResponseValidator | undefined;
  const runtime = runtimeRouter({
    routes: table.filter((spec) => isRuntimePath(spec.path)).map((operation) => ({ operation, handler: handlerOf(deps.operations, operation) })),
    logger: deps.logger,
    record: runtimeRequestMetrics(deps.metrics),
    sourceAuth: deps.sourceAuth,
    // body-parser's and cors's middlewares work on plain node:http requests (Express's types aside).
    jsonBody: jsonBody as unknown as NodeMiddleware,
    preflight: corsHeaders as unknown as NodeMiddleware,
    clientAddress: (req) => clientAddressOf(req, trust),
    baseUrl: (req) => config.publicUrl ?? `${protocolOf(req, trust)}://${req.headers.host ?? ''}`,
    bodyLimit: config.bodyLimit,
    // Made by the first runtime answer checked: compiling the contract's schemas takes a while.
    responses: config.validateResponses ? () => (responses ??= new ResponseValidator(document)) : undefined,
    exportWriteTimeoutMs: config.exportWriteTimeoutMs,
    shutdown: deps.shutdown,
  });

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
  app.use(errorHandler(config.bodyLimit));
  return (req: IncomingMessage, res: ServerResponse) => {
    if (!runtime(req, res)) app(req, res);
  };
}

/** express-openapi-validator middlewares (see createValidators). */
interface AppValidators {
  /** Requests (and responses, when validated) of the management API, documents and health. */
  management: express.RequestHandler;
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
 * sorted order where /runtime comes last (upstream PR cdimascio/express-openapi-validator#1217): it
 * holds the paths of the management API only (the runtime router checks its own answers).
 */
function createValidators(document: OpenApiDocument, config: Pick<Settings, 'validateResponses'>): AppValidators {
  const management = onFirstUse(async () => {
    const OpenApiValidator = await import('express-openapi-validator');
    return OpenApiValidator.middleware({
      apiSpec: withPaths(document, (path) => !isRuntimePath(path)) as never,
      validateApiSpec: false,
      validateRequests: { allErrors: true, allowUnknownQueryParameters: false, removeAdditional: false },
      validateResponses: config.validateResponses ? { allErrors: true } : false,
      validateSecurity: false,
      ignorePaths: (path: string) => /^\/(docs|runtime)(\/|$)/.test(path),
      validateFormats: true,
    });
  });
  return { management };
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
    if (schemes.has('adminToken') && schemes.has('teamApiKey')) return [either, counted];
    if (schemes.has('teamApiKey')) return [team, counted];
    if (schemes.has('adminToken')) return [admin, counted];
    return [];
  };
}

function handle(operation: AnyOperation | undefined, config: Settings, shutdown?: AbortSignal) {
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
    else if (reply.stream) {
      const failed = (error: unknown) => (res.locals.errorForLog = error);
      await streamFile(req, res, reply.status, reply.stream, { shutdown, writeTimeoutMs: config.exportWriteTimeoutMs, failed });
    }
    else if (reply.body === undefined) res.status(reply.status).end();
    else if (config.validateResponses) res.status(reply.status).json(reply.body);
    else sendJson(res, reply.status, reply.body);
  };
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

/**
 * The request validator fills schema defaults into bodies; handlers get the body as sent, so a PATCH
 * never resets what the client left out and stored configs are exactly what was posted.
 */
function bodyAsSent(req: Request, res: Response, next: NextFunction) {
  if (req.body !== null && typeof req.body === 'object') assertBodyDepth(req.body);
  res.locals.body = req.body === undefined ? undefined : structuredClone(req.body);
  next();
}

function securityHeaders(_req: Request, res: Response, next: NextFunction) {
  setSecurityHeaders(res);
  next();
}
