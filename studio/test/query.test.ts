// The table view's query: operators per field type, the SDK query it sends, the equivalent curl and
// SDK call, and row ids in runtime paths.
import { describe, expect, it } from 'vitest';
import type { RuntimeDocsField } from '../src/api.ts';
import { equivalentRequests, listQuery, operatorsFor, rowId, type TableQuery } from '../src/data/query.ts';

const field = (id: string, type: string, nullable = false): RuntimeDocsField => ({ id, type, nullable, label: id, description: '' });
const fields = [
  field('id', 'integer'),
  field('email', 'string'),
  field('score', 'number'),
  field('active', 'boolean'),
  field('meta', 'json', true),
  field('role', 'enum'),
];
const query = (overrides: Partial<TableQuery>): TableQuery => ({ filters: [], offset: 0, limit: 25, populate: [], ...overrides });

describe('operatorsFor', () => {
  it.each([
    ['string', ['$eq', '$ne', '$in', '$notIn', '$gt', '$gte', '$lt', '$lte', '$contains', '$containsi', '$startsWith', '$endsWith', '$null']],
    ['integer', ['$eq', '$ne', '$in', '$notIn', '$gt', '$gte', '$lt', '$lte', '$null']],
    ['datetime', ['$eq', '$ne', '$in', '$notIn', '$gt', '$gte', '$lt', '$lte', '$null']],
    ['boolean', ['$eq', '$ne', '$in', '$notIn', '$null']],
    ['json', ['$null']],
  ])('%s', (type, want) => expect(operatorsFor(type)).toEqual(want));
});

describe('listQuery', () => {
  it.each<[string, { given: Partial<TableQuery>; want: object }]>([
    ['a page without filters', { given: { offset: 50 }, want: { limit: 25, offset: 50 } }],
    [
      'a number cast for a numeric field',
      { given: { filters: [{ field: 'score', operator: '$gte', value: '2.5' }] }, want: { filters: { score: { $gte: 2.5 } }, limit: 25, offset: 0 } },
    ],
    [
      'text kept for a string field that looks like a number',
      { given: { filters: [{ field: 'email', operator: '$eq', value: '42' }] }, want: { filters: { email: { $eq: '42' } }, limit: 25, offset: 0 } },
    ],
    [
      '$in as a list, each value cast',
      { given: { filters: [{ field: 'id', operator: '$in', value: '1, 2,3' }] }, want: { filters: { id: { $in: [1, 2, 3] } }, limit: 25, offset: 0 } },
    ],
    [
      '$null true and false',
      { given: { filters: [{ field: 'meta', operator: '$null', value: 'false' }] }, want: { filters: { meta: { $null: false } }, limit: 25, offset: 0 } },
    ],
    [
      'a boolean',
      { given: { filters: [{ field: 'active', operator: '$eq', value: 'true' }] }, want: { filters: { active: { $eq: true } }, limit: 25, offset: 0 } },
    ],
    [
      'two operators on one field, an empty value left out',
      {
        given: {
          filters: [
            { field: 'id', operator: '$gt', value: '1' },
            { field: 'id', operator: '$lt', value: '9' },
            { field: 'email', operator: '$contains', value: ' '.trim() },
          ],
        },
        want: { filters: { id: { $gt: 1, $lt: 9 } }, limit: 25, offset: 0 },
      },
    ],
    [
      'a filter on a field the table does not have is left out',
      { given: { filters: [{ field: 'gone', operator: '$eq', value: 'x' }] }, want: { limit: 25, offset: 0 } },
    ],
    [
      'sort and populate',
      { given: { sort: { field: 'email', direction: 'desc' }, populate: ['role'] }, want: { sort: 'email:desc', populate: ['role'], limit: 25, offset: 0 } },
    ],
  ])('%s', (_name, { given, want }) => expect(listQuery(query(given), fields)).toEqual(want));
});

describe('equivalentRequests', () => {
  it('writes the URL the SDK requests, with the key in a variable, and the SDK call', () => {
    const sent = listQuery(
      query({ filters: [{ field: 'role', operator: '$in', value: "admin,o'brien" }], sort: { field: 'email', direction: 'asc' } }),
      fields,
    );
    const { curl, sdk } = equivalentRequests('http://localhost:3000', 'abc', 'users', sent);
    expect(curl.split('\n')).toEqual([
      '# SRC_KEY=svc_src_…  (a key of this source: Keys view)',
      "curl -sS -g 'http://localhost:3000/runtime/abc/users?filters[role][$in][0]=admin&filters[role][$in][1]=o'\\''brien&sort=email:asc&limit=25&offset=0' \\",
      '  -H "x-api-key: $SRC_KEY"',
    ]);
    expect(sdk).toContain('createRuntimeClient({ baseUrl: "http://localhost:3000", sourceId: "abc", apiKey: process.env.SRC_KEY })');
    expect(sdk).toContain('await runtime.list("users", {\n  "filters": {\n    "role": {\n      "$in": [\n        "admin",');
    expect(sdk).not.toMatch(/svc_src_[A-Za-z0-9]/);
  });
});

describe('rowId', () => {
  it.each<[string, { row: Record<string, unknown>; key: string[]; want: string | undefined }]>([
    ['a single key', { row: { id: 7 }, key: ['id'], want: '7' }],
    ['a single key with a comma, verbatim', { row: { code: 'a,b' }, key: ['code'], want: 'a,b' }],
    ['a composite key, commas and backslashes escaped', { row: { a: 'x,y', b: 'z\\', c: 3 }, key: ['a', 'b', 'c'], want: 'x\\,y,z\\\\,3' }],
    ['no primary key', { row: { id: 1 }, key: [], want: undefined }],
    ['a key value that is not there (projected away)', { row: { email: 'x' }, key: ['id'], want: undefined }],
    ['a populated key (an object)', { row: { id: { id: 1 } }, key: ['id'], want: undefined }],
  ])('%s', (_name, { row, key, want }) => expect(rowId(row, key)).toBe(want));
});
