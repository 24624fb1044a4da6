// Loader benchmark: 500k pre-generated rows of an 8-column table loaded through the dialects'
// loadRows and through raw driver baselines in the same run, best of N runs each.
//   PostgreSQL: postgresDialect.loadRows (text COPY, and binary COPY) vs hand-written COPYs of
//               pre-built text and binary buffers.
//   MySQL:      mysqlDialect.loadRows with LOAD DATA (default) and with INSERT, vs raw LOAD DATA
//               of a pre-built buffer and raw multi-row INSERTs of pre-built statements.
// Usage: npm run bench:loaders -- [--rows=500000] [--runs=3] [--rounds=1] [--only=postgres|mysql]
// Targets: PG_TARGET_URL (default postgres://postgres@127.0.0.1:5432/test), MYSQL_URL (default mysql://root@127.0.0.1:3306/test).
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import type { RowValues } from '../src/model/row-value.ts';
import type { TableSpec } from '../src/model/table-spec.ts';
import type { TargetConnection } from '../src/dialects/dialect.ts';
import { connectMysql, mysqlPoolOptions } from '../src/dialects/mysql/mysql-dialect.ts';
import { escapeLoadDataText, mysqlValue } from '../src/dialects/mysql/mysql-loader.ts';
import { connectPostgres } from '../src/dialects/postgres/postgres-dialect.ts';
import { copyEncoder } from '../src/dialects/postgres/postgres-loader.ts';
import { BINARY_COPY_HEADER, BINARY_COPY_TRAILER, BinaryChunks, binaryRowWriter } from '../src/dialects/postgres/postgres-binary-copy.ts';
import { prebuild } from './bench-text.ts';
import { answerHelp } from './bench-usage.ts';

answerHelp(`Usage: npm run bench:loaders -- [--rows=500000] [--runs=3] [--rounds=1] [--only=postgres|mysql]
500k pre-generated rows of an 8-column table through the dialects' loaders and through raw driver
baselines (COPY, LOAD DATA, multi-row INSERT) in the same run, best of --runs each. PostgreSQL
compares text and binary COPY, in --rounds rounds.
Targets: PG_TARGET_URL (default postgres://postgres@127.0.0.1:5432/test), MYSQL_URL (default mysql://root@127.0.0.1:3306/test).
  --help  this text`);
const args = Object.fromEntries(process.argv.slice(2).map((arg) => arg.replace(/^--/, '').split('=') as [string, string]));
for (const name of Object.keys(args)) {
  if (!['rows', 'runs', 'rounds', 'only'].includes(name)) {
    console.error(`unknown argument --${name} (see --help)`);
    process.exit(2);
  }
}
const ROWS = Number(args.rows ?? 500_000);
const RUNS = Number(args.runs ?? 3);
/** PostgreSQL: rounds of text and binary COPY, one after the other. */
const ROUNDS = Number(args.rounds ?? 1);
const BATCH = 5_000;
const PG_URL = process.env.PG_TARGET_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const MYSQL_URL = process.env.MYSQL_URL ?? 'mysql://root@127.0.0.1:3306/test';
const NAMESPACE = 'sds_bench_loaders';

const table: TableSpec = {
  name: 'people',
  columns: [
    { name: 'id', type: 'integer', nullable: false },
    { name: 'uid', type: 'uuid', nullable: false },
    { name: 'name', type: 'string', nullable: false, maxLength: 80 },
    { name: 'email', type: 'string', nullable: false, maxLength: 120 },
    { name: 'score', type: 'number', nullable: true },
    { name: 'active', type: 'boolean', nullable: false },
    { name: 'createdAt', type: 'datetime', nullable: false },
    { name: 'bio', type: 'text', nullable: true },
  ],
  primaryKey: ['id'],
  indexes: [],
  foreignKeys: [],
};

