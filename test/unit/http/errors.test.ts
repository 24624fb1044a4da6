// The error middleware: every failure becomes its status and {"error"} body. Driver errors that reach
// it (the control plane's, mostly) are recognised through the dialects' error mapping: an unreachable
// database is a 503 to retry, a NUL character in a text a 400, anything else a 500 without details.
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../../src/errors.ts';
import { errorHandler, notFoundHandler } from '../../../src/http/errors.ts';

const failures: Record<string, unknown> = {
  app: new AppError(409, 'Schema is in use'),
  refused: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
  'admin-shutdown': Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
  terminated: new Error('Connection terminated unexpectedly'),
  'mysql-lost': Object.assign(new Error('Connection lost: The server closed the connection.'), { code: 'PROTOCOL_CONNECTION_LOST', fatal: true }),
  'nul-text': Object.assign(new Error('invalid byte sequence for encoding "UTF8": 0x00'), { code: '22021' }),
  'nul-json': Object.assign(new Error('unsupported Unicode escape sequence'), { code: '22P05' }),
  unique: Object.assign(new Error('duplicate key value violates unique constraint "teams_slug_key"'), { code: '23505', constraint: 'teams_slug_key' }),
  plain: new Error('something broke'),
};

let url: string;
let server: ReturnType<express.Express['listen']>;
beforeAll(async () => {
  const app = express();
  app.get('/fail/:name', (req) => {
    throw failures[req.params.name];
  });
  app.use(notFoundHandler);
  app.use(errorHandler('1mb'));
  await new Promise<void>((resolve) => (server = app.listen(0, '127.0.0.1', () => resolve())));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const cases: Array<[string, { status: number; error: RegExp }]> = [
  ['app', { status: 409, error: /^Schema is in use$/ }],
  ['refused', { status: 503, error: /unavailable/ }],
  ['admin-shutdown', { status: 503, error: /unavailable/ }],
  ['terminated', { status: 503, error: /unavailable/ }],
  ['mysql-lost', { status: 503, error: /unavailable/ }],
  ['nul-text', { status: 400, error: /NUL character/ }],
  ['nul-json', { status: 400, error: /NUL character/ }],
  ['unique', { status: 500, error: /^Internal server error/i }],
  ['plain', { status: 500, error: /^Internal server error/i }],
];

describe('errorHandler', () => {
  it.each(cases)('%s → %j', async (name, want) => {
    const response = await fetch(`${url}/fail/${name}`);
    expect(response.status).toBe(want.status);
    const body = (await response.json()) as { error: string };
    expect(body.error).toMatch(want.error);
    // Never the driver's text: it may name servers, addresses or row values.
    expect(body.error).not.toMatch(/127\.0\.0\.1|duplicate key|0x00|administrator/);
  });

  it('answers unknown routes 404 naming the route', async () => {
    const response = await fetch(`${url}/nowhere`);
    expect(response.status).toBe(404);
    expect(((await response.json()) as { error: string }).error).toMatch(/GET \/nowhere/);
  });
});
