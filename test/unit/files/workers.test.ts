// Worker threads make ranges of rows in parallel, beside this thread; the files are byte-identical
// whatever their number and whichever thread makes a range.
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
/** Posts (pure fields, keys drawn from users' sequence) are made in ranges: 25,000 rows in ranges of 2,000. */
const base = { referenceDate: '2024-06-01', rowCounts: { users: 3_000, posts: 25_000 }, parallelMinRows: 1_000, rangeRows: 2_000 } satisfies Partial<FileGenerationOptions>;

async function digest(format: FileFormat, workers: number, extra: Partial<FileGenerationOptions> = {}) {
  const summary = await generateFiles(config, { ...base, ...extra, format, workers, out: path.join(folder, `${format}-${workers}-${extra.dialect ?? ''}-${extra.rangesOnWorkers ?? ''}`) });
  const hash = createHash('sha256');
  for (const file of summary.files) hash.update(path.basename(file.path)).update(fs.readFileSync(file.path));
  return { digest: hash.digest('hex'), summary };
}

describe('generateFiles with worker threads', () => {
  it.each<[FileFormat, Partial<FileGenerationOptions>]>([
    ['csv', {}],
    ['sql', { dialect: 'mysql' }],
    ['parquet', {}],
    ['jsonl', {}],
  ])('%s %j: the same bytes with 1 and 2 workers, ranges made by this thread or by worker threads', async (format, extra) => {
    const one = await digest(format, 1, extra);
    const two = await digest(format, 2, extra);
    // Every range by the worker thread: this thread makes ranges only while it waits for it.
    const onWorkers = await digest(format, 2, { ...extra, rangesOnWorkers: true });
    const three = await digest(format, 3, extra);
    expect(one.summary.workers).toBe(1);
    expect(two.summary.workers).toBe(2);
    expect(three.summary.workers).toBe(3);
    expect(two.summary.rowsWritten).toBe(28_000);
    expect(two.digest).toBe(one.digest);
    expect(onWorkers.digest).toBe(one.digest);
    expect(three.digest).toBe(one.digest);
  }, 120_000);

  it('schemas/examples/shop.json (formulas, fan-out, after, shapes, distributions): the same bytes with 1 and 2 workers', async () => {
    const shop = JSON.parse(fs.readFileSync(new URL('../../../schemas/examples/shop.json', import.meta.url), 'utf8')) as typeof config;
    const files = async (workers: number, rangesOnWorkers = false) => {
      const summary = await generateFiles(shop, { referenceDate: '2025-06-15', parallelMinRows: 1_000, rangeRows: 2_000, rangesOnWorkers, format: 'csv', workers, out: path.join(folder, `shop-${workers}-${rangesOnWorkers}`) });
      const hash = createHash('sha256');
      for (const file of summary.files) hash.update(path.basename(file.path)).update(fs.readFileSync(file.path));
      return { digest: hash.digest('hex'), summary };
    };
    const one = await files(1);
    const two = await files(2);
    const onWorkers = await files(2, true);
    expect(onWorkers.digest).toBe(one.digest);
    expect(two.summary.workers).toBe(2);
    expect(two.summary.rowsWritten).toBe(2000 + 3500 + 300 + 10_000 + 30_000);
    expect(two.summary.warnings).toEqual([]);
    expect(two.digest).toBe(one.digest);
  }, 120_000);

  it('an entity workers start early is made again when its parent makes fewer rows than assumed', async () => {
    // users.code runs out of unique values after a few rows (no room for a tag in 2 characters),
    // which only making the rows finds out: the workers start posts assuming 500 users.
    const exhausting = {
      formatVersion: 1,
      entities: [
        {
          id: 'users',
          primaryKey: ['id'],
          uniqueKeys: [['code']],
          generation: { rowCount: 500 },
          fields: [
            { id: 'id', type: 'integer' },
            { id: 'code', type: 'string', maxLength: 2, generation: { strategy: { kind: 'faker', method: 'person.sex' } } },
          ],
        },
        {
          id: 'posts',
          primaryKey: ['id'],
          generation: { rowCount: 5_000 },
          fields: [
            { id: 'id', type: 'integer' },
            { id: 'authorId', type: 'integer', references: { entity: 'users', field: 'id' } },
            { id: 'score', type: 'integer', min: 1, max: 100 },
          ],
        },
      ],
    } as typeof config;
    const files = async (workers: number) => {
      const summary = await generateFiles(exhausting, { referenceDate: '2024-06-01', parallelMinRows: 100, rangeRows: 500, format: 'csv', workers, out: path.join(folder, `exhausting-${workers}`) });
      return { posts: fs.readFileSync(path.join(folder, `exhausting-${workers}`, 'posts.csv'), 'utf8'), summary };
    };
    const one = await files(1);
    const two = await files(2);
    expect(one.summary.entities[0]!.rowsWritten).toBeLessThan(100);
    expect(two.summary.entities).toEqual(one.summary.entities);
    expect(two.summary.files.map((file) => path.basename(file.path))).toEqual(['users.csv', 'posts.csv']);
    // Every author is one of the users made.
    const authors = new Set(two.posts.trim().split('\r\n').slice(1).map((line) => Number(line.split(',')[1])));
    expect(Math.max(...authors)).toBeLessThanOrEqual(one.summary.entities[0]!.rowsWritten);
    expect(two.posts).toBe(one.posts);
  }, 120_000);
});
