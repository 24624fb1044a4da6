// npm run bench: every benchmark in turn, each printing its figures and its ratio to a baseline
// measured in the same run. Pass names to run some: `npm run bench -- runtime loaders`.
// Not included, as it runs for minutes: `npm run bench:soak` (scripts/bench-soak.ts), mixed runtime traffic
// with regenerations, every write verified and the memory growth of sds bounded.
import { spawnSync } from 'node:child_process';
import { answerHelp } from './bench-usage.ts';

const BENCHMARKS: Record<string, { script: string; what: string }> = {
  startup: { script: 'scripts/bench-startup.ts', what: 'npm start (node dist/server.js), cold and warm, to a healthy /healthz vs bare postgres and bare node' },
  generator: { script: 'scripts/bench-generator.ts', what: 'in-memory row generation vs a bare PRNG loop' },
  loaders: { script: 'scripts/bench-loaders.ts', what: 'dialect loaders vs raw COPY / LOAD DATA / INSERT' },
  generation: { script: 'scripts/bench-generation.ts', what: 'end-to-end generation into PostgreSQL and MariaDB vs raw loads' },
  runtime: { script: 'scripts/bench-runtime.ts', what: 'runtime API vs a bare Express + pg handler' },
  files: { script: 'scripts/bench-files.ts', what: 'generation to CSV, JSON Lines, Parquet and SQL files vs the in-memory generator, and a CSV export vs psql \\copy' },
  introspection: { script: 'scripts/bench-introspection.ts', what: 'a 200-table schema introspected into a config vs connecting and counting its columns' },
};

answerHelp(`Usage: npm run bench -- [name…]   (no name: all of them, in turn)
${Object.entries(BENCHMARKS)
  .map(([name, { script, what }]) => `  ${name.padEnd(12)} ${what} (${script}; its own options: npm run bench:${name} -- --help)`)
  .join('\n')}
Not included: npm run bench:soak (minutes of mixed traffic; --help for its options).`);

const wanted = process.argv.slice(2);
const unknown = wanted.filter((name) => !(name in BENCHMARKS));
if (unknown.length) {
  console.error(`unknown benchmark(s): ${unknown.join(', ')}; choose from ${Object.keys(BENCHMARKS).join(', ')}`);
  process.exit(2);
}

let failed = 0;
for (const [name, { script, what }] of Object.entries(BENCHMARKS)) {
  if (wanted.length && !wanted.includes(name)) continue;
  console.log(`\n=== ${name}: ${what} (${script})\n`);
  const result = spawnSync(process.execPath, ['--import', 'tsx', script], { stdio: 'inherit' });
  if (result.status !== 0) {
    failed++;
    console.error(`${name} exited with ${result.status ?? result.signal}`);
  }
}
process.exit(failed ? 1 : 0);
