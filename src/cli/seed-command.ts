// `sds seed`: fill the existing tables of a live database (the ones your migrations made) with a
// config's rows, in place, never changing their definition. Connection strings are used, never printed.
import { InvalidArgumentError, type Command } from 'commander';
import { DIALECT_FACTS } from '../dialects/facts.ts';
import { parseRowCounts } from '../files/workers-ahead.ts';
import { GENERATOR_VERSIONS, LATEST_GENERATOR_VERSION, type GeneratorVersion } from '../generation/plan.ts';
import type { SeedSummary } from '../seed/run-seed.ts';
import { loadConfigFile, positiveInteger } from './generation-commands.ts';

interface SeedCommandOptions {
  databaseUrl: string;
  schema?: string;
  database?: string;
  seed?: string;
  rows?: Record<string, number>;
  truncate?: boolean;
  dryRun?: boolean;
  batchSize?: number;
  generatorVersion: GeneratorVersion;
  json?: boolean;
}

function rowCounts(value: string): Record<string, number> {
  try {
    return parseRowCounts(value);
  } catch (error) {
    throw new InvalidArgumentError((error as Error).message);
  }
}

function generatorVersion(value: string): GeneratorVersion {
  const version = Number(value);
  if (!GENERATOR_VERSIONS.includes(version as GeneratorVersion)) throw new InvalidArgumentError(`"${value}" is not a generator version (${GENERATOR_VERSIONS.join(', ')})`);
  return version as GeneratorVersion;
}

function printPlan(summary: SeedSummary): void {
  const inCycle = new Set(summary.cycles.flatMap((cycle) => cycle.tables));
  for (const table of summary.tables) {
    const rows = summary.dryRun ? `${table.rowsPlanned} rows planned` : `${table.rowsInserted} rows`;
    const before = table.rowsBefore > 0 ? `, ${table.rowsBefore} before` : '';
    console.log(`${table.table}: ${rows}${before}`);
    for (const left of table.leftToDatabase) console.log(`  ${left.column}: left to the database (${left.because})`);
    if (table.deferredColumns.length) {
      console.log(`  ${table.deferredColumns.join(', ')}: ${inCycle.has(table.table) ? 'written with the rows, pointing to rows loaded with them (NOT NULL cycle below)' : 'filled after every row exists'}`);
    }
    if (table.counters.length) console.log(`  ${table.counters.join(', ')}: counter moved past the keys loaded`);
  }
  for (const cycle of summary.cycles) {
    const how = {
      'deferred-constraints': `constraints ${cycle.constraints.map((constraint) => constraint.name).join(', ')} deferred until the cycle is loaded`,
      'one-statement': 'rows staged in temporary tables, then inserted in one statement (the foreign keys are not deferrable)',
      'checks-off': 'foreign-key checks off for this session while they load, then every reference checked',
    }[cycle.method];
    console.log(`NOT NULL cycle ${cycle.columns.join(', ')}: ${cycle.tables.join(', ')} load with complete rows, ${how}`);
  }
  if (summary.truncated.length) console.log(`${summary.dryRun ? 'to be emptied first' : 'emptied first'} (children first): ${summary.truncated.join(', ')}`);
}

export function registerSeedCommand(program: Command): void {
  program
    .command('seed')
    .argument('<config>', 'schema config file (JSON), e.g. from `sds init --from-database` on the same database')
    .requiredOption('--database-url <url>', `the database whose tables to fill: ${Object.values(DIALECT_FACTS).map((facts) => facts.urlExample).join(' or ')}`)
    .option('--schema <name>', 'PostgreSQL schema (default: the connection\'s, usually public)')
    .option('--database <name>', 'MySQL database (default: the one in the URL)')
    .option('--seed <seed>', 'seed (overrides the config)')
    .option('--rows <entity=count,…>', 'row counts per entity (override the config)', rowCounts)
    .option('--truncate', 'empty the config\'s tables first (children first, in the same transaction) instead of refusing tables that hold rows')
    .option('--dry-run', 'print the plan (tables, rows, order, what is left to the database, what is emptied) and write nothing')
    .option('--batch-size <n>', 'rows per batch', positiveInteger)
    .option('--generator-version <n>', 'generator version (as sds generate; default the latest)', generatorVersion, LATEST_GENERATOR_VERSION)
    .option('--json', 'print the summary (or the refusal) as JSON')
    .description('fill the existing tables of a database in place, in one transaction; refuses a drifted database and tables that hold rows (unless --truncate)')
    .action(async (file: string, options: SeedCommandOptions) => {
      if (options.schema !== undefined && options.database !== undefined) throw new Error('give --schema (PostgreSQL) or --database (MySQL), not both');
      const config = loadConfigFile(file, true);
      const [{ dialectOfUrl, connectionFailure }, { runSeed }, { SeedRefusal }] = await Promise.all([
        import('../introspection/read-catalog.ts'),
        import('../seed/run-seed.ts'),
        import('../seed/seed-errors.ts'),
      ]);
      const dialect = dialectOfUrl(options.databaseUrl);
      const connection = await dialect.connect(options.databaseUrl).catch((error: unknown) => {
        throw connectionFailure(dialect, error, true);
      });
      try {
        const summary = await runSeed(connection, config, {
          namespace: options.schema ?? options.database,
          seed: options.seed,
          rowCounts: options.rows,
          truncate: options.truncate,
          dryRun: options.dryRun,
          batchSize: options.batchSize,
          generatorVersion: options.generatorVersion,
        });
        if (options.json) {
          console.log(JSON.stringify(summary, null, 2));
          return;
        }
        for (const warning of summary.warnings) console.error(`warning ${warning.path}  ${warning.message}`);
        printPlan(summary);
        const seconds = summary.durationMs / 1000;
        console.log(
          summary.dryRun
            ? `dry run: ${summary.rowsPlanned} rows planned into ${summary.tables.length} tables of ${summary.namespace}; nothing written`
            : `${summary.rowsInserted} rows into ${summary.tables.length} tables of ${summary.namespace} in ${seconds.toFixed(2)} s, seed ${summary.seed}`,
        );
      } catch (error) {
        if (!(error instanceof SeedRefusal)) throw error;
        if (options.json) console.log(JSON.stringify({ refused: error.kind, error: error.message, details: error.details }, null, 2));
        else for (const line of error.details) console.error(`  ${line}`);
        throw error;
      } finally {
        await connection.close();
      }
    });
}
