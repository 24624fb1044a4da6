// Stage 1 of learning: the aggregate queries a table's profile is made of, the same SQL on
// PostgreSQL and MySQL/MariaDB but for sampling. Every answer is a count, an order statistic or a
// value held by at least k rows (HAVING count(*) >= k): rows themselves never leave the database.
import type { SourceKind } from '../contract.ts';
import type { Field } from '../model/config-types.ts';
import type { TargetConnection } from '../dialects/dialect.ts';
import { QUANTILES } from './fit-column.ts';

/** Most values read per category column. */
const MAX_VALUES = 1000;
/** Most bins of a children-per-parent histogram. */
const MAX_BINS = 1000;

/** A table's rows or a sample of about `fraction` of them, as a FROM item. */
const SAMPLED: Record<SourceKind, (table: string, fraction: number, alias?: string) => string> = {
  postgres: (table, fraction, alias) => `${table}${alias ? ` AS ${alias}` : ''} TABLESAMPLE SYSTEM (${(fraction * 100).toFixed(6)}) REPEATABLE (0)`,
  mysql: (table, fraction, alias) => `(SELECT * FROM ${table} WHERE RAND(0) < ${fraction.toFixed(8)}) AS ${alias ?? 'sampled'}`,
};

/** Seconds from `a` to `b` (two dates, or two datetimes). */
const SECONDS_BETWEEN: Record<SourceKind, (a: string, b: string, date: boolean) => string> = {
  postgres: (a, b, date) => (date ? `((${b} - ${a}) * 86400)` : `EXTRACT(EPOCH FROM (${b} - ${a}))`),
  mysql: (a, b) => `TIMESTAMPDIFF(SECOND, ${a}, ${b})`,
};

/** How two date columns of the rows compare: rows holding both, rows where a ≤ b, where a < b, and the mean gap in seconds. */
export interface PairOrder {
  both: number;
  notAfter: number;
  before: number;
  meanGap: number;
}

/** A relation a row may keep between its numeric columns: `result = a + b` or `result = a * b`. */
export interface FormulaCandidate {
  result: string;
  op: '+' | '*';
  a: string;
  b: string;
}

/** Two date columns compared: `a` (earlier candidate) and `b`, on one table or a child joined to its parent. */
export interface DatePair {
  a: string;
  b: string;
  date: boolean;
}

export interface TableStats {
  rows: number;
  sampled?: number;
  columns: { nonNull: number; distinct: number; trueCount?: number }[];
}

export class TableProfiler {
  readonly #connection: TargetConnection;
  readonly #namespace: string;
  readonly #sampleRows: number;
  readonly #fractions = new Map<string, number>();

  constructor(connection: TargetConnection, namespace: string, sampleRows: number) {
    this.#connection = connection;
    this.#namespace = namespace;
    this.#sampleRows = sampleRows;
  }

