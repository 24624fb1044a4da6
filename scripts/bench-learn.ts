// Learning benchmark: a generated database of 10 tables (numbers, prices, statuses, dates with an
// order rule, a derived total, each table referencing the one before) profiled by `sds init --learn`
// end to end (connect, catalog, profile, fit, order rules, formulas, validate), on PostgreSQL and
// MariaDB/MySQL; every run printed. Baseline, same run: SELECT count(*) over the same tables, the
// least any profiling has to read. The issue's target is 2M rows in under 10 s (--rows=2000000).
// Usage: npm run bench:learn -- [--rows=200000] [--runs=3] [--only=postgres|mysql]
import { loadavg } from 'node:os';
import pg from 'pg';
import mysql from 'mysql2/promise';
import { mysqlPoolOptions } from '../src/dialects/mysql/mysql-dialect.ts';
import { learnDatabase } from '../src/learn/learn-database.ts';
import { answerHelp } from './bench-usage.ts';

answerHelp(`Usage: npm run bench:learn -- [--rows=200000] [--runs=3] [--only=postgres|mysql]
Builds 10 tables holding --rows rows in all (9 columns each: an integer, a price, a status, two
ordered datetimes, a quantity, a derived total, a reference to the table before), learns them into a
config --runs times per engine, and prints every run beside SELECT count(*) over the same tables.
Targets: PG_TARGET_URL (default postgres://postgres@127.0.0.1:5432/test), MYSQL_URL (default mysql://root@127.0.0.1:3306/test);
the tables are created in sds_bench_learn and dropped at the end.
  --help  this text`);
const args = Object.fromEntries(process.argv.slice(2).map((arg) => arg.replace(/^--/, '').split('=') as [string, string]));
for (const name of Object.keys(args)) {
  if (!['rows', 'runs', 'only'].includes(name)) {
    console.error(`unknown argument --${name} (see --help)`);
    process.exit(2);
  }
}
const ROWS = Number(args.rows ?? 200_000);
const RUNS = Number(args.runs ?? 3);
const TABLES = 10;
const PG_URL = process.env.PG_TARGET_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const MYSQL_URL = process.env.MYSQL_URL ?? 'mysql://root@127.0.0.1:3306/test';
const NAMESPACE = 'sds_bench_learn';

type Engine = 'postgres' | 'mysql';

interface Session {
  query(sql: string): Promise<unknown>;
  close(): Promise<void>;
}

/** DDL and the INSERT … SELECT of table i, `rows` rows made by the server itself. */
function tableSql(engine: Engine, i: number, rows: number, parentRows: number): string[] {
  const pgEngine = engine === 'postgres';
  const [timestamp, series, n] = pgEngine ? ['timestamp', `generate_series(1, ${rows}) AS s(n)`, 'n'] : ['datetime', `seq_1_to_${rows}`, 'seq'];
  const parent = i > 0 ? `, parent_id integer NOT NULL REFERENCES t${i - 1} (id)` : '';
  const ddl = `CREATE TABLE t${i} (id integer PRIMARY KEY, score integer NOT NULL, price numeric(8,2) NOT NULL, status varchar(10) NOT NULL, created_at ${timestamp} NOT NULL, closed_at ${timestamp} NULL, quantity integer NOT NULL, total numeric(10,2) NOT NULL${parent})`;
  const mod = (a: string, b: number | string) => (pgEngine ? `(${a}) % ${b}` : `(${a}) MOD ${b}`);
  // A cheap hash of the row number, so columns look random yet the build stays one statement per table.
  const hash = (salt: number) => mod(`${pgEngine ? `${n}::bigint` : n} * 654323 + ${salt}`, 1_000_003);
  const created = pgEngine ? `timestamp '2023-01-01' + ${hash(1)} * interval '30 seconds'` : `TIMESTAMPADD(SECOND, ${hash(1)} * 30, '2023-01-01')`;
  const closed = pgEngine
    ? `CASE WHEN ${mod(hash(2), 10)} = 0 THEN NULL ELSE timestamp '2023-01-01' + ${hash(1)} * interval '30 seconds' + ${mod(hash(3), 500000)} * interval '1 second' END`
    : `CASE WHEN ${mod(hash(2), 10)} = 0 THEN NULL ELSE TIMESTAMPADD(SECOND, ${hash(1)} * 30 + ${mod(hash(3), 500000)}, '2023-01-01') END`;
  const price = `CASE WHEN ${mod(hash(4), 3)} = 0 THEN 0.99 WHEN ${mod(hash(4), 3)} = 1 THEN 1.99 ELSE 9.99 END`;
  const quantity = `1 + ${mod(hash(5), 4)}`;
  const status = pgEngine ? `(ARRAY['new','open','closed','void'])[1 + ${mod(hash(6), 4)}]` : `ELT(1 + ${mod(hash(6), 4)}, 'new', 'open', 'closed', 'void')`;
  const parentId = i > 0 ? `, 1 + ${mod(hash(7), parentRows)}` : '';
  const insert = `INSERT INTO t${i} SELECT ${n}, ${mod(hash(8), 1000)}, ${price}, ${status}, ${created}, ${closed}, ${quantity}, (${price}) * (${quantity})${parentId} FROM ${series}`;
  return [ddl, insert];
}

