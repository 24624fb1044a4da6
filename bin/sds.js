#!/usr/bin/env node
// The `sds` command: runs the built CLI (dist/cli.js, which `npm ci` builds through the `prepare` script).
import fs from 'node:fs';

const cli = new URL('../dist/cli.js', import.meta.url);
if (!fs.existsSync(cli)) {
  console.error('sds: dist/cli.js is missing: run `npm run build` in the sds checkout first');
  process.exit(1);
}
// The bundle runs the command line itself (src/cli/entry.ts).
await import(cli.href);
