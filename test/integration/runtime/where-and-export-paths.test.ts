// The runtime query forms a generated client can send (issue 28, items 1 and 3), over HTTP on a live
// service: `where` selects what the filters forms select, merges with them and is refused with its
// name; `/{table}.csv` and `/{table}.jsonl` (exportRows) answer the bytes listRows exports.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitForLatestJob } from '../../helpers/generation.ts';
import { blogProject, startTestService, type TestService } from '../../helpers/service.ts';

const METRICS_TOKEN = 'where-export-metrics-token-0123456789';
let t: TestService;
let base: string;
let key: string;

beforeAll(async () => {
  t = await startTestService('where_export', { metricsToken: METRICS_TOKEN });
  const api = t.client(t.teamKey);
  const { projectId, versionId } = await blogProject(api, 'Where and export paths');
  const source = await api.POST('/public/v1/projects/{projectId}/sources', {
    params: { path: { projectId } },
    body: { name: 'Blog', kind: 'postgres', schemaVersionId: versionId, seed: 'where', generatorConfig: { rowCounts: { users: 15, posts: 40 } } },
  });
  const sourceId = source.data!.id;
  await waitForLatestJob(t, projectId, sourceId);
  key = (await api.POST('/public/v1/projects/{projectId}/sources/{sourceId}/api-keys', { params: { path: { projectId, sourceId } }, body: {} })).data!.key;
  base = `${t.url}/runtime/${sourceId}`;
});
afterAll(() => t?.stop());

const get = (path: string, headers: Record<string, string> = {}) => fetch(`${base}/${path}`, { headers: { 'x-api-key': key, ...headers } });
const where = (value: unknown) => `where=${encodeURIComponent(JSON.stringify(value))}`;
async function rows(path: string): Promise<Record<string, unknown>[]> {
  const response = await get(path);
  expect(response.status, path).toBe(200);
  return ((await response.json()) as { data: Record<string, unknown>[] }).data;
}
async function error(path: string): Promise<{ status: number; error: string }> {
  const response = await get(path);
  return { status: response.status, error: ((await response.json()) as { error: string }).error };
}

describe('where', () => {
  it.each([
    ['an enum $in', { role: { $in: ['admin', 'editor'] } }, 'filters.role.$in=admin,editor'],
    ['a boolean and an integer range', { active: { $eq: true }, id: { $gte: 3, $lt: 12 } }, 'filters.active.$eq=true&filters.id.$gte=3&filters.id.$lt=12'],
    ['text, ignoring case', { email: { $containsi: 'A' } }, 'filters.email.$containsi=A'],
  ])('selects what the filters form selects: %s', async (_name, json, form) => {
    const fromWhere = await rows(`users?${where(json)}&sort=id&limit=100`);
    const fromFilters = await rows(`users?${form}&sort=id&limit=100`);
    expect(fromWhere.length).toBeGreaterThan(0);
    expect(fromWhere).toEqual(fromFilters);
  });

  it('merges with the filters forms (AND), on lists, and on exports', async () => {
    const merged = await rows(`posts?${where({ publishedOn: { $gte: '2000-01-01' }, body: { $null: false } })}&filters[authorId][$lte]=7&sort=id&limit=100`);
    const alone = await rows(`posts?filters.publishedOn.$gte=2000-01-01&filters.body.$null=false&filters.authorId.$lte=7&sort=id&limit=100`);
    expect(merged.length).toBeGreaterThan(0);
    expect(merged).toEqual(alone);
    expect(merged.every((row) => (row.authorId as number) <= 7 && row.body !== null)).toBe(true);
    const csv = await (await get(`posts.csv?${where({ authorId: { $lte: 7 } })}&fields=id&sort=id`)).text();
    const expected = await (await get(`posts?format=csv&filters.authorId.$lte=7&fields=id&sort=id`)).text();
    expect(csv).toBe(expected);
  });

  it.each([
    [where({ nope: { $eq: 1 } }), 'Unknown field "nope" in where'],
    [where({ role: { $like: 'a' } }), 'Unknown filter operator "$like" on field "role" in where (operators: $eq, $ne, $gt, $gte, $lt, $lte, $in, $notIn, $contains, $containsi, $startsWith, $endsWith, $null)'],
    [where({ id: { $gte: 'many' } }), 'Invalid value "many" for integer field "id" in where.id.$gte'],
    [where({ active: { $contains: 'x' } }), 'Filter operator "$contains" does not apply to boolean field "active"'],
    ['where=%7Brole', 'Invalid query parameter "where": not JSON'],
    [`${where({ role: { $eq: 'admin' } })}&filters.role.$eq=editor`, 'Duplicate query parameter "filters.role.$eq"'],
  ])('answers 400 naming the problem: %s', async (query, message) => {
    const answer = await error(`users?${query}`);
    expect(answer.status).toBe(400);
    expect(answer.error.startsWith(message), answer.error).toBe(true);
  });
});

describe('exportRows: /{table}.csv and /{table}.jsonl', () => {
  it('answers the same file as listRows with format=…, whatever Accept says', async () => {
    for (const format of ['csv', 'jsonl'] as const) {
      const byPath = await get(`posts.${format}?sort=id&fields=id,title,publishedOn`, { accept: 'application/json' });
      expect(byPath.status).toBe(200);
      expect(byPath.headers.get('content-type')).toContain(format === 'csv' ? 'text/csv' : 'application/x-ndjson');
      const byQuery = await get(`posts?format=${format}&sort=id&fields=id,title,publishedOn`);
      expect(await byPath.text()).toBe(await byQuery.text());
    }
  });

  it('counts as exportRows of its table in the runtime metrics', async () => {
    const sourceId = base.split('/').pop()!;
    const counted = async () => {
      const text = await (await fetch(`${t.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
      const line = text.split('\n').find((entry) => entry.startsWith('sds_runtime_queries_total{') && entry.includes(`source="${sourceId}"`) && entry.includes('table="users"') && entry.includes('operation="exportRows"') && entry.includes('status="200"'));
      return line ? Number(line.split(' ').pop()) : 0;
    };
    const before = await counted();
    await (await get('users.csv')).text();
    await (await get('users.jsonl')).text();
    expect(await counted()).toBe(before + 2);
  });

  it('has no limit maximum, and a limit of its own', async () => {
    const lines = (await (await get('users.jsonl?limit=5000')).text()).trim().split('\n');
    expect(lines).toHaveLength(15);
    expect((await (await get('users.jsonl?limit=4&sort=id')).text()).trim().split('\n')).toHaveLength(4);
    expect((await error('users?limit=5000')).status).toBe(400);
  });

  it('refuses a contradicting format, populate, and an unknown table or suffix', async () => {
    expect(await error('posts.csv?format=json')).toEqual({ status: 400, error: `Query parameter "format" contradicts the path's ".csv": leave it out, or use format=csv` });
    expect((await get('posts.csv?format=csv')).status).toBe(200);
    expect((await error('posts.csv?populate=authorId')).status).toBe(400);
    expect((await error('nope.csv')).status).toBe(404);
    expect((await error('posts.xml')).status).toBe(404);
  });
});
