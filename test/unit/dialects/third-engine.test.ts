// A third engine's query compiler is its SqlHooks and nothing more: a stub SQL Server (T-SQL) made
// of hooks alone compiles the runtime's pages, filters, sorts, single rows and writes. If the
// compiler ever needs more of an engine than SqlHooks, this stops compiling.
import { describe, expect, it } from 'vitest';
import { assertIdentifier, type SqlHooks } from '../../../src/dialects/dialect.ts';
import { compileInsert, compileMaxKey } from '../../../src/runtime/compile-write.ts';
import { compileList, compileOne } from '../../../src/runtime/compile.ts';
import { parseQuery } from '../../../src/runtime/parse-query.ts';
import { planRead } from '../../../src/runtime/plan.ts';
import { buildRuntimeTables } from '../../../src/model/tables.ts';
import { plannedRowCounts } from '../../../src/generation/plan.ts';
import { runtimeConfig } from '../../fixtures/runtime-config.ts';

const MAX_IDENTIFIER = 128;
const tsql: SqlHooks = {
  capabilities: { supportsReturning: false, transactionalDdl: true, maxIdentifierLength: MAX_IDENTIFIER },
  quoteIdentifier: (name) => {
    assertIdentifier(name, MAX_IDENTIFIER);
    return `[${name}]`;
  },
  placeholder: (index) => `@p${index}`,
  typedPlaceholder: (index) => `@p${index}`,
  parameter: (_column, value) => value,
  like: (expr, pattern, caseInsensitive) => (caseInsensitive ? `LOWER(${expr}) LIKE LOWER(${pattern}) ESCAPE '!'` : `${expr} LIKE ${pattern} ESCAPE '!'`),
  likeEscape: '!',
  distinctFrom: (left, right) => `${left} IS DISTINCT FROM ${right}`,
  comparable: (expr) => `${expr} COLLATE Latin1_General_BIN2`,
  orderBy: (expr, direction, nullable) =>
    `${nullable ? `CASE WHEN ${expr} IS NULL THEN 1 ELSE 0 END ${direction === 'asc' ? 'ASC' : 'DESC'}, ` : ''}${expr} ${direction.toUpperCase()}`,
  paging: (limit, offset) => `OFFSET ${offset} ROWS FETCH NEXT ${limit} ROWS ONLY`,
  maxKeyStatements: (table, column) => [`SELECT MAX(${column}) AS max FROM ${table} WITH (UPDLOCK, HOLDLOCK)`],
};

const tables = buildRuntimeTables(runtimeConfig(), plannedRowCounts(runtimeConfig()));
const posts = tables.get('posts');

describe('a stub T-SQL engine of hooks alone', () => {
  it('compiles a filtered, sorted page with its own quoting, placeholders and paging', () => {
    const plan = planRead(parseQuery('fields=id,title&filters.title.$contains=Ab&sort=title:desc&limit=5&offset=10'), posts, tables);
    const list = compileList(tsql, 'ns', plan, posts);
    expect(list.rows).toEqual({
      sql:
        "SELECT [id], [title] FROM [ns].[posts] WHERE [title] LIKE @p1 ESCAPE '!' " +
        'ORDER BY [title] COLLATE Latin1_General_BIN2 DESC, [id] COLLATE Latin1_General_BIN2 ASC OFFSET @p3 ROWS FETCH NEXT @p2 ROWS ONLY',
      params: ['%Ab%', 5, 10],
    });
    expect(list.count).toEqual({ sql: "SELECT COUNT(*) AS total FROM [ns].[posts] WHERE [title] LIKE @p1 ESCAPE '!'", params: ['%Ab%'] });
  });

  it('compiles one row, an insert without RETURNING and the key lock', () => {
    const one = compileOne(tsql, 'ns', planRead(parseQuery('fields=title'), posts, tables), posts);
    expect(one.sql).toMatch(/^SELECT \[title\] FROM \[ns\]\.\[posts\]/);
    const insert = compileInsert(tsql, 'ns', posts, new Map([['title', 'Hello']]));
    expect(insert.sql).toBe('INSERT INTO [ns].[posts] ([title]) VALUES (@p1)');
    expect(insert.params).toEqual(['Hello']);
    expect(compileMaxKey(tsql, 'ns', posts, 'id')).toEqual(['SELECT MAX([id]) AS max FROM [ns].[posts] WITH (UPDLOCK, HOLDLOCK)']);
  });
});
