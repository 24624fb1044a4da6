// The runtime router on its own: which requests it takes (the rest falls to the next listener, as to
// the Express application), path decoding, HEAD, preflights, bodies and their errors, auth before the
// handler, error answers, and the contract check of its answers — over a real node:http server.
import http, { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import cors from 'cors';
import express from 'express';
import pino from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openApiDocument, operationTable } from '../../../src/contract.ts';
import { errors } from '../../../src/errors.ts';
import { CORS_OPTIONS } from '../../../src/http/common-headers.ts';
import type { RuntimeRequestRecord } from '../../../src/http/metrics.ts';
import { ResponseValidator } from '../../../src/http/response-validator.ts';
import type { SourceAccess } from '../../../src/http/runtime-auth.ts';
import { runtimeRouter, type NodeMiddleware, type RuntimeRoute } from '../../../src/http/runtime-router.ts';
import type { AnyOperation, OperationContext, RuntimeSource } from '../../../src/operation.ts';

const SOURCE = '6f1c2a7e-0000-4000-8000-000000000001';
const source = { source: { id: SOURCE }, config: { entities: [{ id: 'users' }] } } as unknown as RuntimeSource;

let server: Server;
let origin: string;
let validating = false;
const seen: OperationContext[] = [];
const access: SourceAccess[] = [];
const records: RuntimeRequestRecord[] = [];

/** Handlers that echo what they were given, or answer what the request asks (`?answer=`). */
const echo: AnyOperation = async (context) => {
  seen.push(context);
  const asked = new URLSearchParams(context.rawQuery).get('answer');
  if (asked === 'throw') throw new Error('a bug');
  if (asked === 'conflict') throw errors.conflict('Row already exists');
  if (asked === 'missing') throw errors.notFound('Row');
  if (asked === 'off-contract') return { status: 200, body: { unexpected: true } as never };
  if (asked === 'stream') return { status: 200, stream: { contentType: 'text/csv; charset=utf-8', chunks: (async function* () { yield 'id\n'; yield '1\n'; })() } };
  return { status: 200, body: { data: [], meta: { pagination: { offset: 0, limit: 25, total: 0 } } } as never };
};
const one: AnyOperation = async (context) => {
  seen.push(context);
  return { status: 200, body: { id: context.params.id } as never };
};
const created: AnyOperation = async (context) => {
  seen.push(context);
  return { status: 201, body: { id: 1 } as never, headers: { Location: `/runtime/${SOURCE}/users/1` } };
};
const deleted: AnyOperation = async (context) => {
  seen.push(context);
  return { status: 204 };
};
const exported: AnyOperation = async (context) => {
  seen.push(context);
  return { status: 200, stream: { contentType: 'text/csv; charset=utf-8', chunks: (async function* () { yield 'id\n'; })() } };
};

beforeAll(async () => {
  const handlers: Record<string, AnyOperation | undefined> = { listRows: echo, exportRows: exported, getRow: one, createRow: created, updateRow: undefined, deleteRow: deleted };
  const routes: RuntimeRoute[] = operationTable()
    .filter((operation) => operation.path.startsWith('/runtime/'))
    .map((operation) => ({ operation, handler: handlers[operation.operationId] }));
  let validator: ResponseValidator | undefined;
  const router = runtimeRouter({
    routes,
    logger: pino({ level: 'silent' }),
    record: (record) => records.push(record),
    sourceAuth: async (request, res) => {
      access.push(request);
      if (request.key !== 'good') throw errors.apiKeyRequired();
      res.setHeader('RateLimit-Limit', '600');
      res.setHeader('RateLimit-Remaining', '599');
      res.setHeader('RateLimit-Reset', '60');
      return source;
    },
    jsonBody: express.json({ limit: '1kb', type: ['application/json', 'application/*+json'] }) as unknown as NodeMiddleware,
    preflight: cors(CORS_OPTIONS) as unknown as NodeMiddleware,
    clientAddress: () => '203.0.113.9',
    baseUrl: () => 'http://sds.test',
    bodyLimit: '1kb',
    responses: () => (validating ? (validator ??= new ResponseValidator(openApiDocument())) : undefined)!,
  });
  // What the router does not take is the next listener's: here a marker in place of Express.
  server = createServer((req, res) => {
    if (router(req, res)) return;
    res.statusCode = 418;
    res.end('not the router');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

beforeEach(() => {
  seen.length = 0;
  access.length = 0;
  records.length = 0;
  validating = false;
});

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

/** A raw request: any method, any request target (percent-encoding and absolute URLs untouched). */
function send(method: string, target: string, headers: Record<string, string> = {}, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const all = { 'x-api-key': 'good', ...(body === undefined ? {} : { 'content-length': String(Buffer.byteLength(body)) }), ...headers };
    const request = http.request({ host: '127.0.0.1', port: new URL(origin).port, method, path: target, headers: all }, (response) => {
      let text = '';
      response.on('data', (chunk: Buffer) => (text += chunk.toString()));
      response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, text }));
    });
    request.on('error', reject);
    request.end(body);
  });
}

