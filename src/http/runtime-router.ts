// The runtime API's router: the runtime routes (`GET|POST /runtime/{sourceId}/{table}`,
// `GET /runtime/{sourceId}/{table}.csv|.jsonl`, `GET|PATCH|DELETE /runtime/{sourceId}/{table}/{id}`),
// HEAD as GET, and their CORS preflights, served
// with plain node:http, no web framework (issue 24: the lane before it patched Express's request
// handler and mimicked its request objects; this is the hot path, and its steps are few and fixed).
//
// A request's steps, in order: request id and access log, security and CORS headers (a preflight is
// answered here), the JSON body (same parser, limits and errors as the rest of the API), the path's
// parameters decoded, source-key auth and the source's rate limit, the write's media type, the
// handler, its reply; every failure becomes the API's error answer (errors.ts). What it does not
// take — another method or path shape, even under /runtime/ — goes to the Express application, which
// answers it as before (404 "Route … not found").
import type { IncomingMessage, ServerResponse } from 'node:http';
import qs from 'qs';
import type { Logger } from 'pino';
import type { OperationSpec } from '../contract.ts';
import { errors } from '../errors.ts';
import { assertBodyDepth } from '../json-depth.ts';
import type { AnyOperation, OperationContext, Reply, RuntimeSource } from '../operation.ts';
import { setActualRequestCors, setSecurityHeaders } from './common-headers.ts';
import { contractViolation, errorAnswer, type ErrorAnswer } from './errors.ts';
import type { RuntimeRequestRecord } from './metrics.ts';
import { sendJson, streamFile } from './replies.ts';
import { accessLog, requestIdFor } from './request-context.ts';
import type { ResponseValidator } from './response-validator.ts';
import type { SourceAuth } from './runtime-auth.ts';

