// Runtime reads on both databases over generated data: every operator against an in-memory
// evaluation, sorts, projection, pagination edges, populate, reads by id, and the same JSON from
// PostgreSQL and MySQL for the same rows.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TargetConnection } from '../../../src/dialects/dialect.ts';
import type { JsonRow } from '../../../src/runtime/shape.ts';
import { runtimeConfig } from '../../fixtures/runtime-config.ts';
import { matches, sortRows, type MemoryFilter } from '../../helpers/in-memory-query.ts';
import { dialectTargets, failure, generateSource, ids, type GeneratedSource } from '../../helpers/runtime-source.ts';

const DIALECTS = await dialectTargets();
const config = runtimeConfig();
/** Every table as each database renders it, compared after both have run. */
const rendered = new Map<string, Record<string, JsonRow[]>>();

/** Counts the statements a connection runs (populate must not query per row). */
function countQueries(connection: TargetConnection): { count: () => number; restore: () => void } {
  let count = 0;
  const original = connection.query.bind(connection);
  connection.query = ((sql: string, params: unknown[]) => {
    count++;
    return original(sql, params);
  }) as TargetConnection['query'];
  return { count: () => count, restore: () => void (connection.query = original) };
}

for (const target of DIALECTS) {
  describe(`${target.name}: runtime reads`, () => {
    let source: GeneratedSource;
    let authors: JsonRow[];
    let posts: JsonRow[];
    const authorsTable = () => source.runtime.tables(config).get('authors');

    beforeAll(async () => {
      source = await generateSource(target, config);
      authors = await source.all('authors');
      posts = await source.all('posts');
      const tables: Record<string, JsonRow[]> = {};
      for (const table of ['authors', 'posts', 'comments', 'tags']) tables[table] = await source.all(table);
      rendered.set(target.name, tables);
    });
    afterAll(() => source?.drop());

    it('answers a repeated list query alike (its plan is kept), and a bad one with the same error each time', async () => {
      const query = 'filters[role][$eq]=admin&sort=id:desc&limit=5&fields=id,role';
      const first = await source.list('authors', query);
      expect(first.data.length).toBeGreaterThan(0);
      expect(first.data.every((row) => row.role === 'admin')).toBe(true);
      expect(await source.list('authors', query)).toEqual(first);
      const bad = 'filters[nope][$eq]=1';
      const error = await failure(source.list('authors', bad));
      expect(error.status).toBe(400);
      expect(await failure(source.list('authors', bad))).toEqual(error);
    });

    it('lists every table with the pagination envelope', async () => {
      expect((await source.list('authors')).meta.pagination).toEqual({ offset: 0, limit: 25, total: 30 });
      expect(authors.map((row) => row.id)).toEqual(Array.from({ length: 30 }, (_, index) => index + 1));
      expect(posts).toHaveLength(60);
      expect((await source.list('comments', 'limit=0')).meta.pagination.total).toBe(40);
    });

    it('renders every type as documented', () => {
      for (const row of authors) {
        expect(row).toEqual({
          id: expect.any(Number),
          email: expect.stringMatching(/@/),
          name: expect.any(String),
          nickname: row.nickname === null ? null : expect.any(String),
          role: expect.stringMatching(/^(reader|editor|admin)$/),
          active: row.active === null ? null : expect.any(Boolean),
          rating: row.rating === null ? null : expect.any(Number),
          score: expect.any(Number),
          birthday: row.birthday === null ? null : expect.stringMatching(/^\d{2}\/\d{2}\/\d{4}$/),
          joinedOn: expect.stringMatching(/^\d{4}-\d{2}-\d{2} 00:00:00$/),
          createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
          wakeAt: row.wakeAt === null ? null : expect.stringMatching(/^\d{2}:\d{2}:\d{2}$/),
          externalId: row.externalId === null ? null : expect.stringMatching(/^[0-9a-f-]{36}$/),
          prefs: row.prefs === null ? null : expect.any(Object),
          bio: row.bio === null ? null : expect.any(String),
          mentorId: row.mentorId === null ? null : expect.any(Number),
        });
      }
      expect(authors.some((row) => row.nickname === null) && authors.some((row) => row.active === false)).toBe(true);
      for (const post of posts) expect(post.publishedOn === null || /^\d{4}-\d{2}-\d{2}$/.test(String(post.publishedOn))).toBe(true);
    });

    const operatorCases = (): Array<[string, MemoryFilter[]]> => {
      const some = (field: string, index = 0) => String(authors.filter((row) => row[field] !== null)[index]![field]);
      const email = some('email', 3);
      return [
        ['$eq on an enum', [{ field: 'role', operator: '$eq', values: ['editor'] }]],
        ['$ne on an enum', [{ field: 'role', operator: '$ne', values: ['editor'] }]],
        ['$in on an enum', [{ field: 'role', operator: '$in', values: ['reader', 'admin'] }]],
        ['$notIn on integers', [{ field: 'id', operator: '$notIn', values: ['1', '2', '30'] }]],
        ['$ne keeps nulls', [{ field: 'nickname', operator: '$ne', values: [some('nickname')] }]],
        ['$notIn keeps nulls', [{ field: 'nickname', operator: '$notIn', values: [some('nickname'), some('nickname', 1)] }]],
        ['$null true', [{ field: 'nickname', operator: '$null', values: ['true'] }]],
        ['$null false', [{ field: 'prefs', operator: '$null', values: ['false'] }]],
        ['$gt on a double', [{ field: 'score', operator: '$gt', values: ['0'] }]],
        ['$gte on a double, equal value included', [{ field: 'score', operator: '$gte', values: [some('score', 5)] }]],
        ['$lt on a decimal', [{ field: 'rating', operator: '$lt', values: ['2.5'] }]],
        ['$eq on a decimal', [{ field: 'rating', operator: '$eq', values: [some('rating', 2)] }]],
        ['$lte on text by code point', [{ field: 'name', operator: '$lte', values: ['M'] }]],
        ['$gt on an enum by value', [{ field: 'role', operator: '$gt', values: ['editor'] }]],
        ['$contains', [{ field: 'email', operator: '$contains', values: ['mail'] }]],
        ['$containsi', [{ field: 'email', operator: '$containsi', values: ['MAIL.C'] }]],
        ['$startsWith', [{ field: 'email', operator: '$startsWith', values: [email.slice(0, 3)] }]],
        ['$endsWith', [{ field: 'email', operator: '$endsWith', values: ['.com'] }]],
        ['$containsi on text', [{ field: 'bio', operator: '$containsi', values: ['A'] }]],
        ['date in its slash output format', [{ field: 'birthday', operator: '$lt', values: ['01/01/1980'] }]],
        ['date in ISO format', [{ field: 'birthday', operator: '$gte', values: ['1990-01-01'] }]],
        ['date in its sql output format', [{ field: 'joinedOn', operator: '$eq', values: [some('joinedOn', 4)] }]],
        ['datetime with an offset', [{ field: 'createdAt', operator: '$gt', values: ['2023-01-01T00:00:00+05:00'] }]],
        ['datetime, exact', [{ field: 'createdAt', operator: '$eq', values: [some('createdAt', 7)] }]],
        ['time', [{ field: 'wakeAt', operator: '$lt', values: ['12:00'] }]],
        ['uuid in upper case', [{ field: 'externalId', operator: '$eq', values: [some('externalId', 1).toUpperCase()] }]],
        ['boolean $eq', [{ field: 'active', operator: '$eq', values: ['true'] }]],
        ['boolean $ne keeps nulls', [{ field: 'active', operator: '$ne', values: ['true'] }]],
        ['boolean $in with 0', [{ field: 'active', operator: '$in', values: ['0'] }]],
        [
          'several filters combine with AND',
          [
            { field: 'score', operator: '$gt', values: ['-50'] },
            { field: 'role', operator: '$ne', values: ['admin'] },
            { field: 'email', operator: '$contains', values: ['a'] },
          ],
        ],
      ];
    };

    it('answers every operator as the in-memory evaluation does', async () => {
      const cases = operatorCases();
      for (const [name, filters] of cases) {
        const query = filters.map((filter) => `filters.${filter.field}.${filter.operator}=${encodeURIComponent(filter.values.join(','))}`).join('&');
        const page = await source.list('authors', `${query}&limit=1000&fields=id`);
        const want = authors.filter((row) => filters.every((filter) => matches(authorsTable(), row, filter)));
        expect(ids(page.data), name).toEqual(ids(want));
        expect(page.meta.pagination.total, name).toBe(want.length);
      }
      // Not vacuous: most cases select some rows but not all.
      const sizes = await Promise.all(cases.map(async ([, filters]) => authors.filter((row) => filters.every((filter) => matches(authorsTable(), row, filter))).length));
      expect(sizes.filter((size) => size > 0 && size < 30).length).toBeGreaterThan(cases.length - 4);
    });

    it.each([
      ['role (enum by value), then score descending', 'role,score:desc'],
      ['nickname descending: nulls first', 'nickname:desc'],
      ['rating ascending: nulls last', 'rating'],
      ['birthday descending, name', 'birthday:desc,name'],
      ['createdAt', 'createdAt'],
      ['wakeAt descending, externalId', 'wakeAt:desc,externalId'],
      ['active, id descending', 'active,id:desc'],
    ])('sorts by %s', async (_, sort) => {
      const page = await source.list('authors', `sort=${sort}&limit=1000`);
      const keys = sort.split(',').map((term) => ({ field: term.split(':')[0]!, direction: (term.split(':')[1] ?? 'asc') as 'asc' | 'desc' }));
      expect(ids(page.data)).toEqual(ids(sortRows(authorsTable(), authors, keys)));
    });

    it('projects fields in the order asked', async () => {
      const page = await source.list('authors', 'fields=email,id&limit=2');
      expect(page.data).toEqual(authors.slice(0, 2).map((row) => ({ email: row.email, id: row.id })));
      expect(Object.keys(page.data[0]!)).toEqual(['email', 'id']);
    });

    it('pages: offset past the end, limit 0, limit 1000, and stable pages that add up', async () => {
      expect(await source.list('authors', 'offset=30')).toEqual({ data: [], meta: { pagination: { offset: 30, limit: 25, total: 30 } } });
      expect(await source.list('authors', 'offset=500&limit=10')).toEqual({ data: [], meta: { pagination: { offset: 500, limit: 10, total: 30 } } });
      expect(await source.list('authors', 'limit=0&filters.role.$eq=admin')).toEqual({
        data: [],
        meta: { pagination: { offset: 0, limit: 0, total: authors.filter((row) => row.role === 'admin').length } },
      });
      expect((await source.list('authors', 'limit=1000')).data).toHaveLength(30);
      expect((await source.list('authors', 'offset=28&limit=5')).data.map((row) => row.id)).toEqual([29, 30]);
      const pages: JsonRow[] = [];
      for (let offset = 0; offset < 30; offset += 7) pages.push(...(await source.list('authors', `sort=role&limit=7&offset=${offset}&fields=id`)).data);
      expect(ids(pages)).toEqual(ids(sortRows(authorsTable(), authors, [{ field: 'role', direction: 'asc' }])));
    });

    it('populates references in one query per field, with projection and null references', async () => {
      const counter = countQueries(source.connection);
      let page;
      try {
        page = await source.list('posts', 'limit=1000&populate=authorId,editorId&populate.authorId.fields=id,name&populate[editorId][fields][0]=email');
        expect(counter.count()).toBe(3);
      } finally {
        counter.restore();
      }
      const byId = new Map(authors.map((row) => [row.id, row]));
      for (const [index, post] of page.data.entries()) {
        const plain = posts[index]!;
        expect(post.authorId).toEqual({ id: plain.authorId, name: byId.get(plain.authorId as number)!.name });
        expect(post.editorId).toEqual(plain.editorId === null ? null : { email: byId.get(plain.editorId as number)!.email });
      }
      expect(page.data.some((post) => post.editorId === null)).toBe(true);
      const full = await source.list('comments', 'limit=1&populate=postId&fields=position');
      expect(Object.keys(full.data[0]!)).toEqual(['position', 'postId']);
      expect(full.data[0]!.postId).toEqual(posts.find((post) => post.id === (full.data[0]!.postId as JsonRow).id));
    });

    it('populates a self reference, keeping nulls', async () => {
      const page = await source.list('authors', 'limit=1000&fields=id,mentorId&populate=mentorId&populate.mentorId.fields=id,name');
      for (const [index, row] of page.data.entries()) {
        const mentor = authors[index]!.mentorId;
        expect(row.mentorId).toEqual(mentor === null ? null : { id: mentor, name: authors.find((author) => author.id === mentor)!.name });
      }
    });

    it('reads one row by id, with fields and populate, for every key type', async () => {
      expect(await source.get('authors', '7')).toEqual(authors[6]);
      expect(await source.get('authors', '7', 'fields=id,email')).toEqual({ id: 7, email: authors[6]!.email });
      const post = posts[3]!;
      expect(await source.get('posts', String(post.id).toUpperCase(), 'fields=id&populate=authorId&populate.authorId.fields=id')).toEqual({ id: post.id, authorId: { id: post.authorId } });
      const comment = (await source.all('comments'))[0]!;
      expect(await source.get('comments', `${comment.postId},${comment.position}`)).toEqual(comment);
      const tag = (await source.all('tags'))[0]!;
      expect(await source.get('tags', String(tag.code))).toEqual(tag);
    });

    it('answers 400, 404 and exact messages for bad reads', async () => {
      expect(await failure(source.list('author'))).toEqual({ status: 404, error: 'Table "author" not found (did you mean "authors"?)' });
      expect(await failure(source.get('authors', '9999'))).toEqual({ status: 404, error: 'Row not found' });
      expect(await failure(source.get('authors', 'seven'))).toEqual({ status: 400, error: 'Invalid id "seven": not a value of the integer primary key "id" of table "authors"' });
      expect(await failure(source.get('posts', '12'))).toEqual({ status: 400, error: 'Invalid id "12": not a value of the uuid primary key "id" of table "posts"' });
      expect(await failure(source.get('comments', '12'))).toEqual({
        status: 400,
        error: 'Invalid id "12": the primary key (postId, position) of table "comments" takes 2 comma-separated values',
      });
      expect(await failure(source.get('authors', '1', 'limit=1'))).toEqual({ status: 400, error: 'Query parameter "limit" is not allowed when reading one row (only fields and populate are)' });
      expect(await failure(source.list('authors', 'filters.score.$gt=high'))).toEqual({ status: 400, error: 'Invalid value "high" for number field "score" in filters.score.$gt' });
      expect(await failure(source.list('authors', 'sort=name:upward'))).toEqual({ status: 400, error: 'Unknown sort direction "upward" in "name:upward": use asc or desc' });
    });
  });
}

describe.runIf(DIALECTS.length === 2)('PostgreSQL and MySQL', () => {
  it('render the same rows as identical JSON', () => {
    const postgres = rendered.get('postgres');
    const mysql = rendered.get('mysql');
    expect(postgres && mysql).toBeTruthy();
    expect(JSON.stringify(mysql)).toBe(JSON.stringify(postgres));
  });
});
