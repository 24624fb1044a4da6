// npm run build:server: bundles the server (src/main.ts → dist/server.js) and the CLI
// (src/cli/entry.ts → dist/cli.js) into plain ESM JavaScript with esbuild, so `npm start` and
// `bin/sds.js` run on `node` alone. Dependencies stay in node_modules (imported, not bundled);
// modules the code imports with `import()` become chunks of their own (dist/chunks/), loaded when
// first used. Files read at run time (generated/openapi.json, schemas/, src/store/migrations/) are
// found from the package root (src/resources.ts), so dist/ holds code only.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const USAGE = `Usage: npm run build:server [-- --outdir dist]
Bundles src/main.ts → <outdir>/server.js and src/cli/entry.ts → <outdir>/cli.js (ESM, Node 20.19+),
replacing what <outdir> held. --outdir must be inside the package (default dist).`;

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  if (argv.includes('--help') || argv.includes('-h')) {
    console.log(USAGE);
    return;
  }
  const at = argv.indexOf('--outdir');
  const outdir = path.resolve(root, at >= 0 ? (argv[at + 1] ?? '') : 'dist');
  if (!outdir.startsWith(`${root}${path.sep}`)) throw new Error(`--outdir must be a folder inside ${root}`);
  const started = performance.now();
  fs.rmSync(outdir, { recursive: true, force: true });
  const result = await build({
    absWorkingDir: root,
    // range-worker and load-range-worker: the worker threads of file output and of database loads
    // (src/generation/range-workers.ts starts them by name);
    // config-worker: those of schema-config validation and previews (src/management/config-work.ts).
    entryPoints: {
      server: 'src/main.ts',
      cli: 'src/cli/entry.ts',
      'range-worker': 'src/files/range-worker.ts',
      'load-range-worker': 'src/generation/load-range-worker.ts',
      'config-worker': 'src/management/config-worker.ts',
    },
    outdir,
    chunkNames: 'chunks/[name]-[hash]',
    bundle: true,
    splitting: true,
    platform: 'node',
    format: 'esm',
    target: 'node20.19',
    packages: 'external',
    sourcemap: 'linked',
    legalComments: 'none',
    logLevel: 'warning',
    metafile: true,
  });
  const outputs = Object.entries(result.metafile.outputs).filter(([file]) => file.endsWith('.js'));
  const bytes = outputs.reduce((total, [, output]) => total + output.bytes, 0);
  console.log(
    `built ${path.relative(root, outdir)}/server.js and cli.js (${outputs.length} files, ${(bytes / 1024).toFixed(0)} KiB) in ${(performance.now() - started).toFixed(0)} ms`,
  );
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
