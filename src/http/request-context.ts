// Request ids and structured access logs (one JSON line per request), for the Express application and
// the runtime router alike.
import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The client's X-Request-Id when it is a sensible one, a fresh one otherwise. */
export function requestIdFor(incoming: string | undefined): string {
  return incoming && REQUEST_ID.test(incoming) ? incoming : randomUUID();
}

export interface AccessEntry {
  requestId: string;
  method: string;
  /** The path only: query strings may carry filter values users consider private. */
  path: string;
  status: number;
  durationMs: number;
}

/** Writes a finished request's access-log line; a 5xx is an error line with what failed (`failure`). */
export function accessLog(logger: Logger) {
  return (entry: AccessEntry, failure: unknown) => {
    const failed = entry.status >= 500;
    if (!logger.isLevelEnabled(failed ? 'error' : 'info')) return;
    if (failed) logger.error({ ...entry, error: failure }, 'request failed');
    else logger.info(entry, 'request');
  };
}

/**
 * `finished`, when given, is called with each request once its answer is finished, and its duration
 * in seconds (metrics): one 'finish' listener for both, the hot path's fewer.
 */
export function requestContext(logger: Logger, finished?: (req: Request, res: Response, seconds: number) => void) {
  const log = accessLog(logger);
  return (req: Request, res: Response, next: NextFunction) => {
    const id = requestIdFor(req.get('x-request-id'));
    res.locals.requestId = id;
    res.setHeader('X-Request-Id', id);
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const durationMs = Number(process.hrtime.bigint() - started) / 1e6;
      finished?.(req, res, durationMs / 1000);
      log({ requestId: id, method: req.method, path: req.path, status: res.statusCode, durationMs }, res.locals.errorForLog);
    });
    next();
  };
}
