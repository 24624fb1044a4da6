// One PostgreSQL server for the whole run: DATABASE_URL's when set (CI's second pass uses the
// machine's PostgreSQL 15), otherwise a real embedded PostgreSQL, as `npm start` would use.
import fs from 'node:fs';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres } from '../../src/store/embedded.ts';
import { readLocation } from '../../src/store/embedded-staging.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    pgServerUrl: string;
  }
}

export default async function setup(project: TestProject) {
  const configured = process.env.DATABASE_URL;
  if (configured) {
    project.provide('pgServerUrl', configured);
    return;
  }
  // A data folder per run: concurrent runs must not stop each other's server.
  const dataDir = path.resolve(`.tmp/test-embedded-${process.pid}`);
  const embedded = await startEmbeddedPostgres(dataDir);
  project.provide('pgServerUrl', embedded.url);
  return async () => {
    await embedded.stop();
    // As root in a private checkout (CI's fresh clone) the cluster lives outside the data folder.
    const location = readLocation(dataDir);
    if (location) fs.rmSync(path.dirname(location), { recursive: true, force: true });
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
}
