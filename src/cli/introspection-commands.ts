// `sds init` and `sds diff`: a schema config from a live database or from SQL DDL (optionally merged
// into an existing config), and drift between a config and a live database. Connection strings are
// used, never printed.
import fs from 'node:fs';
import path from 'node:path';
import { InvalidArgumentError, type Command } from 'commander';
import type { SchemaConfig, SourceKind } from '../contract.ts';
import { DIALECT_FACTS, ENGINE_KINDS, urlExamples } from '../dialects/facts.ts';
import { EMBEDDED_KIND } from '../store/embedded.ts';
import type { IntrospectedConfig } from '../introspection/introspect.ts';
import type { MergeChange } from '../introspection/merge-config.ts';
import type { PrivacyReport } from '../learn/learn-database.ts';
import { loadConfigFile, positiveInteger } from './generation-commands.ts';
import { plural } from '../json-syntax.ts';

/** What these commands run on, loaded when one of them runs (`sds --help` and the other commands load none of it). */
async function introspection() {
  const [config, dialects, ddl, diff, introspect, errors, merge, embedded] = await Promise.all([
    import('../settings.ts'),
    import('../dialects/index.ts'),
    import('../introspection/ddl-import.ts'),
    import('../introspection/diff-config.ts'),
    import('../introspection/introspect.ts'),
    import('../introspection/introspection-errors.ts'),
    import('../introspection/merge-config.ts'),
    import('../store/embedded.ts'),
  ]);
  const [learn, fidelity] = await Promise.all([import('../learn/learn-database.ts'), import('../learn/fidelity-report.ts')]);
  return {
    loadSettings: config.loadSettings,
    dialectOfKind: dialects.dialectOfKind,
    introspectSql: ddl.introspectSql,
    describeDifferences: diff.describeDifferences,
    diffConfigs: diff.diffConfigs,
    introspectDatabase: introspect.introspectDatabase,
    introspectionErrors: errors.introspectionErrors,
    mergeConfigs: merge.mergeConfigs,
    startEmbeddedPostgres: embedded.startEmbeddedPostgres,
    learnDatabase: learn.learnDatabase,
    fidelityReport: fidelity.fidelityReport,
  };
}

interface NamespaceOptions {
  schema?: string;
  database?: string;
}

interface InitOptions extends NamespaceOptions {
  fromDatabase?: string;
  fromSql?: string;
  dialect?: SourceKind;
  tables?: string[];
  rows?: number;
  rowsFromStatistics?: number;
  merge?: string;
  out?: string;
  scratchUrl?: string;
  json?: boolean;
  learn?: boolean;
  scale?: number;
  minCount?: number;
  lookups?: boolean;
}

function scaleFactor(value: string): number {
  const number = Number(value);
  if (!Number.isFinite(number) || number <= 0 || number > 1000) throw new InvalidArgumentError(`"${value}" is not a scale factor (a number > 0, at most 1000)`);
  return number;
}

/** The privacy report as lines on standard error: per column what was learned, and which values were copied under which rule. */
function printPrivacyReport(report: PrivacyReport): void {
  console.error(`learned with min count ${report.minCount} (a value is copied only when at least ${report.minCount} rows hold it), scale ${report.scale}, lookups ${report.lookups ? 'copied' : 'not copied'}`);
  for (const table of report.tables) {
    console.error(`learned ${table.table}: ${table.rows} rows → ${table.rowCount}${table.sampled !== undefined ? ` (profiled on a sample of ${table.sampled})` : ''}`);
  }
  for (const column of report.columns) {
    const copied = column.copied?.length ? `; copied (${column.rule}): ${column.copied.map((value) => JSON.stringify(value)).join(', ')}` : '';
    const dropped = column.dropped ? `; ${plural(column.dropped, 'value')} held by fewer than ${report.minCount} rows left out` : '';
    const nulls = column.nullShare ? `; null in ${column.nullShare} of rows` : '';
    console.error(`learned ${column.table}.${column.column}: ${column.learned} [${column.rule}]${copied}${dropped}${nulls}`);
  }
}

const MAX_ROWS = 100_000_000;

