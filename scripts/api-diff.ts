// Entry of `npm run api:diff`: the contract's breaking-change gate (scripts/api-diff/run-api-diff.ts).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runApiDiff } from './api-diff/run-api-diff.ts';

// `npm run api:diff | head` closes the pipe early: stop quietly, as other command-line tools do.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw error;
});
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// npm runs scripts from the package root; sides named as relative files are the caller's (INIT_CWD).
process.exitCode = await runApiDiff(process.argv.slice(2), { root, cwd: process.env.INIT_CWD ?? process.cwd(), out: (text) => console.log(text), err: (text) => console.error(text) });
