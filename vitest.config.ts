import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // The studio's modules import the SDK by name; its tests (studio/test) get it from source, as its bundle does.
  resolve: { alias: { '@sds/sdk': fileURLToPath(new URL('./sdk/src/index.ts', import.meta.url)) } },
  test: {
    include: ['test/**/*.test.ts', 'studio/test/**/*.test.ts'],
    globalSetup: ['test/helpers/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // expect.poll waits 1 s by default: what a browser or a second instance shows may take longer on two
    // busy cores (CI runs two test files at once, each with its service and databases).
    expect: { poll: { timeout: 10_000 } },
    // Two cores: integration files each start a service on their own database.
    maxWorkers: 2,
    env: { NODE_ENV: 'test' },
  },
});
