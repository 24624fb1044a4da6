// The newcomer's path: `npm start` with no DATABASE_URL runs on an embedded PostgreSQL, prints a
// team key once, serves the curl walkthrough, stops cleanly, and a second start reuses the data.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { childEnv, startServerProcess } from '../helpers/processes.ts';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sds-embedded-'));
fs.chmodSync(dataDir, 0o755);
const env = childEnv({ SDS_DATA_DIR: dataDir, PORT: '0' });
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

describe('the embedded default', () => {
  let key = '';
  let projectId = '';

  it('starts on a fresh data folder and prints the first-start key once', async () => {
    const server = await startServerProcess(env);
    try {
      const match = /(svc_api_[A-Za-z0-9_-]{24,})/.exec(server.output());
      expect(match, server.output()).not.toBeNull();
      key = match![1]!;
      const created = await fetch(`${server.url}/public/v1/projects`, {
        method: 'POST',
        headers: { 'x-api-key': key, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'My first project' }),
      });
      expect(created.status).toBe(201);
      projectId = ((await created.json()) as { id: string }).id;
    } finally {
      expect(await server.stop('SIGTERM')).toBe(0);
    }
    expect(fs.existsSync(path.join(dataDir, 'pg', 'PG_VERSION'))).toBe(true);
    expect(fs.existsSync(path.join(dataDir, 'pg', 'postmaster.pid'))).toBe(false);
  }, 120_000);

  it('reuses the data on a second start and prints no new key', async () => {
    const server = await startServerProcess(env);
    try {
      expect(server.output()).not.toMatch(/svc_api_/);
      const read = await fetch(`${server.url}/public/v1/projects/${projectId}`, { headers: { 'x-api-key': key } });
      expect(read.status).toBe(200);
      expect(((await read.json()) as { name: string }).name).toBe('My first project');
    } finally {
      expect(await server.stop('SIGINT')).toBe(0);
    }
  }, 120_000);

  it('recovers after the server was killed', async () => {
    const killed = await startServerProcess(env);
    expect(await killed.stop('SIGKILL')).toBeNull();
    // Its PostgreSQL survives the kill and holds the data folder; the next start must take over.
    const server = await startServerProcess(env);
    try {
      const read = await fetch(`${server.url}/public/v1/projects/${projectId}`, { headers: { 'x-api-key': key } });
      expect(read.status).toBe(200);
    } finally {
      expect(await server.stop('SIGTERM')).toBe(0);
    }
  }, 180_000);
});
