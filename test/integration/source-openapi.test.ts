// Each source's own OpenAPI document describes what its runtime API really answers: real answers of
// projected (`fields`) and populated (`populate`) reads, and of writes, validate against it, on
// PostgreSQL and MariaDB.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResponseValidator } from '../../src/http/response-validator.ts';
import type { OpenApiDocument } from '../../src/contract.ts';
import { waitForLatestJob } from '../helpers/generation.ts';
import { mysqlTarget } from '../helpers/mysql.ts';
import { blogProject, startTestService, type TestService } from '../helpers/service.ts';
import type { Kind } from '../helpers/target-sql.ts';

const mysqlUrl = await mysqlTarget();
const KINDS: Kind[] = mysqlUrl ? ['postgres', 'mysql'] : ['postgres'];

let t: TestService;
let projectId: string;
let versionId: string;
beforeAll(async () => {
  t = await startTestService('source_openapi', { targetUrls: { mysql: mysqlUrl } });
  ({ projectId, versionId } = await blogProject(t.client(t.teamKey), 'Per-source documents'));
});
afterAll(() => t?.stop());

for (const kind of KINDS) {
  describe(`${kind}: answers validate against the source's own OpenAPI document`, () => {
    let sourceId: string;
    let key: string;
    let document: OpenApiDocument;
    let validator: ResponseValidator;

    beforeAll(async () => {
      const api = t.client(t.teamKey);
      const source = await api.POST('/public/v1/projects/{projectId}/sources', {
        params: { path: { projectId } },
        body: { name: `Documented ${kind}`, kind, schemaVersionId: versionId, generatorConfig: { rowCounts: { users: 12, posts: 30 } } },
      });
      sourceId = source.data!.id;
      await waitForLatestJob(t, projectId, sourceId);
      const path = { projectId, sourceId };
      key = (await api.POST('/public/v1/projects/{projectId}/sources/{sourceId}/api-keys', { params: { path }, body: {} })).data!.key;
      document = (await api.GET('/public/v1/projects/{projectId}/sources/{sourceId}/openapi.json', { params: { path } })).data as unknown as OpenApiDocument;
      validator = new ResponseValidator(document);
    });

    async function call(method: string, path: string, body?: unknown) {
      const url = new URL(`${t.url}/runtime/${sourceId}/${path}`);
      const init: RequestInit = { method, headers: { 'x-api-key': key, ...(body ? { 'content-type': 'application/json' } : {}) } };
      if (body) init.body = JSON.stringify(body);
      const response = await fetch(url, init);
      const check = await validator.check(method, url, response);
      expect(check.operationId, `${method} ${path}`).toBeDefined();
      return check;
    }

    it.each([
      ['a whole list', 'users?limit=5'],
      ['a projected list', 'users?fields=id,email&limit=5'],
      ['a populated list', 'posts?populate=authorId&limit=5'],
      ['a projected list with a projected populate', 'posts?fields=id,title&populate=authorId&populate.authorId.fields=id,email&limit=5'],
      ['a list whose populate names a field the projection leaves out', 'posts?fields=title&populate=authorId&limit=3'],
      ['a projected read by id', 'users/1?fields=id,firstName'],
      ['a whole read by id', 'users/2'],
    ])('%s: %s', async (_name, path) => {
      const check = await call('GET', path);
      expect(check.status).toBe(200);
      expect(check.problems).toEqual([]);
    });

    it('a list filtered by the per-field parameters and where, and exports, each answering its one type', async () => {
      const filtered = await call('GET', `posts?filters.authorId.$lte=5&filters.publishedOn.$gte=2000-01-01&where=${encodeURIComponent('{"price":{"$gte":0}}')}&populate=authorId&populate.authorId.fields=id,email&limit=5`);
      expect(filtered.operationId).toBe('listPosts');
      expect(filtered.problems).toEqual([]);
      for (const format of ['csv', 'jsonl']) {
        const exported = await call('GET', `users.${format}?fields=id,email&sort=id:desc&limit=3`);
        expect(exported.operationId).toBe('exportUsers');
        expect(exported.problems).toEqual([]);
        expect(typeof exported.body).toBe('string');
      }
    });

    it('a populated read of one post', async () => {
      const list = await call('GET', 'posts?fields=id&limit=1');
      const id = (list.body as { data: { id: string }[] }).data[0]!.id;
      const check = await call('GET', `posts/${id}?populate=authorId&populate.authorId.fields=email`);
      expect(check.problems).toEqual([]);
      const author = (check.body as { authorId: Record<string, unknown> }).authorId;
      expect(Object.keys(author)).toEqual(['email']);
    });

    it('writes answer whole rows', async () => {
      const created = await call('POST', 'users', { email: `doc.${kind}@example.com`, firstName: 'Doc', role: 'reader', active: true, createdAt: '2024-05-01T10:00:00Z' });
      expect(created.status).toBe(201);
      expect(created.problems).toEqual([]);
      const id = (created.body as { id: number }).id;
      const updated = await call('PATCH', `users/${id}`, { firstName: 'Docs' });
      expect(updated.status).toBe(200);
      expect(updated.problems).toEqual([]);
      expect((await call('DELETE', `users/${id}`)).problems).toEqual([]);
    });

    it('would refuse those answers under the whole-row schema (the document used to say that)', async () => {
      const wholeRows = structuredClone(document);
      const page = (wholeRows.components as { schemas: Record<string, { properties: { data: { items: unknown } } }> }).schemas.PostPage!;
      page.properties.data.items = { $ref: '#/components/schemas/Post' };
      const strict = new ResponseValidator(wholeRows);
      for (const path of ['posts?fields=id,title&limit=2', 'posts?populate=authorId&limit=2']) {
        const url = new URL(`${t.url}/runtime/${sourceId}/${path}`);
        const check = await strict.check('GET', url, await fetch(url, { headers: { 'x-api-key': key } }));
        expect(check.problems.length, path).toBeGreaterThan(0);
      }
    });
  });
}
