// planRead and compileList as tables of examples: query string in, plan (or exact error) out, and
// the SQL each dialect compiles for several plans.
import { describe, expect, it } from 'vitest';
import { mysqlDialect, postgresDialect } from '../../../src/dialects/index.ts';
import { AppError } from '../../../src/errors.ts';
import { compileList } from '../../../src/runtime/compile.ts';
import { escapeLike } from '../../../src/runtime/operators.ts';
import { parseQuery } from '../../../src/runtime/parse-query.ts';
import { planRead, type ReadPlan } from '../../../src/runtime/plan.ts';
import { plannedRowCounts } from '../../../src/generation/plan.ts';
import { buildRuntimeTables } from '../../../src/model/tables.ts';
import { runtimeConfig } from '../../fixtures/runtime-config.ts';

const tables = buildRuntimeTables(runtimeConfig(), plannedRowCounts(runtimeConfig()));
const POST_FIELDS = ['id', 'authorId', 'editorId', 'title', 'status', 'publishedOn'];
const byId = [{ field: 'id', direction: 'asc' }] as const;

function plan(query: string, table = 'posts'): ReadPlan {
  return planRead(parseQuery(query), tables.get(table), tables);
}

function failure(run: () => unknown): { status: number; message: string } {
  try {
    run();
  } catch (error) {
    if (error instanceof AppError) return { status: error.status, message: error.message };
    throw error;
  }
  throw new Error('expected an AppError');
}

type Case = [string, { given: string; table?: string; want: Partial<ReadPlan> | { error: string } }];

