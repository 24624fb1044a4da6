// Files benchmark (issue 15), two parts, baselines measured in the same run:
// - generate: the 610k-row config (bench-configs.ts) to each file format with one worker, against
//   the in-memory generator alone making the same rows; then CSV with 1 and 2 workers, and two
//   1-worker processes at once (what two threads can get from this machine at most). Both sides run
//   in a fresh process (sds generate --out; bench-files-baseline.ts) timed from planning to the last
//   row: the process start-up (loading modules, faker's locales) is printed apart, not counted on
//   either side. The baseline's rate in this (warm) process and the rate of making and encoding the
//   CSV without writing it are printed too, to show where the file side's time goes.
// - export: CSV of a table of 1M rows through the runtime API (streamed from a cursor), against
//   psql's \copy of the same query to CSV, each read by a client process of its own (psql, curl) into /dev/null, with the RSS of this process (sds runs in it) sampled.
// Usage: see USAGE below, or npm run bench:files -- --help
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { FileGenerationSummary } from '../src/files/generate-files.ts';
import type { FileFormat } from '../src/files/formats.ts';
import { DataGenerator } from '../src/generation/generator.ts';
import { planGeneration } from '../src/generation/plan.ts';
import { generationBenchConfig } from './bench-configs.ts';
import { createBenchProject, createGeneratedSource, fmtLoad, runMain, startBenchService } from './bench-service.ts';
import { answerHelp } from './bench-usage.ts';

const USAGE = `Usage: npm run bench:files -- [--only generate|export] [--rounds 2] [--scale 1] [--formats csv,jsonl,parquet,sql] [--export-rows 1000000]
  --only PART     generate (the 610k-row config to files) or export (CSV of a table through the runtime API)
  --rounds N      rounds of every case, alternating with its baseline; every round is printed (default 2)
  --scale N       multiply the generation config's row counts (users 100k, products 10k, orders 500k at 1×)
  --formats LIST  formats of the generate part (default csv,jsonl,parquet,sql)
  --export-rows N rows of the exported table (default 1000000)
  --help          this text
PostgreSQL: BENCH_PG_URL (default postgres://postgres@127.0.0.1:5432/postgres) for the export part's service;
psql must be on PATH. Targets: generate ≥ 0.8 of the in-memory rate for CSV and JSON Lines with one worker,
≥ 1.6× with two workers on two cores; export ≥ 0.5 of psql \\copy, server memory flat.`;
answerHelp(USAGE);

interface Options {
  parts: Set<string>;
  rounds: number;
  scale: number;
  formats: FileFormat[];
  exportRows: number;
}

function parseOptions(argv: string[]): Options {
  const value = (name: string) => {
    const index = argv.indexOf(name);
    return index >= 0 ? argv[index + 1] : undefined;
  };
  const number = (name: string, fallback: number) => {
    const text = value(name);
    const parsed = text === undefined ? fallback : Number(text);
    if (!Number.isInteger(parsed) || parsed < 1) throw new Error(`${name} must be a positive integer (see --help)`);
    return parsed;
  };
  const only = value('--only');
  if (only !== undefined && only !== 'generate' && only !== 'export') throw new Error('--only takes generate or export');
  return {
    parts: new Set(only ? [only] : ['generate', 'export']),
    rounds: number('--rounds', 2),
    scale: number('--scale', 1),
    formats: (value('--formats') ?? 'csv,jsonl,parquet,sql').split(',') as FileFormat[],
    exportRows: number('--export-rows', 1_000_000),
  };
}

const MB = 1e6;
const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
const REFERENCE_DATE = '2026-01-01';

/** The in-memory generator in a process of its own: `generate` alone, or `encode` as CSV too (bench-files-baseline.ts). */
async function coldBaseline(configFile: string, mode: 'generate' | 'encode'): Promise<{ rows: number; seconds: number; wall: number }> {
  const started = performance.now();
  const { stdout } = await execFileAsync(process.execPath, ['--import', 'tsx', 'scripts/bench-files-baseline.ts', configFile, mode]);
  return { ...(JSON.parse(stdout) as { rows: number; seconds: number }), wall: (performance.now() - started) / 1000 };
}

