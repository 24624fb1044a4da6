// parseCheckClause as a table of examples: CHECK clauses exactly as pg_get_constraintdef and
// information_schema.CHECK_CLAUSE (MySQL 8, MariaDB) print them, and the rules they become, or
// undefined for what a schema config cannot say.
import { describe, expect, it } from 'vitest';
import type { CheckRule } from '../../../src/dialects/catalog.ts';
import { parseCheckClause, type CheckClauseOptions } from '../../../src/dialects/catalog-reading.ts';

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
