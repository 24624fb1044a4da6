// The runtime lane takes exactly the requests Express would have routed to a runtime route, sets up
// req/res as Express does, and leaves everything else to the Express application.
import http, { type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type NextFunction, type Request, type Response } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveRuntimeLane, type LaneRoute } from '../../../src/http/runtime-lane.ts';

let server: Server;
let origin: string;

/** Answers who served the request and what Express-level state the handler saw. */
const answer = (by: string) => (req: Request, res: Response) => {
  res.json({
    by,
    params: req.params,
    route: (req.route as { path: string }).path,
    path: req.path,
    originalUrl: req.originalUrl,
    query: req.query,
    ip: typeof req.ip,
    locals: res.locals.seen ?? null,
    body: req.body ?? null,
  });
};

const mark = (req: Request, res: Response, next: NextFunction) => {
  res.locals.seen = 'first middleware';
  next();
};

beforeAll(async () => {
  const app = express();
  app.set('query parser', 'extended');
  app.use(mark);
  app.use(express.json());
  const fail = (error: unknown, _req: Request, res: Response, next: NextFunction) => {
    if (res.headersSent) return next(error);
    res.status((error as { status?: number }).status ?? 500).json({ error: (error as Error).message });
  };
  const routes: LaneRoute[] = [
    { method: 'get', expressPath: '/runtime/:sourceId/:table', chain: [mark, answer('lane')] },
    { method: 'get', expressPath: '/runtime/:sourceId/:table/:id', chain: [mark, answer('lane')] },
    { method: 'post', expressPath: '/runtime/:sourceId/:table', chain: [mark, express.json(), answer('lane')] },
    {
      method: 'delete',
      expressPath: '/runtime/:sourceId/:table/:id',
      chain: [
        async (req: Request, _res: Response, next: NextFunction) => {
          await Promise.resolve();
          if (req.params.id === 'reject') throw Object.assign(new Error('rejected on purpose'), { status: 409 });
          next();
        },
      ],
    },
    {
      method: 'patch',
      expressPath: '/runtime/:sourceId/:table/:id',
      chain: [(_req: Request, _res: Response, next: NextFunction) => next(Object.assign(new Error('passed on'), { status: 422 }))],
    },
  ];
  app.get('/runtime/:sourceId/:table', answer('express'));
  app.get('/runtime/:sourceId/:table/:id', answer('express'));
  app.use((_req: Request, res: Response) => res.status(404).json({ error: 'no route' }));
  app.use(fail);
  serveRuntimeLane(app, routes, fail);
  await new Promise<void>((resolve) => (server = app.listen(0, '127.0.0.1', () => resolve())));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const get = async (path: string, init?: RequestInit) => {
  const response = await fetch(origin + path, init);
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
};

/** A GET with a JSON body, which fetch cannot send. */
const rawGet = (path: string, body: string) =>
  new Promise<Record<string, unknown>>((resolve, reject) => {
    const request = http.request(origin + path, { method: 'GET', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (response) => {
      let text = '';
      response.on('data', (chunk: Buffer) => (text += chunk.toString()));
      response.on('end', () => resolve(JSON.parse(text) as Record<string, unknown>));
    });
    request.on('error', reject);
    request.end(body);
  });

describe('runtime lane', () => {
  it('serves runtime routes with Express req/res: params, route path, parsed query, locals of the chain', async () => {
    const { status, body } = await get('/runtime/abc/users/42?filters[role][$eq]=admin');
    expect(status).toBe(200);
    expect(body).toEqual({
      by: 'lane',
      params: { sourceId: 'abc', table: 'users', id: '42' },
      route: '/runtime/:sourceId/:table/:id',
      path: '/runtime/abc/users/42',
      originalUrl: '/runtime/abc/users/42?filters[role][$eq]=admin',
      query: { filters: { role: { $eq: 'admin' } } },
      ip: 'string',
      locals: 'first middleware',
      body: null,
    });
  });

  it('matches as Express does: any case of /runtime, a trailing slash, percent-decoded parameters', async () => {
    const { body } = await get('/RunTime/a%20b/us%2Fers/');
    expect(body).toMatchObject({ by: 'lane', params: { sourceId: 'a b', table: 'us/ers' }, route: '/runtime/:sourceId/:table' });
  });

  it('parses the body of a write in its chain', async () => {
    const response = await fetch(`${origin}/runtime/abc/users`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":"Ada"}' });
    expect(await response.json()).toMatchObject({ by: 'lane', body: { name: 'Ada' } });
  });

  it('leaves to Express what the lane does not take: HEAD, a GET with a body, a parameter that does not decode, other shapes', async () => {
    expect((await fetch(`${origin}/runtime/abc/users`, { method: 'HEAD' })).status).toBe(200);
    const withBody = await rawGet('/runtime/abc/users', '{"ignored":true}');
    expect(withBody).toMatchObject({ by: 'express', body: { ignored: true } });
    expect((await get('/runtime/abc/%E0%A4%A')).status).toBe(400);
    expect(await get('/runtime/abc')).toEqual({ status: 404, body: { error: 'no route' } });
    expect((await get('/runtime/abc/users/1/extra')).status).toBe(404);
    expect((await get('/runtimeX/abc/users')).status).toBe(404);
  });

  it('routes thrown, rejected and passed errors to the error middleware', async () => {
    expect(await get('/runtime/abc/users/reject', { method: 'DELETE' })).toEqual({ status: 409, body: { error: 'rejected on purpose' } });
    expect(await get('/runtime/abc/users/1', { method: 'PATCH', headers: { 'content-type': 'application/json' }, body: '{}' })).toEqual({
      status: 422,
      body: { error: 'passed on' },
    });
  });

  it('answers a chain that runs out without an answer with the error middleware, not a hung request', async () => {
    const { status, body } = await get('/runtime/abc/users/ok', { method: 'DELETE' });
    expect(status).toBe(500);
    expect(String(body.error)).toContain('nothing answered DELETE /runtime/abc/users/ok');
  });
});
