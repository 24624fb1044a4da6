// The management API's budget per team key (SDS_MANAGEMENT_RATE_LIMIT_RPM) and the budget of failed
// authentications per client address (SDS_AUTH_FAILURE_LIMIT), on one instance and shared by two
// instances of one control plane, over real HTTP on a real PostgreSQL.
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSettings } from '../../src/settings.ts';
import { startService, type RunningService } from '../../src/service.ts';
import { TeamStore } from '../../src/store/teams.ts';
import { ADMIN_TOKEN, blogProject, startTestService, type TestService } from '../helpers/service.ts';

const WRONG_KEY = 'svc_api_0000000000000000000000000000000000000000';

function get(url: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, { headers });
}

const rateHeaders = (response: Response) => ({
  limit: response.headers.get('ratelimit-limit'),
  remaining: response.headers.get('ratelimit-remaining'),
  reset: response.headers.get('ratelimit-reset'),
});

describe('management budget with the defaults', () => {
  let t: TestService;
  beforeAll(async () => {
    // The harness keeps the production defaults: 600 requests a minute, 30 failed authentications.
    t = await startTestService('budget_defaults');
  });
  afterAll(() => t?.stop());

  it('is 600 requests a minute per key, on every answer', async () => {
    expect(loadSettings({}).managementRateLimitRpm).toBe(600);
    expect(loadSettings({}).authFailureLimit).toBe(30);
    const first = await get(`${t.url}/public/v1/projects`, { 'x-api-key': t.teamKey });
    expect(first.status).toBe(200);
    expect(rateHeaders(first).limit).toBe('600');
    const second = await get(`${t.url}/public/v1/projects/00000000-0000-4000-8000-000000000000`, { 'x-api-key': t.teamKey });
    expect(second.status).toBe(404);
    expect(rateHeaders(second).limit).toBe('600');
    expect(Number(rateHeaders(second).remaining)).toBeLessThan(600);
  });

  it('leaves health, documents and unauthenticated answers alone', async () => {
    for (const path of ['/healthz', '/openapi.json']) expect(rateHeaders(await get(`${t.url}${path}`)).limit, path).toBeNull();
    const anonymous = await get(`${t.url}/public/v1/projects`);
    expect(anonymous.status).toBe(401);
    expect(rateHeaders(anonymous).limit).toBeNull();
  });
});

describe('management budget per team key', () => {
  let t: TestService;
  beforeAll(async () => {
    t = await startTestService('budget_small', { managementRateLimitRpm: 20 });
  });
  afterAll(() => t?.stop());

  it('answers 20 requests of a key, then 429 with Retry-After; another key has a budget of its own', async () => {
    const statuses: number[] = [];
    const remaining: number[] = [];
    for (let i = 0; i < 25; i++) {
      const response = await get(`${t.url}/public/v1/projects`, { 'x-api-key': t.teamKey });
      statuses.push(response.status);
      remaining.push(Number(rateHeaders(response).remaining));
      if (response.status === 429) {
        const retryAfter = Number(response.headers.get('retry-after'));
        expect(retryAfter).toBeGreaterThanOrEqual(1);
        expect(retryAfter).toBeLessThanOrEqual(60);
        expect(rateHeaders(response).limit).toBe('20');
        expect(((await response.json()) as { error: string }).error).toMatch(/^Rate limit of 20 requests per minute exceeded for this API key; retry in \d+ s$/);
      }
    }
    expect(statuses).toEqual([...Array<number>(20).fill(200), ...Array<number>(5).fill(429)]);
    expect(remaining.slice(0, 20)).toEqual(Array.from({ length: 20 }, (_, i) => 19 - i));

    const teams = new TeamStore(t.service.db);
    const other = (await teams.createKey((await teams.createTeam('Budgets')).id)).key;
    expect((await get(`${t.url}/public/v1/projects`, { 'x-api-key': other })).status).toBe(200);
    // /api counts too, under the admin token's own budget.
    const admin = await get(`${t.url}/api/api-keys`, { authorization: `Bearer ${ADMIN_TOKEN}` });
    expect(admin.status).toBe(200);
    expect(rateHeaders(admin)).toMatchObject({ limit: '20', remaining: '19' });
  });
});

describe('event streams and the management budget', () => {
  let t: TestService;
  beforeAll(async () => {
    t = await startTestService('budget_streams', { managementRateLimitRpm: 8 });
  });
  afterAll(() => t?.stop());

  it('counts the JSON pages of events but not a live stream', async () => {
    // Set-up spends 3 requests (project, schema, versions): 5 are left.
    const api = t.client(t.teamKey);
    const { projectId, versionId } = await blogProject(api, 'Streams');
    const source = await api.POST('/public/v1/projects/{projectId}/sources', {
      params: { path: { projectId } },
      body: { name: 'Streamed', kind: 'postgres', schemaVersionId: versionId, generatorConfig: { rowCounts: { users: 5, posts: 5 } } },
    });
    expect(source.response.status).toBe(201);
    const events = `${t.url}/public/v1/projects/${projectId}/sources/${source.data!.id}/generation-events`;
    const page = await get(events, { 'x-api-key': t.teamKey });
    expect(rateHeaders(page).remaining).toBe('3');

    for (let i = 0; i < 5; i++) {
      const controller = new AbortController();
      const stream = await fetch(events, { headers: { 'x-api-key': t.teamKey, accept: 'text/event-stream' }, signal: controller.signal });
      expect(stream.status).toBe(200);
      expect(stream.headers.get('content-type')).toMatch(/text\/event-stream/);
      expect(rateHeaders(stream).limit).toBeNull();
      controller.abort();
    }
    // The streams spent nothing of the budget: the next JSON page has 2 left.
    expect(rateHeaders(await get(events, { 'x-api-key': t.teamKey })).remaining).toBe('2');
  });
});