function rowCount(value: string): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 0 || number > MAX_ROWS) throw new InvalidArgumentError(`"${value}" is not a row count (0 to ${MAX_ROWS})`);
  return number;
}

function tableList(value: string): string[] {
  const names = value.split(',').map((name) => name.trim()).filter(Boolean);
  if (names.length === 0) throw new InvalidArgumentError('name at least one table');
  return names;
}

function engine(value: string): SourceKind {
  if ((ENGINE_KINDS as readonly string[]).includes(value)) return value as SourceKind;
  throw new InvalidArgumentError(`"${value}" is not a dialect: use ${ENGINE_KINDS.join(' or ')}`);
}

/** `or MYSQL_URL for mysql`: where the DDL of engines other than the embedded server's runs. */
function defaultScratchServers(): string {
  const others = (Object.entries(DIALECT_FACTS) as [SourceKind, (typeof DIALECT_FACTS)[SourceKind]][]).filter(([kind]) => kind !== EMBEDDED_KIND);
  return others.map(([kind, facts]) => `or ${facts.defaultTargetEnv} for ${kind}`).join(', ');
}

function namespaceOf(options: NamespaceOptions): string | undefined {
  if (options.schema !== undefined && options.database !== undefined) throw new Error('give --schema (PostgreSQL) or --database (MySQL), not both');
  return options.schema ?? options.database;
}