/** Rows per second of the in-memory generator making every row of the config in this process (warm after round 1), nothing written. */
function inMemoryRate(scale: number): { rows: number; seconds: number } {
  const config = generationBenchConfig(scale, 'bench-files');
  const plan = planGeneration(config, { referenceDate: REFERENCE_DATE });
  const generator = new DataGenerator(config, plan);
  const started = performance.now();
  let rows = 0;
  for (const entity of plan.entities) for (const values of generator.completeRows(entity.id, true)) rows += values.length > 0 ? 1 : 0;
  return { rows, seconds: (performance.now() - started) / 1000 };
}

async function generatePart(options: Options): Promise<void> {
  const config = generationBenchConfig(options.scale, 'bench-files');
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'sds-bench-files-'));
  const configFile = path.join(folder, 'bench-files.json');
  fs.writeFileSync(configFile, JSON.stringify(config));
  console.log(`\n== generate: ${config.entities.map((entity) => `${entity.id} ${fmt(Number(entity.generation?.rowCount))}`).join(', ')} (load ${fmtLoad()})`);
  const table: string[] = [];
  try {
    for (let round = 1; round <= options.rounds; round++) {
      const warm = inMemoryRate(options.scale);
      const memory = await coldBaseline(configFile, 'generate');
      const memoryRate = memory.rows / memory.seconds;
      table.push(
        `round ${round}  in-memory generator       ${fmt(memoryRate).padStart(9)} rows/s  (${memory.seconds.toFixed(2)} s; its process ${memory.wall.toFixed(2)} s; ` +
          `warm in this process ${fmt(warm.rows / warm.seconds)} rows/s)  load ${fmtLoad()}`,
      );
      const encoded = await coldBaseline(configFile, 'encode');
      table.push(`round ${round}  in-memory + CSV encoding  ${fmt(encoded.rows / encoded.seconds).padStart(9)} rows/s  (${encoded.seconds.toFixed(2)} s, not written)`);
      const csvRates = new Map<number, number>();
      for (const format of options.formats) {
        for (const workers of format === 'csv' ? [1, 2] : [1]) {
          const out = path.join(folder, `${format}-${workers}`);
          const started = performance.now();
          const summary = await generateWithCli(configFile, out, format, workers);
          const wall = (performance.now() - started) / 1000;
          const seconds = summary.durationMs / 1000;
          const rate = summary.rowsWritten / seconds;
          if (format === 'csv') csvRates.set(workers, rate);
          table.push(
            `round ${round}  ${format.padEnd(7)} ${workers} worker${workers === 1 ? ' ' : 's'} (${summary.workers} used) ${fmt(rate).padStart(9)} rows/s  ` +
              `${(summary.bytesGenerated / MB / seconds).toFixed(1).padStart(6)} MB/s  ${(rate / memoryRate).toFixed(2)}× in-memory  (${(summary.bytesGenerated / MB).toFixed(0)} MB, ${seconds.toFixed(2)} s; ` +
              `its process ${wall.toFixed(2)} s)`,
          );
          fs.rmSync(out, { recursive: true, force: true });
        }
      }
      if (csvRates.has(1) && csvRates.has(2)) {
        // What two threads can give here at most: two one-worker processes at once, sharing nothing
        // but the machine (its caches, memory bandwidth and the cores V8's helper threads use).
        const pair = await Promise.all([1, 2].map((copy) => generateWithCli(configFile, path.join(folder, `csv-pair-${copy}`), 'csv', 1)));
        const pairRate = pair.reduce((sum, summary) => sum + summary.rowsWritten / (summary.durationMs / 1000), 0);
        fs.rmSync(path.join(folder, 'csv-pair-1'), { recursive: true, force: true });
        fs.rmSync(path.join(folder, 'csv-pair-2'), { recursive: true, force: true });
        table.push(
          `round ${round}  csv: 2 workers / 1 worker = ${(csvRates.get(2)! / csvRates.get(1)!).toFixed(2)}×   ` +
            `(two 1-worker processes at once: ${(pairRate / csvRates.get(1)!).toFixed(2)}× one's rate, ${pair.map((summary) => (summary.durationMs / 1000).toFixed(2)).join(' and ')} s: the most two threads get here)`,
        );
      }
      console.log(table.splice(0).join('\n'));
    }
  } finally {
    fs.rmSync(folder, { recursive: true, force: true });
  }
}

