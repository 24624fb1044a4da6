// Introspection benchmark: a generated schema of 200 tables (columns of every type class, primary,
// unique and foreign keys, indexes, CHECKs, comments) introspected into a schema config, end to end
// (connect, read the catalog, map, validate), on PostgreSQL and MariaDB/MySQL; every run printed.
// Baseline, same run: connecting and counting the schema's columns in information_schema, the least
// any introspection has to do. Target: under 2 s for 200 tables.
// Usage: npm run bench:introspection -- [--tables=200] [--runs=5] [--only=postgres|mysql]
import pg from 'pg';
import mysql from 'mysql2/promise';
import { mysqlPoolOptions } from '../src/dialects/mysql/mysql-dialect.ts';
import { introspectDatabase } from '../src/introspection/introspect.ts';
import { answerHelp } from './bench-usage.ts';

answerHelp(`Usage: npm run bench:introspection -- [--tables=200] [--runs=5] [--only=postgres|mysql]
Introspects a generated schema of --tables tables (about 12 columns each, keys, foreign keys,
indexes, CHECKs, comments) into a schema config, --runs times per engine, and prints every run,
against a baseline measured in the same run (connect and count the schema's columns). Target: < 2 s.
Targets: PG_TARGET_URL (default postgres://postgres@127.0.0.1:5432/test), MYSQL_URL (default mysql://root@127.0.0.1:3306/test);
the schema is created in sds_bench_introspection and dropped at the end.
  --help  this text`);
const args = Object.fromEntries(process.argv.slice(2).map((arg) => arg.replace(/^--/, '').split('=') as [string, string]));
for (const name of Object.keys(args)) {
  if (!['tables', 'runs', 'only'].includes(name)) {
    console.error(`unknown argument --${name} (see --help)`);
    process.exit(2);
  }
}
const TABLES = Number(args.tables ?? 200);
const RUNS = Number(args.runs ?? 5);
const TARGET_MS = 2_000;
const PG_URL = process.env.PG_TARGET_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const MYSQL_URL = process.env.MYSQL_URL ?? 'mysql://root@127.0.0.1:3306/test';
const NAMESPACE = 'sds_bench_introspection';

type Engine = 'postgres' | 'mysql';

/** DDL of table i: references up to two earlier tables, so the schema is one connected graph. */
function tableDdl(engine: Engine, i: number): string[] {
  const name = `t${String(i).padStart(3, '0')}`;
  const pg = engine === 'postgres';
  const columns = [
    pg ? 'id serial PRIMARY KEY' : 'id INT AUTO_INCREMENT PRIMARY KEY',
    'code varchar(20) NOT NULL',
    'title varchar(200) NOT NULL',
    'body text',
    'amount numeric(10, 2) NOT NULL CHECK (amount >= 0)',
    'quantity integer NOT NULL CHECK (quantity BETWEEN 0 AND 1000)',
    `status varchar(10) NOT NULL CHECK (status IN ('new', 'open', 'closed'))`,
    pg ? 'active boolean NOT NULL DEFAULT true' : 'active tinyint(1) NOT NULL DEFAULT 1',
    'born date',
    pg ? 'created_at timestamptz NOT NULL' : 'created_at datetime(3) NOT NULL',
    pg ? 'uid uuid NOT NULL' : 'uid char(36) NOT NULL',
    pg ? 'extra jsonb' : 'extra json',
  ];
  const parents = [i - 1, Math.floor(i / 2)].filter((parent, index, all) => parent >= 0 && all.indexOf(parent) === index);
  for (const parent of parents) columns.push(`ref_${parent} integer ${parent === i - 1 ? 'NOT NULL' : 'NULL'}`);
  const constraints = [
    `CONSTRAINT ${name}_code_key UNIQUE (code)`,
    ...parents.map((parent) => `CONSTRAINT ${name}_ref_${parent}_fkey FOREIGN KEY (ref_${parent}) REFERENCES t${String(parent).padStart(3, '0')} (id) ON DELETE CASCADE`),
  ];
  const comment = pg ? [`COMMENT ON TABLE ${name} IS 'Table ${i}'`] : [];
  return [`CREATE TABLE ${name} (\n  ${[...columns, ...constraints].join(',\n  ')}\n)${pg ? '' : ` COMMENT='Table ${i}'`}`, `CREATE INDEX ${name}_title_idx ON ${name} (title, created_at)`, ...comment];
}

