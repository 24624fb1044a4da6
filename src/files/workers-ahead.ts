// Worker threads started ahead. `sds generate <config> --out …` spends a few hundred milliseconds
// loading its modules and validating the config before the first row; the range workers it will
// use (range-workers.ts) load the generator meanwhile, so they are ready when generation starts.
// Only what decides whether they are worth starting lives here: the CLI's entry imports it before
// anything else.
import fs from 'node:fs';
import os from 'node:os';
import type { SchemaConfig } from '../contract.ts';
import { resolveRowCount } from '../model/config-graph.ts';
import { RangeWorkers } from './range-workers.ts';

/** Workers start when an entity that can be made in ranges has this many rows (generate-files.ts). */
export const PARALLEL_MIN_ROWS = 50_000;

/** Threads that make rows: `workers` as asked, by default the machine's cores, up to 8. */
export function workerThreads(workers?: number): number {
  return Math.max(1, Math.floor(workers ?? Math.min(8, os.availableParallelism())));
}

/** `users=1000,posts=5000` → row counts by entity; throws naming a pair that is not entity=count. */
export function parseRowCounts(text: string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const pair of text.split(',')) {
    const [entity, count] = pair.split('=');
    const number = Number(count);
    if (!entity || !Number.isInteger(number) || number < 0) throw new Error(`"${pair}" is not entity=count`);
    counts[entity.trim()] = number;
  }
  return counts;
}

export interface AheadOptions {
  workers?: number;
  rowCounts?: Record<string, number>;
  report?: boolean;
  parallelMinRows?: number;
}

/**
 * Worker threads worth starting before `config` is validated: `workers - 1` when an entity may have
 * enough rows to start them, else 0. A guess from the config as read: 0 when it cannot tell.
 */
export function workersToStartAhead(config: unknown, options: AheadOptions): number {
  const threads = workerThreads(options.workers);
  if (options.report || threads < 2) return 0;
  const minRows = options.parallelMinRows ?? PARALLEL_MIN_ROWS;
  try {
    const { entities, generationDefaults } = config as SchemaConfig;
    const large = entities.some((entity) => (options.rowCounts?.[entity.id] ?? resolveRowCount(entity, generationDefaults).max) >= minRows);
    return large ? threads - 1 : 0;
  } catch {
    return 0;
  }
}

let ahead: RangeWorkers | undefined;
/** The config file's text as `startWorkersAhead` read it, so the command does not read it again. */
let readAhead: { file: string; text: string } | undefined;

/**
 * At the CLI's entry: when the command line is `generate <config> --out <dir>` (and its config
 * has a large entity), starts the workers it will ask for. Anything unexpected starts nothing: the
 * command then starts its workers itself.
 */
export function startWorkersAhead(argv: readonly string[]): void {
  const args = argv.slice(2);
  if (args[0] !== 'generate' || !args.includes('--out') || args.includes('--report') || args.includes('--database-url')) return;
  const file = args[1];
  if (file === undefined || file.startsWith('-')) return;
  const value = (name: string) => {
    const at = args.indexOf(name);
    return at >= 0 ? args[at + 1] : undefined;
  };
  const workersText = value('--workers');
  const workers = workersText === undefined ? undefined : Number(workersText);
  if (workers !== undefined && !(Number.isInteger(workers) && workers >= 1)) return;
  const rows = value('--rows');
  let rowCounts: Record<string, number> | undefined;
  let config: unknown;
  try {
    rowCounts = rows === undefined ? undefined : parseRowCounts(rows);
    const text = fs.readFileSync(file, 'utf8');
    readAhead = { file, text };
    config = JSON.parse(text);
  } catch {
    // The command reports a bad --rows or config file itself.
    return;
  }
  const count = workersToStartAhead(config, { workers, rowCounts });
  if (count > 0) ahead = RangeWorkers.spawn(count);
}

/** The text of `file` when the entry read it ahead (taken once), else undefined. */
export function takeConfigReadAhead(file: string): string | undefined {
  const read = readAhead;
  readAhead = undefined;
  return read?.file === file ? read.text : undefined;
}

/** Closes workers started ahead that no command took. */
export async function releaseWorkersAhead(): Promise<void> {
  const workers = ahead;
  ahead = undefined;
  await workers?.close();
}

/**
 * The workers started ahead, when there are `count` of them (taken once); otherwise undefined, and
 * any that were started are closed.
 */
export async function takeWorkersAhead(count: number): Promise<RangeWorkers | undefined> {
  const workers = ahead;
  ahead = undefined;
  if (!workers || workers.size === count) return workers;
  await workers.close();
  return undefined;
}
