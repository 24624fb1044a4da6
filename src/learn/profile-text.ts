// Learning the style of text that identifies or describes (names, emails, free text), never its
// values: the share of rows in each case, order statistics of the lengths, and for emails the
// domains held by at least k rows (HAVING count(*) >= k), counts of local-part formats and of
// trailing digits. The same SQL on PostgreSQL and MySQL/MariaDB but for case-sensitive comparison.
// A table bigger than the profiler reads is read through its sample, like every other profile.
import type { SourceKind } from '../contract.ts';
import type { TargetConnection } from '../dialects/dialect.ts';
import type { TableProfiler } from './profile-sql.ts';
import { QUANTILES } from './fit-column.ts';

/** Most domains read per email column. */
const MAX_DOMAINS = 100;

/** A comparison of `a` and `b` that tells case apart (MySQL's default collations do not). */
const CASE_EQUAL: Record<SourceKind, (a: string, b: string) => string> = {
  postgres: (a, b) => `${a} = ${b}`,
  mysql: (a, b) => `BINARY ${a} = BINARY ${b}`,
};

export interface CaseCounts {
  /** Rows holding a letter. */
  lettered: number;
  lower: number;
  upper: number;
  /** Starting with a capital, not all upper case. */
  capital: number;
}

export interface EmailCounts {
  /** Rows holding an `@`. */
  emails: number;
  domains: { value: string; count: number }[];
  formats: Record<'firstDotLast' | 'firstUnderscoreLast' | 'firstLast' | 'initialLast' | 'first' | 'other', number>;
  digits: number;
}

export class TextProfiler {
  readonly #connection: TargetConnection;
  readonly #profiler: TableProfiler;

  /** Reads through `profiler`: its session, and the sample of a table it samples (the counts it gives, such as `nonNull`, are the sample's). */
  constructor(connection: TargetConnection, profiler: TableProfiler) {
    this.#connection = connection;
    this.#profiler = profiler;
  }

