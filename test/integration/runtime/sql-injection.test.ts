// Names and values from requests never become SQL: table, field, sort, filter, operator and populate
// names are checked against the schema (400/404), values are bound parameters (matched literally).
// After every attack a canary table and the generated rows are still there, on both databases.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TableSpec } from '../../../src/model/table-spec.ts';
import { runtimeConfig } from '../../fixtures/runtime-config.ts';
import { dialectTargets, failure, generateSource, type GeneratedSource } from '../../helpers/runtime-source.ts';

const DIALECTS = await dialectTargets();
const config = runtimeConfig();
const canary: TableSpec = { name: 'canary', columns: [{ name: 'id', type: 'integer', nullable: false }], primaryKey: ['id'], indexes: [], foreignKeys: [] };

const NAMES = [
  'id"; DROP TABLE canary; --',
  'id`; DROP TABLE canary; --',
  "id'; DROP TABLE canary; --",
  'id) OR (1=1',
  '*',
  'id FROM canary --',
  '(SELECT 1)',
  'authors.id',
  'ID',
  'i\u0000d',
];

const VALUES = ["' OR '1'='1", '1; DROP TABLE canary', "%' OR 1=1 --", "\\'; DROP TABLE canary; --", '"); DROP TABLE canary; --', '`', '\u2019 OR 1=1', '%', '_', '\\'];

const enc = encodeURIComponent;

for (const target of DIALECTS) {
  describe(`${target.name}: SQL injection`, () => {
    let source: GeneratedSource;
    let emails: string[];
    beforeAll(async () => {
      source = await generateSource(target, config);
      emails = (await source.all('authors')).map((row) => String(row.email));
      await source.connection.createTables(source.namespace, [canary]);
      await source.connection.loadRows(source.namespace, canary, [[[1], [2], [3]]]);
    });
    afterAll(async () => {
      // The canary and the generated data survived every attack.
      expect(await source.connection.countRows(source.namespace, 'canary')).toBe(3);
      expect(await source.connection.countRows(source.namespace, 'authors')).toBe(30);
      await source?.drop();
    });

    it.each([
      ['authors; DROP TABLE canary', 'Table "authors; DROP TABLE canary" not found'],
      ['authors"', 'Table "authors\\"" not found (did you mean "authors"?)'],
      ['authors`', 'Table "authors`" not found (did you mean "authors"?)'],
      ['../authors', 'Table "../authors" not found (did you mean "authors"?)'],
      ['canary', 'Table "canary" not found'],
      ['', 'Table "" not found'],
    ])('refuses the table name %j with 404, even one the database has', async (table, error) => {
      expect(await failure(source.list(table))).toEqual({ status: 404, error });
      expect((await failure(source.get(table, '1'))).status).toBe(404);
      expect((await failure(source.create(table, { id: 4 }))).status).toBe(404);
      expect((await failure(source.update(table, '1', { id: 4 }))).status).toBe(404);
      expect((await failure(source.remove(table, '1'))).status).toBe(404);
    });

    it.each(NAMES)('refuses the field name %j in fields, sort, filters and populate', async (name) => {
      const quoted = JSON.stringify(name);
      for (const [query, where] of [
        [`fields=${enc(name)}`, 'fields'],
        [`sort=${enc(name)}:desc`, 'sort'],
        [`filters[${enc(name)}][$eq]=1`, 'filters'],
        [`populate=${enc(name)}`, 'populate'],
        [`populate[authorId][fields]=${enc(name)}`, 'populate.authorId.fields'],
      ] as const) {
        const result = await failure(source.list('posts', query));
        // Names with commas or dots are split or nested by the syntax; either way a 400.
        expect(result.status, query).toBe(400);
        if (!/[,.]/.test(name)) expect(result.error, query).toMatch(new RegExp(`^Unknown field ${escapeRegExp(quoted)} in ${escapeRegExp(where)}`));
      }
      expect((await failure(source.create('authors', { [name]: 1 }))).status).toBe(400);
    });

    it.each(['$eq) OR (1=1', '$raw', '$or', 'eq; DROP TABLE canary', '$in]'])('refuses the operator %j', async (operator) => {
      expect((await failure(source.list('authors', `filters[id][${enc(operator)}]=1`))).status).toBe(400);
    });

    it.each(['asc; DROP TABLE canary', 'desc, (SELECT 1)', 'ASC NULLS FIRST', 'desc--'])('refuses the sort direction %j', async (direction) => {
      expect((await failure(source.list('authors', `sort=id:${enc(direction)}`))).status).toBe(400);
    });

    it.each(VALUES)('binds the value %j: matched literally, or refused by its type', async (value) => {
      expect((await source.list('authors', `filters.email.$eq=${enc(value)}`)).data).toEqual([]);
      expect((await source.list('authors', `filters.email.$in=${enc(value)},x`)).data).toEqual([]);
      const containing = emails.filter((email) => email.toLowerCase().includes(value.toLowerCase())).length;
      expect((await source.list('authors', `filters.email.$containsi=${enc(value)}`)).meta.pagination.total).toBe(containing);
      expect((await source.list('authors', `filters.nickname.$ne=${enc(value)}&limit=0`)).meta.pagination.total).toBe(30);
      expect((await failure(source.list('authors', `filters.id.$eq=${enc(value)}`))).status).toBe(400);
      expect((await failure(source.list('authors', `limit=${enc(value)}`))).status).toBe(400);
      expect((await failure(source.get('authors', value))).status).toBe(400);
      expect(await failure(source.get('tags', value))).toEqual({ status: 404, error: 'Row not found' });
    });

    it('stores hostile text as data', async () => {
      for (const [index, value] of VALUES.entries()) {
        const { row, id } = await source.create('tags', { code: `evil-${index}`, label: value });
        expect(row).toEqual({ code: `evil-${index}`, label: value });
        expect((await source.list('tags', `filters.label.$eq=${enc(value)}&fields=code`)).data).toEqual([{ code: id }]);
        expect(await source.update('tags', id, { label: `${value}!` })).toEqual({ code: id, label: `${value}!` });
        await source.remove('tags', id);
      }
      const { id } = await source.create('tags', { code: "x');DROP TABLE t;--", label: 'key' });
      expect(await source.get('tags', id)).toEqual({ code: "x');DROP TABLE t;--", label: 'key' });
    });
  });
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
