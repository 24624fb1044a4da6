// `sds validate`, `sds generate` and `sds preview`: schema configs from files, straight to a database.
import fs from 'node:fs';
import path from 'node:path';
import cliProgress from 'cli-progress';
import { InvalidArgumentError, type Command } from 'commander';
import type { SchemaConfig } from '../contract.ts';
import type { SourceKind } from '../contract.ts';
import { DIALECT_FACTS, ENGINE_KINDS, kindOfUrl } from '../dialects/facts.ts';
import { parseRowCounts, releaseWorkersAhead, takeConfigReadAhead, takeWorkersAhead, workersToStartAhead } from '../files/workers-ahead.ts';
import { RangeWorkers } from '../files/range-workers.ts';
import { FILE_FORMAT_NAMES, isFileFormat, type FileFormat } from '../files/formats.ts';
import { parseShard, type Shard } from '../files/shard.ts';
import type { ProgressEvent } from '../generation/run.ts';
import type { CoherenceCount } from '../generation/coherence/report.ts';
import { GENERATOR_VERSIONS, LATEST_GENERATOR_VERSION, type GeneratorVersion } from '../generation/plan.ts';
import { VERSIONS } from '../generation/versions.ts';
import { validateConfig, type ValidationResult } from '../config/validate-config.ts';
import { describeJsonSyntaxError, plural } from '../json-syntax.ts';

function readJson(file: string): unknown {
  let text: string;
  try {
    text = takeConfigReadAhead(file) ?? fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new Error(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new Error(`${file} is not JSON: ${describeJsonSyntaxError((error as Error).message, text)}`);
  }
}

function printIssues(result: ValidationResult, file: string): void {
  for (const issue of result.errors) console.error(`error   ${issue.path || '/'}  ${issue.message}`);
  for (const issue of result.warnings) console.error(`warning ${issue.path || '/'}  ${issue.message}`);
  const verdict = result.valid ? 'valid' : 'invalid';
  console.error(`${file}: ${verdict} (${plural(result.errors.length, 'error')}, ${plural(result.warnings.length, 'warning')})`);
}

/** Reads and validates a config file; throws (after printing every error) when it is invalid. */
export function loadConfigFile(file: string, quiet = false): SchemaConfig {
  return checkedConfig(readJson(file), file, quiet);
}

/** `parsed` (the text of `file`) once it is a valid schema config; prints its issues. */
function checkedConfig(parsed: unknown, file: string, quiet = false): SchemaConfig {
  // Validation may repair a copy for its checks; the command gets the config as written.
  const result = validateConfig(structuredClone(parsed));
  if (!result.valid || (!quiet && result.warnings.length)) printIssues(result, file);
  if (!result.valid) throw new Error(`${file} is not a valid schema config`);
  return parsed as SchemaConfig;
}

export function positiveInteger(value: string): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1) throw new InvalidArgumentError(`"${value}" is not a positive integer`);
  return number;
}

function generatorVersion(value: string): GeneratorVersion {
  const version = Number(value);
  if (!GENERATOR_VERSIONS.includes(version as GeneratorVersion)) throw new InvalidArgumentError(`"${value}" is not a generator version (${GENERATOR_VERSIONS.join(', ')})`);
  return version as GeneratorVersion;
}

const GENERATOR_VERSION_HELP = `generator version: ${GENERATOR_VERSIONS.map((version) => `${version} (${VERSIONS[version].changes}${version === LATEST_GENERATOR_VERSION ? '; the default' : ''})`).join(', ')}`;

function rowCounts(value: string): Record<string, number> {
  try {
    return parseRowCounts(value);
  } catch (error) {
    throw new InvalidArgumentError((error as Error).message);
  }
}

/** Namespace for a config file: sds_<file name>, as an identifier. */
function defaultNamespace(file: string): string {
  const base = path.basename(file, path.extname(file)).toLowerCase().replace(/[^a-z0-9_]+/g, '_').replace(/^_+|_+$/g, '');
  return `sds_${base || 'data'}`.slice(0, 40);
}

/**
 * Where `sds generate --database-url` loads, said before it connects: the namespace it creates or
 * replaces, on which server; on MySQL, that a database the URL names only locates the server.
 */
