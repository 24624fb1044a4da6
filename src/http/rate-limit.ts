// Per-source rate limit of the runtime API: `rateLimitRpm` requests per minute across all keys of a
// source, counted in the control-plane database (rate-limiter-flexible) so every server process
// shares it. Every limited response carries RateLimit-Limit/Remaining/Reset; over the limit → 429.
import type { NextFunction, Request, Response } from 'express';
import type { Db } from '../store/db.ts';
import { RateLimiterMemory, RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';
import { AppError } from '../errors.ts';

const WINDOW_SECONDS = 60;

export class SourceRateLimiter {
  private readonly limiters = new Map<number, RateLimiterPostgres>();

  constructor(private readonly pool: Db['pool']) {}

  private limiterFor(rpm: number): RateLimiterPostgres {
    let limiter = this.limiters.get(rpm);
    if (!limiter) {
      limiter = new RateLimiterPostgres({
        storeClient: this.pool,
        storeType: 'pool',
        tableName: 'sds_rate_limits',
        tableCreated: true,
        keyPrefix: 'source',
        points: rpm,
        duration: WINDOW_SECONDS,
        // If the control plane cannot count, keep limiting per process rather than fail requests.
        insuranceLimiter: new RateLimiterMemory({ keyPrefix: 'source', points: rpm, duration: WINDOW_SECONDS }),
      });
      this.limiters.set(rpm, limiter);
    }
    return limiter;
  }

  /** Counts one request of the source; sets the headers; throws 429 when over the limit. */
  async consume(sourceId: string, rpm: number, res: Response): Promise<void> {
    try {
      const result = await this.limiterFor(rpm).consume(sourceId, 1);
      setHeaders(res, rpm, result);
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      setHeaders(res, rpm, rejection);
      const retryAfter = String(Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)));
      throw new AppError(429, `Rate limit of ${rpm} requests per minute exceeded for this source; retry in ${retryAfter} s`, {
        headers: { 'Retry-After': retryAfter },
      });
    }
  }
}

function setHeaders(res: Response, rpm: number, result: RateLimiterRes): void {
  res.setHeader('RateLimit-Limit', String(rpm));
  res.setHeader('RateLimit-Remaining', String(Math.max(0, result.remainingPoints)));
  res.setHeader('RateLimit-Reset', String(Math.max(0, Math.ceil(result.msBeforeNext / 1000))));
}

export type RateLimitMiddleware = (req: Request, res: Response, next: NextFunction) => Promise<void>;
