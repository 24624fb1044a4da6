// Builds the studio into studio/dist (served by sds at /studio). `npm run build:studio` runs it at
// install time; the SDK is bundled from its sources, so the studio needs no SDK build first.
import path from 'node:path';
import { defineConfig } from 'vite';

const here = import.meta.dirname;

export default defineConfig({
  root: here,
  base: '/studio/',
  logLevel: 'warn',
  resolve: { alias: { '@sds/sdk': path.join(here, '../sdk/src/index.ts') } },
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // CodeMirror and the schema-aware completion are most of it; the page loads once per session.
    chunkSizeWarningLimit: 1500,
  },
});