  #quote(name: string): string {
    return this.#connection.dialect.quoteIdentifier(name);
  }

  #table(table: string): string {
    return `${this.#quote(this.#namespace)}.${this.#quote(table)}`;
  }

  /** The table, or its sample when it has more rows than the profiler reads. */
  #source(table: string, sampled: boolean, alias?: string): string {
    const fraction = this.#fractions.get(table);
    if (sampled && fraction !== undefined) return SAMPLED[this.#connection.dialect.kind](this.#table(table), fraction, alias);
    return alias ? `${this.#table(table)} ${alias}` : this.#table(table);
  }

  async #query(sql: string): Promise<Record<string, unknown>[]> {
    return this.#connection.query<Record<string, unknown>>(sql, []);
  }

  /** The exact row count. */
  async count(table: string): Promise<number> {
    const [row] = await this.#query(`SELECT count(*) AS n FROM ${this.#table(table)}`);
    const rows = Number(row?.n ?? 0);
    if (rows > this.#sampleRows) this.#fractions.set(table, this.#sampleRows / rows);
    return rows;
  }

  /** Non-null and distinct counts (and trues of booleans) of the columns, in one scan of the table or its sample. */
  async stats(table: string, rows: number, columns: { column: string; boolean: boolean }[]): Promise<TableStats> {
    const sampled = this.#fractions.has(table);
    const parts = ['count(*) AS n', ...columns.flatMap(({ column, boolean }, i) => {
      const c = this.#quote(column);
      return [`count(${c}) AS n${i}`, `count(DISTINCT ${c}) AS d${i}`, ...(boolean ? [`sum(CASE WHEN ${c} THEN 1 ELSE 0 END) AS t${i}`] : [])];
    })];
    const [row = {}] = await this.#query(`SELECT ${parts.join(', ')} FROM ${this.#source(table, sampled)}`);
    const profiled = sampled ? Number(row.n ?? 0) : rows;
    return {
      rows: profiled,
      ...(sampled && { sampled: profiled }),
      columns: columns.map(({ boolean }, i) => ({
        nonNull: Number(row[`n${i}`] ?? 0),
        distinct: Number(row[`d${i}`] ?? 0),
        ...(boolean && { trueCount: Number(row[`t${i}`] ?? 0) }),
      })),
    };
  }

  /** Values held by at least `minCount` rows, most frequent first, with their counts. */
  async frequent(table: string, column: string, minCount: number, sampled: boolean): Promise<{ value: string | number | boolean; count: number }[]> {
    const c = this.#quote(column);
    const sql =
      `SELECT ${c} AS v, count(*) AS n FROM ${this.#source(table, sampled)} WHERE ${c} IS NOT NULL GROUP BY ${c} ` +
      `HAVING count(*) >= ${Math.max(1, Math.floor(minCount))} ORDER BY count(*) DESC, ${c} LIMIT ${MAX_VALUES}`;
    return (await this.#query(sql)).map((row) => ({ value: plainValue(row.v), count: Number(row.n) }));
  }

  /**
   * QUANTILES order statistics at equally spaced ranks of the non-null values (dates as ISO text),
   * between the `minCount`-th smallest and the `minCount`-th largest: at least that many rows hold a
   * value at or beyond each end, so no single row's extreme (the top salary) reaches the config.
   */
  async quantiles(table: string, column: string, nonNull: number, type: Field['type'], sampled: boolean, minCount = 1): Promise<(number | string)[]> {
    const trim = Math.max(0, Math.floor(minCount) - 1);
    if (nonNull < 1 || nonNull - 2 * trim < 2) return [];
    const [first, last] = [1 + trim, nonNull - trim];
    const ranks = Array.from({ length: QUANTILES }, (_, i) => first + Math.round((i * (last - first)) / (QUANTILES - 1)));
    const c = this.#quote(column);
    const sql =
      `SELECT v, r FROM (SELECT ${c} AS v, ROW_NUMBER() OVER (ORDER BY ${c}) AS r FROM ${this.#source(table, sampled)} WHERE ${c} IS NOT NULL) ranked ` +
      `WHERE r IN (${[...new Set(ranks)].join(', ')})`;
    const byRank = new Map((await this.#query(sql)).map((row) => [Number(row.r), row.v]));
    // A sample's size differs from its count: fall back to the highest rank read.
    const highest = Math.max(0, ...byRank.keys());
    const values = ranks.map((rank) => byRank.get(Math.min(rank, highest)));
    if (values.some((value) => value === undefined || value === null)) return [];
    return type === 'date' || type === 'datetime' ? values.map((value) => isoText(value, type)) : values.map(Number);
  }

  /**
   * How the pairs of date columns of a table (or its sample) compare, in one scan. With `join`, `a`
   * is a column of the parent each row references (alias p) and `b` one of the row (alias c).
   */
  async pairOrders(table: string, pairs: DatePair[], join?: { parentTable: string; parentColumn: string; childColumn: string }): Promise<PairOrder[]> {
    if (pairs.length === 0) return [];
    const sampled = this.#fractions.has(table);
    const [a, b] = join ? ['p.', 'c.'] : ['', ''];
    const parts = pairs.flatMap((pair, i) => {
      const [x, y] = [a + this.#quote(pair.a), b + this.#quote(pair.b)];
      const both = `${x} IS NOT NULL AND ${y} IS NOT NULL`;
      return [
        `sum(CASE WHEN ${both} THEN 1 ELSE 0 END) AS n${i}`,
        `sum(CASE WHEN ${x} <= ${y} THEN 1 ELSE 0 END) AS le${i}`,
        `sum(CASE WHEN ${x} < ${y} THEN 1 ELSE 0 END) AS lt${i}`,
        `avg(CASE WHEN ${both} THEN ${SECONDS_BETWEEN[this.#connection.dialect.kind](x, y, pair.date)} END) AS g${i}`,
      ];
    });
    const from = join
      ? `${this.#source(table, sampled, 'c')} JOIN ${this.#table(join.parentTable)} p ON p.${this.#quote(join.parentColumn)} = c.${this.#quote(join.childColumn)}`
      : this.#source(table, sampled);
    const [row = {}] = await this.#query(`SELECT ${parts.join(', ')} FROM ${from}`);
    return pairs.map((_, i) => ({ both: Number(row[`n${i}`] ?? 0), notAfter: Number(row[`le${i}`] ?? 0), before: Number(row[`lt${i}`] ?? 0), meanGap: Number(row[`g${i}`] ?? 0) }));
  }

  /**
   * For each candidate `result = a op b`, the rows holding all three and the rows where the result
   * is within `tolerance` of it, in one scan of the table or its sample (decimals, so no overflow).
   */
  async formulaCounts(table: string, candidates: FormulaCandidate[], tolerance: number): Promise<{ rows: number; holds: number }[]> {
    if (candidates.length === 0) return [];
    const parts = candidates.flatMap(({ result, op, a, b }, i) => {
      const [r, x, y] = [this.#quote(result), this.#quote(a), this.#quote(b)];
      return [
        `sum(CASE WHEN ${r} IS NOT NULL AND ${x} IS NOT NULL AND ${y} IS NOT NULL THEN 1 ELSE 0 END) AS n${i}`,
        `sum(CASE WHEN abs(${r} - ((${x} * 1.0) ${op} ${y})) <= ${tolerance} THEN 1 ELSE 0 END) AS h${i}`,
      ];
    });
    const [row = {}] = await this.#query(`SELECT ${parts.join(', ')} FROM ${this.#source(table, this.#fractions.has(table))}`);
    return candidates.map((_, i) => ({ rows: Number(row[`n${i}`] ?? 0), holds: Number(row[`h${i}`] ?? 0) }));
  }

  /**
   * QUANTILES order statistics of the seconds from `a` to `b` over the rows holding both (of the
   * table's sample, and joined to the parent like pairOrders), trimmed by `minCount` at each end as
   * `quantiles` is.
   */
  async gapQuantiles(table: string, pair: DatePair, count: number, minCount: number, join?: { parentTable: string; parentColumn: string; childColumn: string }): Promise<number[]> {
    const trim = Math.max(0, Math.floor(minCount) - 1);
    if (count - 2 * trim < 2) return [];
    const sampled = this.#fractions.has(table);
    const [x, y] = join ? [`p.${this.#quote(pair.a)}`, `c.${this.#quote(pair.b)}`] : [this.#quote(pair.a), this.#quote(pair.b)];
    const from = join
      ? `${this.#source(table, sampled, 'c')} JOIN ${this.#table(join.parentTable)} p ON p.${this.#quote(join.parentColumn)} = c.${this.#quote(join.childColumn)}`
      : this.#source(table, sampled);
    const gap = SECONDS_BETWEEN[this.#connection.dialect.kind](x, y, pair.date);
    const values = await this.#orderStatistics(`SELECT ${gap} AS v FROM ${from} WHERE ${x} IS NOT NULL AND ${y} IS NOT NULL`, count, trim);
    return values.map(Number);
  }

  /** Order statistics of the single column `v` of `select`, at QUANTILES equally spaced ranks between the trimmed ends. */
  async #orderStatistics(select: string, count: number, trim: number): Promise<unknown[]> {
    const [first, last] = [1 + trim, count - trim];
    const ranks = Array.from({ length: QUANTILES }, (_, i) => first + Math.round((i * (last - first)) / (QUANTILES - 1)));
    const sql = `SELECT v, r FROM (SELECT v, ROW_NUMBER() OVER (ORDER BY v) AS r FROM (${select}) gaps) ranked WHERE r IN (${[...new Set(ranks)].join(', ')})`;
    const byRank = new Map((await this.#query(sql)).map((row) => [Number(row.r), row.v]));
    const highest = Math.max(0, ...byRank.keys());
    const values = ranks.map((rank) => byRank.get(Math.min(rank, highest)));
    return values.some((value) => value === undefined || value === null) ? [] : values;
  }

  /**
   * Spearman's rank correlation of two numeric columns over the rows holding both (of the table's
   * sample): Pearson's over mid-ranks (ties share the mean of their ranks), from six sums, so only
   * the coefficient leaves the database. Null when fewer than `minRows` rows hold both or a column
   * holds one value only.
   */
  async spearman(table: string, a: string, b: string, minRows: number): Promise<number | null> {
    const [x, y] = [this.#quote(a), this.#quote(b)];
    const midRank = (c: string) => `(RANK() OVER (ORDER BY ${c}) + (count(*) OVER (PARTITION BY ${c}) - 1) / 2.0)`;
    const sql =
      `SELECT count(*) AS n, sum(rx) AS sx, sum(ry) AS sy, sum(rx * rx) AS sxx, sum(ry * ry) AS syy, sum(rx * ry) AS sxy FROM ` +
      `(SELECT ${midRank(x)} AS rx, ${midRank(y)} AS ry FROM ${this.#source(table, this.#fractions.has(table))} WHERE ${x} IS NOT NULL AND ${y} IS NOT NULL) ranked`;
    const [row = {}] = await this.#query(sql);
    const [n, sx, sy, sxx, syy, sxy] = ['n', 'sx', 'sy', 'sxx', 'syy', 'sxy'].map((key) => Number(row[key] ?? 0)) as [number, number, number, number, number, number];
    if (n < Math.max(3, minRows)) return null;
    const [vx, vy] = [n * sxx - sx * sx, n * syy - sy * sy];
    if (!(vx > 0) || !(vy > 0)) return null;
    return Math.max(-1, Math.min(1, (n * sxy - sx * sy) / Math.sqrt(vx * vy)));
  }

  /** How many parents have each number of children (parents without children included). */
  async childrenPerParent(parentTable: string, parentColumn: string, childTable: string, childColumn: string): Promise<{ children: number; weight: number }[]> {
    const [pk, fk] = [this.#quote(parentColumn), this.#quote(childColumn)];
    const sql =
      `SELECT n, count(*) AS parents FROM (SELECT p.${pk} AS k, count(c.${fk}) AS n FROM ${this.#table(parentTable)} p ` +
      `LEFT JOIN ${this.#table(childTable)} c ON c.${fk} = p.${pk} GROUP BY p.${pk}) per_parent GROUP BY n ORDER BY n`;
    let bins = (await this.#query(sql)).map((row) => ({ children: Number(row.n), weight: Number(row.parents) }));
    // A very long tail: merge neighbours until the histogram fits the contract.
    while (bins.length > MAX_BINS) {
      const merged: typeof bins = [];
      for (let i = 0; i < bins.length; i += 2) {
        const [a, b] = [bins[i]!, bins[i + 1]];
        if (!b) merged.push(a);
        else merged.push({ children: Math.round((a.children * a.weight + b.children * b.weight) / (a.weight + b.weight)), weight: a.weight + b.weight });
      }
      bins = merged;
    }
    return bins;
  }
}

function plainValue(value: unknown): string | number | boolean {
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'string') return value;
  if (typeof value === 'bigint') return Number(value);
  if (value instanceof Date) return value.toISOString();
  return String(value);
}

/** A driver's date or datetime text as ISO: `2024-01-31`, or a UTC instant `2024-01-31T10:00:00.000Z` (no offset: UTC). */
export function isoText(value: unknown, type: 'date' | 'datetime' | Field['type']): string {
  if (value instanceof Date) return type === 'date' ? value.toISOString().slice(0, 10) : value.toISOString();
  const text = String(value).trim();
  if (type === 'date') return text.slice(0, 10);
  let iso = text.replace(' ', 'T');
  if (/[+-]\d{2}$/.test(iso)) iso += ':00';
  else if (!/(Z|[+-]\d{2}:?\d{2})$/.test(iso)) iso += 'Z';
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? text : new Date(ms).toISOString();
}
