// Values at the runtime's edges, as tables of examples: casting query texts and JSON bodies,
// reading driver values, row ids (composite keys included), body validation and name hints.
import { describe, expect, it } from 'vitest';
import type { ColumnSpec } from '../../../src/model/table-spec.ts';
import { AppError } from '../../../src/errors.ts';
import { castJson, castText } from '../../../src/model/cast.ts';
import { formatRowId, parseRowId, splitId } from '../../../src/runtime/row-id.ts';
import { columnReader, sortedKeys } from '../../../src/model/render.ts';
import { closestName, editDistance } from '../../../src/suggest.ts';
import { plannedRowCounts } from '../../../src/generation/plan.ts';
import { buildRuntimeTables, type RuntimeColumn } from '../../../src/model/tables.ts';
import { parseDatetime, readDatetime } from '../../../src/model/temporal.ts';
import { validateBody } from '../../../src/runtime/validate-body.ts';
import { runtimeConfig } from '../../fixtures/runtime-config.ts';

const tables = buildRuntimeTables(runtimeConfig(), plannedRowCounts(runtimeConfig()));
const column = (type: ColumnSpec['type'], extra: Partial<RuntimeColumn> = {}): RuntimeColumn => ({ name: 'x', type, nullable: true, outputFormat: 'iso', ...extra });

