// A whole table through the runtime API as CSV or JSON Lines (Accept or ?format=): every row the
// query selects, no page cap, the same values as the JSON pages, the source's key and rate limit
// as for any runtime request, on PostgreSQL and MariaDB.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { parquetReadObjects } from 'hyparquet';
import { exportSource } from '../../../src/cli/export-command.ts';
import { dialectFor } from '../../../src/dialects/index.ts';
import { PG_TARGET_URL } from '../../helpers/dialect-targets.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRuntimeClient } from '../../../sdk/src/index.ts';
import { parseCsv } from '../../helpers/csv.ts';
import { waitForLatestJob } from '../../helpers/generation.ts';
import { mysqlTarget } from '../../helpers/mysql.ts';
import { blogProject, startTestService, type TestService } from '../../helpers/service.ts';
import type { Kind } from '../../helpers/target-sql.ts';
import { loadScript } from '../../helpers/load-script.ts';

const mysqlUrl = await mysqlTarget();
const KINDS: Kind[] = mysqlUrl ? ['postgres', 'mysql'] : ['postgres'];
const USERS = 2_600;

let t: TestService;
let projectId: string;
let versionId: string;
beforeAll(async () => {
  t = await startTestService('export', { targetUrls: { mysql: mysqlUrl } });
  ({ projectId, versionId } = await blogProject(t.client(t.teamKey), 'Exports'));
});
afterAll(() => t?.stop());

type JsonRow = Record<string, unknown>;

