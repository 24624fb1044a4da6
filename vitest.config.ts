import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/** Tests of code alone: no service, database or child process of their own, no module state left behind. */
const UNIT = ['test/unit/**/*.test.ts', 'studio/test/**/*.test.ts'];
/** The folders of test/ whose files talk to real databases, services and processes. */
const INTEGRATION_FOLDERS = ['contract', 'docs', 'fuzz', 'generators', 'integration', 'sdk', 'studio'];
// Named rather than "test/** minus UNIT" (a project's own exclude would drop the command line's
// --exclude): a new folder of test files must be added to one list or the other.
for (const folder of fs.readdirSync(new URL('./test', import.meta.url))) {
  const listed = folder === 'unit' || INTEGRATION_FOLDERS.includes(folder) || folder === 'fixtures' || folder === 'helpers';
  if (!listed) throw new Error(`vitest.config.ts: test/${folder} is in neither the unit nor the integration project`);
}

export default defineConfig({
  // The studio's modules import the SDK by name; its tests (studio/test) get it from source, as its bundle does.
  resolve: { alias: { '@sds/sdk': fileURLToPath(new URL('./sdk/src/index.ts', import.meta.url)) } },
  test: {
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // expect.poll waits 1 s by default: what a browser or a second instance shows may take longer on two
    // busy cores (CI runs two test files at once, each with its service and databases).
    expect: { poll: { timeout: 10_000 } },
    // Two cores: integration files each start a service on their own database.
    maxWorkers: 2,
    env: { NODE_ENV: 'test' },
    projects: [
      // Unit files share their worker processes: no fresh process and module graph per file (about a
      // third of their time went there). They mock nothing and leave no globals set.
      { extends: true, test: { name: 'unit', include: UNIT, isolate: false } },
      // The rest talk to real databases: one PostgreSQL server for the run (global-setup.ts).
      {
        extends: true,
        test: { name: 'integration', include: [`test/{${INTEGRATION_FOLDERS.join(',')}}/**/*.test.ts`], globalSetup: ['test/helpers/global-setup.ts'] },
      },
    ],
  },
});