const json = (answer: Answer) => JSON.parse(answer.text) as Record<string, unknown>;
const USERS = `/runtime/${SOURCE}/users`;

describe('runtime router: what it takes', () => {
  it('serves the runtime routes, matching as Express did: any case of /runtime, an optional trailing slash', async () => {
    for (const path of [USERS, `${USERS}/`, `/RunTime/${SOURCE}/users`]) {
      const answer = await send('GET', `${path}?limit=25`);
      expect(answer.status).toBe(200);
      expect(seen.at(-1)!.params).toEqual({ sourceId: SOURCE, table: 'users' });
      expect(seen.at(-1)!.rawQuery).toBe('limit=25');
    }
    expect((await send('GET', `${USERS}/42/`)).status).toBe(200);
    expect(seen.at(-1)!.params).toEqual({ sourceId: SOURCE, table: 'users', id: '42' });
  });

  it('gives a table with a file suffix to exportRows (the same path shape as listRows), the table and format as its parameters', async () => {
    for (const [path, table, format] of [
      [`${USERS}.csv`, 'users', 'csv'],
      [`${USERS}.JSONL`, 'users', 'jsonl'],
      [`/runtime/${SOURCE}/line%20items.csv`, 'line items', 'csv'],
    ] as const) {
      const answer = await send('GET', `${path}?limit=5000`);
      expect(answer.status, path).toBe(200);
      expect(answer.text).toBe('id\n');
      expect(seen.at(-1)!.params).toEqual({ sourceId: SOURCE, table, format });
      expect(records.at(-1)).toMatchObject({ operation: expect.objectContaining({ operationId: 'exportRows' }), table });
    }
    // Without a suffix (or another one), the same shape is listRows'.
    for (const table of ['users', 'users.xml']) {
      expect((await send('GET', `/runtime/${SOURCE}/${table}`)).status).toBe(200);
      expect(seen.at(-1)!.params).toEqual({ sourceId: SOURCE, table });
      expect(records.at(-1)!.operation?.operationId).toBe('listRows');
    }
  });

  it('takes an absolute request target by its path', async () => {
    const answer = await send('GET', `http://sds.test${USERS}/7?fields=id`);
    expect(answer.status).toBe(200);
    expect(json(answer)).toEqual({ id: '7' });
    expect(seen.at(-1)!.rawQuery).toBe('fields=id');
  });

  it('leaves other shapes and methods to the next listener (Express answers them 404, as before)', async () => {
    for (const [method, path] of [
      ['GET', `/runtime/${SOURCE}`],
      ['GET', `/runtime/${SOURCE}/`],
      ['GET', `${USERS}/1/extra`],
      ['GET', '/runtime//users'],
      ['GET', `/runtimes/${SOURCE}/users`],
      ['PUT', `${USERS}/1`],
      ['POST', `${USERS}/1`],
      ['PATCH', USERS],
      ['DELETE', USERS],
    ] as const) {
      const answer = await send(method, path);
      expect(answer, `${method} ${path}`).toMatchObject({ status: 418, text: 'not the router' });
    }
    expect(records).toEqual([]);
  });
});

