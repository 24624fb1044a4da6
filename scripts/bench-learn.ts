// Learning benchmark: a generated database of 10 tables (numbers, prices, statuses, dates with an
// order rule, a derived total, each table referencing the one before, the sum of a row's children's
// totals) profiled by `sds init --learn` end to end (connect, catalog, profile, fit, order rules,
// formulas, sums over children, validate), on PostgreSQL and
// MariaDB/MySQL; every run printed. Baseline, same run: SELECT count(*) over the same tables, the
// least any profiling has to read. The target is 2M rows in under 10 s (--rows=2000000).
// Usage: npm run bench:learn -- [--rows=200000] [--runs=3] [--only=postgres|mysql]
import { loadavg } from 'node:os';
import { learnDatabase } from '../src/learn/learn-database.ts';
import { answerHelp } from './bench-usage.ts';
import { buildTables, dropTables, openSession, type Session } from './bench-learn-tables.ts';

answerHelp(`Usage: npm run bench:learn -- [--rows=200000] [--runs=3] [--only=postgres|mysql]
Builds 10 tables holding --rows rows in all (10 columns each: an integer, a price, a status, two
ordered datetimes, a quantity, a derived total, a reference to the table before, the sum of its
children's totals), learns them into a config --runs times per engine, and prints every run beside SELECT count(*) over the same tables.
Targets: PG_TARGET_URL (default postgres://postgres@127.0.0.1:5432/test), MYSQL_URL (default mysql://root@127.0.0.1:3306/test);
the tables are created in sds_bench_learn (BENCH_NAMESPACE: another name) and dropped at the end.
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
/** BENCH_NAMESPACE: another name, for benchmarks run at once on one server (another run's DROP would take these tables away). */
const NAMESPACE = process.env.BENCH_NAMESPACE ?? 'sds_bench_learn';

async function countAll(session: Session): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < TABLES; i++) await session.query(`SELECT count(*) FROM ${NAMESPACE}.t${i}`);
  return performance.now() - started;
}

for (const engine of ['postgres', 'mysql'] as const) {
  if (args.only && args.only !== engine) continue;
  const url = engine === 'postgres' ? PG_URL : MYSQL_URL;
  const session = await openSession(engine, url);
  try {
    const building = performance.now();
    await buildTables(engine, session, NAMESPACE, ROWS, TABLES);
    const perTable = Math.max(1, Math.floor(ROWS / TABLES));
    console.log(`${engine}: ${TABLES} tables, ${perTable * TABLES} rows built in ${((performance.now() - building) / 1000).toFixed(1)} s`);
    for (let run = 1; run <= RUNS; run++) {
      const baseline = await countAll(session);
      const started = performance.now();
      const learned = await learnDatabase(url, { namespace: NAMESPACE });
      const learning = performance.now() - started;
      const orders = learned.report.tables.reduce((sum, table) => sum + (table.orderRules?.length ?? 0), 0);
      const formulas = learned.report.tables.reduce((sum, table) => sum + (table.formulas?.length ?? 0), 0);
      const childrenSums = learned.report.tables.reduce((sum, table) => sum + (table.childrenSums?.length ?? 0), 0);
      console.log(
        `${engine} run ${run}: learn ${(learning / 1000).toFixed(2)} s, SELECT count(*) over the same tables ${(baseline / 1000).toFixed(3)} s ` +
          `(×${(learning / baseline).toFixed(1)}); ${learned.report.columns.length} columns, ${orders} order rules, ${formulas} formulas, ${childrenSums} sums over children, ` +
          `${learned.report.tables.filter((table) => table.sampled !== undefined).length} tables sampled; load ${loadavg()[0]!.toFixed(1)}`,
      );
    }
  } finally {
    await dropTables(engine, session, NAMESPACE).catch(() => {});
    await session.close();
  }
}
