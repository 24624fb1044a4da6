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

export function notFoundHandler(req: Request, _res: Response, next: NextFunction) {
  next(errors.routeNotFound(req.method, req.path));
}

export function errorHandler(bodyLimit: string) {
  return (error: unknown, req: Request, res: Response, next: NextFunction) => {
    if (res.headersSent) return next(error);
    const appError = toAppError(error, req, bodyLimit);
    if (appError.status >= 500) res.locals.errorForLog = describe(error);
    for (const [name, value] of Object.entries(appError.headers ?? {})) res.setHeader(name, value);
    const body: { error: string; details?: ErrorDetail[] } = { error: appError.message };
    if (appError.details?.length) body.details = appError.details;
    try {
      res.status(appError.status).json(body);
    } catch (contractError) {
      // With response validation on, an error status the operation does not declare throws here.
      // Answer it plainly (res.end bypasses the validator) instead of falling to Express's HTML page.
      res.locals.errorForLog = describe(contractError);
      res
        .status(500)
        .type('application/json')
        .end(JSON.stringify({ error: `Response does not match the API contract: ${(contractError as Error).message} (was: ${appError.status} ${appError.message})` }));
    }
  };
}

function toAppError(error: unknown, req: Request, bodyLimit: string): AppError {
  if (error instanceof AppError) return error;
  if (isBodyParserError(error)) {
    switch (error.type) {
      case 'entity.parse.failed':
        return errors.malformedJson(describeJsonSyntaxError(error.message.replace(/^Unexpected token.*?in JSON/, 'unexpected token in JSON'), typeof error.body === 'string' ? error.body : ''));
      case 'entity.too.large':
        return errors.payloadTooLarge(bodyLimit);
      case 'encoding.unsupported':
      case 'charset.unsupported':
        return errors.unsupportedMediaType(req.get('content-type') ?? '');
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

function fromValidator(error: ValidatorError, req: Request, bodyLimit: string): AppError {
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
      return errors.unsupportedMediaType(req.get('content-type') ?? '');
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
