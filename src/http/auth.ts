// Authentication by the operation's declared security: team keys, the admin token, or none; failed
// attempts are counted per client address, and authenticated management requests against the
// caller's budget (rate-limit.ts). Texts are the specification's: "API key required", "Invalid API key".
import { createHash, timingSafeEqual } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import { errors } from '../errors.ts';
import type { KeyUsageRecorder } from '../management/key-usage.ts';
import type { TeamStore } from '../store/teams.ts';
import { SOURCE_KEY_PREFIX, TEAM_KEY_PREFIX } from '../security/api-keys.ts';
import type { AuthFailureLimiter, SharedRateLimiter } from './rate-limit.ts';

export const API_KEY_HEADER = 'x-api-key';

/**
 * What to do when a key of the other kind was sent (by its prefix alone, not checked): the runtime
 * API takes source keys, the management API team keys. Undefined for anything else.
 */
export function wrongKindHint(key: string, api: 'runtime' | 'management'): string | undefined {
  if (api === 'runtime' && key.startsWith(TEAM_KEY_PREFIX)) {
    return `this is a team key (${TEAM_KEY_PREFIX}…): the runtime API takes a source key (${SOURCE_KEY_PREFIX}…); create one with POST /public/v1/projects/{projectId}/sources/{sourceId}/api-keys`;
  }
  if (api === 'management' && key.startsWith(SOURCE_KEY_PREFIX)) {
    return `this is a source key (${SOURCE_KEY_PREFIX}…): the management API takes a team key (${TEAM_KEY_PREFIX}…), printed by the first start or made with sds team-key create`;
  }
  return undefined;
}

type Middleware = (req: Request, res: Response, next: NextFunction) => Promise<void> | void;

/** The key a management request is counted under: its team key, or the admin token. */
const ADMIN_BUDGET_KEY = 'admin-token';

export function teamKeyAuth(teams: TeamStore, usage: KeyUsageRecorder, failures: AuthFailureLimiter): Middleware {
  return async (req, res, next) => {
    const key = req.get(API_KEY_HEADER);
    if (!key) throw errors.apiKeyRequired();
    // The key is checked before anything is refused: a valid key is served whatever its address did.
    const principal = await teams.authenticate(key);
    if (!principal) {
      await failures.fail(clientAddress(req));
      throw errors.invalidApiKey(wrongKindHint(key, 'management'));
    }
    res.locals.principal = principal;
    res.locals.budgetKey = principal.keyId;
    usage.record(principal.keyId);
    next();
  };
}

export function adminTokenAuth(adminToken: string | undefined, failures: AuthFailureLimiter): Middleware {
  const check = bearerTokenAuth(adminToken, failures, { disabled: errors.adminDisabled, required: errors.adminTokenRequired, invalid: errors.invalidAdminToken });
  return (req, res, next) =>
    check(req, res, () => {
      res.locals.budgetKey = ADMIN_BUDGET_KEY;
      next();
    });
}

/**
 * A bearer token the service is configured with (`token`; undefined: the endpoints it guards are
 * disabled), compared in constant time; wrong tokens count as failed authentications, the right one
 * is served whatever its address did.
 */
export function bearerTokenAuth(
  token: string | undefined,
  failures: AuthFailureLimiter,
  refusals: { disabled: () => Error; required: () => Error; invalid: () => Error },
): Middleware {
  const expected = token === undefined ? undefined : digest(token);
  return async (req, _res, next) => {
    if (expected === undefined) throw refusals.disabled();
    const header = req.get('authorization') ?? '';
    const match = /^Bearer\s+(.+)$/i.exec(header);
    if (!match) throw refusals.required();
    if (!timingSafeEqual(expected, digest(match[1]!.trim()))) {
      await failures.fail(clientAddress(req));
      throw refusals.invalid();
    }
    next();
  };
}

/**
 * Counts an authenticated management request against its key's budget of `rpm` requests a minute
 * (0: no budget), setting the RateLimit-* headers; 429 over it.
 */
export function managementBudget(limiter: SharedRateLimiter, rpm: number): Middleware {
  return async (_req, res, next) => {
    const key = res.locals.budgetKey as string | undefined;
    if (rpm > 0 && key !== undefined) await limiter.consume(key, rpm, res);
    next();
  };
}

/**
 * The client's address: the peer's, or what `X-Forwarded-For` says when the peer is one of the
 * proxies the operator names (SDS_TRUSTED_PROXIES, Express `trust proxy`).
 */
export function clientAddress(req: Request): string {
  return req.ip ?? req.socket.remoteAddress ?? 'unknown';
}

/** Either of two schemes: the admin token when an Authorization header is sent, the team key otherwise. */
export function adminOrTeamAuth(admin: Middleware, team: Middleware): Middleware {
  return (req, res, next) => (req.get('authorization') ? admin(req, res, next) : team(req, res, next));
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}
