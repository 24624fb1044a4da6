// Runtime writes on both databases: create (generated integer and uuid keys, composite keys), partial
// update (key changes as onUpdate allows), delete (restrict, cascade, set-null), body validation and
// constraint conflicts with their exact messages, literal LIKE matching, and totals after writes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JsonRow } from '../../../src/runtime/shape.ts';
import { runtimeConfig } from '../../fixtures/runtime-config.ts';
import { dialectTargets, failure, generateSource, type GeneratedSource } from '../../helpers/runtime-source.ts';

const DIALECTS = await dialectTargets();
const config = runtimeConfig();

const author = (overrides: Record<string, unknown> = {}) => ({
  email: `person.${Math.random().toString(36).slice(2)}@example.com`,
  name: 'Ada Lovelace',
  role: 'admin',
  score: 12.25,
  joinedOn: '2024-02-29',
  createdAt: '2024-03-01T10:00:00+02:00',
  ...overrides,
});

for (const target of DIALECTS) {
  describe(`${target.name}: runtime writes`, () => {
    let source: GeneratedSource;
    beforeAll(async () => {
      source = await generateSource(target, config);
    });
    afterAll(() => source?.drop());

    it('creates a row with every type, generating the integer key as max + 1', async () => {
      const prefs = { z: [1, 'two', { three: 3, 'quo"te': null }], a: true };
      const { row, id } = await source.create('authors', author({
        email: 'every.type@example.com',
        nickname: 'ada',
        active: false,
        rating: 4.5,
        birthday: '12/10/1815',
        wakeAt: '06:45',
        externalId: 'AAAAAAAA-BBBB-4CCC-8DDD-EEEEEEEEEEEE',
        prefs,
        bio: 'Wrote the first program. ünïcødé 🎉',
        mentorId: 3,
      }));
      expect(row).toEqual({
        id: 31,
        email: 'every.type@example.com',
        name: 'Ada Lovelace',
        nickname: 'ada',
        role: 'admin',
        active: false,
        rating: 4.5,
        score: 12.25,
        birthday: '12/10/1815',
        joinedOn: '2024-02-29 00:00:00',
        createdAt: '2024-03-01T08:00:00.000Z',
        wakeAt: '06:45:00',
        externalId: 'aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee',
        prefs: { a: true, z: [1, 'two', { 'quo"te': null, three: 3 }] },
        bio: 'Wrote the first program. ünïcødé 🎉',
        mentorId: 3,
      });
      expect(id).toBe('31');
      expect(await source.get('authors', id)).toEqual(row);
      expect((await source.create('authors', author())).id).toBe('32');
    });

    it('generates distinct integer keys for concurrent creates', async () => {
      const created = await Promise.all(Array.from({ length: 20 }, () => source.create('authors', author())));
      const keys = created.map((each) => each.row.id as number).sort((a, b) => a - b);
      expect(new Set(keys).size).toBe(20);
      expect(keys[19]! - keys[0]!).toBe(19);
    });

    it('keeps JSON values of every kind', async () => {
      for (const prefs of [[1, 'two'], 'just a string', '"123"', 42, 0.5, true, { nested: { deep: [null] } }]) {
        const { row } = await source.create('authors', author({ prefs }));
        expect(row.prefs).toEqual(prefs);
      }
    });

    it('generates a uuid key and takes a given one in lower case', async () => {
      const { row, id } = await source.create('posts', { authorId: 1, title: 'Hello', status: 'draft' });
      expect(row).toEqual({ id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/), authorId: 1, editorId: null, title: 'Hello', status: 'draft', publishedOn: null });
      expect(id).toBe(row.id);
      const given = await source.create('posts', { id: 'ABCDEF01-2345-4678-89AB-CDEF01234567', authorId: 2, title: 'Given', status: 'published', publishedOn: '2024-01-31' });
      expect(given.id).toBe('abcdef01-2345-4678-89ab-cdef01234567');
    });

    it('needs every value of a composite key, and addresses it as comma-separated values', async () => {
      const post = (await source.create('posts', { authorId: 1, title: 'With comments', status: 'draft' })).row;
      expect(await failure(source.create('comments', { postId: post.id, body: 'x' }))).toEqual({
        status: 400,
        error: 'Invalid row: column "position" is required',
        details: [{ path: '/body/position', message: 'column "position" is required' }],
      });
      const { row, id } = await source.create('comments', { postId: post.id, position: 1000, body: 'First' });
      expect(id).toBe(`${post.id},1000`);
      expect(await source.update('comments', id, { body: 'Edited' })).toEqual({ ...row, body: 'Edited' });
      await source.remove('comments', id);
      expect(await failure(source.get('comments', id))).toEqual({ status: 404, error: 'Row not found' });
    });

    it('refuses invalid bodies with every problem named', async () => {
      expect(await failure(source.create('authors', author({ name: 'A', role: 'owner', score: '12x', colour: 'red', createdAt: 'yesterday', email: null })))).toEqual({
        status: 400,
        error: 'Invalid row: unknown column "colour" (and 5 more)',
        details: [
          { path: '/body/colour', message: 'unknown column "colour"' },
          { path: '/body/email', message: 'column "email" must not be null' },
          { path: '/body/name', message: 'column "name" must be at least 2 characters long' },
          { path: '/body/role', message: 'column "role" must be one of "reader", "editor", "admin"' },
          { path: '/body/score', message: 'column "score" must be a finite number' },
          { path: '/body/createdAt', message: 'column "createdAt" must be an ISO 8601 datetime (e.g. 2024-01-31T12:00:00Z)' },
        ],
      });
      expect((await failure(source.create('authors', author({ nickname: 'x'.repeat(31) })))).error).toBe('Invalid row: column "nickname" must be at most 30 characters long');
      expect((await failure(source.create('authors', author({ emial: 'a@b.c' })))).error).toBe('Invalid row: unknown column "emial" (did you mean "email"?)');
      expect((await failure(source.create('authors', author({ active: 'true' })))).error).toBe('Invalid row: column "active" must be true or false');
      expect((await failure(source.create('authors', author({ joinedOn: '2023-02-29' })))).error).toBe('Invalid row: column "joinedOn" must be a date (YYYY-MM-DD)');
      expect((await failure(source.create('authors', author({ id: 1.5 })))).error).toBe('Invalid row: column "id" must be an integer (64-bit; beyond 2^53 as a string)');
      expect((await failure(source.create('authors', { email: 'only@example.com' }))).error).toBe('Invalid row: column "name" is required (and 4 more)');
      expect((await failure(source.create('authors', [author()]))).error).toBe('Invalid row: the body must be a JSON object');
      expect((await failure(source.update('authors', '1', {}))).error).toBe('Invalid row: the body must name at least one column to change');
      // A value the column cannot hold, found by the database, is a 400 too.
      expect((await failure(source.create('authors', author({ mentorId: 2 ** 40 })))).status).toBe(400);
    });

    it("holds the config's min, max and lengths on create and update: an out-of-range write leaves the row unchanged", async () => {
      // score is -100..100, rating 0..5, bio at most 400 characters, name at least 2.
      const edge = await source.update('authors', '7', { score: 100, rating: 0 });
      expect(edge).toMatchObject({ score: 100, rating: 0 });
      expect(await failure(source.update('authors', '7', { score: 900 }))).toEqual({
        status: 400,
        error: 'Invalid row: column "score" must be at most 100',
        details: [{ path: '/body/score', message: 'column "score" must be at most 100' }],
      });
      expect((await failure(source.update('authors', '7', { score: '-100.5' }))).error).toBe('Invalid row: column "score" must be at least -100');
      expect((await failure(source.update('authors', '7', { rating: 5.01, bio: 'x'.repeat(401), name: 'A' }))).details).toEqual([
        { path: '/body/name', message: 'column "name" must be at least 2 characters long' },
        { path: '/body/rating', message: 'column "rating" must be at most 5' },
        { path: '/body/bio', message: 'column "bio" must be at most 400 characters long' },
      ]);
      expect(await source.get('authors', '7')).toEqual(edge);
      const total = (await source.list('authors', 'limit=0')).meta.pagination.total;
      expect((await failure(source.create('authors', author({ score: -101 })))).error).toBe('Invalid row: column "score" must be at least -100');
      expect((await failure(source.create('authors', author({ rating: -0.5 })))).error).toBe('Invalid row: column "rating" must be at least 0');
      expect((await source.list('authors', 'limit=0')).meta.pagination.total).toBe(total);
    });

    it('answers 409 naming the fields of a unique or foreign key, never echoing the data', async () => {
      const existing = (await source.get('authors', '1')).email as string;
      const unique = await failure(source.create('authors', author({ email: existing })));
      expect(unique).toEqual({ status: 409, error: 'Unique constraint violated on (email)' });
      expect(await failure(source.create('authors', author({ id: 2 })))).toEqual({ status: 409, error: 'Unique constraint violated on (id)' });
      expect(await failure(source.update('authors', '3', { email: existing }))).toEqual({ status: 409, error: 'Unique constraint violated on (email)' });
      expect(await failure(source.create('posts', { authorId: 99_999, title: 'Orphan', status: 'draft' }))).toEqual({
        status: 409,
        error: 'Foreign key violated on (authorId) referencing authors (id)',
      });
      expect(await failure(source.update('posts', String((await source.all('posts'))[0]!.id), { editorId: 99_999 }))).toEqual({
        status: 409,
        error: 'Foreign key violated on (editorId) referencing authors (id)',
      });
    });

    it('updates partially and returns the full row; key changes follow onUpdate', async () => {
      const before = await source.get('authors', '5');
      const after = await source.update('authors', '5', { nickname: null, rating: 1.25, createdAt: '2020-01-01T00:00:00Z' });
      expect(after).toEqual({ ...before, nickname: null, rating: 1.25, createdAt: '2020-01-01T00:00:00.000Z' });
      const lonely = (await source.create('authors', author())).row;
      const moved = await source.update('authors', String(lonely.id), { id: 5000 });
      expect(moved).toEqual({ ...lonely, id: 5000 });
      await source.create('posts', { authorId: 5000, title: 'Pins the key', status: 'draft' });
      expect(await failure(source.update('authors', '5000', { id: 5001 }))).toEqual({ status: 409, error: 'Row is still referenced by posts (authorId), so it cannot be changed' });
      expect(await failure(source.update('authors', '99999', { name: 'Nobody' }))).toEqual({ status: 404, error: 'Row not found' });
      expect(await failure(source.update('authors', 'x', { name: 'Nobody' }))).toEqual({ status: 400, error: 'Invalid id "x": not a value of the integer primary key "id" of table "authors"' });
      expect(await failure(source.update('nope', '1', { name: 'Nobody' }))).toEqual({ status: 404, error: 'Table "nope" not found' });
    });

    it('deletes: 409 when restricted, cascades and sets null as declared, 404 when missing', async () => {
      const post = (await source.create('posts', { authorId: 1, title: 'Commented', status: 'draft' })).row;
      await source.create('comments', { postId: post.id, position: 2000, body: 'Pins the post' });
      expect(await failure(source.remove('posts', String(post.id)))).toEqual({ status: 409, error: 'Row is still referenced by comments (postId), so it cannot be deleted' });

      const doomed = (await source.create('authors', author())).row;
      const mentee = (await source.create('authors', author({ mentorId: doomed.id }))).row;
      const written = (await source.create('posts', { authorId: doomed.id, title: 'Goes with its author', status: 'draft' })).row;
      const edited = (await source.create('posts', { authorId: 1, editorId: doomed.id, title: 'Loses its editor', status: 'draft' })).row;
      await source.remove('authors', String(doomed.id));
      expect(await failure(source.get('authors', String(doomed.id)))).toEqual({ status: 404, error: 'Row not found' });
      expect(await failure(source.get('posts', String(written.id)))).toEqual({ status: 404, error: 'Row not found' });
      expect((await source.get('posts', String(edited.id))).editorId).toBeNull();
      expect((await source.get('authors', String(mentee.id))).mentorId).toBeNull();

      expect(await failure(source.remove('authors', String(doomed.id)))).toEqual({ status: 404, error: 'Row not found' });
      expect(await failure(source.remove('authors', '1.5'))).toEqual({ status: 400, error: 'Invalid id "1.5": not a value of the integer primary key "id" of table "authors"' });
    });

    it('matches %, _ and the escape character literally, and $containsi ignores case', async () => {
      for (const label of ['a%b', 'a_b', 'axb', 'a!b', 'A%B', 'back\\slash', 'abc']) await source.create('tags', { code: `t-${label}`, label });
      const labels = async (query: string) => (await source.list('tags', `${query}&fields=label&sort=label`)).data.map((row) => row.label);
      expect(await labels(`filters.label.$contains=${encodeURIComponent('%')}`)).toEqual(['A%B', 'a%b']);
      expect(await labels('filters.label.$contains=_')).toEqual(['a_b']);
      expect(await labels('filters.label.$contains=!')).toEqual(['a!b']);
      expect(await labels(`filters.label.$containsi=${encodeURIComponent('a%b')}`)).toEqual(['A%B', 'a%b']);
      expect(await labels(`filters.label.$startsWith=${encodeURIComponent('back\\')}`)).toEqual(['back\\slash']);
      expect(await labels('filters.label.$endsWith=b&filters.label.$startsWith=a')).toEqual(['a!b', 'a%b', 'a_b', 'axb']);
    });

    it('drops cached totals after writes', async () => {
      const total = async () => (await source.list('posts', 'limit=1&filters.status.$eq=archived')).meta.pagination.total;
      const before = await total();
      expect(await total()).toBe(before);
      await source.create('posts', { authorId: 1, title: 'Archived', status: 'archived' });
      expect(await total()).toBe(before + 1);
      const rows: JsonRow[] = (await source.list('posts', 'limit=1000&filters.status.$eq=archived')).data;
      await source.remove('posts', String(rows.at(-1)!.id));
      expect(await total()).toBe(before);
    });
  });
}
