// parseCheckClause and parseDefaultExpression as tables of examples: CHECK clauses exactly as pg_get_constraintdef and
// information_schema.CHECK_CLAUSE (MySQL 8, MariaDB) print them, and the rules they become, or
// undefined for what a schema config cannot say.
import { describe, expect, it } from 'vitest';
import type { CatalogDefault, CheckRule } from '../../../src/dialects/catalog.ts';
import { parseCheckClause, parseDefaultExpression, type CheckClauseOptions } from '../../../src/dialects/catalog-reading.ts';

type Case = [string, { given: string; options?: CheckClauseOptions; want: CheckRule[] | undefined }];

const cases: Case[] = [
  // PostgreSQL (pg_get_constraintdef)
  ['pg: a bound with a cast literal', { given: 'CHECK ((price >= (0)::numeric))', want: [{ column: 'price', op: '>=', value: 0 }] }],
  ['pg: BETWEEN as two bounds', { given: 'CHECK (((stock >= 0) AND (stock <= 10000)))', want: [{ column: 'stock', op: '>=', value: 0 }, { column: 'stock', op: '<=', value: 10000 }] }],
  ['pg: strict bound', { given: 'CHECK ((quantity > 0))', want: [{ column: 'quantity', op: '>', value: 0 }] }],
  ['pg: literal on the left flips', { given: 'CHECK ((0 < quantity))', want: [{ column: 'quantity', op: '>', value: 0 }] }],
  ['pg: negative literal as text', { given: "CHECK ((delta >= '-5'::integer))", want: [{ column: 'delta', op: '>=', value: -5 }] }],
  ['pg: negative literal', { given: 'CHECK ((delta >= (-5)))', want: [{ column: 'delta', op: '>=', value: -5 }] }],
  [
    'pg: IN on text as = ANY (ARRAY[…])',
    { given: "CHECK ((role = ANY (ARRAY['admin'::text, 'editor'::text])))", want: [{ column: 'role', op: 'in', values: ['admin', 'editor'] }] },
  ],
  [
    'pg: IN on varchar, casts on both sides',
    {
      given: "CHECK (((carrier)::text = ANY ((ARRAY['ups'::character varying, 'dhl'::character varying, 'it''s'::character varying])::text[])))",
      want: [{ column: 'carrier', op: 'in', values: ['ups', 'dhl', "it's"] }],
    },
  ],
  ['pg: one value', { given: "CHECK ((kind = 'x'::text))", want: [{ column: 'kind', op: 'in', values: ['x'] }] }],
  ['pg: equalities joined by OR', { given: "CHECK (((kind = 'a'::text) OR (kind = 'b'::text)))", want: [{ column: 'kind', op: 'in', values: ['a', 'b'] }] }],
  ['pg: quoted identifier', { given: 'CHECK (("Rating" <= 5))', want: [{ column: 'Rating', op: '<=', value: 5 }] }],
  ['pg: IS NOT NULL', { given: 'CHECK ((email IS NOT NULL))', want: [{ column: 'email', op: 'not-null' }] }],
  ['pg: NOT VALID is ignored', { given: 'CHECK ((n > 1)) NOT VALID', want: [{ column: 'n', op: '>', value: 1 }] }],
  ['pg: a domain check names its column', { given: 'CHECK (((VALUE >= 1901) AND (VALUE <= 2155)))', options: { valueColumn: 'release_year' }, want: [{ column: 'release_year', op: '>=', value: 1901 }, { column: 'release_year', op: '<=', value: 2155 }] }],
  ['pg: two columns compared', { given: 'CHECK ((ends_at > starts_at))', want: undefined }],
  ['pg: a function', { given: 'CHECK ((char_length(name) > 0))', want: undefined }],
  ['pg: a regular expression', { given: "CHECK (((VALUE)::text ~ '^[^@]+@'::text))", options: { valueColumn: 'email' }, want: undefined }],
  ['pg: OR over two columns', { given: "CHECK (((a = 'x'::text) OR (b = 'y'::text)))", want: undefined }],
  ['pg: a date bound', { given: "CHECK ((born >= '1900-01-01'::date))", want: undefined }],
  ['pg: not equal', { given: 'CHECK ((n <> 0))', want: undefined }],
  // MySQL 8
  ['mysql: bound', { given: '(`price` >= 0)', options: { backslashEscapes: true }, want: [{ column: 'price', op: '>=', value: 0 }] }],
  [
    'mysql: IN with charset introducers',
    { given: "(`carrier` in (_utf8mb4'ups',_utf8mb4'dhl'))", options: { backslashEscapes: true }, want: [{ column: 'carrier', op: 'in', values: ['ups', 'dhl'] }] },
  ],
  ['mysql: BETWEEN', { given: '(`stock` between 0 and 10000)', options: { backslashEscapes: true }, want: [{ column: 'stock', op: '>=', value: 0 }, { column: 'stock', op: '<=', value: 10000 }] }],
  ['mysql: backslash escape', { given: "(`q` in (_utf8mb4'it\\'s'))", options: { backslashEscapes: true }, want: [{ column: 'q', op: 'in', values: ["it's"] }] }],
  // MariaDB
  ['mariadb: IN', { given: "`carrier` in ('ups','dhl','fedex')", options: { backslashEscapes: true }, want: [{ column: 'carrier', op: 'in', values: ['ups', 'dhl', 'fedex'] }] }],
  ['mariadb: AND of bounds', { given: '`rating` >= 1 and `rating` <= 5', options: { backslashEscapes: true }, want: [{ column: 'rating', op: '>=', value: 1 }, { column: 'rating', op: '<=', value: 5 }] }],
  ['mariadb: json_valid is no rule', { given: 'json_valid(`links`)', options: { backslashEscapes: true }, want: undefined }],
  ['integer IN list', { given: '`level` in (1,2,3)', want: [{ column: 'level', op: 'in', values: [1, 2, 3] }] }],
  ['unbalanced', { given: '(a > 1', want: undefined }],
  ['unterminated string', { given: "a = 'x", want: undefined }],
  ['empty', { given: '', want: undefined }],
];