for (const kind of KINDS) {
  describe(`${kind}: table exports`, () => {
    let base: string;
    let key: string;
    /** Every user as the JSON pages answer them, in order. */
    let pages: JsonRow[];

    beforeAll(async () => {
      const api = t.client(t.teamKey);
      const source = await api.POST('/public/v1/projects/{projectId}/sources', {
        params: { path: { projectId } },
        body: { name: `Exported ${kind}`, kind, schemaVersionId: versionId, generatorConfig: { rowCounts: { users: USERS, posts: 40 } } },
      });
      const sourceId = source.data!.id;
      await waitForLatestJob(t, projectId, sourceId);
      key = (await api.POST('/public/v1/projects/{projectId}/sources/{sourceId}/api-keys', { params: { path: { projectId, sourceId } }, body: {} })).data!.key;
      base = `${t.url}/runtime/${sourceId}`;
      pages = [];
      for (let offset = 0; offset < USERS; offset += 1000) pages.push(...((await get(`/users?limit=1000&offset=${offset}`)).json as { data: JsonRow[] }).data);
      expect(pages).toHaveLength(USERS);
    });

    const get = async (path: string, headers: Record<string, string> = {}) => {
      const response = await fetch(`${base}${path}`, { headers: { 'x-api-key': key, ...headers } });
      const text = await response.text();
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
      return { response, text, json };
    };

    const lines = (text: string) => text.split('\n').filter(Boolean).map((line) => JSON.parse(line) as JsonRow);

    it('JSON Lines (Accept: application/x-ndjson): every row, past the 1000-row page, as the pages answer them', async () => {
      const { response, text } = await get('/users', { accept: 'application/x-ndjson' });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^application\/x-ndjson/);
      expect(response.headers.get('ratelimit-limit')).toBeTruthy();
      expect(lines(text)).toEqual(pages);
    });

    it('CSV (?format=csv): a header, then every row; NULL empty, values as the pages render them', async () => {
      const { response, text } = await get('/users?format=csv');
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/csv/);
      const [header, ...records] = parseCsv(text);
      const fields = Object.keys(pages[0]!);
      expect(header!.map((field) => field.value)).toEqual(fields);
      expect(records).toHaveLength(USERS);
      records.forEach((record, index) => {
        const row = pages[index]!;
        expect(record.map((field) => (field.quoted || field.value !== '' ? field.value : null))).toEqual(fields.map((field) => (row[field] === null ? null : String(row[field]))));
      });
    });

    it('honours filters, fields, sort, limit and offset', async () => {
      const query = 'filters[role][$eq]=admin&fields=id,email&sort=email:desc&offset=3&limit=1500';
      const { text } = await get(`/users?${query}&format=jsonl`);
      const expected = pages
        .filter((row) => row.role === 'admin')
        .sort((a, b) => (String(a.email) < String(b.email) ? 1 : String(a.email) > String(b.email) ? -1 : 0))
        .slice(3, 1503)
        .map((row) => ({ id: row.id, email: row.email }));
      expect(lines(text)).toEqual(expected);
    });

    it('answers 400 for populate and an unknown format, 401 without a key, JSON for format=json', async () => {
      expect((await get('/posts?populate=authorId&format=csv')).response.status).toBe(400);
      const unknown = await get('/users?format=xml');
      expect(unknown.response.status).toBe(400);
      expect((unknown.json as { error: string }).error).toMatch(/Unknown format "xml"/);
      expect((await fetch(`${base}/users?format=csv`)).status).toBe(401);
      const json = await get('/users?format=json&limit=2');
      expect((json.json as { data: unknown[] }).data).toHaveLength(2);
    });

    it('through the SDK: exportRows reads every row in one request, export streams the file', async () => {
      const runtime = createRuntimeClient({ baseUrl: t.url, sourceId: base.split('/').pop()!, apiKey: key });
      const rows: unknown[] = [];
      for await (const row of runtime.exportRows('users', { sort: 'id' })) rows.push(row);
      expect(rows).toEqual(pages);
      const csv = await runtime.export('users', { format: 'csv', fields: ['id', 'role'], limit: 3 });
      expect(csv.error).toBeUndefined();
      expect(await new Response(csv.data).text()).toBe(`id,role\r\n${pages.slice(0, 3).map((row) => `${row.id},${row.role}\r\n`).join('')}`);
      const refused = await runtime.export('users', { format: 'csv', filters: { nope: { $eq: 1 } } } as never);
      expect(refused.response.status).toBe(400);
    });

    it('sds export writes every table in each format, with the values the runtime API serves', async () => {
      const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'sds-export-'));
      try {
        const sourceId = base.split('/').pop()!;
        const common = { source: sourceId, project: projectId, baseUrl: t.url, teamKey: t.teamKey };
        const jsonl = await exportSource({ ...common, out: path.join(folder, 'jsonl'), format: 'jsonl' });
        expect(jsonl.files.map((file) => [path.basename(file.path), file.rows])).toEqual([['users.jsonl', USERS], ['posts.jsonl', 40]]);
        expect(lines(fs.readFileSync(path.join(folder, 'jsonl', 'users.jsonl'), 'utf8'))).toEqual(pages);
        const csv = await exportSource({ ...common, out: path.join(folder, 'csv'), format: 'csv', gzip: true, tables: ['users'] });
        expect(csv.files[0]!.rows).toBe(USERS);
        expect(gunzipSync(fs.readFileSync(path.join(folder, 'csv', 'users.csv.gz'))).toString('utf8')).toBe((await get('/users?format=csv')).text);
        await exportSource({ ...common, out: path.join(folder, 'parquet'), format: 'parquet' });
        const buffer = fs.readFileSync(path.join(folder, 'parquet', 'users.parquet'));
        const parquet = (await parquetReadObjects({ file: buffer.buffer.slice(buffer.byteOffset, buffer.byteOffset + buffer.byteLength), utf8: true })) as JsonRow[];
        expect(parquet.map((row) => [Number(row.id), row.email, row.role, row.active, (row.createdAt as Date).toISOString()])).toEqual(
          pages.map((row) => [row.id, row.email, row.role, row.active, row.createdAt]),
        );
        // The SQL script, loaded with the engine's own client into a namespace of its own, holds the same rows.
        const namespace = `sds_export_${kind}_${Date.now().toString(36)}`;
        const script = await exportSource({ ...common, out: path.join(folder, 'sql'), format: 'sql', schema: namespace });
        expect(script.files[0]!.rows).toBe(USERS + 40);
        const target = kind === 'postgres' ? PG_TARGET_URL : mysqlUrl!;
        loadScript(kind, target, script.files[0]!.path);
        const check = await dialectFor(target).connect(target);
        try {
          expect(await check.countRows(namespace, 'users')).toBe(USERS);
          expect(await check.countRows(namespace, 'posts')).toBe(40);
        } finally {
          await check.dropNamespace(namespace);
          await check.close();
        }
      } finally {
        fs.rmSync(folder, { recursive: true, force: true });
      }
    });

    it('stops cleanly when the client goes away mid-stream, and serves the next request', async () => {
      await new Promise<void>((resolve, reject) => {
        const request = http.get(`${base}/users?format=jsonl`, { headers: { 'x-api-key': key } }, (response) => {
          response.once('data', () => {
            request.destroy();
            resolve();
          });
        });
        request.on('error', (error) => ((error as NodeJS.ErrnoException).code === 'ECONNRESET' ? resolve() : reject(error)));
      });
      const again = await get('/users?format=jsonl&limit=5');
      expect(lines(again.text)).toEqual(pages.slice(0, 5));
    });
  });
}
