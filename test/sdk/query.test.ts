// The SDK's query serializer: the runtime API's bracket form, as a table of examples.
import { describe, expect, it } from 'vitest';
import { serializeQuery } from '../../sdk/src/index.ts';
import { parseQuery } from '../../src/runtime/parse-query.ts';

const cases: [string, { given: Record<string, unknown>; want: string }][] = [
  ['an equality filter', { given: { filters: { name: { $eq: 'Ada' } } }, want: 'filters[name][$eq]=Ada' }],
  ['values are encoded, brackets and $ are not', { given: { filters: { title: { $containsi: 'a&b c%' } } }, want: 'filters[title][$containsi]=a%26b%20c%25' }],
  ['$in as indexed values', { given: { filters: { role: { $in: ['admin', 'editor'] } } }, want: 'filters[role][$in][0]=admin&filters[role][$in][1]=editor' }],
  ['numbers and booleans', { given: { filters: { id: { $gte: 3, $lt: 10 }, active: { $eq: true } } }, want: 'filters[id][$gte]=3&filters[id][$lt]=10&filters[active][$eq]=true' }],
  ['$null', { given: { filters: { body: { $null: false } } }, want: 'filters[body][$null]=false' }],
  ['dates as ISO strings', { given: { filters: { createdAt: { $gt: new Date('2026-01-02T03:04:05.000Z') } } }, want: 'filters[createdAt][$gt]=2026-01-02T03:04:05.000Z' }],
  ['several filters combine', { given: { filters: { a: { $eq: 1 }, b: { $ne: 'x' } } }, want: 'filters[a][$eq]=1&filters[b][$ne]=x' }],
  ['sort terms comma-separated', { given: { sort: ['createdAt:desc', 'id'] }, want: 'sort=createdAt:desc,id' }],
  ['one sort term', { given: { sort: 'email:asc' }, want: 'sort=email:asc' }],
  ['projection', { given: { fields: ['id', 'email'] }, want: 'fields=id,email' }],
  ['populate by name', { given: { populate: ['authorId', 'editorId'] }, want: 'populate=authorId,editorId' }],
  ['populate with a projection', { given: { populate: { authorId: { fields: ['id', 'firstName'] }, editorId: true } }, want: 'populate=authorId,editorId&populate.authorId.fields=id,firstName' }],
  ['paging', { given: { limit: 10, offset: 20 }, want: 'limit=10&offset=20' }],
  ['undefined is left out', { given: { limit: undefined, filters: { a: { $eq: undefined } }, sort: [] }, want: '' }],
  ['management query parameters', { given: { wait: true, jobId: 'j-1', after: 4 }, want: 'wait=true&jobId=j-1&after=4' }],
  ['other arrays repeat', { given: { tag: ['a', 'b'] }, want: 'tag=a&tag=b' }],
];

describe('serializeQuery', () => {
  for (const [name, { given, want }] of cases) it(name, () => expect(serializeQuery(given)).toBe(want));

  it("round-trips through the server's own query parser", () => {
    const query = serializeQuery({
      filters: { role: { $in: ['admin', 'a,b'] }, title: { $containsi: 'x&y' } },
      sort: ['id:desc'],
      fields: ['id', 'title'],
      populate: { authorId: { fields: ['id', 'name'] } },
      limit: 5,
    });
    expect(parseQuery(query)).toEqual({
      filters: [
        { field: 'role', operator: '$in', values: ['admin', 'a,b'] },
        { field: 'title', operator: '$containsi', values: ['x&y'] },
      ],
      sort: [{ field: 'id', direction: 'desc' }],
      fields: ['id', 'title'],
      populate: [{ field: 'authorId', fields: ['id', 'name'] }],
      limit: '5',
    });
  });

  it('refuses an empty $in, which would otherwise match every row', () => {
    expect(() => serializeQuery({ filters: { role: { $in: [] } } })).toThrow('filters.role.$in needs at least one value');
  });
});