export function loadTargetNotice(url: string, namespace: string, named: boolean): string {
  const kind = kindOfUrl(url);
  if (kind === undefined) return `loading into ${namespace}`;
  const facts = DIALECT_FACTS[kind];
  let server = '';
  let database = '';
  try {
    const parsed = new URL(url);
    server = `${parsed.hostname || 'localhost'}:${parsed.port || facts.defaultPort}`;
    database = decodeURIComponent(parsed.pathname.replace(/^\//, ''));
  } catch {
    // The connection reports a URL it cannot use.
  }
  const where = facts.namespaceField === 'schema' && database ? ` of database "${database}"` : '';
  const on = server ? ` on ${server}` : '';
  const chosen = named ? '' : ` (named after the file; --schema <name> to choose)`;
  const lines = [`loading into ${facts.label} ${facts.namespaceField} "${namespace}"${where}${on}${chosen}: created, or replaced whole if it exists, once every row is in`];
  if (facts.namespaceField === 'database' && database && database !== namespace) {
    lines.push(`the URL's database "${database}" only says which server to reach: the rows go into "${namespace}", not "${database}" (to fill tables that already exist, use sds seed)`);
  }
  return lines.join('\n');
}

function progressReporter(): { onProgress: (event: ProgressEvent) => void; stop: () => void } {
  if (!process.stderr.isTTY) {
    return {
      onProgress: (event) => {
        if (event.type === 'entity.completed') console.error(`${event.entity}: ${event.rowsWritten} rows`);
      },
      stop: () => {},
    };
  }
  const bars = new cliProgress.MultiBar(
    { stream: process.stderr, format: '{entity} [{bar}] {value}/{total} rows', hideCursor: true, clearOnComplete: false },
    cliProgress.Presets.shades_classic,
  );
  const byEntity = new Map<string, cliProgress.SingleBar>();
  return {
    onProgress: (event) => {
      if (event.type === 'phase') return;
      const bar = byEntity.get(event.entity) ?? bars.create(event.rowsPlanned, 0, { entity: event.entity.padEnd(16) });
      byEntity.set(event.entity, bar);
      if (event.type === 'entity.progress') bar.update(event.rowsWritten);
      if (event.type === 'entity.completed') bar.setTotal(event.rowsWritten), bar.update(event.rowsWritten);
    },
    stop: () => bars.stop(),
  };
}

interface GenerateOptions {
  databaseUrl?: string;
  out?: string;
  format: FileFormat;
  dialect: SourceKind;
  gzip?: boolean;
  workers?: number;
  /** Loads in flight at once into a database (runGeneration's streams). */
  streams?: number;
  shard?: Shard;
  schema?: string;
  seed?: string;
  rows?: Record<string, number>;
  batchSize?: number;
  generatorVersion: GeneratorVersion;
  report?: boolean;
  json?: boolean;
}

/** `--report`: how many rows hold each coherence rule. */
async function printCoherence(coherence: CoherenceCount[] | undefined): Promise<void> {
  if (!coherence) return;
  const { formatCoherence, formatRuleTotals } = await import('../generation/coherence/report.ts');
  console.log(coherence.length === 0 ? 'coherence: no field of the config is checked by a rule' : 'coherence (rule, field, against, rows holding it):');
  for (const line of formatCoherence(coherence)) console.log(`  ${line}`);
  if (coherence.length > 0) console.log('by field rule (docs/field-rules.md):');
  for (const line of formatRuleTotals(coherence)) console.log(`  ${line}`);
}

function fileFormat(value: string): FileFormat {
  if (!isFileFormat(value)) throw new InvalidArgumentError(`"${value}" is not a file format (${FILE_FORMAT_NAMES.join(', ')})`);
  return value;
}

function shardOption(value: string): Shard {
  try {
    return parseShard(value);
  } catch (error) {
    throw new InvalidArgumentError((error as Error).message);
  }
}

function sourceKind(value: string): SourceKind {
  if (!(ENGINE_KINDS as readonly string[]).includes(value)) throw new InvalidArgumentError(`"${value}" is not a dialect (${ENGINE_KINDS.join(', ')})`);
  return value as SourceKind;
}

async function generateToFiles(config: SchemaConfig, namespace: string, out: string, options: GenerateOptions, startedWorkers?: RangeWorkers): Promise<void> {
  const progress = progressReporter();
  try {
    // Modules load with the command that needs them: `sds --help` or `sds validate` load none of these.
    const { generateFiles } = await import('../files/generate-files.ts');
    const summary = await generateFiles(config, {
      out,
      format: options.format,
      dialect: options.dialect,
      namespace,
      gzip: options.gzip,
      workers: options.workers,
      shard: options.shard,
      startedWorkers,
      seed: options.seed,
      rowCounts: options.rows,
      generatorVersion: options.generatorVersion,
      report: options.report,
      onProgress: progress.onProgress,
    });
    progress.stop();
    if (options.json) {
      console.log(JSON.stringify(summary, null, 2));
      return;
    }
    for (const warning of summary.warnings) console.error(`warning ${warning.path}  ${warning.message}`);
    console.table(summary.files.map((file) => ({ file: file.path, rows: file.rows, bytes: file.bytes })));
    if (summary.workers > 1) {
      console.log(`rows made on ${summary.workers} threads: this one and ${plural(summary.workers - 1, 'worker thread')}`);
    }
    if (summary.shard) console.log(`shard ${summary.shard.index} of ${summary.shard.count}: its share of every entity's rows (docs/files.md, "Sharding")`);
    if (options.report) await printCoherence(summary.coherence);
    const seconds = summary.durationMs / 1000;
    const megabytes = summary.bytesGenerated / 1e6;
    console.log(
      `${summary.rowsWritten} rows (${megabytes.toFixed(1)} MB ${options.format}) into ${out} in ${seconds.toFixed(2)} s ` +
        `(${Math.round(summary.rowsWritten / Math.max(seconds, 0.001))} rows/s, ${(megabytes / Math.max(seconds, 0.001)).toFixed(1)} MB/s), seed ${summary.seed}`,
    );
  } finally {
    progress.stop();
  }
}

export function registerGenerationCommands(program: Command): void {
  program
    .command('validate')
    .argument('<config>', 'schema config file (JSON)')
    .option('--json', 'print the result as JSON')
    .description('check a schema config: every error and warning with its JSON pointer')
    .action((file: string, options: { json?: boolean }) => {
      const result = validateConfig(readJson(file));
      if (options.json) console.log(JSON.stringify(result, null, 2));
      else printIssues(result, file);
      // Thrown: the CLI's entry point prints it and exits 1.
      if (!result.valid) throw new Error(`${file} is not a valid schema config`);
    });

  program
    .command('generate')
    .argument('<config>', 'schema config file (JSON)')
    .option('--database-url <url>', `load into this database: ${Object.values(DIALECT_FACTS).map((facts) => facts.urlExample).join(' or ')}`)
    .option('--out <dir>', 'write files into this folder instead of a database')
    .option('--format <format>', `file format with --out: ${FILE_FORMAT_NAMES.join(', ')}`, fileFormat, 'csv')
    // The default is the first engine of the registry (PostgreSQL), as it always was.
    .option('--dialect <engine>', `SQL dialect of --format sql: ${ENGINE_KINDS.join(' or ')}`, sourceKind, ENGINE_KINDS[0])
    .option('--gzip', 'compress each file with gzip')
    .option('--workers <n>', 'threads that make rows, this one and n-1 worker threads (default: with --out the cores, up to 8; into a database 1); the files and tables are the same for any number', positiveInteger)
    .option('--streams <n>', 'with --database-url: loads in flight at once, each on a connection of its own (default 1; docs/operations.md, "Running several instances"); the tables are the same for any number', positiveInteger)
    .option('--shard <i/n>', 'with --out: write shard i of n, its share of every entity\'s rows, into part files (docs/files.md, "Sharding")', shardOption)
    .option('--schema <name>', 'namespace to (re)create: a PostgreSQL schema or a MySQL database (default: sds_<file name>)')
    .option('--seed <seed>', 'seed (overrides the config)')
    .option('--rows <entity=count,…>', 'row counts per entity (override the config)', rowCounts)
    .option('--batch-size <n>', 'rows per batch', positiveInteger)
    .option('--generator-version <n>', GENERATOR_VERSION_HELP, generatorVersion, LATEST_GENERATOR_VERSION)
    .option('--report', 'count how many rows hold each coherence rule (with --out: rows made on one thread)')
    .option('--json', 'print the summary as JSON')
    .description(`generate data into ${ENGINE_KINDS.map((kind) => DIALECT_FACTS[kind].label).join(' or ')} (--database-url), or into files (--out)`)
    .action(async (file: string, options: GenerateOptions) => {
      if ((options.databaseUrl === undefined) === (options.out === undefined)) {
        throw new Error('give either --database-url (load into a database) or --out (write files), not both');
      }
      if (options.streams !== undefined && options.out !== undefined) throw new Error('--streams sets the loads into a database at once: leave it out with --out');
      if (options.shard && options.out === undefined) throw new Error('--shard splits a generation into files: give it with --out');
      if (options.shard && options.report) throw new Error('--report counts the rows of one whole generation: leave it out with --shard');
      if (options.out !== undefined) {
        // Worker threads load the generator while this one validates the config (started by the
        // CLI's entry, or here).
        // The file is read once (by the CLI's entry when it started workers ahead).
        const parsed = readJson(file);
        const ahead = workersToStartAhead(parsed, { workers: options.workers, rowCounts: options.rows, report: options.report });
        if (ahead === 0) await releaseWorkersAhead();
        const startedWorkers = ahead > 0 ? ((await takeWorkersAhead(ahead)) ?? RangeWorkers.spawn(ahead)) : undefined;
        let config: SchemaConfig;
        try {
          config = checkedConfig(parsed, file);
        } catch (error) {
          await startedWorkers?.close();
          throw error;
        }
        return generateToFiles(config, options.schema ?? defaultNamespace(file), options.out, options, startedWorkers);
      }
      const config = loadConfigFile(file);
      const namespace = options.schema ?? defaultNamespace(file);
      // Before anything touches the database: where the rows go, and what is replaced.
      console.error(loadTargetNotice(options.databaseUrl!, namespace, options.schema !== undefined));
      const [{ dialectFor }, { runGeneration }] = await Promise.all([import('../dialects/index.ts'), import('../generation/run.ts')]);
      const connection = await dialectFor(options.databaseUrl!).connect(options.databaseUrl!);
      const progress = progressReporter();
      try {
        const summary = await runGeneration(connection, namespace, config, {
          seed: options.seed,
          rowCounts: options.rows,
          batchSize: options.batchSize,
          generatorVersion: options.generatorVersion,
          report: options.report,
          workers: options.workers,
          streams: options.streams,
          onProgress: progress.onProgress,
          atomic: true,
        });
        progress.stop();
        if (options.json) {
          console.log(JSON.stringify(summary, null, 2));
          return;
        }
        for (const warning of summary.warnings) console.error(`warning ${warning.path}  ${warning.message}`);
        const seconds = summary.durationMs / 1000;
        console.table(summary.entities.map((entity) => ({ entity: entity.id, planned: entity.rowsPlanned, inserted: entity.rowsInserted })));
        if (options.report) await printCoherence(summary.coherence ?? []);
        console.log(
          `${summary.rowsInserted} rows into ${namespace} in ${seconds.toFixed(2)} s (${Math.round(summary.rowsInserted / Math.max(seconds, 0.001))} rows/s), seed ${summary.seed}`,
        );
      } finally {
        progress.stop();
        await connection.close();
      }
    });

  program
    .command('preview')
    .argument('<config>', 'schema config file (JSON)')
    .requiredOption('--entity <id>', 'entity to preview')
    .option('--rows <n>', 'number of rows', positiveInteger, 5)
    .option('--seed <seed>', 'seed (overrides the config)')
    .option('--generator-version <n>', GENERATOR_VERSION_HELP, generatorVersion, LATEST_GENERATOR_VERSION)
    .option('--json', 'print JSON instead of a table')
    .description('print sample rows without a database')
    .action(async (file: string, options: { entity: string; rows: number; seed?: string; generatorVersion: GeneratorVersion; json?: boolean }) => {
      const config = loadConfigFile(file, true);
      if (!config.entities.some((entity) => entity.id === options.entity)) {
        throw new Error(`no entity "${options.entity}" in ${file} (entities: ${config.entities.map((entity) => entity.id).join(', ')})`);
      }
      const { previewRows } = await import('../generation/preview.ts');
      const rows = previewRows(config, options.entity, options.rows, { seed: options.seed, generatorVersion: options.generatorVersion });
      if (options.json) console.log(JSON.stringify(rows, null, 2));
      else console.table(rows);
    });
}
