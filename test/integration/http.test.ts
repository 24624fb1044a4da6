// The HTTP surface every operation shares: errors, CORS, request ids, health and documents.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../helpers/service.ts';

let t: TestService;
beforeAll(async () => {
  t = await startTestService('http');
});
afterAll(() => t?.stop());

const post = (path: string, body: string, headers: Record<string, string> = {}) =>
  fetch(`${t.url}${path}`, { method: 'POST', headers: { 'x-api-key': t.teamKey, 'content-type': 'application/json', ...headers }, body });

describe('error bodies', () => {
  it('answers 400 for malformed JSON', async () => {
    const response = await post('/public/v1/projects', '{"name": ');
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toMatch(/^Malformed JSON body/);
  });

  it('names the line and column of a JSON syntax error, not a character offset', async () => {
    const response = await post('/public/v1/projects', '{\n  "name": "x",\n  "description" "y"\n}');
    expect(response.status).toBe(400);
    const { error } = (await response.json()) as { error: string };
    expect(error).toMatch(/^Malformed JSON body: .* at line 3, column 17$/);
    expect(error).not.toMatch(/position/);
  });

  it('answers 415 for a body that is not JSON', async () => {
    const response = await post('/public/v1/projects', 'name=x', { 'content-type': 'application/x-www-form-urlencoded' });
    expect(response.status).toBe(415);
    expect(((await response.json()) as { error: string }).error).toMatch(/application\/json/);
  });

  it('answers 413 for an oversize body', async () => {
    const response = await post('/public/v1/projects', JSON.stringify({ name: 'x', description: 'y'.repeat(2_000_000) }));
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ error: 'Request body too large (limit 1mb)' });
  });

  it('answers 404 with an error body for an unknown route', async () => {
    const response = await fetch(`${t.url}/public/v1/nothing-here`, { headers: { 'x-api-key': t.teamKey } });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: 'Route GET /public/v1/nothing-here not found' });
  });

  it('answers 405 for a method the path does not have', async () => {
    const response = await fetch(`${t.url}/public/v1/projects`, { method: 'PUT', headers: { 'x-api-key': t.teamKey } });
    expect(response.status).toBe(405);
    expect(((await response.json()) as { error: string }).error).toMatch(/PUT/);
  });

  it('never shows a stack trace', async () => {
    const response = await post('/public/v1/projects', '{"name": ');
    expect(await response.text()).not.toMatch(/at .*\.ts:\d+/);
  });
});

describe('browsers and operators', () => {
  it('allows cross-origin calls with x-api-key', async () => {
    const response = await fetch(`${t.url}/public/v1/projects`, {
      method: 'OPTIONS',
      headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'POST', 'access-control-request-headers': 'x-api-key,content-type' },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    expect(response.headers.get('access-control-allow-headers')).toMatch(/x-api-key/);
  });

  it('exposes the total count and request id to browsers', async () => {
    const response = await fetch(`${t.url}/public/v1/projects`, { headers: { origin: 'http://localhost:5173', 'x-api-key': t.teamKey } });
    expect(response.headers.get('access-control-expose-headers')).toMatch(/X-Total-Count/);
    expect(response.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('echoes a sane incoming request id', async () => {
    const response = await fetch(`${t.url}/healthz`, { headers: { 'x-request-id': 'trace-123' } });
    expect(response.headers.get('x-request-id')).toBe('trace-123');
  });

  it('reports health', async () => {
    const response = await fetch(`${t.url}/healthz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok', database: 'ok' });
  });

  it('reports readiness once request validation has loaded', async () => {
    const response = await fetch(`${t.url}/readyz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok', database: 'ok' });
    // It is a documented operation like any other: undeclared parameters are refused.
    expect((await fetch(`${t.url}/readyz?verbose=1`)).status).toBe(400);
  });

  it('serves the OpenAPI document as JSON and YAML', async () => {
    const json = (await (await fetch(`${t.url}/openapi.json`)).json()) as { openapi: string; info: { version: string }; paths: object };
    expect(json.openapi).toMatch(/^3\.1/);
    expect(json.info.version).toBe('1.0.0');
    expect(Object.keys(json.paths)).toContain('/public/v1/projects');
    const yaml = await fetch(`${t.url}/openapi.yaml`);
    expect(yaml.headers.get('content-type')).toMatch(/yaml/);
    expect(await yaml.text()).toMatch(/^openapi: 3\.1/m);
  });

  it('serves a human API reference page at /docs', async () => {
    const page = await fetch(`${t.url}/docs`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    const html = await page.text();
    expect(html).toMatch(/swagger-ui/i);
    const script = html.match(/src="\.?\/?([^"]*swagger-ui-bundle\.js)"/);
    expect(script).not.toBeNull();
    const asset = await fetch(`${t.url}/docs/${script![1]!.replace(/^docs\//, '')}`);
    expect(asset.status).toBe(200);
  });
});
