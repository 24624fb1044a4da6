// Seed benchmark: `sds seed` of the 610k-row config (users 100k, products 10k, orders 500k at
// --scale 1) into existing tables that already have their primary, unique and secondary keys and
// foreign keys, on PostgreSQL and MariaDB/MySQL, end to end (read the catalog, drift and emptiness
// checks, generate, COPY / LOAD DATA, move the counters, commit). Baseline, same run and same tables:
// the same rows, encoded beforehand, loaded raw by COPY / LOAD DATA in one transaction (no
// generation, no checks). Every round is printed; the target is seed ≥ 0.5 × the raw rows/s.
// Usage: npm run bench:seed -- [--scale=1] [--rounds=3] [--only=postgres|mysql]
import mysql from 'mysql2/promise';
import pg from 'pg';
import type { SchemaConfig } from '../src/contract.ts';
import type { TargetConnection, TextChunk } from '../src/dialects/dialect.ts';
import { connectMysql, mysqlPoolOptions } from '../src/dialects/mysql/mysql-dialect.ts';
import { connectPostgres } from '../src/dialects/postgres/postgres-dialect.ts';
import { DataGenerator } from '../src/generation/generator.ts';
import { planGeneration } from '../src/generation/plan.ts';
import { runSeed } from '../src/seed/run-seed.ts';
import { generationBenchConfig } from './bench-configs.ts';
import { answerHelp } from './bench-usage.ts';

answerHelp(`Usage: npm run bench:seed -- [--scale=1] [--rounds=3] [--only=postgres|mysql]
Seeds the 610k-row config (×--scale) into existing tables with their keys, indexes and foreign keys,
--rounds times per engine, each round against raw COPY / LOAD DATA of the same rows (encoded
beforehand, loaded in one transaction into the same tables), and prints every round. Target: the
seed's rows/s at least 0.5 of the raw load's.
Targets: PG_TARGET_URL (default postgres://postgres@127.0.0.1:5432/test), MYSQL_URL (default mysql://root@127.0.0.1:3306/test);
the tables are created in sds_bench_seed and dropped at the end.
  --help  this text`);
const args = Object.fromEntries(process.argv.slice(2).map((arg) => arg.replace(/^--/, '').split('=') as [string, string]));
for (const name of Object.keys(args)) {
  if (!['scale', 'rounds', 'only'].includes(name)) {
    console.error(`unknown argument --${name} (see --help)`);
    process.exit(2);
  }
}
const SCALE = Number(args.scale ?? 1);
const ROUNDS = Number(args.rounds ?? 3);
const TARGET_RATIO = 0.5;
const PG_URL = process.env.PG_TARGET_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const MYSQL_URL = process.env.MYSQL_URL ?? 'mysql://root@127.0.0.1:3306/test';
const NAMESPACE = 'sds_bench_seed';
const VERSION = 3;

type Engine = 'postgres' | 'mysql';

async function timed<T>(work: () => Promise<T>): Promise<[T, number]> {
  const started = process.hrtime.bigint();
  const result = await work();
  return [result, Number(process.hrtime.bigint() - started) / 1e9];
}

/** Empties the tables outside any measured time: TRUNCATE (MySQL: with the foreign-key checks off for this session). */
async function emptyTables(engine: Engine, tables: string[]): Promise<void> {
  if (engine === 'postgres') {
    const client = new pg.Client({ connectionString: PG_URL });
    await client.connect();
    try {
      await client.query(`TRUNCATE ${tables.map((table) => `"${NAMESPACE}"."${table}"`).join(', ')}`);
    } finally {
      await client.end();
    }
    return;
  }
  const connection = await mysql.createConnection(mysqlPoolOptions(MYSQL_URL));
  try {
    await connection.query('SET SESSION foreign_key_checks = 0');
    for (const table of tables) await connection.query(`TRUNCATE TABLE \`${NAMESPACE}\`.\`${table}\``);
  } finally {
    await connection.end();
  }
}

