// Stage 1 of learning: the aggregate queries a table's profile is made of, the same SQL on
// PostgreSQL and MySQL/MariaDB but for sampling. Every answer is a count, an order statistic or a
// value held by at least k rows (HAVING count(*) >= k): rows themselves never leave the database.
import type { SourceKind } from '../contract.ts';
import type { Field } from '../model/config-types.ts';
import type { SqlExecutor, TargetConnection } from '../dialects/dialect.ts';
import { QUANTILES } from './fit-column.ts';

/** Most values read per category column. */
const MAX_VALUES = 1000;
/** Rows a formula candidate is first tried on: most candidates fail in the first rows, and only the rest are counted over all. */
const FORMULA_HEAD_ROWS = 1000;
/** Runs of consecutive keys a MySQL table's sample is read in. */
const KEY_RANGES = 200;
/** Most bins of a children-per-parent histogram. */
const MAX_BINS = 1000;

/** A table's rows or a sample of about `fraction` of them, as a FROM item (the same rows on every read). */
const SAMPLED: Record<SourceKind, (table: string, fraction: number, alias?: string) => string> = {
  postgres: (table, fraction, alias) => `${table}${alias ? ` AS ${alias}` : ''} TABLESAMPLE SYSTEM (${(fraction * 100).toFixed(6)}) REPEATABLE (0)`,
  mysql: (table, fraction, alias) => `(SELECT * FROM ${table} WHERE RAND(0) < ${fraction.toFixed(8)}) AS ${alias ?? 'sampled'}`,
};

/**
 * How an engine keeps a table's sample (the rows SAMPLED reads) as a temporary table of this
 * session, so the profile's statements read it instead of sampling the table again each: a
 * PostgreSQL one goes when the profiling transaction ends, a MySQL one is dropped by `close`.
 */
interface SampleTables {
  /** The temporary table's qualified name. */
  name: (bare: string, namespace: string) => string;
  /** Statements to try in turn until one creates it. */
  create: (name: string, sampled: string) => string[];
  /** Whether a table with an integer key is sampled by key ranges (KEY_RANGES) instead of SAMPLED. */
  keyRanges: boolean;
  /** Run once it exists: statistics for the planner of the columns given (the references its joins to parents use), none when none. */
  after?: (name: string, columns: string[]) => string | undefined;
  /** Drops it: after a failed create (which may leave it behind) and at `close`; absent where it goes with the transaction. */
  drop?: (name: string) => string;
}