describe('parseCheckClause', () => {
  for (const [name, { given, options, want }] of cases) {
    it(name, () => expect(parseCheckClause(given, options)).toEqual(want));
  }
});

const MYSQL = { backslashEscapes: true, bare: true };
const defaults: Array<[string, { given: string; options?: { backslashEscapes?: boolean; bare?: boolean }; want: CatalogDefault | undefined }]> = [
  // PostgreSQL (pg_get_expr)
  ['pg: a text literal with its cast', { given: "'draft'::text", want: { literal: 'draft' } }],
  ['pg: a varchar literal with a quote', { given: "'it''s'::character varying", want: { literal: "it's" } }],
  ['pg: an enum type literal', { given: "'G'::mpaa_rating", want: { literal: 'G' } }],
  ['pg: a jsonb literal', { given: "'{\"a\": 1}'::jsonb", want: { literal: '{"a": 1}' } }],
  ['pg: a timestamp literal', { given: "'2024-01-31 12:00:00+00'::timestamp with time zone", want: { literal: '2024-01-31 12:00:00+00' } }],
  ['pg: a negative number in parentheses', { given: '(-1)', want: { literal: '-1' } }],
  ['pg: a decimal', { given: '4.99', want: { literal: '4.99' } }],
  ['pg: a cast number', { given: '0::numeric', want: { literal: '0' } }],
  ['pg: a boolean', { given: 'true', want: { literal: 'true' } }],
  ['pg: now()', { given: 'now()', want: { function: 'now' } }],
  ['pg: CURRENT_TIMESTAMP', { given: 'CURRENT_TIMESTAMP', want: { function: 'now' } }],
  ['pg: CURRENT_DATE', { given: 'CURRENT_DATE', want: { function: 'current_date' } }],
  ['pg: gen_random_uuid()', { given: 'gen_random_uuid()', want: { function: 'uuid' } }],
  ['pg: uuid_generate_v4() of an extension schema', { given: 'public.uuid_generate_v4()', want: { function: 'uuid' } }],
  ['pg: any other expression', { given: "upper('x'::text)", want: undefined }],
  ['pg: arithmetic', { given: '(now() + (1)::interval)', want: undefined }],
  ['pg: an unquoted word is no literal', { given: 'draft', want: undefined }],
  // MariaDB (quoted literals) and MySQL 8 (bare literals) in information_schema.COLUMNS
  ['mariadb: a quoted literal with escapes', { given: "'it''s \\\\ fine'", options: MYSQL, want: { literal: "it's \\ fine" } }],
  ['mariadb: current_timestamp(3)', { given: 'current_timestamp(3)', options: MYSQL, want: { function: 'now' } }],
  ['mariadb: curdate()', { given: 'curdate()', options: MYSQL, want: { function: 'current_date' } }],
  ['mariadb: uuid()', { given: 'uuid()', options: MYSQL, want: { function: 'uuid' } }],
  ['mariadb: another function', { given: "concat('a','b')", options: MYSQL, want: undefined }],
  ['mysql: a bare literal', { given: 'draft', options: MYSQL, want: { literal: 'draft' } }],
  ['mysql: a number', { given: '19.99', options: MYSQL, want: { literal: '19.99' } }],
  ['mysql: CURRENT_TIMESTAMP', { given: 'CURRENT_TIMESTAMP', options: MYSQL, want: { function: 'now' } }],
];

describe('parseDefaultExpression', () => {
  for (const [name, { given, options, want }] of defaults) {
    it(name, () => expect(parseDefaultExpression(given, options)).toEqual(want));
  }
});
