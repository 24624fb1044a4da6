// The runtime API's lane: its requests go straight down the middlewares of their operation instead of
// through Express's router (issue 16: walking the application's router, layer by layer, with its
// per-request closures, was the largest share of a runtime read's CPU after the socket writes).
//
// It changes nothing a client sees. The lane takes a request only when it would have reached the same
// middlewares, in the same order, with the same req/res, through Express: a method and a path of one
// of the runtime routes (as Express matches them: case-insensitive, an optional trailing slash,
// percent-decoded parameters), and, for the methods that take no body, no body (Express would have
// parsed one). Anything else — a preflight, HEAD, a parameter that does not decode, an absolute URL —
// goes to the Express application as before, which answers it as it always did.
import { createServer, IncomingMessage, ServerResponse, type Server } from 'node:http';
import type { Express, NextFunction, Request, Response } from 'express';

type Middleware = (req: Request, res: Response, next: NextFunction) => unknown;
type ErrorMiddleware = (error: unknown, req: Request, res: Response, next: NextFunction) => unknown;

export interface LaneRoute {
  method: 'get' | 'post' | 'patch' | 'delete' | 'put';
  /** The Express path of the route, `/runtime/:sourceId/:table[/:id]` (req.route.path, as the metrics read it). */
  expressPath: string;
  /** Every middleware a request of this route passes through, in order, ending with its handler. */
  chain: Middleware[];
}

/** Runtime paths: /runtime/{sourceId}/{table} and /runtime/{sourceId}/{table}/{id}. */
const RUNTIME_PATH = /^\/runtime\/([^/]+)\/([^/]+)(?:\/([^/]+))?\/?$/i;
const NAMES = ['sourceId', 'table', 'id'] as const;

/**
 * Makes `app` serve the runtime routes through the lane: its `handle` (what its request listener and
 * app.listen call) tries the lane first. `fail` answers what a chain throws or passes to next(error).
 */
export function serveRuntimeLane(app: Express, routes: LaneRoute[], fail: ErrorMiddleware): void {
  const byShape = new Map<string, LaneRoute>();
  for (const route of routes) {
    const segments = route.expressPath.split('/').length - 1;
    if (!RUNTIME_PATH.test(route.expressPath.replace(/:(\w+)/g, 'x'))) throw new Error(`not a runtime path: ${route.expressPath}`);
    byShape.set(`${route.method.toUpperCase()} ${segments}`, route);
  }
  const express = app as unknown as { handle: (req: IncomingMessage, res: ServerResponse, callback?: unknown) => void; request: object; response: object };
  const handleByExpress = express.handle.bind(app);
  const { requestClass, responseClass } = classesOf(app);

  express.handle = (req, res, callback) => {
    const url = req.url ?? '';
    // Only the runtime's own paths; callback set means a mounted sub-application: not ours.
    if (callback !== undefined || url.slice(0, 9).toLowerCase() !== '/runtime/') return handleByExpress(req, res, callback);
    const query = url.indexOf('?');
    const match = RUNTIME_PATH.exec(query < 0 ? url : url.slice(0, query));
    const route = match && byShape.get(`${req.method} ${match[3] === undefined ? 3 : 4}`);
    const params = route ? decodedParams(match) : undefined;
    if (!route || !params || (!takesBody(route.method) && hasBody(req))) return handleByExpress(req, res, callback);

    // What Express's app.handle and router set up before the first middleware runs.
    const request = req as IncomingMessage & Record<string, unknown>;
    const response = res as unknown as Record<string, unknown>;
    request.res = res;
    response.req = req;
    // A server made by serverFor() makes them with Express's prototypes already (no prototype swap).
    if (Object.getPrototypeOf(req) !== requestClass?.prototype) Object.setPrototypeOf(req, express.request);
    if (Object.getPrototypeOf(res) !== responseClass?.prototype) Object.setPrototypeOf(res, express.response);
    response.locals ??= Object.create(null);
    request.originalUrl ??= url;
    request.baseUrl = '';
    request.params = params;
    request.route = { path: route.expressPath, methods: { [route.method]: true } };
    run(route.chain, req as Request, res as Response, fail);
  };
}