function thrown(run: () => unknown): AppError {
  try {
    run();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected an AppError');
}

describe('castText', () => {
  it.each<[string, ColumnSpec['type'], string, unknown]>([
    ['integer', 'integer', '-42', -42],
    ['integer with plus', 'integer', '+7', 7],
    ['int64 max', 'integer', '9223372036854775807', 9223372036854775807n],
    ['int64 overflow', 'integer', '9223372036854775808', undefined],
    ['integer with spaces', 'integer', ' 1', undefined],
    ['number', 'number', '1e3', 1000],
    ['number .5', 'number', '.5', 0.5],
    ['number Infinity', 'number', 'Infinity', undefined],
    ['number hex', 'number', '0x10', undefined],
    ['boolean TRUE', 'boolean', 'TRUE', true],
    ['boolean 0', 'boolean', '0', false],
    ['date', 'date', '2024-02-29', '2024-02-29'],
    ['date slash', 'date', '02/29/2024', '2024-02-29'],
    ['date sql', 'date', '2024-02-29 00:00:00', '2024-02-29'],
    ['date 2023-02-29', 'date', '2023-02-29', undefined],
    ['date year 999', 'date', '0999-01-01', undefined],
    ['datetime Z', 'datetime', '2024-01-31T12:00:00Z', '2024-01-31T12:00:00.000Z'],
    ['datetime offset across midnight', 'datetime', '2024-01-01T01:00:00+05:30', '2023-12-31T19:30:00.000Z'],
    ['datetime compact offset', 'datetime', '2024-01-01T01:00:00.123456-0100', '2024-01-01T02:00:00.123Z'],
    ['datetime date only', 'datetime', '2024-01-01', '2024-01-01T00:00:00.000Z'],
    ['datetime hour 24', 'datetime', '2024-01-01T24:00:00Z', undefined],
    ['time', 'time', '07:05', '07:05:00'],
    ['time seconds', 'time', '23:59:59', '23:59:59'],
    ['time fraction', 'time', '23:59:59.5', undefined],
    ['uuid', 'uuid', 'ABCDEF01-2345-4678-89AB-CDEF01234567', 'abcdef01-2345-4678-89ab-cdef01234567'],
    ['uuid without dashes', 'uuid', 'abcdef0123454678' + '89abcdef01234567', undefined],
    ['string with NUL', 'string', 'a\0b', undefined],
    ['json in a query', 'json', '{}', undefined],
  ])('%s', (_, type, text, want) => {
    expect(castText(column(type), text)).toEqual(want);
  });

  it('checks enum membership exactly', () => {
    const role = column('enum', { values: ['admin', 'reader'] });
    expect(castText(role, 'admin')).toBe('admin');
    expect(castText(role, 'Admin')).toBeUndefined();
  });
});

describe('castJson', () => {
  it.each<[string, ColumnSpec['type'], unknown, unknown]>([
    ['integer', 'integer', 3, 3],
    ['integer as a string beyond 2^53', 'integer', '9007199254740993', 9007199254740993n],
    ['unsafe JSON integer', 'integer', 2 ** 60, undefined],
    ['fraction for an integer', 'integer', 1.5, undefined],
    ['number as a decimal string', 'number', '12.50', 12.5],
    ['boolean as text', 'boolean', 'true', undefined],
    ['date', 'date', '12/31/1999', '1999-12-31'],
    ['date as a number', 'date', 20240101, undefined],
    ['json anything', 'json', [1, { a: null }], [1, { a: null }]],
    ['json string with NUL', 'json', { key: 'a\0' }, undefined],
    ['string as a number', 'string', 5, undefined],
  ])('%s', (_, type, value, want) => {
    expect(castJson(column(type), value)).toEqual(want);
  });
});

describe('reading driver values', () => {
  it.each<[string, RuntimeColumn, unknown, unknown]>([
    ['PostgreSQL timestamptz', column('datetime'), '2024-01-31 12:00:00.5+00', '2024-01-31T12:00:00.500Z'],
    ['MySQL DATETIME(3)', column('datetime'), '2024-01-31 12:00:00.500', '2024-01-31T12:00:00.500Z'],
    ['timestamptz with an offset', column('datetime'), '2024-01-31 12:00:00+02', '2024-01-31T10:00:00.000Z'],
    ['date slash', column('date', { outputFormat: 'slash' }), '2024-01-31', '01/31/2024'],
    ['date sql', column('date', { outputFormat: 'sql' }), '2024-01-31', '2024-01-31 00:00:00'],
    ['time with a fraction', column('time'), '10:00:00.25', '10:00:00'],
    ['bigint text', column('integer'), '9007199254740993', '9007199254740993'],
    ['bigint text, safe', column('integer'), '42', 42],
    ['decimal text', column('number'), '12.50', 12.5],
    ['MySQL boolean', column('boolean'), 0, false],
    ['null', column('boolean'), null, null],
    ['json keys sorted', column('json'), { b: 1, a: [{ d: 1, c: 2 }] }, { a: [{ c: 2, d: 1 }], b: 1 }],
  ])('%s', (_, spec, raw, want) => {
    expect(columnReader(spec)(raw)).toEqual(want);
  });

  it('keeps a "__proto__" key of a JSON document as a key', () => {
    const sorted = sortedKeys(JSON.parse('{"__proto__": {"x": 1}, "a": 2}')) as Record<string, unknown>;
    expect(Object.keys(sorted)).toEqual(['__proto__', 'a']);
    expect(Object.getPrototypeOf(sorted)).toBe(Object.prototype);
  });

  it('round-trips datetimes through parseDatetime and readDatetime', () => {
    expect(readDatetime(parseDatetime('1999-12-31T23:59:59.999-00:30'))).toBe('2000-01-01T00:29:59.999Z');
  });

  it('reads every driver form of a datetime to the canonical one, which it keeps as it is', () => {
    const canonical = '2024-01-31T12:00:00.500Z';
    for (const raw of ['2024-01-31 12:00:00.5+00', '2024-01-31 12:00:00.500', '2024-01-31T12:00:00.5Z', '2024-01-31 13:00:00.500+01:00', canonical, new Date(canonical)]) {
      expect(readDatetime(raw), String(raw)).toBe(canonical);
    }
    // Shaped like the canonical form but not a datetime: given back as it is, as before.
    expect(readDatetime('abcd-ef-ghTij:kl:mn.opqZ')).toBe('abcd-ef-ghTij:kl:mn.opqZ');
  });
});

describe('row ids', () => {
  it('casts a single key and formats it back', () => {
    expect(parseRowId(tables.get('authors'), '7')).toEqual({ fields: ['id'], values: [7] });
    expect(parseRowId(tables.get('tags'), 'a,b\\c')).toEqual({ fields: ['code'], values: ['a,b\\c'] });
    expect(formatRowId(tables.get('tags'), { code: 'a,b\\c' })).toBe('a,b\\c');
  });

  it('encodes composite keys with commas, escaping commas and backslashes inside values', () => {
    const comments = tables.get('comments');
    const postId = '0f6c2b1e-9a3d-4e7f-8b5c-1d2e3f4a5b6c';
    expect(parseRowId(comments, `${postId},3`)).toEqual({ fields: ['postId', 'position'], values: [postId, 3] });
    expect(formatRowId(comments, { postId, position: 3, body: 'x' })).toBe(`${postId},3`);
    expect(splitId('a\\,b,c\\\\,d')).toEqual(['a,b', 'c\\', 'd']);
    expect(splitId('trailing\\')).toEqual(['trailing\\']);
  });

  it.each([
    ['authors', '1.0', 'Invalid id "1.0": not a value of the integer primary key "id" of table "authors"'],
    ['comments', 'x,1', 'Invalid id "x,1": not a value of the primary key (postId, position) of table "comments" ("x" for uuid field "postId")'],
    ['comments', '0f6c2b1e-9a3d-4e7f-8b5c-1d2e3f4a5b6c,1,2', 'Invalid id "0f6c2b1e-9a3d-4e7f-8b5c-1d2e3f4a5b6c,1,2": the primary key (postId, position) of table "comments" takes 2 comma-separated values'],
  ])('refuses %s id %j', (table, id, message) => {
    const error = thrown(() => parseRowId(tables.get(table), id));
    expect([error.status, error.message]).toEqual([400, message]);
  });
});

describe('validateBody', () => {
  it('casts a valid create body in column order', () => {
    const values = validateBody(tables.get('posts'), { title: 'T', status: 'draft', authorId: '12' }, 'create');
    expect([...values]).toEqual([
      ['authorId', 12],
      ['title', 'T'],
      ['status', 'draft'],
    ]);
  });

  it('counts lengths in characters, not UTF-16 units', () => {
    expect(validateBody(tables.get('authors'), { name: '🎉🎉' }, 'update').get('name')).toBe('🎉🎉');
    expect(thrown(() => validateBody(tables.get('authors'), { name: '🎉' }, 'update')).message).toBe('Invalid row: column "name" must be at least 2 characters long');
  });

  it('escapes JSON pointers of unknown columns', () => {
    expect(thrown(() => validateBody(tables.get('tags'), { 'a/b~c': 1 }, 'update')).details).toEqual([{ path: '/body/a~1b~0c', message: 'unknown column "a/b~c"' }]);
  });
});

describe('did you mean', () => {
  it.each([
    ['titel', ['title', 'body'], 'title'],
    ['EMAIL', ['email'], 'email'],
    ['dsc', ['asc', 'desc'], 'desc'],
    ['acs', ['asc', 'desc'], 'asc'],
    ['$like', ['$lte', '$eq'], undefined],
    ['zzzzzz', ['id'], undefined],
    ['x'.repeat(200), ['x'], undefined],
  ])('%s', (name, candidates, want) => {
    expect(closestName(name, candidates)).toBe(want);
  });

  it('measures transpositions as one edit', () => {
    expect(editDistance('titel', 'title')).toBe(1);
    expect(editDistance('', 'abc')).toBe(3);
  });
});
