// parseQuery as a table of examples (PostgREST's QueryParams doctests): the dot form and the
// bracket form qs writes give the same ParsedQuery, and every refusal has its exact message.
import qs from 'qs';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../../src/errors.ts';
import { parseQuery, splitKey, type ParsedQuery } from '../../../src/runtime/parse-query.ts';

const empty: ParsedQuery = { sort: [], filters: [], populate: [] };

type Case = [string, { given: string; want: Partial<ParsedQuery> | { error: string } }];

const cases: Case[] = [
  ['nothing', { given: '', want: {} }],
  ['a lone question mark', { given: '?', want: {} }],
  ['limit and offset stay text', { given: '?limit=10&offset=20', want: { limit: '10', offset: '20' } }],
  ['fields, trimmed', { given: 'fields=id, title ,status', want: { fields: ['id', 'title', 'status'] } }],
  ['fields, indexed (qs)', { given: 'fields[0]=id&fields[1]=title', want: { fields: ['id', 'title'] } }],
  ['fields, repeated', { given: 'fields=id&fields=title', want: { fields: ['id', 'title'] } }],
  ['sort with and without direction', { given: 'sort=publishedAt:desc,id', want: { sort: [{ field: 'publishedAt', direction: 'desc' }, { field: 'id' }] } }],
  ['sort direction kept as written', { given: 'sort=title:DSC', want: { sort: [{ field: 'title', direction: 'DSC' }] } }],
  ['dot filter', { given: 'filters.name.$eq=x', want: { filters: [{ field: 'name', operator: '$eq', values: ['x'] }] } }],
  ['bracket filter', { given: 'filters[name][$eq]=x', want: { filters: [{ field: 'name', operator: '$eq', values: ['x'] }] } }],
  ['percent-encoded brackets', { given: 'filters%5Bname%5D%5B%24eq%5D=x', want: { filters: [{ field: 'name', operator: '$eq', values: ['x'] }] } }],
  ['mixed dots and brackets', { given: 'filters[name].$ne=x', want: { filters: [{ field: 'name', operator: '$ne', values: ['x'] }] } }],
  ['value keeps dots, equals signs and decoded spaces', { given: 'filters.title.$contains=a.b%3Dc+d', want: { filters: [{ field: 'title', operator: '$contains', values: ['a.b=c d'] }] } }],
  ['empty value', { given: 'filters.title.$eq=', want: { filters: [{ field: 'title', operator: '$eq', values: [''] }] } }],
  ['key without a value', { given: 'filters.title.$eq', want: { filters: [{ field: 'title', operator: '$eq', values: [''] }] } }],
  ['$in as a comma list', { given: 'filters.id.$in=1,2,3', want: { filters: [{ field: 'id', operator: '$in', values: ['1', '2', '3'] }] } }],
  ['$in repeated', { given: 'filters.id.$in=1&filters.id.$in=2,3', want: { filters: [{ field: 'id', operator: '$in', values: ['1', '2', '3'] }] } }],
  ['$in indexed (qs): one value each, commas kept', { given: 'filters[id][$in][0]=1&filters[id][$in][1]=a,b', want: { filters: [{ field: 'id', operator: '$in', values: ['1', 'a,b'] }] } }],
  ['$notIn with empty brackets', { given: 'filters[id][$notIn][]=1&filters[id][$notIn][]=2', want: { filters: [{ field: 'id', operator: '$notIn', values: ['1', '2'] }] } }],
  ['$null', { given: 'filters.body.$null=true', want: { filters: [{ field: 'body', operator: '$null', values: ['true'] }] } }],
  [
    'several filters, in order, one field twice',
    {
      given: 'filters.age.$gte=18&filters.name.$startsWith=A&filters.age.$lt=65',
      want: {
        filters: [
          { field: 'age', operator: '$gte', values: ['18'] },
          { field: 'name', operator: '$startsWith', values: ['A'] },
          { field: 'age', operator: '$lt', values: ['65'] },
        ],
      },
    },
  ],
  ['populate list', { given: 'populate=authorId,editorId', want: { populate: [{ field: 'authorId' }, { field: 'editorId' }] } }],
  ['populate indexed (qs)', { given: 'populate[0]=authorId&populate[1]=editorId', want: { populate: [{ field: 'authorId' }, { field: 'editorId' }] } }],
  [
    'populate with dot projection',
    { given: 'populate=authorId&populate.authorId.fields=id,name', want: { populate: [{ field: 'authorId', fields: ['id', 'name'] }] } },
  ],
  [
    'populate projection alone populates (qs object form)',
    { given: 'populate[authorId][fields][0]=id&populate[authorId][fields][1]=name', want: { populate: [{ field: 'authorId', fields: ['id', 'name'] }] } },
  ],
  ['csvFormulaEscape off', { given: 'format=csv&csvFormulaEscape=false', want: { format: 'csv', csvFormulaEscape: false } }],
  ['csvFormulaEscape on', { given: 'csvFormulaEscape=true', want: { csvFormulaEscape: true } }],
  ['csvFormulaEscape neither true nor false', { given: 'csvFormulaEscape=0', want: { error: 'Malformed query parameter "csvFormulaEscape": use csvFormulaEscape=true or csvFormulaEscape=false' } }],
  ['csvFormulaEscape twice', { given: 'csvFormulaEscape=true&csvFormulaEscape=false', want: { error: 'Duplicate query parameter "csvFormulaEscape"' } }],
  ['csvFormulaEscape misspelt', { given: 'csvFormulaEscap=false', want: { error: 'Unknown query parameter "csvFormulaEscap" (did you mean "csvFormulaEscape"?)' } }],
  ['unknown parameter', { given: 'limt=5', want: { error: 'Unknown query parameter "limt" (did you mean "limit"?)' } }],
  ['unknown parameter, nothing close', { given: 'page=2', want: { error: 'Unknown query parameter "page"' } }],
  ['unknown parameter with brackets', { given: 'filter[name][$eq]=x', want: { error: 'Unknown query parameter "filter" (did you mean "filters"?)' } }],
  ['duplicate limit', { given: 'limit=1&limit=2', want: { error: 'Duplicate query parameter "limit"' } }],
  ['duplicate offset', { given: 'offset=1&offset=1', want: { error: 'Duplicate query parameter "offset"' } }],
  ['duplicate scalar filter across forms', { given: 'filters.name.$eq=a&filters[name][$eq]=b', want: { error: 'Duplicate query parameter "filters.name.$eq"' } }],
  [
    'unknown operator, nothing close: the operators to choose from',
    {
      given: 'filters.title.$like=x',
      want: { error: 'Unknown filter operator "$like" on field "title" (operators: $eq, $ne, $gt, $gte, $lt, $lte, $in, $notIn, $contains, $containsi, $startsWith, $endsWith, $null)' },
    },
  ],
  ['unknown operator, close to one', { given: 'filters.title.$contain=x', want: { error: 'Unknown filter operator "$contain" on field "title" (did you mean "$contains"?)' } }],
  ['operator without $', { given: 'filters.title.eq=x', want: { error: 'Unknown filter operator "eq" on field "title" (did you mean "$eq"?)' } }],
  ['operator in the wrong case', { given: 'filters.title.$notin=x', want: { error: 'Unknown filter operator "$notin" on field "title" (did you mean "$notIn"?)' } }],
  ['missing operator', { given: 'filters.title=x', want: { error: 'Missing filter operator in "filters.title": use filters.title.$eq=…' } }],
  ['index on a scalar operator', { given: 'filters[id][$eq][0]=1', want: { error: 'Malformed query parameter "filters[id][$eq][0]": use filters.id.$eq=<value>' } }],
  ['too deep', { given: 'filters[id][$in][0][x]=1', want: { error: 'Malformed query parameter "filters[id][$in][0][x]": use filters.id.$in=a,b or filters[id][$in][0]=a' } }],
  ['filters without a field', { given: 'filters=x', want: { error: 'Malformed query parameter "filters": use filters.<field>.<operator>=<value>' } }],
  ['unclosed bracket', { given: 'filters[name=x', want: { error: 'Malformed query parameter "filters[name"' } }],
  ['empty key', { given: '=x', want: { error: 'Malformed query parameter ""' } }],
  ['nested limit', { given: 'limit[0]=1', want: { error: 'Malformed query parameter "limit[0]": use limit=<integer>' } }],
  ['bad percent-encoding', { given: 'filters.title.$eq=%E0%A4%A', want: { error: 'Malformed percent-encoding in query parameter "filters.title.$eq"' } }],
  ['empty field name', { given: 'fields=id,,title', want: { error: 'Empty field name in fields' } }],
  ['empty sort', { given: 'sort=', want: { error: 'Empty field name in sort' } }],
  ['populate of a field without fields', { given: 'populate[authorId]=true', want: { error: 'Malformed query parameter "populate[authorId]": use populate=a,b or populate.<field>.fields=a,b' } }],
  // where: the same filters as one JSON object (what generated clients can send).
  ...((): Case[] => {
    const w = (json: unknown) => `where=${encodeURIComponent(typeof json === 'string' ? json : JSON.stringify(json))}`;
    return [
      ['where, one filter', { given: w({ name: { $eq: 'x' } }), want: { filters: [{ field: 'name', operator: '$eq', values: ['x'], parameter: 'where' }] } }],
      [
        'where, numbers and booleans as text, several operators on a field',
        {
          given: w({ age: { $gte: 18, $lt: 65 }, body: { $null: false } }),
          want: {
            filters: [
              { field: 'age', operator: '$gte', values: ['18'], parameter: 'where' },
              { field: 'age', operator: '$lt', values: ['65'], parameter: 'where' },
              { field: 'body', operator: '$null', values: ['false'], parameter: 'where' },
            ],
          },
        },
      ],
      ['where, $in from an array: commas are not split', { given: w({ id: { $in: ['a,b', 2] } }), want: { filters: [{ field: 'id', operator: '$in', values: ['a,b', '2'], parameter: 'where' }] } }],
      ['where, $in from one value', { given: w({ id: { $in: 'a' } }), want: { filters: [{ field: 'id', operator: '$in', values: ['a'], parameter: 'where' }] } }],
      [
        'where merges with filters (AND); list values gather',
        {
          given: `filters.id.$in=1&filters.name.$eq=x&${w({ id: { $in: [2] }, age: { $gt: 3 } })}`,
          want: {
            filters: [
              { field: 'id', operator: '$in', values: ['1', '2'] },
              { field: 'name', operator: '$eq', values: ['x'] },
              { field: 'age', operator: '$gt', values: ['3'], parameter: 'where' },
            ],
          },
        },
      ],
      ['where and filters: a scalar operator twice', { given: `filters.name.$eq=x&${w({ name: { $eq: 'y' } })}`, want: { error: 'Duplicate query parameter "filters.name.$eq"' } }],
      ['where twice', { given: `${w({})}&${w({})}`, want: { error: 'Duplicate query parameter "where"' } }],
      ['where, empty object', { given: w({}), want: {} }],
      ['where, not JSON', { given: w('{name:1}'), want: { error: `Invalid query parameter "where": not JSON (Expected property name or '}' in JSON at line 1, column 2)` } }],
      ['where, not an object', { given: w([1]), want: { error: 'Invalid query parameter "where": use a JSON object {"<field>":{"<operator>":<value>}}' } }],
      ['where, a value instead of operators', { given: w({ name: 'x' }), want: { error: 'Invalid query parameter "where": "name" must hold an object of operators, e.g. {"name":{"$eq":…}}' } }],
      ['where, no operator', { given: w({ name: {} }), want: { error: 'Missing filter operator in where for field "name": use {"name":{"$eq":…}}' } }],
      ['where, unknown operator', { given: w({ name: { $contain: 'x' } }), want: { error: 'Unknown filter operator "$contain" on field "name" in where (did you mean "$contains"?)' } }],
      ['where, null value', { given: w({ name: { $eq: null } }), want: { error: 'Invalid query parameter "where": invalid value for where.name.$eq: use {"name":{"$null":true}} to select null values' } }],
      ['where, object value', { given: w({ name: { $in: [{}] } }), want: { error: 'Invalid query parameter "where": invalid value for where.name.$in: use an array of string, number or boolean' } }],
      ['where, empty $in', { given: w({ name: { $in: [] } }), want: { error: 'Invalid query parameter "where": where.name.$in needs at least one value' } }],
      ['where with brackets', { given: 'where[name]=x', want: { error: 'Malformed query parameter "where[name]": use where={"<field>":{"<operator>":<value>}}' } }],
    ];
  })(),
  ['quotes in names are reported escaped', { given: 'x%22y=1', want: { error: 'Unknown query parameter "x\\"y"' } }],
];

