// Worker threads make ranges of rows in parallel; the files are byte-identical whatever their number.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generateFiles, type FileGenerationOptions } from '../../../src/files/generate-files.ts';
import type { FileFormat } from '../../../src/files/formats.ts';
import { blogConfig } from '../../fixtures/configs.ts';

const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'sds-workers-'));
afterAll(() => fs.rmSync(folder, { recursive: true, force: true }));

const config = blogConfig();
/** Posts (pure fields, keys drawn from users' sequence) are made by workers: 25,000 rows in ranges of 20,000. */
const base = { referenceDate: '2024-06-01', rowCounts: { users: 3_000, posts: 25_000 }, parallelMinRows: 1_000 } satisfies Partial<FileGenerationOptions>;

async function digest(format: FileFormat, workers: number, extra: Partial<FileGenerationOptions> = {}) {
  const summary = await generateFiles(config, { ...base, ...extra, format, workers, out: path.join(folder, `${format}-${workers}-${extra.dialect ?? ''}`) });
  const hash = createHash('sha256');
  for (const file of summary.files) hash.update(path.basename(file.path)).update(fs.readFileSync(file.path));
  return { digest: hash.digest('hex'), summary };
}

describe('generateFiles with worker threads', () => {
  it.each<[FileFormat, Partial<FileGenerationOptions>]>([
    ['csv', {}],
    ['sql', { dialect: 'mysql' }],
    ['parquet', {}],
  ])('%s %j: the same bytes with 1 and 2 workers', async (format, extra) => {
    const one = await digest(format, 1, extra);
    const two = await digest(format, 2, extra);
    expect(one.summary.workers).toBe(1);
    expect(two.summary.workers).toBe(2);
    expect(two.summary.rowsWritten).toBe(28_000);
    expect(two.digest).toBe(one.digest);
  }, 120_000);

  it('schemas/examples/shop.json (formulas, fan-out, after, shapes, distributions): the same bytes with 1 and 2 workers', async () => {
    const shop = JSON.parse(fs.readFileSync(new URL('../../../schemas/examples/shop.json', import.meta.url), 'utf8')) as typeof config;
    const files = async (workers: number) => {
      const summary = await generateFiles(shop, { referenceDate: '2025-06-15', parallelMinRows: 1_000, format: 'csv', workers, out: path.join(folder, `shop-${workers}`) });
      const hash = createHash('sha256');
      for (const file of summary.files) hash.update(path.basename(file.path)).update(fs.readFileSync(file.path));
      return { digest: hash.digest('hex'), summary };
    };
    const one = await files(1);
    const two = await files(2);
    expect(two.summary.workers).toBe(2);
    expect(two.summary.rowsWritten).toBe(2000 + 3500 + 300 + 10_000 + 30_000);
    expect(two.summary.warnings).toEqual([]);
    expect(two.digest).toBe(one.digest);
  }, 120_000);
});