const execFileAsync = promisify(execFile);
const CLI = path.resolve('dist/cli.js');

/**
 * `sds generate --out` as users run it: the built CLI (worker threads start from built JavaScript,
 * as they do in production), its JSON summary read back.
 */
async function generateWithCli(configFile: string, out: string, format: FileFormat, workers: number): Promise<FileGenerationSummary> {
  if (!fs.existsSync(CLI)) throw new Error('dist/cli.js is missing: npm run build:server first');
  const { stdout } = await execFileAsync(process.execPath, [CLI, 'generate', configFile, '--out', out, '--format', format, '--workers', String(workers), '--schema', 'sds_bench_files', '--json'], {
    maxBuffer: 1 << 26,
  });
  return JSON.parse(stdout) as FileGenerationSummary;
}

async function exportPart(options: Options): Promise<void> {
  console.log(`\n== export: CSV of ${fmt(options.exportRows)} rows through the runtime API vs psql \\copy (load ${fmtLoad()})`);
  const service = await startBenchService('files');
  try {
    const project = await createBenchProject(service, 'files', options.exportRows, 1);
    const source = await createGeneratedSource(service, project, { name: 'export', kind: 'postgres', seed: 'export', pollMs: 2_000, timeoutMinutes: 20 });
    const namespace = source.config.schema!;
    const columns = ['id', 'email', 'firstName', 'lastName', 'role', 'active', 'age', 'city', 'createdAt'];
    const sql = `SELECT ${columns.map((column) => `"${column}"`).join(', ')} FROM "${namespace}"."users" ORDER BY "id"`;
    for (let round = 1; round <= options.rounds; round++) {
      // Both answers go to a client process of their own writing into /dev/null, as a user's download
      // would: psql for the baseline, curl for the runtime API. This process then holds only sds, so
      // its RSS is the server's.
      const copyStarted = performance.now();
      await execFileAsync('sh', ['-c', 'psql -q -d "$1" -c "$2" > /dev/null', 'psql', service.databaseUrl, `\\copy (${sql}) to stdout csv header`]);
      const copySeconds = (performance.now() - copyStarted) / 1000;

      global.gc?.();
      const before = process.memoryUsage().rss;
      let peak = before;
      const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 25);
      const started = performance.now();
      const curl = await execFileAsync('curl', ['-sS', '--fail-with-body', '-o', '/dev/null', '-w', '%{size_download}', '-H', `x-api-key: ${source.key}`, `${service.url}/runtime/${source.id}/users?format=csv`]);
      const seconds = (performance.now() - started) / 1000;
      clearInterval(sampler);
      const bytes = Number(curl.stdout);
      console.log(
        `round ${round}  psql \\copy ${fmt(options.exportRows / copySeconds).padStart(9)} rows/s (${copySeconds.toFixed(2)} s)   ` +
          `runtime API ${fmt(options.exportRows / seconds).padStart(9)} rows/s ${(bytes / MB / seconds).toFixed(1).padStart(6)} MB/s (${seconds.toFixed(2)} s)   ` +
          `ratio ${(copySeconds / seconds).toFixed(2)}   server RSS ${(before / MB).toFixed(0)} → peak ${(peak / MB).toFixed(0)} MB (+${((peak - before) / MB).toFixed(0)} MB for a ${(bytes / MB).toFixed(0)} MB answer)`,
      );
    }
  } finally {
    await service.close();
  }
}

runMain(async () => {
  const options = parseOptions(process.argv.slice(2));
  console.log(`bench:files, ${os.cpus().length} cores, load ${fmtLoad()}`);
  if (options.parts.has('generate')) await generatePart(options);
  if (options.parts.has('export')) await exportPart(options);
  console.log(`\nload average after: ${fmtLoad()} (other processes on the machine skew the rates: compare rounds taken together)`);
});
