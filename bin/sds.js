#!/usr/bin/env node
// Runs the TypeScript CLI through tsx, so `npx sds …` works from a checkout without a build step.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const entry = fileURLToPath(new URL('../src/cli/main.ts', import.meta.url));
const result = spawnSync(process.execPath, ['--import', 'tsx', entry, ...process.argv.slice(2)], { stdio: 'inherit' });
process.exit(result.status ?? 1);