function generateRows(count: number): RowValues[] {
  const rows: RowValues[] = [];
  const start = Date.UTC(2020, 0, 1);
  for (let id = 1; id <= count; id++) {
    rows.push([
      id,
      randomUUID(),
      `Person ${id} O'Brien`,
      `person${id}@example.com`,
      id % 10 === 0 ? null : (id * 7919) % 100_000 / 100,
      id % 3 !== 0,
      new Date(start + id * 61_000 + (id % 1000)).toISOString(),
      id % 4 === 0 ? null : `Line one of ${id}\tcolumn\nline two with a backslash \\ and ünïcødé 🎉`,
    ]);
  }
  return rows;
}

function* batchesOf(rows: RowValues[]): Generator<RowValues[]> {
  for (let start = 0; start < rows.length; start += BATCH) yield rows.slice(start, start + BATCH);
}

async function best(label: string, reset: () => Promise<void>, run: () => Promise<number>): Promise<number> {
  let fastest = Infinity;
  for (let attempt = 0; attempt < RUNS; attempt++) {
    await reset();
    const started = process.hrtime.bigint();
    const written = await run();
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    if (written !== ROWS) throw new Error(`${label}: wrote ${written} rows, expected ${ROWS}`);
    fastest = Math.min(fastest, seconds);
  }
  const rate = ROWS / fastest;
  console.log(`  ${label.padEnd(44)} ${fastest.toFixed(2).padStart(6)} s  ${Math.round(rate).toLocaleString('en-US').padStart(10)} rows/s`);
  return rate;
}

async function resetTable(connection: TargetConnection): Promise<void> {
  await connection.recreateNamespace(NAMESPACE);
  await connection.createTables(NAMESPACE, [table]);
}

async function benchPostgres(rows: RowValues[]): Promise<void> {
  console.log(`PostgreSQL (${new URL(PG_URL).host})`);
  const connection = await connectPostgres(PG_URL);
  const binary = await connectPostgres(PG_URL, { copyFormat: 'binary' });
  const encoders = table.columns.map(copyEncoder);
  const copyText = prebuild(rows, (row) => row.map((value, index) => (value === null ? '\\N' : encoders[index]!(value))).join('\t') + '\n');
  const writeRow = binaryRowWriter(table)!;
  const out = new BinaryChunks();
  const copyBinary: Buffer[] = [BINARY_COPY_HEADER];
  for (const row of rows) {
    writeRow(row, out);
    copyBinary.push(...out.take(false));
  }
  copyBinary.push(...out.take(true), BINARY_COPY_TRAILER);
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  try {
    // Rounds alternate text and binary, so that both see the same machine load.
    const rates = { loader: [] as number[], binary: [] as number[], raw: [] as number[], rawBinary: [] as number[] };
    for (let round = 1; round <= ROUNDS; round++) {
      if (ROUNDS > 1) console.log(` round ${round}`);
      rates.loader.push(await best('postgresDialect.loadRows (text COPY, streamed)', () => resetTable(connection), () => connection.loadRows(NAMESPACE, table, batchesOf(rows))));
      rates.binary.push(await best('postgresDialect.loadRows (binary COPY, streamed)', () => resetTable(connection), () => binary.loadRows(NAMESPACE, table, batchesOf(rows))));
      rates.raw.push(await best('raw text COPY of a pre-built buffer', () => resetTable(connection), async () => {
        const stream = client.query(copyFrom(`COPY "${NAMESPACE}"."people" ("id", "uid", "name", "email", "score", "active", "createdAt", "bio") FROM STDIN`));
        await pipeline(Readable.from(copyText), stream);
        return stream.rowCount;
      }));
      rates.rawBinary.push(await best('raw binary COPY of a pre-built buffer', () => resetTable(connection), async () => {
        const stream = client.query(copyFrom(`COPY "${NAMESPACE}"."people" ("id", "uid", "name", "email", "score", "active", "createdAt", "bio") FROM STDIN (FORMAT binary)`));
        await pipeline(Readable.from(copyBinary), stream);
        return stream.rowCount;
      }));
      const at = round - 1;
      console.log(`  ratio loader / raw COPY: ${(rates.loader[at]! / rates.raw[at]!).toFixed(2)}; binary loader / text loader: ${(rates.binary[at]! / rates.loader[at]!).toFixed(2)}; raw binary / raw text: ${(rates.rawBinary[at]! / rates.raw[at]!).toFixed(2)}`);
    }
  } finally {
    await binary.close();
    await client.end();
    await connection.dropNamespace(NAMESPACE);
    await connection.close();
  }
}