/** Every table's rows as the loader's text, parents first, made before anything is timed. */
async function encodeRows(connection: TargetConnection, config: SchemaConfig): Promise<{ table: string; chunks: TextChunk[]; rows: number }[]> {
  const plan = planGeneration(config, { generatorVersion: VERSION });
  const generator = new DataGenerator(config, plan);
  return connection.loadTransaction(async (tx) => {
    if (!tx.textLoader) throw new Error('the connection has no text loader (LOAD DATA refused?): no raw baseline');
    const loader = tx.textLoader;
    return plan.entities.map((entity) => {
      const chunks = [...generator.textChunks(entity.id, 5_000, loader.encoder(entity.table))];
      return { table: entity.id, chunks, rows: generator.produced.get(entity.id) ?? 0 };
    });
  });
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const perSecond = (rows: number, seconds: number) => Math.round(rows / seconds).toLocaleString('en');

let failed = false;
for (const engine of ['postgres', 'mysql'] as const) {
  if (args.only && args.only !== engine) continue;
  const config = generationBenchConfig(SCALE, 'bench-seed');
  const connection = engine === 'postgres' ? await connectPostgres(PG_URL) : await connectMysql(MYSQL_URL);
  const plan = planGeneration(config, { generatorVersion: VERSION });
  const tables = plan.entities.map((entity) => entity.table);
  try {
    // The application's tables: every key, index and foreign key in place before any row arrives.
    await connection.recreateNamespace(NAMESPACE);
    await connection.createTables(NAMESPACE, tables);
    await connection.finalizeTables(NAMESPACE, tables);
    const [encoded, encodeSeconds] = await timed(() => encodeRows(connection, config));
    const total = encoded.reduce((sum, table) => sum + table.rows, 0);
    console.log(`${engine}: ${total.toLocaleString('en')} rows in ${tables.length} tables with their keys, indexes and foreign keys (rows encoded for the raw load in ${encodeSeconds.toFixed(1)} s, untimed)`);
    const raws: number[] = [];
    const seeds: number[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      await emptyTables(engine, tables.map((table) => table.name));
      const [rawRows, raw] = await timed(() =>
        connection.loadTransaction(async (tx) => {
          let written = 0;
          for (const { table, chunks } of encoded) {
            const spec = tables.find((candidate) => candidate.name === table)!;
            written += (await tx.textLoader!.load(NAMESPACE, spec, chunks)) ?? 0;
          }
          return written;
        }),
      );
      if (rawRows !== total) throw new Error(`raw load wrote ${rawRows} rows, expected ${total}`);
      await emptyTables(engine, tables.map((table) => table.name));
      const [summary, seed] = await timed(() => runSeed(connection, config, { namespace: NAMESPACE, generatorVersion: VERSION }));
      if (summary.rowsInserted !== total) throw new Error(`seed wrote ${summary.rowsInserted} rows, expected ${total}`);
      raws.push(raw);
      seeds.push(seed);
      console.log(
        `  round ${round}: seed ${seed.toFixed(2)} s (${perSecond(total, seed)} rows/s), raw ${engine === 'postgres' ? 'COPY' : 'LOAD DATA'} ${raw.toFixed(2)} s (${perSecond(total, raw)} rows/s): seed at ${(raw / seed).toFixed(2)} of raw`,
      );
    }
    const ratio = median(raws) / median(seeds);
    console.log(`  median: seed ${perSecond(total, median(seeds))} rows/s, raw ${perSecond(total, median(raws))} rows/s: ${ratio.toFixed(2)} of raw (target ≥ ${TARGET_RATIO}: ${ratio >= TARGET_RATIO ? 'met' : 'MISSED'})`);
    if (ratio < TARGET_RATIO) failed = true;
  } finally {
    await connection.dropNamespace(NAMESPACE).catch(() => {});
    await connection.close();
  }
}
process.exit(failed ? 1 : 0);