interface ExpressClasses {
  requestClass: typeof IncomingMessage;
  responseClass: new (req: IncomingMessage) => ServerResponse;
}
const CLASSES = Symbol('express request and response classes');

/**
 * An HTTP server for `app` (what app.listen makes) whose requests and responses are born with the
 * application's Express prototypes, so that neither Express nor the lane swaps them per request (a
 * prototype change costs each request a map transition and slower property access after).
 */
export function serverFor(app: Express): Server {
  const classes = classesOf(app);
  return createServer({ IncomingMessage: classes.requestClass, ServerResponse: classes.responseClass as never }, app);
}

/** The request and response classes of `app`, made once. */
function classesOf(app: Express): ExpressClasses {
  const holder = app as unknown as { [CLASSES]?: ExpressClasses };
  return (holder[CLASSES] ??= expressClasses(app));
}

function expressClasses(app: Express): ExpressClasses {
  class ExpressRequest extends IncomingMessage {}
  class ExpressResponse extends ServerResponse {}
  // app.request and app.response already inherit from IncomingMessage / ServerResponse.
  Object.setPrototypeOf(ExpressRequest.prototype, app.request);
  Object.setPrototypeOf(ExpressResponse.prototype, app.response);
  return { requestClass: ExpressRequest, responseClass: ExpressResponse };
}

/** Runs the chain as Express would: each middleware's next() calls the following one; a throw or rejection, or next(error), goes to `fail`. */
function run(chain: Middleware[], req: Request, res: Response, fail: ErrorMiddleware): void {
  let index = 0;
  // After the error middleware, as Express's final handler: an answer already under way is cut off
  // (a truncated response must not look complete); one not started is a bare 500.
  const afterFail = (error?: unknown) => {
    if (error === undefined) return;
    if (res.headersSent) req.socket?.destroy();
    else {
      res.statusCode = 500;
      res.end();
    }
  };
  const failed = (error: unknown) => {
    try {
      const answered = fail(error, req, res, afterFail) as Promise<unknown> | undefined;
      if (answered && typeof answered.then === 'function') answered.then(undefined, afterFail);
    } catch (error) {
      afterFail(error);
    }
  };
  const next: NextFunction = (error?: unknown) => {
    if (error !== undefined && error !== 'route' && error !== 'router') return failed(error);
    const middleware = chain[index++];
    // The handler ends every chain and answers; a chain that runs out anyway is a bug, answered as one.
    if (!middleware) return failed(new Error(`runtime lane: nothing answered ${req.method} ${req.originalUrl}`));
    try {
      const result = middleware(req, res, next) as Promise<unknown> | undefined;
      if (result && typeof result.then === 'function') result.then(undefined, (rejected: unknown) => next(rejected ?? new Error('Rejected promise')));
    } catch (error) {
      next(error ?? new Error('Thrown undefined'));
    }
  };
  next();
}

/** The parameters as Express decodes them, or undefined when one does not decode (Express answers that 400 itself). */
function decodedParams(match: RegExpExecArray): Record<string, string> | undefined {
  const params: Record<string, string> = {};
  for (let i = 0; i < NAMES.length; i++) {
    const raw = match[i + 1];
    if (raw === undefined) continue;
    if (raw.indexOf('%') < 0) params[NAMES[i]!] = raw;
    else {
      try {
        params[NAMES[i]!] = decodeURIComponent(raw);
      } catch {
        return undefined;
      }
    }
  }
  return params;
}

const takesBody = (method: string) => method === 'post' || method === 'patch' || method === 'put';

/** Whether a request carries a body, as body parsers decide it (type-is's hasBody). */
function hasBody(req: IncomingMessage): boolean {
  return req.headers['transfer-encoding'] !== undefined || (req.headers['content-length'] !== undefined && req.headers['content-length'] !== '0');
}