async function createSchema(engine: Engine): Promise<void> {
  const statements = Array.from({ length: TABLES }, (_, i) => tableDdl(engine, i)).flat();
  if (engine === 'postgres') {
    const client = new pg.Client({ connectionString: PG_URL });
    await client.connect();
    try {
      await client.query(`DROP SCHEMA IF EXISTS ${NAMESPACE} CASCADE; CREATE SCHEMA ${NAMESPACE}; SET search_path TO ${NAMESPACE}; ${statements.join(';\n')}; ANALYZE`);
    } finally {
      await client.end();
    }
    return;
  }
  const connection = await mysql.createConnection({ ...mysqlPoolOptions(MYSQL_URL), multipleStatements: true });
  try {
    await connection.query(`DROP DATABASE IF EXISTS ${NAMESPACE}; CREATE DATABASE ${NAMESPACE}; USE ${NAMESPACE}; ${statements.join(';\n')}`);
  } finally {
    await connection.end();
  }
}

async function dropSchema(engine: Engine): Promise<void> {
  if (engine === 'postgres') {
    const client = new pg.Client({ connectionString: PG_URL });
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS ${NAMESPACE} CASCADE`).finally(() => client.end());
    return;
  }
  const connection = await mysql.createConnection(mysqlPoolOptions(MYSQL_URL));
  await connection.query(`DROP DATABASE IF EXISTS ${NAMESPACE}`).finally(() => connection.end());
}

/** Connect, count the columns of the schema, disconnect. */
async function baseline(engine: Engine): Promise<number> {
  if (engine === 'postgres') {
    const client = new pg.Client({ connectionString: PG_URL });
    await client.connect();
    try {
      const { rows } = await client.query('SELECT count(*)::int AS n FROM information_schema.columns WHERE table_schema = $1', [NAMESPACE]);
      return rows[0].n as number;
    } finally {
      await client.end();
    }
  }
  const connection = await mysql.createConnection(mysqlPoolOptions(MYSQL_URL));
  try {
    const [rows] = await connection.query('SELECT COUNT(*) AS n FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = ?', [NAMESPACE]);
    return Number((rows as Array<{ n: number }>)[0]!.n);
  } finally {
    await connection.end();
  }
}

async function time<T>(work: () => Promise<T>): Promise<{ ms: number; result: T }> {
  const started = performance.now();
  const result = await work();
  return { ms: performance.now() - started, result };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const format = (values: number[]) => values.map((value) => value.toFixed(0)).join(', ');

let failed = false;
for (const engine of ['postgres', 'mysql'] as const) {
  if (args.only && args.only !== engine) continue;
  const url = engine === 'postgres' ? PG_URL : MYSQL_URL;
  await createSchema(engine);
  try {
    const baselines: number[] = [];
    const runs: number[] = [];
    let summary = '';
    for (let run = 0; run < RUNS; run++) {
      const base = await time(() => baseline(engine));
      baselines.push(base.ms);
      const { ms, result } = await time(() => introspectDatabase(url, { namespace: NAMESPACE }));
      runs.push(ms);
      const fields = result.config.entities.reduce((sum, entity) => sum + entity.fields.length, 0);
      summary = `${result.config.entities.length} entities, ${fields} fields (baseline counted ${base.result} columns), ${result.warnings.length} warnings`;
    }
    const ratio = median(runs) / median(baselines);
    const verdict = median(runs) < TARGET_MS ? 'under' : 'OVER';
    console.log(`${engine}: ${summary}`);
    console.log(`  introspection ms: ${format(runs)} (median ${median(runs).toFixed(0)}, ${verdict} the ${TARGET_MS} ms target)`);
    console.log(`  baseline ms:      ${format(baselines)} (median ${median(baselines).toFixed(0)}; introspection ${ratio.toFixed(1)}× the baseline)`);
    if (median(runs) >= TARGET_MS) failed = true;
  } finally {
    await dropSchema(engine);
  }
}
process.exit(failed ? 1 : 0);
