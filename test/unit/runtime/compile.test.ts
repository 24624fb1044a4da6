// The SQL the runtime compiles beyond a list page (plan.test.ts has those): a page with populate and
// its batched IN queries, one row by a composite key, exports (paged or not), and the COPY form of a
// CSV export, for both dialects, as exact text and parameters.
import { describe, expect, it } from 'vitest';
import type { Dialect } from '../../../src/dialects/dialect.ts';
import { mysqlDialect, postgresDialect } from '../../../src/dialects/index.ts';
import { compileCsvCopy, compileExport, compileList, compileOne, compilePopulate } from '../../../src/runtime/compile.ts';
import { parseQuery } from '../../../src/runtime/parse-query.ts';
import { planExport, planRead, type ReadPlan } from '../../../src/runtime/plan.ts';
import { buildRuntimeTables } from '../../../src/model/tables.ts';
import { plannedRowCounts } from '../../../src/generation/plan.ts';
import { runtimeConfig } from '../../fixtures/runtime-config.ts';

const tables = buildRuntimeTables(runtimeConfig(), plannedRowCounts(runtimeConfig()));
const AUTHOR_FIELDS = ['id', 'email', 'name', 'nickname', 'role', 'active', 'rating', 'score', 'birthday', 'joinedOn', 'createdAt', 'wakeAt', 'externalId', 'prefs', 'bio', 'mentorId'];
const DIALECTS: [string, Dialect, (name: string) => string][] = [
  ['postgres', postgresDialect, (name) => `"${name}"`],
  ['mysql', mysqlDialect, (name) => `\`${name}\``],
];

describe('a page with populate', () => {
  const posts = tables.get('posts');
  const plan = planRead(parseQuery('fields=id,title&populate=authorId,editorId&populate.authorId.fields=name&limit=5&offset=10'), posts, tables);

  it('plans the populated fields into the page and one query per reference', () => {
    expect(plan.fields).toEqual(['id', 'title', 'authorId', 'editorId']);
    expect(plan.populate).toEqual([
      { field: 'authorId', table: 'authors', key: 'id', columns: ['authorId'], keys: ['id'], composite: false, fields: ['name'] },
      { field: 'editorId', table: 'authors', key: 'id', columns: ['editorId'], keys: ['id'], composite: false, fields: AUTHOR_FIELDS },
    ]);
  });

  it.each(DIALECTS)('%s: the page, then each reference\'s rows by key (the key selected too)', (kind, dialect, q) => {
    const p = (index: number) => (kind === 'postgres' ? `$${index}` : '?');
    const typed = (index: number) => (kind === 'postgres' ? `$${index}::bigint` : '?');
    expect(compileList(dialect, 'ns', plan, posts).rows).toEqual({
      sql: `SELECT ${q('id')}, ${q('title')}, ${q('authorId')}, ${q('editorId')} FROM ${q('ns')}.${q('posts')} ORDER BY ${q('id')} ASC LIMIT ${p(1)} OFFSET ${p(2)}`,
      params: [5, 10],
    });
    const authors = tables.get('authors');
    expect(compilePopulate(dialect, 'ns', plan.populate[0]!, authors, [[3], [7]])).toEqual({
      sql: `SELECT ${q('name')}, ${q('id')} FROM ${q('ns')}.${q('authors')} WHERE ${q('id')} IN (${typed(1)}, ${typed(2)})`,
      params: [3, 7],
    });
    expect(compilePopulate(dialect, 'ns', plan.populate[1]!, authors, [[9]])).toEqual({
      sql: `SELECT ${AUTHOR_FIELDS.map(q).join(', ')} FROM ${q('ns')}.${q('authors')} WHERE ${q('id')} IN (${typed(1)})`,
      params: [9],
    });
  });
});