/** Runs a DDL file on a server of its dialect: --scratch-url, else the embedded PostgreSQL or the engine's default target (MYSQL_URL). */
async function fromSql(file: string, options: InitOptions): Promise<IntrospectedConfig> {
  if (!options.dialect) throw new Error(`--from-sql needs ${ENGINE_KINDS.map((kind) => `--dialect ${kind}`).join(' or ')}`);
  let script: string;
  try {
    script = fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new Error(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  const { loadSettings, dialectOfKind, introspectSql, introspectionErrors, startEmbeddedPostgres } = await introspection();
  const settings = loadSettings();
  const dialect = dialectOfKind(options.dialect);
  const common = { dialect, namespace: namespaceOf(options), tables: options.tables, rows: options.rows, rowsFromStatistics: options.rowsFromStatistics, sourceLabel: `SQL file ${path.basename(file)}` };
  if (options.scratchUrl) return introspectSql(script, { ...common, serverUrl: options.scratchUrl });
  if (dialect.kind !== EMBEDDED_KIND) {
    // DDL of another engine than the embedded server's runs on that engine's default target; the embedded engine's always runs on the embedded server.
    const serverUrl = settings.targetUrls[dialect.kind];
    const { label, defaultTargetEnv } = dialect.facts;
    if (!serverUrl) {
      throw introspectionErrors.noScratchServer(`${label} DDL runs on a ${label} server: set ${defaultTargetEnv} (or give --scratch-url) to one where sds may create a database`);
    }
    return introspectSql(script, { ...common, serverUrl });
  }
  const embedded = await startEmbeddedPostgres(settings.dataDir);
  try {
    return await introspectSql(script, { ...common, serverUrl: embedded.url });
  } finally {
    await embedded.stop();
  }
}

function printWarnings(warnings: { message: string }[]): void {
  for (const warning of warnings) console.error(`warning ${warning.message}`);
}

export function registerIntrospectionCommands(program: Command): void {
  program
    .command('init')
    .description('write a schema config from a live database or from SQL DDL (exits 0 with warnings for what the config cannot express)')
    .option('--from-database <url>', `introspect a live database: ${Object.values(DIALECT_FACTS).map((facts) => facts.urlExample).join(' or ')}`)
    .option('--from-sql <file>', 'run a DDL file in a throw-away database and introspect that (pg_dump --schema-only, mysqldump --no-data, ORM output)')
    .option(`--dialect <${ENGINE_KINDS.join('|')}>`, 'the dialect of --from-sql', engine)
    .option('--schema <name>', 'PostgreSQL schema to introspect (default: the connection\'s, usually public)')
    .option('--database <name>', 'MySQL database to introspect (default: the one in the URL)')
    .option('--tables <a,b,c>', 'only these tables', tableList)
    .option('--rows <n>', 'rows of every entity (default 100)', rowCount)
    .option('--rows-from-statistics <total>', 'share this many rows out in proportion to the database\'s own row statistics', positiveInteger)
    .option('--merge <config>', 'update this existing config: new tables and columns added, dropped ones removed (with --tables: only those tables), hand-written settings kept')
    .option('--out <file>', 'write the config here (default: standard output)')
    .option('--scratch-url <url>', `server that runs --from-sql (default: the embedded PostgreSQL, ${defaultScratchServers()})`)
    .option('--learn', 'with --from-database: learn the shape of the rows too (row counts, distributions, categories, children per parent), copying only values at least --min-count rows hold; prints a privacy report')
    .option('--scale <factor>', 'with --learn: multiply every table\'s row count (default 1)', scaleFactor)
    .option('--min-count <k>', 'with --learn: copy a value only when at least k rows hold it (default 5)', positiveInteger)
    .option('--no-lookups', 'with --learn: do not copy the labels of small lookup tables')
    .option('--json', 'print {schema, warnings, changes} as JSON on standard output (the config still goes to --out); with --learn also privacyReport')
    .action(async (options: InitOptions) => {
      if ((options.fromDatabase === undefined) === (options.fromSql === undefined)) throw new Error('give one of --from-database <url> or --from-sql <file>');
      if (options.rows !== undefined && options.rowsFromStatistics !== undefined) throw new Error('give --rows or --rows-from-statistics, not both');
      if (!options.learn && (options.scale !== undefined || options.minCount !== undefined || options.lookups === false)) throw new Error('--scale, --min-count and --no-lookups go with --learn');
      if (options.learn && !options.fromDatabase) throw new Error('--learn needs --from-database <url>: it reads the rows of a live database');
      if (options.learn && (options.rows !== undefined || options.rowsFromStatistics !== undefined || options.merge !== undefined)) {
        throw new Error('--learn takes its row counts from the database (use --scale); --rows, --rows-from-statistics and --merge do not go with it');
      }
      const existing = options.merge === undefined ? undefined : loadConfigFile(options.merge, true);
      const { introspectDatabase, mergeConfigs, learnDatabase } = await introspection();
      const learned = options.learn
        ? await learnDatabase(options.fromDatabase!, { namespace: namespaceOf(options), tables: options.tables, scale: options.scale, minCount: options.minCount, lookups: options.lookups })
        : undefined;
      const introspected = learned
        ? learned
        : options.fromDatabase
        ? await introspectDatabase(options.fromDatabase, {
            namespace: namespaceOf(options),
            tables: options.tables,
            rows: options.rows,
            rowsFromStatistics: options.rowsFromStatistics,
          })
        : await fromSql(options.fromSql!, options);
      let schema: SchemaConfig = introspected.config;
      let changes: MergeChange[] = [];
      if (existing) {
        // With --tables, the other entities of the existing config are not gone, just not asked about.
        const merged = mergeConfigs(existing, introspected.config, { partial: options.tables !== undefined });
        for (const error of merged.errors) console.error(`error   ${error.path}  ${error.message}`);
        if (merged.errors.length) throw new Error(`the merged config is not valid (${plural(merged.errors.length, 'error')}); ${options.merge} is unchanged`);
        ({ config: schema, changes } = merged);
      }
      if (options.out) fs.writeFileSync(options.out, `${JSON.stringify(schema, null, 2)}\n`);
      if (options.json) {
        console.log(JSON.stringify({ schema, warnings: introspected.warnings, ...(existing ? { changes } : {}), ...(learned ? { privacyReport: learned.report } : {}) }, null, 2));
        return;
      }
      if (!options.out) console.log(JSON.stringify(schema, null, 2));
      printWarnings(introspected.warnings);
      if (learned) printPrivacyReport(learned.report);
      for (const change of changes) console.error(`changed ${change.message}`);
      const fields = schema.entities.reduce((sum, entity) => sum + entity.fields.length, 0);
      const where = options.out ? `wrote ${options.out}` : 'config written to standard output';
      console.error(`${where}: ${schema.entities.length} entities, ${fields} fields, ${introspected.warnings.length} warnings${existing ? `, ${changes.length} changes` : ''}`);
    });

  program
    .command('fidelity')
    .argument('<config>', 'schema config file (JSON), e.g. one written by sds init --learn')
    .requiredOption('--database-url <url>', `the real database the config imitates: ${urlExamples()}`)
    .option('--schema <name>', 'PostgreSQL schema of the real tables (default: the connection\'s, usually public)')
    .option('--database <name>', 'MySQL database of the real tables (default: the one in the URL)')
    .option('--max-rows <n>', 'rows compared per table at most (default 100000)', positiveInteger)
    .option('--json', 'print the report as JSON')
    .description('generate the config\'s rows in memory and score them against the real tables: column shapes (1 − KS, 1 − TVD), null shares, children per parent')
    .action(async (file: string, options: NamespaceOptions & { databaseUrl: string; maxRows?: number; json?: boolean }) => {
      const config = loadConfigFile(file, true);
      const { fidelityReport } = await introspection();
      const report = await fidelityReport(config, options.databaseUrl, { namespace: namespaceOf(options), maxRows: options.maxRows });
      if (options.json) {
        console.log(JSON.stringify(report, null, 2));
        return;
      }
      const figure = (value: number | null) => (value === null ? 'n/a' : value.toFixed(3));
      console.log(`fidelity of ${file}: overall ${figure(report.overall)} (column shapes ${figure(report.columnShapes)}, pair trends ${figure(report.pairTrends)}, cardinality ${figure(report.cardinality)}; null shares ${figure(report.nullRates)})`);
      for (const table of report.tables) console.log(`table ${table.table}: ${table.realRows} real rows, ${table.generatedRows} generated`);
      for (const column of report.columns) console.log(`  ${column.table}.${column.column}: ${column.metric} ${figure(column.score)}${column.nullRate === undefined ? '' : `, null share ${figure(column.nullRate)}`}`);
      for (const pair of report.pairs) console.log(`  ${pair.table}.${pair.columns.join(' ~ ')}: rank correlation ${pair.real.toFixed(2)} real, ${pair.generated === null ? 'n/a' : pair.generated.toFixed(2)} generated: ${figure(pair.score)}`);
      for (const rule of report.orderRules) console.log(`  ${rule.table}.${rule.column} never before ${rule.after} in the real rows: ${(rule.generatedShare * 100).toFixed(1)}% of generated rows keep it`);
      if (report.worst.length) console.log(`worst: ${report.worst.map((column) => `${column.table}.${column.column} ${figure(column.score)}`).join(', ')}`);
      for (const entry of report.privacy) console.log(`privacy ${entry.table}.${entry.column}: ${(entry.realValuesReproduced * 100).toFixed(1)}% of generated values are real ones`);
      for (const note of report.skipped) console.error(`skipped ${note}`);
    });

  program
    .command('diff')
    .argument('<config>', 'schema config file (JSON)')
    .requiredOption('--database-url <url>', `the live database: ${urlExamples()}`)
    .option('--schema <name>', 'PostgreSQL schema (default: the connection\'s, usually public)')
    .option('--database <name>', 'MySQL database (default: the one in the URL)')
    .option('--json', 'print {drift, differences, warnings} as JSON')
    .description('compare a config with a live database: every table, column, type class, nullability, key and reference that differs; exits 1 on drift')
    .action(async (file: string, options: NamespaceOptions & { databaseUrl: string; json?: boolean }) => {
      const config = loadConfigFile(file, true);
      const { introspectDatabase, diffConfigs, describeDifferences } = await introspection();
      const live = await introspectDatabase(options.databaseUrl, { namespace: namespaceOf(options) });
      const differences = diffConfigs(config, live.config);
      if (options.json) console.log(JSON.stringify({ drift: differences.length > 0, differences, warnings: live.warnings }, null, 2));
      else if (differences.length) console.log(`${describeDifferences(differences)}\n\ndrift: ${differences.length} difference${differences.length === 1 ? '' : 's'} between ${file} and the database`);
      else console.log(`no drift: ${file} matches the database (${live.config.metadata?.name ?? ''})`);
      if (differences.length) process.exitCode = 1;
    });
}


