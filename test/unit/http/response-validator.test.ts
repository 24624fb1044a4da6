// The contract test's response validator: status declared, required headers, media type, body schema
// (with `$ref`s into the document), and the catch-all 404 of routes outside the contract.
import { describe, expect, it } from 'vitest';
import { ResponseValidator } from '../../../src/http/response-validator.ts';
import { openApiDocument } from '../../../src/contract.ts';

const validator = new ResponseValidator(openApiDocument());
const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
const project = {
  id: '3f2b9c1e-8d4a-4f6b-a2c7-1e5d9b0a7c34',
  slug: 'blog',
  name: 'Blog',
  description: '',
  icon: '',
  teamId: '0b7c6b8e-2f4a-4c1e-9d3a-5e8f7a6b1c20',
  createdAt: '2026-11-02T09:15:00.000Z',
  updatedAt: '2026-11-02T09:15:00.000Z',
};
const check = (method: string, path: string, response: Response) => validator.check(method, new URL(`http://sds.test${path}`), response);

const cases: [string, { given: [string, string, () => Response]; want: { operation: string; problems: string[] } }][] = [
  ['a conforming list', { given: ['GET', '/public/v1/projects', () => json([project], 200, { 'x-total-count': '1' })], want: { operation: 'GET /public/v1/projects', problems: [] } }],
  [
    'a body breaking the schema and a missing required header',
    {
      given: ['GET', '/public/v1/projects', () => json([{ ...project, id: 'nope', icon: undefined }])],
      want: { operation: 'GET /public/v1/projects', problems: ['required header X-Total-Count is missing', "body/0 must have required property 'icon'", 'body/0/id must match format "uuid"'] },
    },
  ],
  ['an undeclared status', { given: ['GET', '/public/v1/projects/abc', () => json({ error: 'x' }, 418)], want: { operation: 'GET /public/v1/projects/{projectId}', problems: ['status 418 is not declared (declared: 200, 400, 401, 403, 404, 429, 500, 503)'] } }],
  ['an error body that is not the Error schema', { given: ['DELETE', '/public/v1/projects/abc', () => json({ message: 'gone' }, 404)], want: { operation: 'DELETE /public/v1/projects/{projectId}', problems: ["body must have required property 'error'"] } }],
  ['a 204 without a body', { given: ['DELETE', '/public/v1/projects/abc', () => new Response(null, { status: 204 })], want: { operation: 'DELETE /public/v1/projects/{projectId}', problems: [] } }],
  ['an undeclared media type', { given: ['GET', '/public/v1/projects/abc', () => new Response('<p>hi</p>', { status: 200, headers: { 'content-type': 'text/html' } })], want: { operation: 'GET /public/v1/projects/{projectId}', problems: ['content type "text/html" is not declared for 200 (declared: application/json)'] } }],
  ['a runtime row list', { given: ['GET', '/runtime/s/posts', () => json({ data: [{ id: 1 }], meta: { pagination: { offset: 0, limit: 25, total: 1 } } })], want: { operation: 'GET /runtime/{sourceId}/{table}', problems: [] } }],
  ['a runtime list without meta', { given: ['GET', '/runtime/s/posts', () => json({ data: [] })], want: { operation: 'GET /runtime/{sourceId}/{table}', problems: ["body must have required property 'meta'"] } }],
  ['an X-Total-Count that is not a count', { given: ['GET', '/public/v1/projects', () => json([project], 200, { 'x-total-count': 'many' })], want: { operation: 'GET /public/v1/projects', problems: ['header X-Total-Count "many" is not an integer'] } }],
  ['a negative X-Total-Count', { given: ['GET', '/public/v1/projects', () => json([project], 200, { 'x-total-count': '-1' })], want: { operation: 'GET /public/v1/projects', problems: ['header X-Total-Count "-1" must be >= 0'] } }],
  [
    'RateLimit headers that are not counts',
    {
      given: ['GET', '/public/v1/projects', () => json([project], 200, { 'x-total-count': '1', 'ratelimit-limit': '600', 'ratelimit-remaining': 'lots' })],
      want: { operation: 'GET /public/v1/projects', problems: ['header RateLimit-Remaining "lots" is not an integer'] },
    },
  ],
  ['a 429 without Retry-After', { given: ['GET', '/public/v1/projects', () => json({ error: 'slow down' }, 429)], want: { operation: 'GET /public/v1/projects', problems: ['required header Retry-After is missing'] } }],
  ['a 429 with a Retry-After date', { given: ['GET', '/public/v1/projects', () => json({ error: 'slow down' }, 429, { 'retry-after': 'Wed, 21 Oct 2026 07:28:00 GMT' })], want: { operation: 'GET /public/v1/projects', problems: ['header Retry-After "Wed, 21 Oct 2026 07:28:00 GMT" is not an integer'] } }],
  ['a creation without Location', { given: ['POST', '/public/v1/projects', () => json(project, 201)], want: { operation: 'POST /public/v1/projects', problems: ['required header Location is missing'] } }],
  [
    'a CSV export with a short record',
    { given: ['GET', '/runtime/s/posts', () => new Response('id,title\n1\n', { status: 200, headers: { 'content-type': 'text/csv; charset=utf-8' } })], want: { operation: 'GET /runtime/{sourceId}/{table}', problems: ['CSV record 2 has 1 fields, the header 2'] } },
  ],
  [
    'a JSON Lines export with a line that is not JSON',
    { given: ['GET', '/runtime/s/posts', () => new Response('{"id":1}\nnope\n', { status: 200, headers: { 'content-type': 'application/x-ndjson' } })], want: { operation: 'GET /runtime/{sourceId}/{table}', problems: ['JSON Lines line 2 is not JSON: nope'] } },
  ],
  ['the catch-all 404 of an unknown route', { given: ['GET', '/public/v1/nope', () => json({ error: 'Not found' }, 404)], want: { operation: 'GET /public/v1/nope', problems: [] } }],
  ['an unknown route that answers', { given: ['GET', '/public/v1/nope', () => json({}, 200)], want: { operation: 'GET /public/v1/nope', problems: ['no operation of the contract matches GET /public/v1/nope (answered 200)'] } }],
];

describe('ResponseValidator', () => {
  for (const [name, { given, want }] of cases) {
    it(name, async () => {
      const [method, path, response] = given;
      expect(await check(method, path, response())).toMatchObject(want);
    });
  }
});
