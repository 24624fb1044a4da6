// The one error middleware: every failure becomes the right status and {"error", "details"?}.
import type { NextFunction, Request, Response } from 'express';
import { mapAnyDriverError } from '../dialects/index.ts';
import { AppError, errors, type ErrorDetail } from '../errors.ts';
import { describeJsonSyntaxError } from '../json-syntax.ts';

interface ValidatorError {
  status: number;
  message?: string;
  headers?: Record<string, string>;
  errors?: { path?: string; message: string }[];
}

interface BodyParserError {
  type: string;
  status?: number;
  message: string;
  charset?: string;
  /** The raw body, on entity.parse.failed. */
  body?: string;
}

/** What an error answer depends on of its request (the runtime router has no Express request). */
export interface FailedRequest {
  method: string;
  /** The path without the query. */
  path: string;
  contentType: string | undefined;
}

/** The status, headers and body that answer `error`, and what to log of it when it is a 500. */
export interface ErrorAnswer {
  status: number;
  headers: Record<string, string>;
  body: { error: string; details?: ErrorDetail[] };
  /** Set for a 5xx: the error as the access log records it. */
  logged?: unknown;
}

export function errorAnswer(error: unknown, request: FailedRequest, bodyLimit: string): ErrorAnswer {
  const appError = toAppError(error, request, bodyLimit);
  const body: ErrorAnswer['body'] = { error: appError.message };
  if (appError.details?.length) body.details = appError.details;
  return { status: appError.status, headers: appError.headers ?? {}, body, ...(appError.status >= 500 ? { logged: describe(error) } : {}) };
}

/**
 * The 500 that replaces an answer the contract does not allow (with response validation on, in tests
 * and development); `was` names the answer replaced (`404 Row not found`).
 */
export function contractViolation(problem: unknown, was: string): ErrorAnswer & { logged: unknown } {
  const message = problem instanceof Error ? problem.message : String(problem);
  return { status: 500, headers: {}, body: { error: `Response does not match the API contract: ${message} (was: ${was})` }, logged: describe(problem) };
}

export function notFoundHandler(req: Request, _res: Response, next: NextFunction) {
  next(errors.routeNotFound(req.method, req.path));
}

export function errorHandler(bodyLimit: string) {
  return (error: unknown, req: Request, res: Response, next: NextFunction) => {
    if (res.headersSent) return next(error);
    const answer = errorAnswer(error, { method: req.method, path: req.path, contentType: req.get('content-type') }, bodyLimit);
    if (answer.logged !== undefined) res.locals.errorForLog = answer.logged;
    for (const [name, value] of Object.entries(answer.headers)) res.setHeader(name, value);
    try {
      res.status(answer.status).json(answer.body);
    } catch (contractError) {
      // With response validation on, an error status the operation does not declare throws here.
      // Answer it plainly (res.end bypasses the validator) instead of falling to Express's HTML page.
      const violation = contractViolation(contractError, `${answer.status} ${answer.body.error}`);
      res.locals.errorForLog = violation.logged;
      res.status(violation.status).type('application/json').end(JSON.stringify(violation.body));
    }
  };
}

function toAppError(error: unknown, req: FailedRequest, bodyLimit: string): AppError {
  if (error instanceof AppError) return error;
  if (isBodyParserError(error)) {
    switch (error.type) {
      case 'entity.parse.failed':
        return errors.malformedJson(describeJsonSyntaxError(error.message.replace(/^Unexpected token.*?in JSON/, 'unexpected token in JSON'), typeof error.body === 'string' ? error.body : ''));
      case 'entity.too.large':
        return errors.payloadTooLarge(bodyLimit);
      case 'encoding.unsupported':
      case 'charset.unsupported':
        return errors.unsupportedMediaType(req.contentType ?? '');
      default:
        return new AppError(400, `Unreadable request body: ${error.message}`);
    }
  }
  if (isValidatorError(error)) return fromValidator(error, req, bodyLimit);
  const mapped = mapAnyDriverError(error);
  if (mapped.kind === 'connection') return errors.unavailable('The database');
  if (mapped.nulCharacter) return errors.badRequest('The request contains a NUL character (\\u0000) in a text, which the database cannot store; remove it');
  return errors.internal();
}

function fromValidator(error: ValidatorError, req: FailedRequest, bodyLimit: string): AppError {
  const details = (error.errors ?? []).map((item) => ({ path: toPointer(item.path ?? ''), message: item.message }));
  switch (error.status) {
    case 400: {
      const first = details[0];
      const summary = first ? `Invalid request: ${first.path.replace(/^\//, '').replace(/\//g, '.')} ${first.message}` : 'Invalid request';
      return errors.badRequest(summary, details);
    }
    case 404:
      return errors.routeNotFound(req.method, req.path);
    case 405:
      return new AppError(405, `Method ${req.method} not allowed on ${req.path}`, { headers: error.headers ?? {} });
    case 413:
      return errors.payloadTooLarge(bodyLimit);
    case 415:
      return errors.unsupportedMediaType(req.contentType ?? '');
    case 500:
      // Only response validation (on in tests and development) raises these: say what broke the contract.
      return new AppError(500, `Response does not match the API contract: ${details.map((d) => `${d.path} ${d.message}`).join('; ') || error.message}`);
    default:
      return new AppError(error.status, error.message ?? 'Request failed');
  }
}

/** express-openapi-validator paths are `/body/name` or `.response.id`; always answer JSON pointers. */
function toPointer(path: string): string {
  return path.startsWith('.') ? path.replace(/\./g, '/') : path;
}

function isBodyParserError(error: unknown): error is BodyParserError {
  return typeof error === 'object' && error !== null && typeof (error as BodyParserError).type === 'string' && 'expose' in error;
}

function isValidatorError(error: unknown): error is ValidatorError {
  const status = (error as ValidatorError | null)?.status;
  return typeof status === 'number' && status >= 400 && status < 600;
}

function describe(error: unknown): unknown {
  return error instanceof Error ? { name: error.name, message: error.message, stack: error.stack } : error;
}