describe('failed authentications per client address', () => {
  let t: TestService;
  beforeAll(async () => {
    t = await startTestService('auth_failures', { authFailureLimit: 5 });
  });
  afterAll(() => t?.stop());

  it('answers 401 to 5 wrong keys of an address, then 429 to its further failures, and still serves its right key', async () => {
    const from = { 'x-forwarded-for': '10.1.1.1' };
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) statuses.push((await get(`${t.url}/public/v1/projects`, { ...from, 'x-api-key': WRONG_KEY })).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429]);

    const wrong = await get(`${t.url}/public/v1/projects`, { ...from, 'x-api-key': WRONG_KEY });
    expect(wrong.status).toBe(429);
    expect(Number(wrong.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(((await wrong.json()) as { error: string }).error).toMatch(/^Too many failed authentications from this address \(5 a minute\); retry in \d+ s$/);
    // Only failures are refused: a right key of the same address is served (issue 23, item 8).
    expect((await get(`${t.url}/public/v1/projects`, { ...from, 'x-api-key': t.teamKey })).status).toBe(200);
    // Admin tokens and source keys are tried no faster.
    expect((await get(`${t.url}/api/api-keys`, { ...from, authorization: 'Bearer wrong' })).status).toBe(429);
    expect((await get(`${t.url}/runtime/00000000-0000-4000-8000-000000000000/users`, { ...from, 'x-api-key': 'svc_src_wrong' })).status).toBe(429);
    // Without a credential nothing is tried, so nothing is refused for it.
    expect((await get(`${t.url}/public/v1/projects`, from)).status).toBe(401);

    // Another address is not concerned.
    expect((await get(`${t.url}/public/v1/projects`, { 'x-forwarded-for': '10.1.1.2', 'x-api-key': WRONG_KEY })).status).toBe(401);
  });

  it('counts wrong admin tokens and wrong source keys as failures too', async () => {
    const from = { 'x-forwarded-for': '10.2.2.2' };
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await get(`${t.url}/api/api-keys`, { ...from, authorization: 'Bearer wrong' })).status);
    for (let i = 0; i < 3; i++) {
      statuses.push((await get(`${t.url}/runtime/00000000-0000-4000-8000-000000000000/users`, { ...from, 'x-api-key': 'svc_src_wrong' })).status);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
  });
});

describe('budgets shared by two instances of one control plane', () => {
  let t: TestService;
  let second: RunningService;
  beforeAll(async () => {
    t = await startTestService('budget_shared', { managementRateLimitRpm: 20, authFailureLimit: 6 });
    second = await startService({ ...t.config, port: 0 }, pino({ level: 'silent' }));
  });
  afterAll(async () => {
    await second?.close();
    await t?.stop();
  });

  it('lets exactly 20 requests of one key through across both, then 429 on each', async () => {
    const instances = [t.url, second.url];
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++) statuses.push((await get(`${instances[i % 2]}/public/v1/projects`, { 'x-api-key': t.teamKey })).status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(20);
    expect(statuses.slice(-4)).toEqual([429, 429, 429, 429]);
  });

  it('blocks an address on both once its failures across both reach the budget', async () => {
    const instances = [t.url, second.url];
    const from = { 'x-forwarded-for': '10.3.3.3' };
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await get(`${instances[i % 2]}/public/v1/projects`, { ...from, 'x-api-key': WRONG_KEY })).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 401]);
    // The instance that saw the sixth failure refuses the next at once; the other on the next try it sees.
    expect((await get(`${second.url}/public/v1/projects`, { ...from, 'x-api-key': WRONG_KEY })).status).toBe(429);
    expect((await get(`${t.url}/public/v1/projects`, { ...from, 'x-api-key': WRONG_KEY })).status).toBe(429);
    expect((await get(`${t.url}/public/v1/projects`, { ...from, 'x-api-key': WRONG_KEY })).status).toBe(429);
    // A right key (one with budget left: the test above spent the bootstrap key's) is served on both.
    const teams = new TeamStore(t.service.db);
    const key = (await teams.createKey((await teams.createTeam('Behind the same address')).id)).key;
    expect((await get(`${second.url}/public/v1/projects`, { ...from, 'x-api-key': key })).status).toBe(200);
    expect((await get(`${t.url}/public/v1/projects`, { ...from, 'x-api-key': key })).status).toBe(200);
  });
});