describe('parseQuery', () => {
  it.each(cases)('%s', (_, { given, want }) => {
    if ('error' in want) {
      let thrown: unknown;
      try {
        parseQuery(given);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(AppError);
      expect((thrown as AppError).status).toBe(400);
      expect((thrown as AppError).message).toBe(want.error);
    } else {
      expect(parseQuery(given)).toEqual({ ...empty, ...want });
    }
  });

  it('reads what qs.stringify writes', () => {
    const query = qs.stringify({
      filters: { status: { $in: ['draft', 'published'] }, title: { $containsi: 'a&b=c, d' } },
      populate: { authorId: { fields: ['id', 'name'] } },
      sort: ['publishedAt:desc'],
      limit: 10,
    });
    expect(parseQuery(query)).toEqual({
      ...empty,
      limit: '10',
      sort: [{ field: 'publishedAt', direction: 'desc' }],
      filters: [
        { field: 'status', operator: '$in', values: ['draft', 'published'] },
        { field: 'title', operator: '$containsi', values: ['a&b=c, d'] },
      ],
      populate: [{ field: 'authorId', fields: ['id', 'name'] }],
    });
  });

  it('reads the documented example', () => {
    const given = 'filters.status.$in=draft,published&filters.title.$containsi=sql&sort=publishedAt:desc&populate=authorId&populate.authorId.fields=id,name&limit=10';
    expect(parseQuery(given)).toEqual({
      ...empty,
      limit: '10',
      sort: [{ field: 'publishedAt', direction: 'desc' }],
      filters: [
        { field: 'status', operator: '$in', values: ['draft', 'published'] },
        { field: 'title', operator: '$containsi', values: ['sql'] },
      ],
      populate: [{ field: 'authorId', fields: ['id', 'name'] }],
    });
  });
});

describe('splitKey', () => {
  it.each([
    ['a', ['a']],
    ['a.b.c', ['a', 'b', 'c']],
    ['a[b][c]', ['a', 'b', 'c']],
    ['a[b].c[]', ['a', 'b', 'c', '']],
    ['a[b.c]', ['a', 'b.c']],
  ])('%s', (given, want) => {
    expect(splitKey(given)).toEqual(want);
  });

  it.each(['', '.a', '[a]', 'a..b', 'a[b', 'a]', 'a[b]c'])('refuses %j', (given) => {
    expect(splitKey(given)).toBeUndefined();
  });
});
