// Request ids and structured access logs (one JSON line per request).
import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * `finished`, when given, is called with each request once its answer is finished, and its duration
 * in seconds (metrics): one 'finish' listener for both, the hot path's fewer.
 */
export function requestContext(logger: Logger, finished?: (req: Request, res: Response, seconds: number) => void) {
  return (req: Request, res: Response, next: NextFunction) => {
    const incoming = req.get('x-request-id');
    const id = incoming && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    res.locals.requestId = id;
    res.setHeader('X-Request-Id', id);
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const durationMs = Number(process.hrtime.bigint() - started) / 1e6;
      finished?.(req, res, durationMs / 1000);
      const failed = res.statusCode >= 500;
      if (!logger.isLevelEnabled(failed ? 'error' : 'info')) return;
      const entry = {
        requestId: id,
        method: req.method,
        // The path only: query strings may carry filter values users consider private.
        path: req.path,
        status: res.statusCode,
        durationMs,
      };
      if (failed) logger.error({ ...entry, error: res.locals.errorForLog }, 'request failed');
      else logger.info(entry, 'request');
    });
    next();
  };
}
