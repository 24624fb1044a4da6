// Per-source rate limit of the runtime API: `rateLimitRpm` requests per minute across all keys of a
// source, counted in the control-plane database (rate-limiter-flexible's PostgreSQL store) so every
// server process shares it. Every limited response carries RateLimit-Limit/Remaining/Reset; over the
// limit → 429.
//
// Counting every request in the database would cost a write per request. Instead each process takes
// points from the shared counter in blocks of 1% of the budget (at most MAX_BLOCK) and spends them
// locally until the block is gone or the window ends. The total across processes never exceeds the
// budget; what a process reserved but did not use is lost for the window, so with N processes a
// source gets between budget − N blocks and budget. Budgets under 200 rpm take one point at a time:
// exact.
import type { Response } from 'express';
import type { Db } from '../store/db.ts';
import { RateLimiterMemory, RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';
import { AppError } from '../errors.ts';

const WINDOW_SECONDS = 60;
const BLOCK_SHARE = 0.01;
const MAX_BLOCK = 1_000;
const MAX_ATTEMPTS = 1_000;

/** Points this process reserved from the shared counter, for one source and window. */
interface Reserve {
  rpm: number;
  /** Points left to spend locally. */
  points: number;
  /** What the shared counter had left after the reservation. */
  sharedRemaining: number;
  /** When the shared window ends (ms since epoch). */
  windowEnds: number;
}

export class SourceRateLimiter {
  private readonly limiters = new Map<number, RateLimiterPostgres>();
  private readonly reserves = new Map<string, Reserve>();
  /** Reservations in flight, so concurrent requests of one source wait for one instead of each taking a block. */
  private readonly reserving = new Map<string, Promise<void>>();

  constructor(private readonly pool: Db['pool']) {}

  /** Counts one request of the source; sets the headers; throws 429 when over the limit. */
  async consume(sourceId: string, rpm: number, res: Response): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      const reserve = this.reserves.get(sourceId);
      const now = Date.now();
      if (reserve && reserve.rpm === rpm && reserve.windowEnds > now) {
        if (reserve.points > 0) {
          reserve.points -= 1;
          setHeaders(res, rpm, reserve.sharedRemaining + reserve.points, reserve.windowEnds - now);
          return;
        }
        // Counters only grow within a window: once the shared one is spent, no process gets more.
        // (Each reservation either yields points or spends the counter, so waiting ends; the attempt
        // cap is a guard against a clock that never lets a window end.)
        if (reserve.sharedRemaining === 0 || attempt > MAX_ATTEMPTS) throw tooMany(res, rpm, reserve.windowEnds - now);
      }
      const pending = this.reserving.get(sourceId) ?? this.reserve(sourceId, rpm).finally(() => this.reserving.delete(sourceId));
      this.reserving.set(sourceId, pending);
      await pending;
    }
  }

  /** Takes a block of points from the shared counter (what is left of it when less than a block). */
  private async reserve(sourceId: string, rpm: number): Promise<void> {
    const block = rpm < 200 ? 1 : Math.min(MAX_BLOCK, Math.floor(rpm * BLOCK_SHARE));
    let result: RateLimiterRes;
    try {
      result = await this.limiterFor(rpm).consume(sourceId, block);
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      result = rejection;
    }
    // The counter took the whole block even when it overflowed: what was left before it is ours.
    const before = rpm - (result.consumedPoints - block);
    const points = Math.max(0, Math.min(block, before));
    this.reserves.set(sourceId, {
      rpm,
      points,
      sharedRemaining: Math.max(0, result.remainingPoints),
      windowEnds: Date.now() + result.msBeforeNext,
    });
    if (this.reserves.size > 10_000) this.reserves.delete(this.reserves.keys().next().value!);
  }

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
}

function tooMany(res: Response, rpm: number, msBeforeNext: number): AppError {
  setHeaders(res, rpm, 0, msBeforeNext);
  const retryAfter = String(Math.max(1, Math.ceil(msBeforeNext / 1000)));
  return new AppError(429, `Rate limit of ${rpm} requests per minute exceeded for this source; retry in ${retryAfter} s`, {
    headers: { 'Retry-After': retryAfter },
  });
}

function setHeaders(res: Response, rpm: number, remaining: number, msBeforeNext: number): void {
  res.setHeader('RateLimit-Limit', String(rpm));
  res.setHeader('RateLimit-Remaining', String(Math.max(0, remaining)));
  res.setHeader('RateLimit-Reset', String(Math.max(0, Math.ceil(msBeforeNext / 1000))));
}
