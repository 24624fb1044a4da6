// The in-memory baseline of bench:files, run in a process of its own as `sds generate --out` runs:
// a cold process, timed like generateFiles (from planning to the last row), so the file rates and
// this rate are measured the same way. Prints {rows, seconds} as JSON.
//   generate  every row of the config made, nothing encoded or written (the baseline)
//   encode    every row also encoded as CSV bytes (table-encoders.ts, byte-chunks.ts), not written
// Usage: tsx scripts/bench-files-baseline.ts <config.json> generate|encode
import fs from 'node:fs';
import type { SchemaConfig } from '../src/contract.ts';
import { ByteChunks } from '../src/files/byte-chunks.ts';
import { tableEncoder } from '../src/files/table-encoders.ts';
import { DataGenerator } from '../src/generation/generator.ts';
import { planGeneration, plannedRowCounts } from '../src/generation/plan.ts';
import { buildRuntimeTables } from '../src/model/tables.ts';
import { answerHelp } from './bench-usage.ts';

answerHelp('Usage: npm run bench:files spawns tsx scripts/bench-files-baseline.ts <config.json> generate|encode --help');
const [file, mode] = process.argv.slice(2);
if (!file || (mode !== 'generate' && mode !== 'encode')) throw new Error('usage: bench-files-baseline.ts <config.json> generate|encode');
const config = JSON.parse(fs.readFileSync(file, 'utf8')) as SchemaConfig;

const started = performance.now();
const plan = planGeneration(config, { referenceDate: '2026-01-01' });
const generator = new DataGenerator(config, plan);
const tables = buildRuntimeTables(config, plannedRowCounts(config));
let rows = 0;
let bytes = 0;
for (const entity of plan.entities) {
  if (mode === 'generate') {
    for (const values of generator.completeRows(entity.id, true)) rows += values.length > 0 ? 1 : 0;
    continue;
  }
  const encoder = tableEncoder('csv', tables.get(entity.id));
  const chunks = new ByteChunks();
  for (const values of generator.completeRows(entity.id, true)) {
    if (chunks.add(encoder.row(values, rows++) as string)) for (const chunk of chunks.take()) bytes += chunk.byteLength;
  }
  for (const chunk of chunks.take(true)) bytes += chunk.byteLength;
}
console.log(JSON.stringify({ rows, bytes, seconds: (performance.now() - started) / 1000 }));
