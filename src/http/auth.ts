// Authentication by the operation's declared security: team keys, the admin token, or none.
// Texts are the specification's: "API key required", "Invalid API key".
import { createHash, timingSafeEqual } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import { errors } from '../errors.ts';
import type { KeyUsageRecorder } from '../management/key-usage.ts';
import type { TeamStore } from '../store/teams.ts';

export const API_KEY_HEADER = 'x-api-key';

type Middleware = (req: Request, res: Response, next: NextFunction) => Promise<void> | void;

export function teamKeyAuth(teams: TeamStore, usage: KeyUsageRecorder): Middleware {
  return async (req, res, next) => {
    const key = req.get(API_KEY_HEADER);
    if (!key) throw errors.apiKeyRequired();
    const principal = await teams.authenticate(key);
    if (!principal) throw errors.invalidApiKey();
    res.locals.principal = principal;
    usage.record(principal.keyId);
    next();
  };
}

export function adminTokenAuth(adminToken: string | undefined): Middleware {
  const expected = adminToken === undefined ? undefined : digest(adminToken);
  return (req, _res, next) => {
    if (expected === undefined) throw errors.adminDisabled();
    const header = req.get('authorization') ?? '';
    const match = /^Bearer\s+(.+)$/i.exec(header);
    if (!match) throw errors.adminTokenRequired();
    if (!timingSafeEqual(expected, digest(match[1]!.trim()))) throw errors.invalidAdminToken();
    next();
  };
}

/** Either of two schemes: the admin token when an Authorization header is sent, the team key otherwise. */
export function adminOrTeamAuth(admin: Middleware, team: Middleware): Middleware {
  return (req, res, next) => (req.get('authorization') ? admin(req, res, next) : team(req, res, next));
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}
