// Builds dist/: ESM with declarations (tsconfig.json), then CommonJS with declarations into
// dist/cjs (tsconfig.cjs.json), marked `"type": "commonjs"` so Node and TypeScript read it as CJS.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const dist = path.join(root, 'dist');

fs.rmSync(dist, { recursive: true, force: true });
for (const project of ['tsconfig.json', 'tsconfig.cjs.json']) {
  try {
    execFileSync(process.execPath, [tsc, '-p', path.join(root, project)], { stdio: 'inherit', cwd: root });
  } catch {
    console.error(`tsc -p ${project} failed`);
    process.exit(1);
  }
}
fs.writeFileSync(path.join(dist, 'cjs', 'package.json'), `${JSON.stringify({ type: 'commonjs' }, null, 2)}\n`);
console.log('built dist/ (ESM) and dist/cjs/ (CommonJS)');
