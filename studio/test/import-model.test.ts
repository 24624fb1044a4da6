// The import view's model: the introspect request built from the form (and the problems named before
// any request), and the privacy report as the table's rows.
import { describe, expect, it } from 'vitest';
import { emptyForm, importRequest, kindOfUrl, privacyRows, reportSummary, ruleCounts, suggestedName, type Introspection, type PrivacyReport } from '../src/import/import-model.ts';

const pg = 'postgres://reader:secret@db.example.com:5432/shop';
const form = (change: Partial<ReturnType<typeof emptyForm>> = {}) => ({ ...emptyForm(), connectionString: pg, ...change });

describe('kindOfUrl', () => {
  it('names the engine by the scheme, whatever its case', () => {
    expect(['postgres://a@b/c', 'PostgreSQL://a@b/c', ' mysql://a@b/c', 'mariadb://a@b/c', 'oracle://a@b/c', 'db.example.com'].map(kindOfUrl)).toEqual([
      'postgres',
      'postgres',
      'mysql',
      'mysql',
      undefined,
      undefined,
    ]);
  });
});

describe('importRequest', () => {
  it('learns by default and sends only what differs from the API defaults', () => {
    expect(importRequest(form())).toEqual({ body: { connectionString: pg, learn: true } });
    expect(importRequest(form({ scale: '0.1', minCount: '10', lookups: false, namespace: ' sales ', tables: 'orders, customers orders' }))).toEqual({
      body: { connectionString: pg, schema: 'sales', tables: ['orders', 'customers'], learn: true, scale: 0.1, minCount: 10, lookups: false },
    });
  });

  it('names the MySQL database as database, and sends rows (never the learn options) without learn', () => {
    const mysql = 'mysql://root@127.0.0.1:3306/shop';
    expect(importRequest(form({ connectionString: mysql, kind: 'mysql', namespace: 'shop', learn: false, rows: '50', scale: '3' }))).toEqual({
      body: { connectionString: mysql, database: 'shop', rows: 50 },
    });
  });

  it('names the problem before any request: no URL, another scheme, a kind that does not match, numbers out of range', () => {
    const problem = (change: Partial<ReturnType<typeof emptyForm>>) => {
      const result = importRequest(form(change));
      return 'problem' in result ? result.problem : undefined;
    };
    expect(problem({ connectionString: '  ' })).toBe('Give the connection URL of the database to import');
    expect(problem({ connectionString: 'oracle://me:pw@db/x' })).toMatch(/^The connection URL must start with postgres:\/\/, postgresql:\/\/, mysql:\/\/ or mariadb:\/\/ \(e\.g\. postgres:\/\/reader:…@/);
    // The example in the message carries no password.
    expect(problem({ connectionString: 'oracle://me:pw@db/x' })).not.toContain('secret');
    expect(problem({ kind: 'mysql' })).toBe('The connection URL is a PostgreSQL one, but MySQL / MariaDB is chosen');
    for (const scale of ['0', '-1', '1001', 'abc', '']) expect(problem({ scale }), scale).toMatch(/^Scale must be/);
    for (const minCount of ['0', '2.5', '1e7', 'x']) expect(problem({ minCount }), minCount).toMatch(/^Minimum count must be/);
    expect(problem({ learn: false, rows: '-3' })).toMatch(/^Rows per table must be/);
    // Out of range only where it is sent: a bad scale does not matter without learn.
    expect(problem({ learn: false, scale: '0' })).toBeUndefined();
  });
});

const report: PrivacyReport = {
  minCount: 5,
  scale: 1,
  lookups: true,
  tables: [
    { table: 'genres', rows: 25, rowCount: 25 },
    { table: 'tracks', rows: 3503, rowCount: 3503, sampled: 2000, fanOut: [{ column: 'genre_id', parents: 25, histogramBins: 12 }] },
  ],
  columns: [
    { table: 'genres', column: 'name', learned: 'lookup labels: 25', rule: 'lookup', copied: Array.from({ length: 14 }, (_, index) => `Genre ${index}`) },
    { table: 'tracks', column: 'unit_price', learned: 'categories: 2 with their frequencies', rule: 'min-count', copied: [0.99, 1.99], dropped: 1 },
    { table: 'tracks', column: 'milliseconds', learned: 'quantiles', rule: 'aggregates', nullShare: 0.0004 },
    { table: 'tracks', column: 'composer', learned: 'nothing (a person column)', rule: 'never-copied', nullShare: 0.28 },
    { table: 'tracks', column: 'explicit', learned: 'true rate', rule: 'aggregates', nullShare: 0 },
  ],
};

describe('privacyRows', () => {
  it('shows per column the rule, the values copied (text quoted, a long list shortened), what was left out and the nulls', () => {
    const rows = privacyRows(report);
    expect(rows.map((row) => [row.column, row.ruleLabel, row.dropped, row.nulls])).toEqual([
      ['name', 'Lookup labels', '', ''],
      ['unit_price', 'Values held by enough rows', '1 left out', ''],
      ['milliseconds', 'Aggregates only', '', '<0.1%'],
      ['composer', 'Never copied', '', '28%'],
      ['explicit', 'Aggregates only', '', '0%'],
    ]);
    expect(rows[0]!.copied).toBe(`${Array.from({ length: 12 }, (_, index) => `"Genre ${index}"`).join(', ')} and 2 more`);
    expect(rows[0]!.copiedCount).toBe(14);
    expect(rows[1]!.copied).toBe('0.99, 1.99');
    expect(rows[3]!.copied).toBe('');
  });

  it('counts columns per rule and sums the report up', () => {
    expect(ruleCounts(report)).toEqual([
      { rule: 'aggregates', label: 'Aggregates only', columns: 2 },
      { rule: 'min-count', label: 'Values held by enough rows', columns: 1 },
      { rule: 'lookup', label: 'Lookup labels', columns: 1 },
      { rule: 'never-copied', label: 'Never copied', columns: 1 },
    ]);
    expect(reportSummary(report)).toBe(
      '2 tables, 3,528 rows in the database → 3,528 rows in the config; 16 values copied (minimum count 5, lookup labels whole); 1 table profiled on a sample',
    );
  });
});

describe('suggestedName', () => {
  const result = (schema: Partial<Introspection['schema']>): Introspection => ({ schema: { formatVersion: 1, entities: [], ...schema }, warnings: [] });
  it('is the config’s name, else the database it was learned from', () => {
    expect(suggestedName(result({ metadata: { name: 'public' } }))).toBe('public');
    expect(suggestedName(result({ learned: { database: 'music.public', learnedAt: '2026-11-27T10:00:00.000Z' } }))).toBe('music.public');
    expect(suggestedName(result({}))).toBe('Imported schema');
  });
});
