// One PostgreSQL server for the whole run: DATABASE_URL's when set (CI's second pass uses the
// machine's PostgreSQL 15), otherwise a real embedded PostgreSQL, as `npm start` would use.
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres } from '../../src/store/embedded.ts';

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
  const embedded = await startEmbeddedPostgres(path.resolve('.tmp/test-embedded'));
  project.provide('pgServerUrl', embedded.url);
  return () => embedded.stop();
}
