// GET /metrics: Prometheus text behind SDS_METRICS_TOKEN, whose counters move with the traffic: HTTP
// requests by route template, runtime operations by source and table (never by a name a client made
// up), a generation job with its rows and rate, pool use, rate-limit rejections and process defaults.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitForLatestJob } from '../helpers/generation.ts';
import { blogProject, startTestService, type TestService } from '../helpers/service.ts';

const TOKEN = 'test-metrics-token-0123456789';
let t: TestService;

beforeAll(async () => {
  t = await startTestService('metrics', { metricsToken: TOKEN });
});
afterAll(() => t?.stop());

type Sample = { name: string; labels: Record<string, string>; value: number };

async function scrape(): Promise<Sample[]> {
  const response = await fetch(`${t.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  const samples: Sample[] = [];
  for (const line of (await response.text()).split('\n')) {
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) continue;
    const labels = Object.fromEntries([...(match[2] ?? '').matchAll(/([a-zA-Z_]+)="((?:[^"\\]|\\.)*)"/g)].map((label) => [label[1]!, label[2]!]));
    samples.push({ name: match[1]!, labels, value: Number(match[3]) });
  }
  return samples;
}

/** The value of the sample `name` whose labels include `labels` (0 when there is none). */
function valueOf(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  const found = samples.filter((sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value));
  return found.reduce((sum, sample) => sum + sample.value, 0);
}

describe('GET /metrics', () => {
  it('needs the metrics token', async () => {
    const none = await fetch(`${t.url}/metrics`);
    expect(none.status).toBe(401);
    expect(await none.json()).toEqual({ error: 'Metrics token required' });
    const wrong = await fetch(`${t.url}/metrics`, { headers: { authorization: 'Bearer nope' } });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('www-authenticate')).toBe('Bearer');
    expect(await wrong.json()).toEqual({ error: 'Invalid metrics token' });
  });

  it('counts HTTP requests, runtime operations, a generation, pool use and rate-limit rejections', async () => {
    const before = await scrape();
    const api = t.client(t.teamKey);
    for (let i = 0; i < 3; i++) expect((await fetch(`${t.url}/healthz`)).status).toBe(200);
    const { projectId, versionId } = await blogProject(api, 'Metrics');
    const created = await api.POST('/public/v1/projects/{projectId}/sources', {
      params: { path: { projectId } },
      body: { name: 'Metrics', kind: 'postgres', schemaVersionId: versionId, rateLimitRpm: 6, generatorConfig: { rowCounts: { users: 30, posts: 20 } } },
    });
    const sourceId = created.data!.id;
    const job = await waitForLatestJob(t, projectId, sourceId);
    const key = (await api.POST('/public/v1/projects/{projectId}/sources/{sourceId}/api-keys', { params: { path: { projectId, sourceId } }, body: {} })).data!.key;
    const runtime = (suffix: string) => fetch(`${t.url}/runtime/${sourceId}/${suffix}`, { headers: { 'x-api-key': key } });
    expect((await runtime('users?limit=5')).status).toBe(200);
    expect((await runtime('users/1')).status).toBe(200);
    expect((await runtime('nope')).status).toBe(404);
    // A budget of 6 a minute: the next requests run out of it.
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await runtime('posts?limit=1')).status);
    expect(statuses).toContain(429);

    const after = await scrape();
    const grew = (name: string, labels: Record<string, string> = {}) => valueOf(after, name, labels) - valueOf(before, name, labels);
    expect(grew('sds_http_requests_total', { method: 'GET', route: '/healthz', status: '200' })).toBe(3);
    expect(grew('sds_http_requests_total', { method: 'POST', route: '/public/v1/projects/{projectId}/sources', status: '201' })).toBe(1);
    expect(grew('sds_http_request_duration_seconds_count', { method: 'GET', route: '/runtime/{sourceId}/{table}/{id}', status: '200' })).toBe(1);
    expect(grew('sds_http_requests_total', { route: '/runtime/{sourceId}/{table}', status: '429' })).toBeGreaterThanOrEqual(1);
    expect(grew('sds_runtime_queries_total', { source: sourceId, table: 'users', operation: 'listRows', status: '200' })).toBe(1);
    expect(grew('sds_runtime_queries_total', { source: sourceId, table: 'users', operation: 'getRow', status: '200' })).toBe(1);
    expect(grew('sds_runtime_queries_total', { source: sourceId, table: 'posts' })).toBeGreaterThanOrEqual(1);
    expect(after.some((sample) => sample.labels.table === 'nope')).toBe(false);
    expect(grew('sds_rate_limit_rejections_total', { surface: 'runtime' })).toBe(statuses.filter((status) => status === 429).length);
    expect(grew('sds_generation_jobs_total', { status: 'succeeded', kind: 'postgres' })).toBe(1);
    expect(grew('sds_generation_rows_total', { kind: 'postgres' })).toBe(job.rowsInserted);
    expect(valueOf(after, 'sds_generation_rows_per_second', { kind: 'postgres' })).toBeGreaterThan(0);
    expect(valueOf(after, 'sds_db_pool_connections', { database: 'control-plane', state: 'total' })).toBeGreaterThan(0);
    expect(valueOf(after, 'sds_db_pool_connections', { database: 'default:postgres', pool: 'runtime', state: 'total' })).toBeGreaterThan(0);
    // prom-client's process defaults.
    expect(valueOf(after, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(after.some((sample) => sample.name === 'nodejs_eventloop_lag_seconds')).toBe(true);
  }, 60_000);
});

describe('GET /metrics without SDS_METRICS_TOKEN', () => {
  it('answers 401: metrics are disabled', async () => {
    const other = await startTestService('metrics_off');
    try {
      const response = await fetch(`${other.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({ error: 'Metrics disabled: set SDS_METRICS_TOKEN to enable them' });
    } finally {
      await other.stop();
    }
  });
});
