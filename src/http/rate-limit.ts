// Request budgets counted in the control-plane database (rate-limiter-flexible's PostgreSQL store),
// so every server process shares them: the runtime API's per-source `rateLimitRpm`, the management
// API's per-key budget (SDS_MANAGEMENT_RATE_LIMIT_RPM), and failed authentications per client address
// (SDS_AUTH_FAILURE_LIMIT). Every answer within a request budget carries RateLimit-Limit/Remaining/Reset;
// over it → 429 with Retry-After.
//
// Counting every request in the database would cost a write per request. Instead each process takes
// points from the shared counter in blocks of 1% of the budget (at most MAX_BLOCK) and spends them
// locally until the block is gone or the window ends. The total across processes never exceeds the
// budget; what a process reserved but did not use is lost for the window, so with N processes a
// budget yields between budget − N blocks and budget. Budgets under 200 rpm take one point at a time:
// exact.
import type { Db } from '../store/db.ts';
import { RateLimiterMemory, RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';
import { AppError } from '../errors.ts';

/** Where the RateLimit-* headers go: an Express response or a plain node:http one. */
type HeaderSink = { setHeader(name: string, value: string): unknown };

const WINDOW_SECONDS = 60;
const BLOCK_SHARE = 0.01;
const MAX_BLOCK = 1_000;
const MAX_ATTEMPTS = 1_000;

/** Points this process reserved from the shared counter, for one key and window. */
interface Reserve {
  rpm: number;
  /** Points left to spend locally. */
  points: number;
  /** What the shared counter had left after the reservation. */
  sharedRemaining: number;
  /** When the shared window ends (ms since epoch). */
  windowEnds: number;
}

/** A budget of requests per minute per key (a source, a team key), shared by every process. */
export class SharedRateLimiter {
  private readonly limiters = new Map<number, RateLimiterPostgres>();
  private readonly reserves = new Map<string, Reserve>();
  /** Reservations in flight, so concurrent requests of one key wait for one instead of each taking a block. */
  private readonly reserving = new Map<string, Promise<void>>();

  /**
   * @param keyPrefix names the budget in the shared store (`source`, `team-key`)
   * @param subject names a key's owner in the 429 message ("this source")
   */
  constructor(
    private readonly pool: Db['pool'],
    private readonly keyPrefix: string,
    private readonly subject: string,
  ) {}

  /** Counts one request against the key's budget of `rpm`; sets the headers; throws 429 when over it. */
  async consume(key: string, rpm: number, res: HeaderSink): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      const reserve = this.reserves.get(key);
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
        if (reserve.sharedRemaining === 0 || attempt > MAX_ATTEMPTS) throw tooMany(res, rpm, reserve.windowEnds - now, this.subject);
      }
      const pending = this.reserving.get(key) ?? this.reserve(key, rpm).finally(() => this.reserving.delete(key));
      this.reserving.set(key, pending);
      await pending;
    }
  }

  /** Takes a block of points from the shared counter (what is left of it when less than a block). */
  private async reserve(key: string, rpm: number): Promise<void> {
    const block = rpm < 200 ? 1 : Math.min(MAX_BLOCK, Math.floor(rpm * BLOCK_SHARE));
    let result: RateLimiterRes;
    try {
      result = await this.limiterFor(rpm).consume(key, block);
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      result = rejection;
    }
    // The counter took the whole block even when it overflowed: what was left before it is ours.
    const before = rpm - (result.consumedPoints - block);
    const points = Math.max(0, Math.min(block, before));
    this.reserves.set(key, {
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
        keyPrefix: this.keyPrefix,
        points: rpm,
        duration: WINDOW_SECONDS,
        // If the control plane cannot count, keep limiting per process rather than fail requests.
        insuranceLimiter: new RateLimiterMemory({ keyPrefix: this.keyPrefix, points: rpm, duration: WINDOW_SECONDS }),
      });
      this.limiters.set(rpm, limiter);
    }
    return limiter;
  }
}

/**
 * Failed authentications (a wrong key or token) per client address, shared by every process. Only
 * failures are counted and only failures are refused: a credential is always checked first, and a
 * valid one is served whatever its address did (one misconfigured client or fuzzer behind a shared
 * NAT must not lock out everyone behind it). Once an address has used up `perMinute` failures, each
 * further failure of it answers 429 instead of 401 until the window ends, without another write to the
 * shared counter. A process learns that an address is blocked when the address fails there, so across
 * N processes an address gets at most `perMinute` + N − 1 answers of 401 a minute. Requests without a
 * credential are not counted.
 */
export class AuthFailureLimiter {
  private readonly limiter: RateLimiterPostgres;
  /** Blocked addresses and when their window ends (ms since epoch). */
  private readonly blocked = new Map<string, number>();

  constructor(
    pool: Db['pool'],
    private readonly perMinute: number,
  ) {
    this.limiter = new RateLimiterPostgres({
      storeClient: pool,
      storeType: 'pool',
      tableName: 'sds_rate_limits',
      tableCreated: true,
      keyPrefix: 'auth-failures',
      points: Math.max(1, perMinute),
      duration: WINDOW_SECONDS,
      insuranceLimiter: new RateLimiterMemory({ keyPrefix: 'auth-failures', points: Math.max(1, perMinute), duration: WINDOW_SECONDS }),
    });
  }

  /**
   * Counts a failed authentication of `address` (call it only once the credential was found wrong);
   * throws 429 when the address is over its budget, and returns (the caller answers 401) otherwise.
   */
  async fail(address: string): Promise<void> {
    if (this.perMinute <= 0) return;
    const until = this.blocked.get(address);
    if (until !== undefined) {
      const left = until - Date.now();
      if (left > 0) throw tooManyFailures(this.perMinute, left);
      this.blocked.delete(address);
    }
    let result: RateLimiterRes;
    try {
      result = await this.limiter.consume(address, 1);
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      result = rejection;
    }
    if (result.consumedPoints < this.perMinute) return;
    this.blocked.set(address, Date.now() + result.msBeforeNext);
    if (this.blocked.size > 10_000) this.blocked.delete(this.blocked.keys().next().value!);
    if (result.consumedPoints > this.perMinute) throw tooManyFailures(this.perMinute, result.msBeforeNext);
  }
}

function tooMany(res: HeaderSink, rpm: number, msBeforeNext: number, subject: string): AppError {
  setHeaders(res, rpm, 0, msBeforeNext);
  const retryAfter = retryAfterSeconds(msBeforeNext);
  return new AppError(429, `Rate limit of ${rpm} requests per minute exceeded for ${subject}; retry in ${retryAfter} s`, {
    headers: { 'Retry-After': retryAfter },
  });
}

function tooManyFailures(perMinute: number, msBeforeNext: number): AppError {
  const retryAfter = retryAfterSeconds(msBeforeNext);
  return new AppError(429, `Too many failed authentications from this address (${perMinute} a minute); retry in ${retryAfter} s`, {
    headers: { 'Retry-After': retryAfter },
  });
}

function retryAfterSeconds(msBeforeNext: number): string {
  return String(Math.max(1, Math.ceil(msBeforeNext / 1000)));
}

function setHeaders(res: HeaderSink, rpm: number, remaining: number, msBeforeNext: number): void {
  res.setHeader('RateLimit-Limit', String(rpm));
  res.setHeader('RateLimit-Remaining', String(Math.max(0, remaining)));
  res.setHeader('RateLimit-Reset', String(Math.max(0, Math.ceil(msBeforeNext / 1000))));
}
