// The generated database bench:learn profiles (and bench:generation --config learned learns its
// config from): tables t0…t(n-1), each referencing the one before, with numbers, prices of few
// distinct values, statuses, two ordered datetimes, a quantity, a derived total (price × quantity)
// and the sum of its children's totals, made by the server itself in one INSERT … SELECT per table,
// then one UPDATE per parent table for the sums (0 in the last table, which has no children).
import pg from 'pg';
import mysql from 'mysql2/promise';
import { mysqlPoolOptions } from '../src/dialects/mysql/mysql-dialect.ts';

export type Engine = 'postgres' | 'mysql';

export interface Session {
  query(sql: string): Promise<unknown>;
  close(): Promise<void>;
}

/** DDL and the INSERT … SELECT of table i, `rows` rows made by the server itself. */
export function tableSql(engine: Engine, i: number, rows: number, parentRows: number): string[] {
  const pgEngine = engine === 'postgres';
  const [timestamp, series, n] = pgEngine ? ['timestamp', `generate_series(1, ${rows}) AS s(n)`, 'n'] : ['datetime', `seq_1_to_${rows}`, 'seq'];
  const parent = i > 0 ? `, parent_id integer NOT NULL REFERENCES t${i - 1} (id)` : '';
  const ddl = `CREATE TABLE t${i} (id integer PRIMARY KEY, score integer NOT NULL, price numeric(8,2) NOT NULL, status varchar(10) NOT NULL, created_at ${timestamp} NOT NULL, closed_at ${timestamp} NULL, quantity integer NOT NULL, total numeric(10,2) NOT NULL${parent}, lines_total numeric(14,2) NOT NULL)`;
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
  const insert = `INSERT INTO t${i} SELECT ${n}, ${mod(hash(8), 1000)}, ${price}, ${status}, ${created}, ${closed}, ${quantity}, (${price}) * (${quantity})${parentId}, 0 FROM ${series}`;
  return [ddl, insert];
}

export async function openSession(engine: Engine, url: string): Promise<Session> {
  if (engine === 'postgres') {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    return { query: (sql) => client.query(sql), close: () => client.end() };
  }
  const connection = await mysql.createConnection({ ...mysqlPoolOptions(url), multipleStatements: false });
  return { query: (sql) => connection.query(sql), close: () => connection.end() };
}

/** (Re)creates `namespace` holding `tables` tables of rows / tables rows each. */
export async function buildTables(engine: Engine, session: Session, namespace: string, rows: number, tables: number): Promise<void> {
  const perTable = Math.max(1, Math.floor(rows / tables));
  if (engine === 'postgres') {
    await session.query(`DROP SCHEMA IF EXISTS ${namespace} CASCADE`);
    await session.query(`CREATE SCHEMA ${namespace}`);
    await session.query(`SET search_path TO ${namespace}`);
  } else {
    await session.query(`DROP DATABASE IF EXISTS ${namespace}`);
    await session.query(`CREATE DATABASE ${namespace}`);
    await session.query(`USE ${namespace}`);
  }
  for (let i = 0; i < tables; i++) for (const sql of tableSql(engine, i, perTable, perTable)) await session.query(sql);
  for (let i = 0; i + 1 < tables; i++) {
    const sums = `(SELECT parent_id, sum(total) AS v FROM t${i + 1} GROUP BY parent_id) s`;
    await session.query(engine === 'postgres' ? `UPDATE t${i} p SET lines_total = s.v FROM ${sums} WHERE s.parent_id = p.id` : `UPDATE t${i} p JOIN ${sums} ON s.parent_id = p.id SET p.lines_total = s.v`);
  }
  if (engine === 'postgres') await session.query('ANALYZE');
}

export async function dropTables(engine: Engine, session: Session, namespace: string): Promise<void> {
  await session.query(engine === 'postgres' ? `DROP SCHEMA IF EXISTS ${namespace} CASCADE` : `DROP DATABASE IF EXISTS ${namespace}`);
}