async function benchMysql(rows: RowValues[]): Promise<void> {
  console.log(`MySQL/MariaDB (${new URL(MYSQL_URL).host})`);
  const loadData = await connectMysql(MYSQL_URL);
  const inserts = await connectMysql(MYSQL_URL, { loadMethod: 'insert' });
  const raw = await mysql.createConnection({ ...mysqlPoolOptions(MYSQL_URL) });
  await raw.query("SET SESSION time_zone = '+00:00'");
  const columns = table.columns;
  const loadText = prebuild(rows, (row) => row.map((value, index) => (value === null ? '\\N' : (() => {
    const converted = mysqlValue(columns[index]!, value);
    return typeof converted === 'number' ? String(converted) : escapeLoadDataText(converted);
  })())).join('\t') + '\n');
  // Raw INSERTs: statements of 2,000 rows with values escaped by mysql2 beforehand.
  const insertHead = 'INSERT INTO `sds_bench_loaders`.`people` (`id`, `uid`, `name`, `email`, `score`, `active`, `createdAt`, `bio`) VALUES ';
  const statements: string[] = [];
  for (let start = 0; start < rows.length; start += 2_000) {
    const tuples = rows.slice(start, start + 2_000).map((row) => `(${row.map((value, index) => raw.escape(value === null ? null : mysqlValue(columns[index]!, value))).join(', ')})`);
    statements.push(insertHead + tuples.join(', '));
  }
  try {
    const loader = await best('mysqlDialect.loadRows (LOAD DATA, default)', () => resetTable(loadData), () => loadData.loadRows(NAMESPACE, table, batchesOf(rows)));
    const loaderInsert = await best('mysqlDialect.loadRows (multi-row INSERT)', () => resetTable(loadData), () => inserts.loadRows(NAMESPACE, table, batchesOf(rows)));
    const rawLoad = await best('raw LOAD DATA of a pre-built buffer', () => resetTable(loadData), async () => {
      const [result] = await raw.query<mysql.ResultSetHeader>({
        sql: String.raw`LOAD DATA LOCAL INFILE 'bench' INTO TABLE sds_bench_loaders.people CHARACTER SET utf8mb4 FIELDS TERMINATED BY '\t' ESCAPED BY '\\' LINES TERMINATED BY '\n'`,
        infileStreamFactory: () => Readable.from(loadText),
      });
      return result.affectedRows;
    });
    const rawInsert = await best('raw multi-row INSERT (pre-built, 2k rows each)', () => resetTable(loadData), async () => {
      let written = 0;
      await raw.beginTransaction();
      for (const statement of statements) written += (await raw.query<mysql.ResultSetHeader>(statement))[0].affectedRows;
      await raw.commit();
      return written;
    });
    console.log(`  ratio loader (LOAD DATA) / raw LOAD DATA: ${(loader / rawLoad).toFixed(2)}`);
    console.log(`  ratio loader (INSERT) / raw INSERT:       ${(loaderInsert / rawInsert).toFixed(2)}`);
    console.log(`  ratio loader LOAD DATA / loader INSERT:   ${(loader / loaderInsert).toFixed(2)}`);
  } finally {
    await raw.end();
    await loadData.dropNamespace(NAMESPACE);
    await loadData.close();
    await inserts.close();
  }
}

console.log(`Generating ${ROWS.toLocaleString('en-US')} rows of ${table.columns.length} columns; best of ${RUNS} runs each.`);
const rows = generateRows(ROWS);
if (args.only !== 'mysql') await benchPostgres(rows);
if (args.only !== 'postgres') await benchMysql(rows);