describe('one row', () => {
  it.each(DIALECTS)('%s: by a composite key, no order and no page', (kind, dialect, q) => {
    const comments = tables.get('comments');
    const read = planRead(parseQuery('fields=body'), comments, tables);
    const postId = '6f1c2a7e-0000-4000-8000-000000000001';
    const plan: ReadPlan = {
      ...read,
      filters: [
        { field: 'postId', operator: '$eq', values: [postId] },
        { field: 'position', operator: '$eq', values: [2] },
      ],
      limit: 1,
    };
    const [first, second] = kind === 'postgres' ? ['$1::uuid', '$2::bigint'] : ['?', '?'];
    expect(compileOne(dialect, 'ns', plan, comments)).toEqual({
      sql: `SELECT ${q('body')} FROM ${q('ns')}.${q('comments')} WHERE ${q('postId')} = ${first} AND ${q('position')} = ${second}`,
      params: [postId, 2],
    });
  });
});

describe('exports', () => {
  const authors = tables.get('authors');
  const compile = (dialect: Dialect, query: string) => compileExport(dialect, 'ns', planExport(parseQuery(query), authors), authors);

  it.each(DIALECTS)('%s: every row unless paged; an offset alone gets the largest safe limit (MySQL takes no OFFSET without LIMIT)', (kind, dialect, q) => {
    const p = (index: number) => (kind === 'postgres' ? `$${index}` : '?');
    const from = `SELECT ${q('id')}, ${q('name')} FROM ${q('ns')}.${q('authors')}`;
    expect(compile(dialect, 'fields=id,name')).toEqual({ sql: `${from} ORDER BY ${q('id')} ASC`, params: [] });
    expect(compile(dialect, 'fields=id,name&limit=3')).toEqual({ sql: `${from} ORDER BY ${q('id')} ASC LIMIT ${p(1)} OFFSET ${p(2)}`, params: [3, 0] });
    expect(compile(dialect, 'fields=id,name&offset=5')).toEqual({ sql: `${from} ORDER BY ${q('id')} ASC LIMIT ${p(1)} OFFSET ${p(2)}`, params: [Number.MAX_SAFE_INTEGER, 5] });
    const role = kind === 'postgres' ? '$1::text' : '?';
    expect(compile(dialect, 'fields=id,name&filters.role.$eq=admin')).toEqual({ sql: `${from} WHERE ${q('role')} = ${role} ORDER BY ${q('id')} ASC`, params: ['admin'] });
  });

  it("PostgreSQL's COPY: columns rendered as text, sorted by the table's own qualified columns, formula escape in SQL", () => {
    const plan = planExport(parseQuery('fields=id,name&sort=name:desc'), authors);
    const column = (name: string) => `"ns"."authors"."${name}"`;
    const tail = ` FROM "ns"."authors" ORDER BY ${column('name')} COLLATE "C" DESC, ${column('id')} ASC) TO STDOUT (FORMAT csv)`;
    expect(compileCsvCopy(postgresDialect, 'ns', plan, authors)).toBe(`COPY (SELECT ${column('id')}::text, ${column('name')}::text${tail}`);
    const name = `${column('name')}::text`;
    expect(compileCsvCopy(postgresDialect, 'ns', plan, authors, { formulaEscape: true })).toBe(
      `COPY (SELECT ${column('id')}::text, CASE WHEN left(${name}, 1) IN ('=', '+', '-', '@', chr(9), chr(13)) THEN '''' || ${name} ELSE ${name} END${tail}`,
    );
  });

  it.each([
    ['MySQL has no COPY', mysqlDialect, 'fields=id,name'],
    ['a filter (COPY takes no parameters)', postgresDialect, 'fields=id,name&filters.role.$eq=admin'],
    ['a page', postgresDialect, 'fields=id,name&offset=5'],
    ['one column (PostgreSQL would quote a lone \\.)', postgresDialect, 'fields=id'],
    ['a date in another output format than ISO', postgresDialect, 'fields=id,birthday'],
  ] as const)('no COPY for %s: the cursor path', (_, dialect, query) => {
    expect(compileCsvCopy(dialect, 'ns', planExport(parseQuery(query), authors), authors)).toBeUndefined();
  });
});