async function open(engine: Engine): Promise<Session> {
  if (engine === 'postgres') {
    const client = new pg.Client({ connectionString: PG_URL });
    await client.connect();
    return { query: (sql) => client.query(sql), close: () => client.end() };
  }
  const connection = await mysql.createConnection({ ...mysqlPoolOptions(MYSQL_URL), multipleStatements: false });
  return { query: (sql) => connection.query(sql), close: () => connection.end() };
}

async function build(engine: Engine, session: Session): Promise<void> {
  const perTable = Math.max(1, Math.floor(ROWS / TABLES));
  if (engine === 'postgres') {
    await session.query(`DROP SCHEMA IF EXISTS ${NAMESPACE} CASCADE`);
    await session.query(`CREATE SCHEMA ${NAMESPACE}`);
    await session.query(`SET search_path TO ${NAMESPACE}`);
  } else {
    await session.query(`DROP DATABASE IF EXISTS ${NAMESPACE}`);
    await session.query(`CREATE DATABASE ${NAMESPACE}`);
    await session.query(`USE ${NAMESPACE}`);
  }
  for (let i = 0; i < TABLES; i++) for (const sql of tableSql(engine, i, perTable, perTable)) await session.query(sql);
  if (engine === 'postgres') await session.query('ANALYZE');
}

async function countAll(session: Session): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < TABLES; i++) await session.query(`SELECT count(*) FROM ${NAMESPACE}.t${i}`);
  return performance.now() - started;
}

for (const engine of ['postgres', 'mysql'] as const) {
  if (args.only && args.only !== engine) continue;
  const session = await open(engine);
  try {
    const building = performance.now();
    await build(engine, session);
    const perTable = Math.max(1, Math.floor(ROWS / TABLES));
    console.log(`${engine}: ${TABLES} tables, ${perTable * TABLES} rows built in ${((performance.now() - building) / 1000).toFixed(1)} s`);
    const url = engine === 'postgres' ? PG_URL : MYSQL_URL;
    for (let run = 1; run <= RUNS; run++) {
      const baseline = await countAll(session);
      const started = performance.now();
      const learned = await learnDatabase(url, { namespace: NAMESPACE });
      const learning = performance.now() - started;
      const orders = learned.report.tables.reduce((sum, table) => sum + (table.orderRules?.length ?? 0), 0);
      const formulas = learned.report.tables.reduce((sum, table) => sum + (table.formulas?.length ?? 0), 0);
      console.log(
        `${engine} run ${run}: learn ${(learning / 1000).toFixed(2)} s, SELECT count(*) over the same tables ${(baseline / 1000).toFixed(3)} s ` +
          `(×${(learning / baseline).toFixed(1)}); ${learned.report.columns.length} columns, ${orders} order rules, ${formulas} formulas, ` +
          `${learned.report.tables.filter((table) => table.sampled !== undefined).length} tables sampled; load ${loadavg()[0]!.toFixed(1)}`,
      );
    }
  } finally {
    await session.query(engine === 'postgres' ? `DROP SCHEMA IF EXISTS ${NAMESPACE} CASCADE` : `DROP DATABASE IF EXISTS ${NAMESPACE}`).catch(() => {});
    await session.close();
  }
}
