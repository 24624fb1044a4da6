// Failed-authentication throttling that cannot be turned against users (issue 23, item 8): only
// failures are counted and refused, so a valid team or source key is served after any number of
// failures from its address; and X-Forwarded-For names the client only when the peer is a proxy the
// operator named (SDS_TRUSTED_PROXIES, default loopback), so a client cannot escape the limit by
// rotating the header nor pin its failures on someone else's address.
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSettings } from '../../src/settings.ts';
import { waitForLatestJob } from '../helpers/generation.ts';
import { ADMIN_TOKEN, blogProject, startTestService, type TestService } from '../helpers/service.ts';

const WRONG_TEAM_KEY = 'svc_api_0000000000000000000000000000000000000000';
const WRONG_SOURCE_KEY = 'svc_src_0000000000000000000000000000000000000000';
const ATTEMPTS = 1_000;

/** A GET over a connection from `localAddress` (any 127.x address reaches a loopback server on Linux). */
function get(url: string, headers: Record<string, string>, localAddress = '127.0.0.1'): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { headers, localAddress, agent: false }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode!, body }));
    });
    request.on('error', reject);
  });
}

/** `count` requests, 10 at a time; their statuses, counted. */
async function hammer(count: number, send: (i: number) => Promise<{ status: number }>): Promise<Record<number, number>> {
  const statuses: Record<number, number> = {};
  let next = 0;
  await Promise.all(
    Array.from({ length: 10 }, async () => {
      while (next < count) {
        const { status } = await send(next++);
        statuses[status] = (statuses[status] ?? 0) + 1;
      }
    }),
  );
  return statuses;
}

describe('a valid key is served after 1,000 failures from its address', () => {
  let t: TestService;
  let projectId: string;
  let sourceId: string;
  let sourceKey: string;
  beforeAll(async () => {
    // The production default budget (30 failures a minute) and the default trusted proxies.
    t = await startTestService('auth_throttle_valid');
    const api = t.client(t.teamKey);
    const blog = await blogProject(api, 'Blog');
    projectId = blog.projectId;
    sourceId = (await api.POST('/public/v1/projects/{projectId}/sources', {
      params: { path: { projectId } },
      body: { name: 'Victim', kind: 'postgres', schemaVersionId: blog.versionId, generatorConfig: { rowCounts: { users: 3, posts: 3 } } },
    })).data!.id;
    await waitForLatestJob(t, projectId, sourceId);
    sourceKey = (await api.POST('/public/v1/projects/{projectId}/sources/{sourceId}/api-keys', {
      params: { path: { projectId, sourceId } },
      body: { name: 'reader' },
    })).data!.key;
  }, 120_000);
  afterAll(() => t?.stop());

  it('serves the team key, the source key and the admin token after 1,000 wrong keys from the same address', async () => {
    expect(loadSettings({}).authFailureLimit).toBe(30);
    const before = await get(`${t.url}/runtime/${sourceId}/users`, { 'x-api-key': sourceKey });
    expect(before.status).toBe(200);

    // The fuzzer behind the shared address: wrong team keys, wrong source keys, wrong admin tokens.
    const failures = await hammer(ATTEMPTS, (i) =>
      i % 3 === 0
        ? get(`${t.url}/public/v1/projects`, { 'x-api-key': WRONG_TEAM_KEY })
        : i % 3 === 1
          ? get(`${t.url}/runtime/${sourceId}/users`, { 'x-api-key': WRONG_SOURCE_KEY })
          : get(`${t.url}/api/api-keys`, { authorization: 'Bearer wrong-token' }),
    );
    // The first 30 failures answer 401, every later one 429: brute force stays throttled.
    expect(failures).toEqual({ 401: 30, 429: ATTEMPTS - 30 });
    const wrongAgain = await get(`${t.url}/public/v1/projects`, { 'x-api-key': WRONG_TEAM_KEY });
    expect(wrongAgain.status).toBe(429);
    expect(JSON.parse(wrongAgain.body).error).toMatch(/^Too many failed authentications from this address \(30 a minute\); retry in \d+ s$/);

    // Its neighbours' valid credentials are served, again and again, at once.
    for (let i = 0; i < 3; i++) {
      const team = await get(`${t.url}/public/v1/projects/${projectId}/sources/${sourceId}`, { 'x-api-key': t.teamKey });
      expect(team.status).toBe(200);
      expect(JSON.parse(team.body).id).toBe(sourceId);
      const runtime = await get(`${t.url}/runtime/${sourceId}/users`, { 'x-api-key': sourceKey });
      expect(runtime.status).toBe(200);
      expect(runtime.body).toBe(before.body);
      expect((await get(`${t.url}/api/api-keys`, { authorization: `Bearer ${ADMIN_TOKEN}` })).status).toBe(200);
    }
    // And the failures stay refused.
    expect((await get(`${t.url}/runtime/${sourceId}/users`, { 'x-api-key': WRONG_SOURCE_KEY })).status).toBe(429);
  }, 120_000);
});