/** A connect-style middleware over plain node:http objects (the JSON body parser, the CORS preflight). */
export type NodeMiddleware = (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void;

export interface RuntimeRoute {
  operation: OperationSpec;
  /** Its handler; none: the operation answers 501 (with no auth, as unimplemented operations do). */
  handler: AnyOperation | undefined;
}

export interface RuntimeRouterDeps {
  routes: RuntimeRoute[];
  logger: Logger;
  /** Told of every finished request the router took. */
  record: (request: RuntimeRequestRecord) => void;
  /** Source-key auth and the source's rate limit; unset: none (tests of the HTTP layer). */
  sourceAuth?: SourceAuth;
  /** Reads a JSON body into `req.body` (express.json: errors carry body-parser's `type`). */
  jsonBody: NodeMiddleware;
  /** Answers a CORS preflight (the cors middleware, which ends it). */
  preflight: NodeMiddleware;
  /** The request's client address (trust-proxy rules applied), for counting failed keys. */
  clientAddress: (req: IncomingMessage) => string;
  /** The API root as the client sees it (`SDS_PUBLIC_URL` or derived from the request). */
  baseUrl: (req: IncomingMessage) => string;
  /** For error texts (413). */
  bodyLimit: string;
  /** Checks every answer after auth against the contract (tests, development); unset: none. */
  responses?: () => ResponseValidator;
  exportWriteTimeoutMs?: number;
  shutdown?: AbortSignal;
}

/** `(req, res) → whether the router took the request`: when false, nothing was read or written. */
export type RuntimeRouter = (req: IncomingMessage, res: ServerResponse) => boolean;

/** Runtime paths: /runtime/{sourceId}/{table} and /runtime/{sourceId}/{table}/{id}, case-insensitive, an optional trailing slash. */
const RUNTIME_PATH = /^\/runtime\/([^/]+)\/([^/]+)(?:\/([^/]+))?\/?$/i;
/** A table segment with an export file's suffix: `posts.csv`, `posts.jsonl`. */
const FILE_SUFFIX = /^(.+)\.(csv|jsonl)$/i;

/** What a matched request is: a route's, HEAD of a GET route, or a preflight. */
interface Match {
  route: RuntimeRoute;
  head: boolean;
  preflight: boolean;
  /** The path's segments as sent (percent-encoded); the table without its file suffix on the export route. */
  segments: [string, string, string | undefined];
  /** The file suffix of the export route's table (`csv`, `jsonl`). */
  format?: string;
  /** The path without the query; the query after `?` ('' without one). */
  path: string;
  rawQuery: string;
}

export function runtimeRouter(deps: RuntimeRouterDeps): RuntimeRouter {
  const routes = new Map<string, RuntimeRoute>();
  for (const route of deps.routes) {
    const depth = route.operation.path.split('/').length - 1;
    if (!RUNTIME_PATH.test(route.operation.path.replace(/\{\w+\}/g, 'x'))) throw new Error(`not a runtime path: ${route.operation.path}`);
    // `/runtime/{sourceId}/{table}.{format}` (exportRows) shares its shape with `/runtime/{sourceId}/{table}`.
    const suffix = route.operation.path.endsWith('.{format}') ? ' file' : '';
    routes.set(`${route.operation.method.toUpperCase()} ${depth}${suffix}`, route);
  }
  const log = accessLog(deps.logger);

  const match = (req: IncomingMessage): Match | undefined => {
    const url = req.url ?? '';
    const start = pathStart(url);
    if (start < 0 || url.slice(start, start + 9).toLowerCase() !== '/runtime/') return undefined;
    const queryAt = url.indexOf('?', start);
    const path = queryAt < 0 ? url.slice(start) : url.slice(start, queryAt);
    const found = RUNTIME_PATH.exec(path);
    if (!found) return undefined;
    const depth = found[3] === undefined ? 3 : 4;
    const method = req.method ?? '';
    const preflight = method === 'OPTIONS';
    const head = method === 'HEAD';
    // HEAD is served as GET; a preflight is answered on either path shape (what it is for does not matter).
    const shape = `${head || preflight ? 'GET' : method} ${depth}`;
    // A table with a file suffix (`posts.csv`; table ids hold no dot) is the export route's, where there is one.
    const file = depth === 3 ? FILE_SUFFIX.exec(found[2]!) : null;
    const route = (file && routes.get(`${shape} file`)) || routes.get(shape);
    if (!route) return undefined;
    const segments: Match['segments'] = [found[1]!, found[2]!, found[3]];
    const format = file && route.operation.path.endsWith('.{format}') ? file[2]!.toLowerCase() : undefined;
    if (format) segments[1] = file![1]!;
    return { route, head, preflight, segments, format, path, rawQuery: queryAt < 0 ? '' : url.slice(queryAt + 1) };
  };

  return (req, res) => {
    const matched = match(req);
    if (!matched) return false;
    void serve(deps, log, matched, req, res);
    return true;
  };
}

/** Where the path of a request target starts: 0 for `/…`, after the host of an absolute URL, -1 for neither. */
function pathStart(url: string): number {
  if (url.charCodeAt(0) === 47 /* / */) return 0;
  const scheme = url.indexOf('://');
  if (scheme < 0 || url.lastIndexOf('?', scheme) >= 0) return -1;
  return url.indexOf('/', scheme + 3);
}

/** One request's way through the steps, and what its log line and metrics need once it is answered. */
async function serve(deps: RuntimeRouterDeps, log: ReturnType<typeof accessLog>, matched: Match, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const { route, path } = matched;
  const requestId = requestIdFor(header(req, 'x-request-id'));
  res.setHeader('X-Request-Id', requestId);
  const started = process.hrtime.bigint();
  let source: RuntimeSource | undefined;
  let failure: unknown;
  // Counted by route unless it is a preflight or a HEAD (metrics label those "unmatched", as before),
  // or its path's parameters do not decode.
  let operation: OperationSpec | undefined = matched.head || matched.preflight ? undefined : route.operation;
  let table = '';
  res.on('finish', () => {
    const durationMs = Number(process.hrtime.bigint() - started) / 1e6;
    const method = req.method ?? '';
    deps.record({ method, operation, status: res.statusCode, seconds: durationMs / 1000, source, table });
    log({ requestId, method, path, status: res.statusCode, durationMs }, failure);
  });
  setSecurityHeaders(res);
  if (matched.preflight) return deps.preflight(req, res, () => answerError(new Error('the CORS preflight was not answered')));

  setActualRequestCors(req, res);
  const { method } = route.operation;
  const withBody = method === 'post' || method === 'patch';
  let validator: ResponseValidator | undefined;
  try {
    let body: unknown;
    if (withBody || hasBody(req)) {
      await new Promise<void>((resolve, reject) => deps.jsonBody(req, res, (error) => (error === undefined ? resolve() : reject(error))));
      body = (req as { body?: unknown }).body;
      if (body !== null && typeof body === 'object') assertBodyDepth(body);
    }
    const params = decodedParams(matched.segments);
    if (params && matched.format) params.format = matched.format;
    if (!params) {
      operation = undefined;
      // Express's router answered a parameter that does not decode so, through the error middleware.
      throw errors.badRequest('Invalid request');
    }
    table = params.table!;
    const handler = route.handler;
    if (handler && deps.sourceAuth) {
      source = await deps.sourceAuth({ sourceId: params.sourceId!, key: header(req, 'x-api-key'), clientAddress: () => deps.clientAddress(req) }, res);
    }
    if (withBody && !isJson(req)) throw errors.unsupportedMediaType(header(req, 'content-type') ?? '');
    validator = deps.responses?.();
    if (!handler) throw errors.notImplemented();
    const context: OperationContext = {
      params,
      // Runtime operations read rawQuery with parsers of their own; parsed as Express would, if asked.
      get query() {
        return qs.parse(matched.rawQuery, { allowPrototypes: true }) as Record<string, unknown>;
      },
      body: body as never,
      headers: req.headers as Record<string, string | undefined>,
      rawQuery: matched.rawQuery,
      runtime: source,
      get baseUrl() {
        return deps.baseUrl(req);
      },
    };
    const reply = await handler(context);
    const streaming = answer(reply);
    if (streaming) await streaming;
  } catch (error) {
    answerError(error);
  }

  /** Writes the reply; a streamed file is written on after it returns (the promise). */
  function answer(reply: Reply): Promise<void> | undefined {
    const headers = reply.headers;
    if (headers) for (const name in headers) res.setHeader(name, headers[name]!);
    if (reply.events) throw new Error(`${route.operation.operationId} answered an event stream, which the runtime router does not serve`);
    if (reply.stream) {
      return streamFile(req, res, reply.status, reply.stream, { shutdown: deps.shutdown, writeTimeoutMs: deps.exportWriteTimeoutMs, failed: (error) => (failure = error) });
    }
    if (validator) {
      const problems = checked(validator, reply.status, reply.body);
      if (problems.length) {
        write(contractViolation(problems.join('; '), String(reply.status)));
        return undefined;
      }
    }
    if (reply.body === undefined) {
      res.statusCode = reply.status;
      res.end();
    } else sendJson(res, reply.status, reply.body);
    return undefined;
  }

  /** Answers what a step threw; an answer already under way is cut off, as a truncated one must not look complete. */
  function answerError(error: unknown): void {
    try {
      if (res.headersSent) {
        failure ??= error;
        req.socket.destroy();
        return;
      }
      const answered = errorAnswer(error, { method: req.method ?? '', path, contentType: header(req, 'content-type') }, deps.bodyLimit);
      for (const [name, value] of Object.entries(answered.headers)) res.setHeader(name, value);
      const problems = validator ? checked(validator, answered.status, answered.body) : [];
      write(problems.length ? contractViolation(problems.join('; '), `${answered.status} ${answered.body.error}`) : answered);
    } catch (unanswerable) {
      failure = unanswerable;
      if (res.headersSent) req.socket.destroy();
      else {
        res.statusCode = 500;
        res.end();
      }
    }
  }

  function write(answered: ErrorAnswer): void {
    if (answered.logged !== undefined) failure = answered.logged;
    sendJson(res, answered.status, answered.body);
  }

  /** What the contract says against an answer of this request's operation (a HEAD's as its GET's). */
  function checked(validator: ResponseValidator, status: number, body: unknown): string[] {
    const template = route.operation.path.replace(/\{\w+\}/g, 'x');
    const mediaType = body === undefined ? '' : 'application/json';
    const header = (name: string) => {
      const value = res.getHeader(name);
      return value === undefined ? null : Array.isArray(value) ? value.join(', ') : String(value);
    };
    return validator.checkAnswer({ method: route.operation.method, pathname: template, status, mediaType, body, sent: body !== undefined, header }).problems;
  }
}

/** A request header (lower-case name), the first when it was sent twice. */
function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** The path's parameters, percent-decoded as Express decodes them; undefined when one does not decode. */
function decodedParams([sourceId, table, id]: Match['segments']): Record<string, string> | undefined {
  try {
    const params: Record<string, string> = { sourceId: decoded(sourceId), table: decoded(table) };
    if (id !== undefined) params.id = decoded(id);
    return params;
  } catch {
    return undefined;
  }
}

const decoded = (segment: string) => (segment.indexOf('%') < 0 ? segment : decodeURIComponent(segment));

/** Whether a request carries a body, as body parsers decide it (type-is's hasBody). */
function hasBody(req: IncomingMessage): boolean {
  return req.headers['transfer-encoding'] !== undefined || (req.headers['content-length'] !== undefined && req.headers['content-length'] !== '0');
}

/** A write's body must be JSON: `application/json` or `application/*+json` (the management API's validator answers the same 415). */
function isJson(req: IncomingMessage): boolean {
  if (!hasBody(req)) return false;
  const type = (header(req, 'content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  return type === 'application/json' || /^application\/[^/\s]+\+json$/.test(type);
}
