// Request ids and structured access logs (one JSON line per request).
import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export function requestContext(logger: Logger) {
  return (req: Request, res: Response, next: NextFunction) => {
    const incoming = req.get('x-request-id');
    const id = incoming && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    res.locals.requestId = id;
    res.setHeader('X-Request-Id', id);
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const entry = {
        requestId: id,
        method: req.method,
        // The path only: query strings may carry filter values users consider private.
        path: req.path,
        status: res.statusCode,
        durationMs: Number(process.hrtime.bigint() - started) / 1e6,
      };
      if (res.statusCode >= 500) logger.error({ ...entry, error: res.locals.errorForLog }, 'request failed');
      else logger.info(entry, 'request');
    });
    next();
  };
}