describe('X-Forwarded-For only from the proxies the operator names', () => {
  it('trusts only loopback by default, not the private ranges', () => {
    expect(loadSettings({}).trustedProxies).toBe('loopback');
    expect(loadSettings({ SDS_TRUSTED_PROXIES: '10.0.0.5, 192.168.0.0/16' }).trustedProxies).toBe('10.0.0.5, 192.168.0.0/16');
    expect(() => loadSettings({ SDS_TRUSTED_PROXIES: 'loopback, everyone' })).toThrow(/SDS_TRUSTED_PROXIES .*"everyone"/);
    expect(() => loadSettings({ SDS_TRUSTED_PROXIES: '10.0.0.0/40' })).toThrow(/SDS_TRUSTED_PROXIES/);
  });

  describe('with one proxy at 127.0.0.2', () => {
    let t: TestService;
    beforeAll(async () => {
      t = await startTestService('auth_throttle_proxy', { authFailureLimit: 5, trustedProxies: '127.0.0.2' });
    });
    afterAll(() => t?.stop());

    it('counts a direct client’s failures against its own address however it rotates X-Forwarded-For', async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 8; i++) {
        const forged = { 'x-forwarded-for': `10.9.${i}.${i + 1}`, 'x-api-key': WRONG_TEAM_KEY };
        statuses.push((await get(`${t.url}/public/v1/projects`, forged, '127.0.0.1')).status);
      }
      // Eight "addresses", one budget: the header was ignored.
      expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429, 429]);
      // The runtime API (its own lane) reads the client's address the same way.
      const runtime = await get(`${t.url}/runtime/00000000-0000-4000-8000-000000000000/users`, { 'x-forwarded-for': '10.9.200.1', 'x-api-key': WRONG_SOURCE_KEY }, '127.0.0.1');
      expect(runtime.status).toBe(429);
      // The addresses it named were not charged: a client behind the proxy claiming one of them fails with 401.
      const named = await get(`${t.url}/public/v1/projects`, { 'x-forwarded-for': '10.9.0.1', 'x-api-key': WRONG_TEAM_KEY }, '127.0.0.2');
      expect(named.status).toBe(401);
      // The direct client's valid key is still served.
      expect((await get(`${t.url}/public/v1/projects`, { 'x-forwarded-for': '10.9.9.9', 'x-api-key': t.teamKey }, '127.0.0.1')).status).toBe(200);
    });

    it('honours X-Forwarded-For from the named proxy: each client behind it has its own budget', async () => {
      const behind = (client: string, key: string) =>
        get(`${t.url}/public/v1/projects`, { 'x-forwarded-for': client, 'x-api-key': key }, '127.0.0.2');
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) statuses.push((await behind('172.16.0.10', WRONG_TEAM_KEY)).status);
      expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
      // Another client behind the same proxy is not concerned, nor is the proxy's own address.
      expect((await behind('172.16.0.11', WRONG_TEAM_KEY)).status).toBe(401);
      expect((await get(`${t.url}/public/v1/projects`, { 'x-api-key': WRONG_TEAM_KEY }, '127.0.0.2')).status).toBe(401);
    });
  });
});