const SAMPLE_TABLES: Record<SourceKind, SampleTables> = {
  postgres: {
    name: (bare) => `pg_temp.${bare}`,
    create: (name, sampled) => [`CREATE TEMPORARY TABLE ${name} ON COMMIT DROP AS SELECT * FROM ${sampled}`],
    keyRanges: false,
    // Only the references: a whole-sample ANALYZE cost as much as the joins it improved.
    after: (name, columns) => (columns.length > 0 ? `ANALYZE ${name} (${columns.join(', ')})` : undefined),
  },
  mysql: {
    name: (bare, namespace) => `${namespace}.${bare}`,
    // In memory when its columns and size allow (no TEXT or BLOB, within max_heap_table_size), else on disk.
    create: (name, sampled) => [`CREATE TEMPORARY TABLE ${name} ENGINE=MEMORY AS SELECT * FROM ${sampled}`, `CREATE TEMPORARY TABLE ${name} AS SELECT * FROM ${sampled}`],
    keyRanges: true,
    // A MEMORY table that filled up is left behind (MySQL drops nothing when a CREATE … AS SELECT fails mid-way on some versions).
    drop: (name) => `DROP TEMPORARY TABLE IF EXISTS ${name}`,
  },
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
  readonly #executor: SqlExecutor;
  readonly #namespace: string;
  readonly #sampleRows: number;
  readonly #fractions = new Map<string, number>();
  /** Exact row counts read by `count`. */
  readonly #rows = new Map<string, number>();
  /** Temporary tables holding a sampled table's sample, by table. */
  readonly #samples = new Map<string, string>();
  /** A MySQL table's sample as key ranges (the WHERE condition its temporary table was read with), by table. */
  readonly #ranges = new Map<string, string>();
  /** The last statement of each of the two lanes beside the profiling session (#beside). */
  #besides: Promise<unknown>[] = [Promise.resolve(), Promise.resolve()];
  #queued = 0;

  /**
   * `executor` runs the statements (default: the connection's pool); a transaction's executor keeps
   * them on one session, where a sampled table's sample is read once into a temporary table.
   */
  constructor(connection: TargetConnection, namespace: string, sampleRows: number, executor: SqlExecutor = connection) {
    this.#connection = connection;
    this.#executor = executor;
    this.#namespace = namespace;
    this.#sampleRows = sampleRows;
  }

  /** The schema (PostgreSQL) or database (MySQL) profiled. */
  get namespace(): string {
    return this.#namespace;
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
    if (!sampled || fraction === undefined) return alias ? `${this.#table(table)} ${alias}` : this.#table(table);
    const kept = this.#samples.get(table);
    if (kept) return alias ? `${kept} ${alias}` : kept;
    return SAMPLED[this.#connection.dialect.kind](this.#table(table), fraction, alias);
  }

  /**
   * The table's sample read again from the table itself (the rows its temporary table holds: the
   * same key ranges, or the same seeded TABLESAMPLE pages), for a statement on another session,
   * where this session's temporary tables are not seen; the table when it is not sampled.
   */
  #reread(table: string, alias: string): string {
    const fraction = this.#fractions.get(table);
    if (fraction === undefined) return `${this.#table(table)} ${alias}`;
    const ranges = this.#ranges.get(table);
    return ranges ? `(SELECT * FROM ${this.#table(table)} WHERE ${ranges}) AS ${alias}` : SAMPLED[this.#connection.dialect.kind](this.#table(table), fraction, alias);
  }

  /**
   * Runs a statement that reads whole tables and no kept sample on a pooled session beside the
   * profiling one, in the next of two lanes, after the statements queued before it in that lane: two
   * such statements at a time, so learning takes three of the database's sessions (and cores) at most.
   */
  #beside(sql: string): Promise<Record<string, unknown>[]> {
    const lane = this.#queued++ % this.#besides.length;
    const run = this.#besides[lane]!.then(() => this.#connection.query<Record<string, unknown>>(sql, []));
    this.#besides[lane] = run.catch(() => {});
    return run;
  }

  async #query(sql: string): Promise<Record<string, unknown>[]> {
    return this.#executor.query<Record<string, unknown>>(sql, []);
  }

  /** The table's sample (kept or sampled at each read) when it has more rows than the profiler reads, else the table: a FROM item for `read`. */
  from(table: string): string {
    return this.#source(table, this.#fractions.has(table));
  }

  /** Runs an aggregate statement on the profiling session (where kept samples live). */
  async read(sql: string): Promise<Record<string, unknown>[]> {
    return this.#query(sql);
  }

  /**
   * Runs `sql` so that its failure leaves the session usable: inside a savepoint when profiling runs
   * in a transaction (a PostgreSQL transaction refuses every statement after a failed one).
   */
  async #guarded(sql: string): Promise<Record<string, unknown>[]> {
    if (this.#executor === this.#connection) return this.#query(sql);
    await this.#query('SAVEPOINT sds_learn');
    try {
      const rows = await this.#query(sql);
      await this.#query('RELEASE SAVEPOINT sds_learn');
      return rows;
    } catch (error) {
      await this.#query('ROLLBACK TO SAVEPOINT sds_learn');
      throw error;
    }
  }

  /** The exact row count (`counting`: as started by countBeside); a table with more rows than the profiler reads gets its sample, kept for the next reads when the session allows. */
  async count(table: string, integerKey?: string, references: string[] = [], counting?: Promise<number>): Promise<number> {
    const rows = await (counting ?? this.#countOnly(table));
    this.#rows.set(table, rows);
    if (rows > this.#sampleRows) {
      const fraction = this.#sampleRows / rows;
      this.#fractions.set(table, fraction);
      if (this.#executor !== this.#connection) await this.#keepSample(table, fraction, integerKey, references);
    }
    return rows;
  }

  /**
   * Starts counting the table's rows beside the profiling session (#beside), for `count`: the counts
   * of the next tables overlap the reading of this one's sample.
   */
  countBeside(table: string): Promise<number> {
    return this.#beside(`SELECT count(*) AS n FROM ${this.#table(table)}`).then(([row]) => Number(row?.n ?? 0));
  }

  async #countOnly(table: string): Promise<number> {
    const [row] = await this.#query(`SELECT count(*) AS n FROM ${this.#table(table)}`);
    return Number(row?.n ?? 0);
  }

  /** Reads the table's sample once into a temporary table; without the right to create one, every read samples the table. */
  async #keepSample(table: string, fraction: number, integerKey: string | undefined, references: string[]): Promise<void> {
    const kind = this.#connection.dialect.kind;
    const engine = SAMPLE_TABLES[kind];
    const name = engine.name(this.#quote(`sds_learn_sample_${this.#samples.size + 1}`), this.#quote(this.#namespace));
    try {
      const ranges = engine.keyRanges && integerKey ? await this.#keyRanges(table, integerKey, fraction) : undefined;
      const sampled = ranges ? `(SELECT * FROM ${this.#table(table)} WHERE ${ranges}) AS sampled` : SAMPLED[kind](this.#table(table), fraction, 'sampled');
      for (const sql of engine.create(name, sampled)) {
        try {
          await this.#guarded(sql);
        } catch {
          if (engine.drop) await this.#query(engine.drop(name)).catch(() => {});
          continue;
        }
        const after = engine.after?.(name, references.map((column) => this.#quote(column)));
        if (after) await this.#guarded(after);
        this.#samples.set(table, name);
        if (ranges) this.#ranges.set(table, ranges);
        return;
      }
    } catch {
      // Read-only sessions and users without TEMPORARY privileges sample at every read.
    }
  }

  /**
   * A MySQL table's sample as key ranges, the way TABLESAMPLE SYSTEM takes pages: KEY_RANGES runs of
   * consecutive keys spread evenly from the smallest key to the largest, together `fraction` of the
   * span, each read through the primary key instead of scanning the table. Undefined when the keys
   * are too sparse for ranges to hold about the rows wanted (the seeded RAND() filter then samples).
   */
  async #keyRanges(table: string, key: string, fraction: number): Promise<string | undefined> {
    const k = this.#quote(key);
    const [row] = await this.#query(`SELECT min(${k}) AS lo, max(${k}) AS hi FROM ${this.#table(table)}`);
    const [lo, hi] = [Number(row?.lo), Number(row?.hi)];
    const rows = this.#rows.get(table) ?? 0;
    if (!Number.isSafeInteger(lo) || !Number.isSafeInteger(hi) || hi - lo + 1 > 4 * rows) return undefined;
    const span = hi - lo + 1;
    const width = Math.max(1, Math.round((span * fraction) / KEY_RANGES));
    const starts = [...new Set(Array.from({ length: KEY_RANGES }, (_, i) => lo + Math.floor((i * span) / KEY_RANGES)))];
    return starts.map((start) => `${k} BETWEEN ${start} AND ${start + width - 1}`).join(' OR ');
  }

  /** Waits for the statements beside the profiling session, and drops the temporary tables of samples (MySQL keeps them until the session ends, and pooled sessions do not end). */
  async close(): Promise<void> {
    // Statements beside it no one awaited (a reference left unprofiled) end before the connection does.
    await Promise.all(this.#besides);
    const { drop } = SAMPLE_TABLES[this.#connection.dialect.kind];
    if (!drop) return;
    for (const name of this.#samples.values()) await this.#query(drop(name)).catch(() => {});
    this.#samples.clear();
  }

  /** Non-null and distinct counts (and trues of booleans) of the columns, in one scan of the table or its sample. */
  async stats(table: string, rows: number, columns: { column: string; boolean: boolean }[]): Promise<TableStats> {
    const sampled = this.#fractions.has(table);
    const parts = ['count(*) AS n', ...columns.flatMap(({ column, boolean }, i) => {
      const c = this.#quote(column);
      return [`count(${c}) AS n${i}`, `count(DISTINCT ${c}) AS d${i}`, ...(boolean ? [`sum(CASE WHEN ${c} THEN 1 ELSE 0 END) AS t${i}`] : [])];
    })];
    const [row = {}] = await this.#guarded(`SELECT ${parts.join(', ')} FROM ${this.#source(table, sampled)}`);
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
   * is a column of the parent each row references (alias p) and `b` one of the row (alias c); such a
   * join reads the whole parent, so it runs beside the profiling session's statements (#beside, the
   * sample read again).
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
      ? `${this.#reread(table, 'c')} JOIN ${this.#table(join.parentTable)} p ON p.${this.#quote(join.parentColumn)} = c.${this.#quote(join.childColumn)}`
      : this.#source(table, sampled);
    const sql = `SELECT ${parts.join(', ')} FROM ${from}`;
    const [row = {}] = join ? await this.#beside(sql) : await this.#query(sql);
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
    const source = this.#source(table, this.#fractions.has(table));
    const [head = {}] = await this.#query(`SELECT ${parts.join(', ')} FROM (SELECT * FROM ${source} LIMIT ${FORMULA_HEAD_ROWS}) head`);
    const counted = candidates.map((_, i) => ({ rows: Number(head[`n${i}`] ?? 0), holds: Number(head[`h${i}`] ?? 0) }));
    // A candidate some row of the head breaks fails on the table too: only the others are counted over every row.
    const open = candidates.flatMap((_, i) => (counted[i]!.holds < counted[i]!.rows ? [] : [i]));
    if (open.length === 0) return counted;
    const [row = {}] = await this.#query(`SELECT ${open.flatMap((i) => [parts[2 * i], parts[2 * i + 1]]).join(', ')} FROM ${source}`);
    for (const i of open) counted[i] = { rows: Number(row[`n${i}`] ?? 0), holds: Number(row[`h${i}`] ?? 0) };
    return counted;
  }

  /**
   * For each parent column and each sum over the children (one child column, or the product of
   * two), the parent rows holding the column and those where it is within `tolerance` of its
   * children's sum (0 without children; a null part adds nothing). First over the parents with the
   * FORMULA_HEAD_ROWS lowest keys; the pairs that hold there are counted again over the parents with
   * the sampleRows lowest keys (every parent of a table no bigger), each with all its children: a
   * bounded read, as every other statement of a big table reads its sample.
   */
  async childrenSumCounts(
    parent: { table: string; key: string; columns: string[] },
    child: { table: string; reference: string; sums: string[][] },
    tolerance: number,
  ): Promise<{ rows: number; holds: number }[][]> {
    const q = (name: string) => this.#quote(name);
    const key = q(parent.key);
    const sums = child.sums.map((fields, j) => `sum(${fields.map((field, i) => (i === 0 ? `(c.${q(field)} * 1.0)` : `c.${q(field)}`)).join(' * ')}) AS s${j}`);
    const counts = (pairs: [number, number][]) =>
      pairs.flatMap(([i, j]) => {
        const t = `p.${q(parent.columns[i]!)}`;
        return [`sum(CASE WHEN ${t} IS NOT NULL THEN 1 ELSE 0 END) AS n${i}_${j}`, `sum(CASE WHEN abs(${t} - COALESCE(s.s${j}, 0)) <= ${tolerance} THEN 1 ELSE 0 END) AS h${i}_${j}`];
      });
    const columns = [key, ...parent.columns.map(q)].join(', ');
    const statement = (pairs: [number, number][], limit: number) => {
      const parents = `(SELECT ${columns} FROM ${this.#table(parent.table)} ORDER BY ${key} LIMIT ${limit})`;
      const children = `${this.#table(child.table)} c JOIN (SELECT ${key} AS k FROM ${this.#table(parent.table)} ORDER BY ${key} LIMIT ${limit}) hk ON c.${q(child.reference)} = hk.k`;
      return `SELECT ${counts(pairs).join(', ')} FROM ${parents} p LEFT JOIN (SELECT c.${q(child.reference)} AS k, ${sums.join(', ')} FROM ${children} GROUP BY c.${q(child.reference)}) s ON s.k = p.${key}`;
    };
    const all = parent.columns.flatMap((_, i) => child.sums.map((__, j) => [i, j] as [number, number]));
    const counted = parent.columns.map(() => child.sums.map(() => ({ rows: 0, holds: -1 })));
    if (all.length === 0) return counted;
    const read = (row: Record<string, unknown>, pairs: [number, number][]) => {
      for (const [i, j] of pairs) counted[i]![j] = { rows: Number(row[`n${i}_${j}`] ?? 0), holds: Number(row[`h${i}_${j}`] ?? 0) };
    };
    const [head = {}] = await this.#query(statement(all, FORMULA_HEAD_ROWS));
    read(head, all);
    const open = all.filter(([i, j]) => counted[i]![j]!.rows > 0 && counted[i]![j]!.holds === counted[i]![j]!.rows);
    if (open.length === 0) return counted;
    const [row = {}] = await this.#query(statement(open, Math.max(FORMULA_HEAD_ROWS, this.#sampleRows)));
    read(row, open);
    return counted;
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

  /**
   * How many parents have each number of children (parents without children included), from the
   * child table alone: its references grouped, and the parents no child names are the parent's
   * rows less the parents named (the reference is a declared foreign key, so every value names one).
   * It reads the whole child table and no sample, so it runs beside the profiling session's
   * statements (#beside).
   */
  async childrenPerParent(parentTable: string, parentColumn: string, childTable: string, childColumn: string): Promise<{ children: number; weight: number }[]> {
    const fk = this.#quote(childColumn);
    const sql =
      `SELECT n, count(*) AS parents FROM (SELECT ${fk} AS k, count(*) AS n FROM ${this.#table(childTable)} ` +
      `WHERE ${fk} IS NOT NULL GROUP BY ${fk}) per_parent GROUP BY n ORDER BY n`;
    const named = (await this.#beside(sql)).map((row) => ({ children: Number(row.n), weight: Number(row.parents) }));
    const parents = this.#rows.get(parentTable) ?? Number((await this.#beside(`SELECT count(*) AS n FROM ${this.#table(parentTable)}`))[0]?.n ?? 0);
    const childless = parents - named.reduce((sum, bin) => sum + bin.weight, 0);
    let bins = childless > 0 ? [{ children: 0, weight: childless }, ...named] : named;
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