const cases: Case[] = [
  ['defaults', { given: '', want: { table: 'posts', fields: POST_FIELDS, filters: [], sort: [...byId], limit: 25, offset: 0, populate: [] } }],
  ['limit 0 is allowed', { given: 'limit=0', want: { limit: 0 } }],
  ['limit 1000 is the most', { given: 'limit=1000&offset=5000', want: { limit: 1000, offset: 5000 } }],
  ['projection in the order asked, duplicates dropped', { given: 'fields=title,id,title', want: { fields: ['title', 'id'] } }],
  [
    'sort keys, direction case-insensitive, primary key appended',
    { given: 'sort=status:DESC,title', want: { sort: [{ field: 'status', direction: 'desc' }, { field: 'title', direction: 'asc' }, ...byId] } },
  ],
  ['sort on the primary key is not repeated', { given: 'sort=id:desc', want: { sort: [{ field: 'id', direction: 'desc' }] } }],
  [
    'composite primary key appended in key order',
    { given: 'sort=body', table: 'comments', want: { sort: [{ field: 'body', direction: 'asc' }, { field: 'postId', direction: 'asc' }, { field: 'position', direction: 'asc' }] } },
  ],
  ['integer cast', { given: 'filters.authorId.$gte=3', want: { filters: [{ field: 'authorId', operator: '$gte', values: [3] }] } }],
  ['integer beyond 2^53 stays exact', { given: 'filters.authorId.$eq=9007199254740993', want: { filters: [{ field: 'authorId', operator: '$eq', values: [9007199254740993n] }] } }],
  ['uuid lower-cased', { given: 'filters.id.$eq=0F6C2B1E-9A3D-4E7F-8B5C-1D2E3F4A5B6C', want: { filters: [{ field: 'id', operator: '$eq', values: ['0f6c2b1e-9a3d-4e7f-8b5c-1d2e3f4a5b6c'] }] } }],
  ['enum $in', { given: 'filters.status.$in=draft,published', want: { filters: [{ field: 'status', operator: '$in', values: ['draft', 'published'] }] } }],
  ['enum text match takes any text', { given: 'filters.status.$contains=raf', want: { filters: [{ field: 'status', operator: '$contains', values: ['raf'] }] } }],
  ['date in any output format', { given: 'filters.publishedOn.$lt=01/31/2024', want: { filters: [{ field: 'publishedOn', operator: '$lt', values: ['2024-01-31'] }] } }],
  ['$null', { given: 'filters.publishedOn.$null=FALSE', want: { filters: [{ field: 'publishedOn', operator: '$null', values: [false] }] } }],
  [
    'datetime with an offset becomes UTC',
    { given: 'filters.createdAt.$gt=2024-01-31T23:30:00%2B02:00', table: 'authors', want: { filters: [{ field: 'createdAt', operator: '$gt', values: ['2024-01-31T21:30:00.000Z'] }] } },
  ],
  ['datetime without offset is UTC', { given: 'filters.createdAt.$lte=2024-01-31 10:00', table: 'authors', want: { filters: [{ field: 'createdAt', operator: '$lte', values: ['2024-01-31T10:00:00.000Z'] }] } }],
  ['boolean 1/0', { given: 'filters.active.$ne=0', table: 'authors', want: { filters: [{ field: 'active', operator: '$ne', values: [false] }] } }],
  ['number', { given: 'filters.rating.$gt=-1.5e0', table: 'authors', want: { filters: [{ field: 'rating', operator: '$gt', values: [-1.5] }] } }],
  ['time', { given: 'filters.wakeAt.$gte=07:30', table: 'authors', want: { filters: [{ field: 'wakeAt', operator: '$gte', values: ['07:30:00'] }] } }],
  [
    'populate with projection adds the field to the response',
    {
      given: 'fields=id,title&populate=authorId&populate.authorId.fields=id,name',
      want: { fields: ['id', 'title', 'authorId'], populate: [{ field: 'authorId', table: 'authors', key: 'id', columns: ['authorId'], keys: ['id'], composite: false, fields: ['id', 'name'] }] },
    },
  ],
  ['populate without projection takes every field', { given: 'populate=editorId&fields=id', want: { fields: ['id', 'editorId'], populate: [{ field: 'editorId', table: 'authors', key: 'id', columns: ['editorId'], keys: ['id'], composite: false, fields: tables.get('authors').columns.map((column) => column.name) }] } }],
  ['self reference', { given: 'populate=mentorId&populate.mentorId.fields=name&fields=id,mentorId', table: 'authors', want: { fields: ['id', 'mentorId'], populate: [{ field: 'mentorId', table: 'authors', key: 'id', columns: ['mentorId'], keys: ['id'], composite: false, fields: ['name'] }] } }],

  ['unknown field in filters', { given: 'filters.titel.$eq=x', want: { error: 'Unknown field "titel" in filters (did you mean "title"?)' } }],
  ['unknown field, wrong case', { given: 'filters.AuthorID.$eq=1', want: { error: 'Unknown field "AuthorID" in filters (did you mean "authorId"?)' } }],
  ['unknown field, nothing close: the fields to choose from', { given: 'filters.colour.$eq=x', want: { error: 'Unknown field "colour" in filters (fields: id, authorId, editorId, title, status, publishedOn)' } }],
  ['unknown field in fields', { given: 'fields=id,stauts', want: { error: 'Unknown field "stauts" in fields (did you mean "status"?)' } }],
  ['unknown field in sort', { given: 'sort=tite:desc', want: { error: 'Unknown field "tite" in sort (did you mean "title"?)' } }],
  ['unknown sort direction', { given: 'sort=title:dsc', want: { error: 'Unknown sort direction "dsc" in "title:dsc": use asc or desc (did you mean "desc"?)' } }],
  ['unknown sort direction, nothing close', { given: 'sort=title:up', want: { error: 'Unknown sort direction "up" in "title:up": use asc or desc' } }],
  ['json cannot be sorted', { given: 'sort=prefs', table: 'authors', want: { error: 'Cannot sort by json field "prefs"' } }],
  ['uncastable integer', { given: 'filters.authorId.$eq=abc', want: { error: 'Invalid value "abc" for integer field "authorId" in filters.authorId.$eq' } }],
  ['integer beyond 64 bits', { given: 'filters.authorId.$eq=9223372036854775808', want: { error: 'Invalid value "9223372036854775808" for integer field "authorId" in filters.authorId.$eq' } }],
  ['decimal for an integer', { given: 'filters.authorId.$in=1,2.5', want: { error: 'Invalid value "2.5" for integer field "authorId" in filters.authorId.$in' } }],
  ['enum value not allowed', { given: 'filters.status.$eq=Draft', want: { error: 'Invalid value "Draft" for enum field "status" in filters.status.$eq (allowed: draft, published, archived)' } }],
  ['impossible date', { given: 'filters.publishedOn.$eq=2023-02-29', want: { error: 'Invalid value "2023-02-29" for date field "publishedOn" in filters.publishedOn.$eq' } }],
  ['malformed uuid', { given: 'filters.id.$eq=123', want: { error: 'Invalid value "123" for uuid field "id" in filters.id.$eq' } }],
  ['boolean', { given: 'filters.active.$eq=yes', table: 'authors', want: { error: 'Invalid value "yes" for boolean field "active" in filters.active.$eq' } }],
  ['datetime offset out of range', { given: 'filters.createdAt.$eq=2024-01-01T00:00:00%2B25:00', table: 'authors', want: { error: 'Invalid value "2024-01-01T00:00:00+25:00" for datetime field "createdAt" in filters.createdAt.$eq' } }],
  ['time out of range', { given: 'filters.wakeAt.$eq=24:00', table: 'authors', want: { error: 'Invalid value "24:00" for time field "wakeAt" in filters.wakeAt.$eq' } }],
  ['NUL in text', { given: 'filters.title.$eq=a%00b', want: { error: 'Invalid value "a\\u0000b" for string field "title" in filters.title.$eq' } }],
  ['$null takes true or false', { given: 'filters.title.$null=maybe', want: { error: 'Invalid value "maybe" for filters.title.$null: use true or false' } }],
  ['text operator on an integer', { given: 'filters.authorId.$contains=1', want: { error: 'Filter operator "$contains" does not apply to integer field "authorId"' } }],
  ['range operator on a boolean', { given: 'filters.active.$gt=true', table: 'authors', want: { error: 'Filter operator "$gt" does not apply to boolean field "active"' } }],
  ['comparison on json', { given: 'filters.prefs.$eq=1', table: 'authors', want: { error: 'Filter operator "$eq" does not apply to json field "prefs"' } }],
  ['limit above the max', { given: 'limit=1001', want: { error: 'Invalid limit "1001": use an integer from 0 to 1000' } }],
  ['negative limit', { given: 'limit=-1', want: { error: 'Invalid limit "-1": use an integer from 0 to 1000' } }],
  ['limit not an integer', { given: 'limit=ten', want: { error: 'Invalid limit "ten": use an integer from 0 to 1000' } }],
  ['negative offset', { given: 'offset=-5', want: { error: 'Invalid offset "-5": use an integer of 0 or more' } }],
  ['populate of an unknown field', { given: 'populate=autorId', want: { error: 'Unknown field "autorId" in populate (did you mean "authorId"?)' } }],
  [
    'populate of the rows that point at this one (one-to-many) says where to read them',
    {
      given: 'populate=comments',
      want: {
        error:
          'Unknown field "comments" in populate: populate follows a reference field of "posts" to the row it points at. ' +
          '"comments" rows point at "posts" through "postId": list them with /comments?filters.postId.$eq=<id>, or populate=postId there',
      },
    },
  ],
  ['populate of a plain field', { given: 'populate=title', want: { error: 'Field "title" cannot be populated: it is not a reference field (reference fields: authorId, editorId)' } }],
  ['populate projection of an unknown field', { given: 'populate.authorId.fields=id,nmae', want: { error: 'Unknown field "nmae" in populate.authorId.fields (did you mean "name"?)' } }],
];