describe('runtime router: path parameters', () => {
  it('percent-decodes each segment after splitting, so %2F is part of a name', async () => {
    await send('GET', `/runtime/${SOURCE}/us%2Fers/a%20b%2C1`);
    expect(seen.at(-1)!.params).toEqual({ sourceId: SOURCE, table: 'us/ers', id: 'a b,1' });
    expect(access.at(-1)!.sourceId).toBe(SOURCE);
  });

  it('answers 400 "Invalid request", not 500, to a segment that is not valid percent-encoding, before auth', async () => {
    for (const path of [`/runtime/${SOURCE}/%E0%A4%A`, `${USERS}/%ZZ`, '/runtime/%/users']) {
      const answer = await send('GET', path, { 'x-api-key': 'wrong' });
      expect(answer.status, path).toBe(400);
      expect(json(answer)).toEqual({ error: 'Invalid request' });
    }
    expect(access).toEqual([]);
    expect(seen).toEqual([]);
    // Counted "unmatched", as Express's router never matched them.
    expect(records.map((record) => record.operation)).toEqual([undefined, undefined, undefined]);
  });
});

describe('runtime router: HEAD and preflights', () => {
  it('answers HEAD as GET, with its headers and length but no body', async () => {
    const get = await send('GET', `${USERS}/5`);
    const head = await send('HEAD', `${USERS}/5`);
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
    expect(head.headers['content-length']).toBe(get.headers['content-length']);
    expect(head.headers['ratelimit-remaining']).toBe('599');
    // Metrics count a HEAD "unmatched" (as they did), with its table.
    expect(records.at(-1)).toMatchObject({ method: 'HEAD', operation: undefined, table: 'users', status: 200 });
  });

  it('answers a preflight with the CORS middleware (204, allowed headers), without auth', async () => {
    const answer = await send('OPTIONS', `${USERS}/1`, { 'x-api-key': '', origin: 'https://app.example', 'access-control-request-method': 'PATCH' });
    expect(answer.status).toBe(204);
    expect(answer.headers['access-control-allow-origin']).toBe('https://app.example');
    expect(answer.headers['access-control-allow-headers']).toBe('content-type,x-api-key,authorization,x-request-id');
    expect(answer.headers['x-content-type-options']).toBe('nosniff');
    expect(answer.headers['x-request-id']).toBeDefined();
    expect(access).toEqual([]);
  });

  it('gives actual requests the security and CORS headers and a request id (the client\'s when sensible)', async () => {
    const answer = await send('GET', USERS, { origin: 'https://app.example', 'x-request-id': 'trace-1.2' });
    expect(answer.headers).toMatchObject({
      'access-control-allow-origin': 'https://app.example',
      vary: 'Origin',
      'x-frame-options': 'DENY',
      'referrer-policy': 'no-referrer',
      'x-request-id': 'trace-1.2',
    });
    expect(answer.headers['access-control-expose-headers']).toMatch(/RateLimit-Remaining/);
    expect((await send('GET', USERS, { 'x-request-id': 'not sensible!' })).headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('runtime router: bodies', () => {
  const write = (body: string, headers: Record<string, string> = { 'content-type': 'application/json' }) => send('POST', USERS, headers, body);

  it('parses a JSON body (application/json and application/*+json) and hands it to the handler', async () => {
    expect((await write('{"name":"Ada"}')).status).toBe(201);
    expect(seen.at(-1)!.body).toEqual({ name: 'Ada' });
    expect((await write('{"n":1}', { 'content-type': 'application/vnd.x+json' })).status).toBe(201);
    expect(seen.at(-1)!.body).toEqual({ n: 1 });
  });

  it('answers the API\'s errors for a body it cannot take', async () => {
    const malformed = await write('{bad');
    expect(malformed.status).toBe(400);
    expect(String(json(malformed).error)).toMatch(/^Malformed JSON body: /);
    expect(await write(JSON.stringify({ text: 'x'.repeat(2000) })).then((answer) => [answer.status, json(answer)])).toEqual([413, { error: 'Request body too large (limit 1kb)' }]);
    expect(await write('x', { 'content-type': 'text/plain' }).then((answer) => [answer.status, json(answer)])).toEqual([
      415,
      { error: 'Unsupported content type text/plain: send application/json' },
    ]);
    const none = await send('POST', USERS);
    expect([none.status, json(none)]).toEqual([415, { error: 'Unsupported content type (none): send application/json' }]);
    const deep = await write('['.repeat(300) + ']'.repeat(300));
    expect(deep.status).toBe(400);
    expect(seen).toEqual([]);
  });

  it('parses the body before auth, as the application did (a malformed body is 400 whoever sends it)', async () => {
    expect((await send('POST', USERS, { 'x-api-key': 'wrong', 'content-type': 'application/json' }, '{bad')).status).toBe(400);
    expect(access).toEqual([]);
    expect((await send('POST', USERS, { 'x-api-key': 'wrong', 'content-type': 'application/json' }, '{}')).status).toBe(401);
  });

  it('reads a body sent with GET or DELETE too (and ignores it), refusing a malformed one', async () => {
    expect((await send('DELETE', `${USERS}/1`, { 'content-type': 'application/json' }, '{"a":1}')).status).toBe(204);
    expect((await send('GET', USERS, { 'content-type': 'application/json' }, '{bad')).status).toBe(400);
  });
});

describe('runtime router: auth, handlers and errors', () => {
  it('authenticates before the handler, with the path\'s source and the x-api-key', async () => {
    const refused = await send('GET', USERS, { 'x-api-key': 'wrong' });
    expect([refused.status, json(refused)]).toEqual([401, { error: 'API key required' }]);
    expect(seen).toEqual([]);
    expect(access.at(-1)).toMatchObject({ sourceId: SOURCE, key: 'wrong' });
    expect(access.at(-1)!.clientAddress()).toBe('203.0.113.9');
    await send('GET', USERS);
    expect(seen.at(-1)!.runtime).toBe(source);
    expect(seen.at(-1)!.baseUrl).toBe('http://sds.test');
    expect(seen.at(-1)!.query).toEqual({});
  });

  it('answers an unimplemented operation 501 without auth', async () => {
    const answer = await send('PATCH', `${USERS}/1`, { 'x-api-key': 'wrong', 'content-type': 'application/json' }, '{}');
    expect([answer.status, json(answer)]).toEqual([501, { error: 'Not implemented' }]);
    expect(access).toEqual([]);
  });

  it('answers what a handler throws with its status, and a bug with a plain 500', async () => {
    const conflict = await send('GET', `${USERS}?answer=conflict`);
    expect([conflict.status, json(conflict)]).toEqual([409, { error: 'Row already exists' }]);
    const bug = await send('GET', `${USERS}?answer=throw`);
    expect(bug.status).toBe(500);
    expect(json(bug)).toEqual({ error: errors.internal().message });
  });

  it('writes a 201 with its Location, a 204 without a body, and a streamed file', async () => {
    const answer = await send('POST', USERS, { 'content-type': 'application/json' }, '{}');
    expect(answer.headers.location).toBe(`/runtime/${SOURCE}/users/1`);
    const none = await send('DELETE', `${USERS}/1`);
    expect([none.status, none.text, none.headers['content-type']]).toEqual([204, '', undefined]);
    const file = await send('GET', `${USERS}?answer=stream`);
    expect([file.status, file.headers['content-type'], file.text]).toEqual([200, 'text/csv; charset=utf-8', 'id\n1\n']);
  });

  it('records each finished request with its operation, table and source', async () => {
    await send('GET', USERS);
    await send('GET', USERS, { 'x-api-key': 'wrong' });
    expect(records.map(({ method, operation, status, source: by, table }) => [method, operation?.operationId, status, by?.source.id, table])).toEqual([
      ['GET', 'listRows', 200, SOURCE, 'users'],
      ['GET', 'listRows', 401, undefined, 'users'],
    ]);
  });
});

describe('runtime router: answers checked against the contract (response validation on)', () => {
  it('passes answers that conform, and replaces one that does not with a 500 that says why', async () => {
    validating = true;
    expect((await send('GET', USERS)).status).toBe(200);
    expect((await send('HEAD', USERS)).status).toBe(200);
    expect((await send('GET', `${USERS}?answer=missing`)).status).toBe(404);
    const broken = await send('GET', `${USERS}?answer=off-contract`);
    expect(broken.status).toBe(500);
    expect(String(json(broken).error)).toMatch(/^Response does not match the API contract: body .*\(was: 200\)$/);
    // listRows declares no 409.
    const undeclared = await send('GET', `${USERS}?answer=conflict`);
    expect([undeclared.status, json(undeclared).error]).toEqual([500, expect.stringMatching(/status 409 is not declared.*\(was: 409 Row already exists\)$/)]);
    // Refusals before auth are not checked (as before: the check starts once the source is known).
    expect((await send('GET', USERS, { 'x-api-key': 'wrong' })).status).toBe(401);
  });
});
