import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/helpers/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // Two cores: integration files each start a service on their own database.
    maxWorkers: 2,
    env: { NODE_ENV: 'test' },
  },
});