describe('planRead', () => {
  it.each(cases)('%s', (_, { given, table, want }) => {
    if ('error' in want) expect(failure(() => plan(given, table))).toEqual({ status: 400, message: want.error });
    else expect(plan(given, table)).toMatchObject(want);
  });

  it('an unknown table is a 404 naming the closest table', () => {
    expect(failure(() => tables.get('post'))).toEqual({ status: 404, message: 'Table "post" not found (did you mean "posts"?)' });
    expect(failure(() => tables.get('x"; DROP TABLE authors; --'))).toEqual({ status: 404, message: 'Table "x\\"; DROP TABLE authors; --" not found' });
  });
});

type SqlCase = [string, { given: string; table?: string; want: { postgres: string; mysql: string; params: unknown[]; mysqlParams?: unknown[] } }];

const sqlCases: SqlCase[] = [
  [
    'a bare list',
    {
      given: '',
      want: {
        postgres: 'SELECT "id", "authorId", "editorId", "title", "status", "publishedOn" FROM "sds_demo"."posts" ORDER BY "id" ASC LIMIT $1 OFFSET $2',
        mysql: 'SELECT `id`, `authorId`, `editorId`, `title`, `status`, `publishedOn` FROM `sds_demo`.`posts` ORDER BY `id` ASC LIMIT ? OFFSET ?',
        params: [25, 0],
      },
    },
  ],
  [
    'the documented example',
    {
      given: 'filters.status.$in=draft,published&filters.title.$containsi=sql&sort=publishedOn:desc&fields=id,title&limit=10',
      want: {
        postgres:
          'SELECT "id", "title" FROM "sds_demo"."posts" WHERE "status" IN ($1::text, $2::text) AND "title" ILIKE $3 ESCAPE \'!\' ' +
          'ORDER BY "publishedOn" DESC, "id" ASC LIMIT $4 OFFSET $5',
        mysql:
          'SELECT `id`, `title` FROM `sds_demo`.`posts` WHERE `status` IN (?, ?) AND LOWER(`title`) LIKE LOWER(?) ESCAPE \'!\' ' +
          'ORDER BY `publishedOn` IS NULL DESC, `publishedOn` DESC, `id` ASC LIMIT ? OFFSET ?',
        params: ['draft', 'published', '%sql%', 10, 0],
      },
    },
  ],
  [
    'null-aware $ne and $notIn',
    {
      given: 'filters.editorId.$ne=3&filters.status.$notIn=draft&fields=id&limit=0',
      want: {
        postgres:
          'SELECT "id" FROM "sds_demo"."posts" WHERE "editorId" IS DISTINCT FROM $1::bigint AND ("status" IS NULL OR "status" NOT IN ($2::text)) ORDER BY "id" ASC LIMIT $3 OFFSET $4',
        mysql: 'SELECT `id` FROM `sds_demo`.`posts` WHERE NOT (`editorId` <=> ?) AND (`status` IS NULL OR `status` NOT IN (?)) ORDER BY `id` ASC LIMIT ? OFFSET ?',
        params: [3, 'draft', 0, 0],
      },
    },
  ],
  [
    'LIKE metacharacters escaped',
    {
      given: 'filters.title.$startsWith=100%25_!&filters.title.$endsWith=x&fields=id',
      want: {
        postgres: 'SELECT "id" FROM "sds_demo"."posts" WHERE "title" LIKE $1 ESCAPE \'!\' AND "title" LIKE $2 ESCAPE \'!\' ORDER BY "id" ASC LIMIT $3 OFFSET $4',
        mysql: 'SELECT `id` FROM `sds_demo`.`posts` WHERE `title` LIKE ? ESCAPE \'!\' AND `title` LIKE ? ESCAPE \'!\' ORDER BY `id` ASC LIMIT ? OFFSET ?',
        params: ['100!%!_!!%', '%x', 25, 0],
      },
    },
  ],
  [
    'text ranges and sorts compare by code point; MySQL enums by value; typed datetimes',
    {
      table: 'authors',
      given: 'filters.name.$gte=M&filters.createdAt.$lt=2024-01-01T00:00:00Z&filters.wakeAt.$null=true&sort=role,nickname:desc&fields=id',
      want: {
        postgres:
          'SELECT "id" FROM "sds_demo"."authors" WHERE "name" COLLATE "C" >= $1::text AND "createdAt" < $2::timestamptz AND "wakeAt" IS NULL ' +
          'ORDER BY "role" COLLATE "C" ASC, "nickname" COLLATE "C" DESC, "id" ASC LIMIT $3 OFFSET $4',
        mysql:
          'SELECT `id` FROM `sds_demo`.`authors` WHERE `name` >= ? AND `createdAt` < ? AND `wakeAt` IS NULL ' +
          'ORDER BY CAST(`role` AS CHAR) ASC, `nickname` IS NULL DESC, `nickname` DESC, `id` ASC LIMIT ? OFFSET ?',
        params: ['M', '2024-01-01T00:00:00.000Z', 25, 0],
        mysqlParams: ['M', '2024-01-01 00:00:00.000', 25, 0],
      },
    },
  ],
  [
    'booleans, decimals and beyond 2^53',
    {
      table: 'authors',
      given: 'filters.active.$eq=true&filters.rating.$in=4.5,5&filters.mentorId.$eq=9007199254740993&fields=id',
      want: {
        postgres: 'SELECT "id" FROM "sds_demo"."authors" WHERE "active" = $1::boolean AND "rating" IN ($2::numeric, $3::numeric) AND "mentorId" = $4::bigint ORDER BY "id" ASC LIMIT $5 OFFSET $6',
        mysql: 'SELECT `id` FROM `sds_demo`.`authors` WHERE `active` = ? AND `rating` IN (?, ?) AND `mentorId` = ? ORDER BY `id` ASC LIMIT ? OFFSET ?',
        params: [true, 4.5, 5, '9007199254740993', 25, 0],
        mysqlParams: [1, 4.5, 5, 9007199254740993n, 25, 0],
      },
    },
  ],
];

describe('compileList', () => {
  it.each(sqlCases)('%s', (_, { given, table, want }) => {
    const planned = plan(given, table);
    const runtimeTable = tables.get(table ?? 'posts');
    const postgres = compileList(postgresDialect, 'sds_demo', planned, runtimeTable);
    const mysql = compileList(mysqlDialect, 'sds_demo', planned, runtimeTable);
    expect(postgres.rows).toEqual({ sql: want.postgres, params: want.params });
    expect(mysql.rows).toEqual({ sql: want.mysql, params: want.mysqlParams ?? want.params });
    // The count shares the WHERE and its parameters, without the page.
    const where = postgres.where.sql;
    expect(postgres.count).toEqual({ sql: `SELECT COUNT(*) AS total FROM "sds_demo"."${runtimeTable.name}"${where}`, params: want.params.slice(0, -2) });
  });

  it('escapes LIKE metacharacters and the escape character', () => {
    expect(escapeLike('50%_off!', '!')).toBe('50!%!_off!!');
    expect(escapeLike('back\\slash', '!')).toBe('back\\slash');
  });
});