  #quote(name: string): string {
    return this.#connection.dialect.quoteIdentifier(name);
  }

  #table(table: string): string {
    return this.#profiler.from(table);
  }

  async #query(sql: string): Promise<Record<string, unknown>[]> {
    return this.#profiler.read(sql);
  }

  /** How many rows are lower case, upper case, or start with a capital, of those holding a letter. */
  async cases(table: string, column: string): Promise<CaseCounts> {
    const c = this.#quote(column);
    const equal = CASE_EQUAL[this.#connection.dialect.kind];
    const lettered = `NOT (${equal(`LOWER(${c})`, `UPPER(${c})`)})`;
    const sql =
      `SELECT sum(CASE WHEN ${lettered} THEN 1 ELSE 0 END) AS l, sum(CASE WHEN ${lettered} AND ${equal(c, `LOWER(${c})`)} THEN 1 ELSE 0 END) AS lo, ` +
      `sum(CASE WHEN ${lettered} AND ${equal(c, `UPPER(${c})`)} THEN 1 ELSE 0 END) AS up, ` +
      `sum(CASE WHEN ${lettered} AND NOT (${equal(c, `UPPER(${c})`)}) AND ${equal(`SUBSTRING(${c}, 1, 1)`, `UPPER(SUBSTRING(${c}, 1, 1))`)} AND NOT (${equal(`SUBSTRING(${c}, 1, 1)`, `LOWER(SUBSTRING(${c}, 1, 1))`)}) THEN 1 ELSE 0 END) AS cap ` +
      `FROM ${this.#table(table)} WHERE ${c} IS NOT NULL`;
    const [row = {}] = await this.#query(sql);
    return { lettered: Number(row.l ?? 0), lower: Number(row.lo ?? 0), upper: Number(row.up ?? 0), capital: Number(row.cap ?? 0) };
  }

  /** QUANTILES order statistics of the values' lengths in characters, trimmed by `minCount` at each end. */
  async lengths(table: string, column: string, nonNull: number, minCount: number): Promise<number[]> {
    const trim = Math.max(0, Math.floor(minCount) - 1);
    if (nonNull - 2 * trim < 2) return [];
    const [first, last] = [1 + trim, nonNull - trim];
    const ranks = Array.from({ length: QUANTILES }, (_, i) => first + Math.round((i * (last - first)) / (QUANTILES - 1)));
    const c = this.#quote(column);
    const sql =
      `SELECT v, r FROM (SELECT CHAR_LENGTH(${c}) AS v, ROW_NUMBER() OVER (ORDER BY CHAR_LENGTH(${c})) AS r FROM ${this.#table(table)} WHERE ${c} IS NOT NULL) ranked ` +
      `WHERE r IN (${[...new Set(ranks)].join(', ')})`;
    const byRank = new Map((await this.#query(sql)).map((row) => [Number(row.r), Number(row.v)]));
    // A sample read again (without a kept one) may differ from its count: fall back to the highest rank read.
    const highest = Math.max(0, ...byRank.keys());
    const values = ranks.map((rank) => byRank.get(Math.min(rank, highest)));
    return values.some((value) => value === undefined || !Number.isFinite(value)) ? [] : (values as number[]);
  }

  /**
   * An email column's domains held by at least `minCount` rows with their counts, and how many local
   * parts take each format (judged against the row's first and last name columns when it has them).
   */
  async emails(table: string, column: string, minCount: number, names?: { first: string; last: string }): Promise<EmailCounts> {
    const c = this.#quote(column);
    const at = `POSITION('@' IN ${c})`;
    const domain = `LOWER(SUBSTRING(${c}, ${at} + 1))`;
    const local = `LOWER(SUBSTRING(${c}, 1, ${at} - 1))`;
    const from = `FROM ${this.#table(table)} WHERE ${c} IS NOT NULL AND ${at} > 1`;
    const domains = await this.#query(
      `SELECT d, count(*) AS n FROM (SELECT ${domain} AS d ${from}) emails GROUP BY d HAVING count(*) >= ${Math.max(1, Math.floor(minCount))} ORDER BY count(*) DESC, d LIMIT ${MAX_DOMAINS}`,
    );
    const [first, last] = names ? [`LOWER(${this.#quote(names.first)})`, `LOWER(${this.#quote(names.last)})`] : [];
    const byName =
      first && last
        ? `WHEN ${local} LIKE CONCAT(${first}, ${last}, '%') THEN 'firstLast' WHEN ${local} LIKE CONCAT(SUBSTRING(${first}, 1, 1), ${last}, '%') THEN 'initialLast' ` +
          `WHEN ${local} LIKE CONCAT(${first}, '%') THEN 'first' `
        : '';
    const format = `CASE WHEN POSITION('.' IN ${local}) > 0 THEN 'firstDotLast' WHEN POSITION('_' IN ${local}) > 0 THEN 'firstUnderscoreLast' ${byName}ELSE 'other' END`;
    const formats = await this.#query(`SELECT f, count(*) AS n FROM (SELECT ${format} AS f ${from}) emails GROUP BY f`);
    const [counts = {}] = await this.#query(`SELECT count(*) AS n, sum(CASE WHEN RIGHT(${local}, 1) BETWEEN '0' AND '9' THEN 1 ELSE 0 END) AS g ${from}`);
    const byFormat: EmailCounts['formats'] = { firstDotLast: 0, firstUnderscoreLast: 0, firstLast: 0, initialLast: 0, first: 0, other: 0 };
    for (const row of formats) if (String(row.f) in byFormat) byFormat[String(row.f) as keyof EmailCounts['formats']] = Number(row.n);
    return { emails: Number(counts.n ?? 0), domains: domains.map((row) => ({ value: String(row.d), count: Number(row.n) })), formats: byFormat, digits: Number(counts.g ?? 0) };
  }
}
