// `--shard i/n`: shard i of n writes its share of every entity's rows into part files; the parts of
// all shards together are the one-process output (byte for byte where the format concatenates),
// whatever the number of worker threads each shard runs.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import fc from 'fast-check';
import { parquetReadObjects } from 'hyparquet';
import { afterAll, describe, expect, it } from 'vitest';
import type { SchemaConfig } from '../../../src/contract.ts';
import { generateFiles, type FileGenerationOptions, type FileGenerationSummary } from '../../../src/files/generate-files.ts';
import type { FileFormat } from '../../../src/files/formats.ts';
import { parseShard, partName, shardRows } from '../../../src/files/shard.ts';
import { blogConfig } from '../../fixtures/configs.ts';

const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'sds-shard-'));
afterAll(() => fs.rmSync(folder, { recursive: true, force: true }));

const blog = blogConfig();
/** Users are made in order (unique emails), posts in ranges, by worker threads when there are some. */
const base = { referenceDate: '2024-06-01', rowCounts: { users: 1_500, posts: 7_001 }, parallelMinRows: 1_000, rangeRows: 1_000 } satisfies Partial<FileGenerationOptions>;

let runs = 0;
async function generate(config: SchemaConfig, options: Omit<FileGenerationOptions, 'out'>): Promise<FileGenerationSummary> {
  return generateFiles(config, { ...options, out: path.join(folder, `run-${runs++}`) });
}

/** The files of shards 1 … count of `count` (shard i with `workers(i)` threads), by entity (or the script, ''). */
async function shards(config: SchemaConfig, options: Omit<FileGenerationOptions, 'out'>, count: number, workers: (index: number) => number) {
  const parts = new Map<string, Buffer[]>();
  for (let index = 1; index <= count; index++) {
    const summary = await generate(config, { ...options, workers: workers(index), shard: { index, count } });
    expect(summary.shard).toEqual({ index, count });
    for (const file of summary.files) {
      expect(path.basename(file.path)).toBe(partName(file.entity ?? options.namespace ?? 'sds_data', `${FORMAT_EXTENSION[options.format]}${options.gzip ? '.gz' : ''}`, { index, count }));
      parts.set(file.entity ?? '', [...(parts.get(file.entity ?? '') ?? []), fs.readFileSync(file.path)]);
    }
  }
  return parts;
}

const FORMAT_EXTENSION: Record<FileFormat, string> = { csv: 'csv', jsonl: 'jsonl', parquet: 'parquet', sql: 'sql' };

function whole(summary: FileGenerationSummary): Map<string, Buffer> {
  return new Map(summary.files.map((file) => [file.entity ?? '', fs.readFileSync(file.path)]));
}

async function parquetRows(bytes: Buffer): Promise<Record<string, unknown>[]> {
  return (await parquetReadObjects({ file: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer, utf8: true })) as Record<string, unknown>[];
}

describe('parseShard', () => {
  it.each([
    ['1/1', { index: 1, count: 1 }],
    ['2/4', { index: 2, count: 4 }],
    [' 3 / 3 ', { index: 3, count: 3 }],
  ])('%j → %j', (text, shard) => expect(parseShard(text)).toEqual(shard));

  it.each([
    ['2', '"2" is not a shard: give i/n, shard i of n (e.g. 1/4 … 4/4)'],
    ['a/b', '"a/b" is not a shard: give i/n, shard i of n (e.g. 1/4 … 4/4)'],
    ['1.5/4', '"1.5/4" is not a shard: give i/n, shard i of n (e.g. 1/4 … 4/4)'],
    ['-1/4', '"-1/4" is not a shard: give i/n, shard i of n (e.g. 1/4 … 4/4)'],
    ['0/4', '"0/4": shards are numbered 1 to 4'],
    ['5/4', '"5/4": shards are numbered 1 to 4'],
    ['1/0', '"1/0": the number of shards must be 1 to 100000'],
    ['1/100001', '"1/100001": the number of shards must be 1 to 100000'],
  ])('%j fails: %s', (text, message) => expect(() => parseShard(text)).toThrow(message));

  it('shards split any row count into contiguous ranges, in order, that cover every row once', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1_000_000 }), fc.integer({ min: 1, max: 50 }), (planned, count) => {
        let next = 0;
        for (let index = 1; index <= count; index++) {
          const { from, to } = shardRows(planned, { index, count });
          expect(from).toBe(next);
          expect(to).toBeGreaterThanOrEqual(from);
          expect(to - from).toBeLessThanOrEqual(Math.ceil(planned / count));
          next = to;
        }
        expect(next).toBe(planned);
      }),
    );
  });

  it('part names sort in shard order', () => {
    expect(partName('users', 'csv', { index: 2, count: 4 })).toBe('users.part-0002-of-0004.csv');
    expect(partName('users', 'csv.gz', { index: 12_345, count: 20_000 })).toBe('users.part-12345-of-20000.csv.gz');
    expect(partName('users', 'csv', undefined)).toBe('users.csv');
    const names = Array.from({ length: 12 }, (_, index) => partName('t', 'csv', { index: index + 1, count: 12 }));
    expect([...names].sort()).toEqual(names);
  });
});

describe('generateFiles --shard', () => {
  it.each<[FileFormat, Partial<FileGenerationOptions>]>([
    ['csv', {}],
    ['jsonl', {}],
    ['csv', { gzip: true }],
  ])('%s %j: shards 1/1, 2 and 3 (1 to 3 threads each) concatenate to the one-process files byte for byte', async (format, extra) => {
    const one = whole(await generate(blog, { ...base, ...extra, format, workers: 1 }));
    const unpack = (bytes: Buffer) => (extra.gzip ? gunzipSync(bytes) : bytes);
    expect([...one.keys()]).toEqual(['users', 'posts']);
    for (const [count, workers] of [
      [1, () => 2],
      [2, (index: number) => index],
      [3, (index: number) => 4 - index],
    ] as const) {
      const parts = await shards(blog, { ...base, ...extra, format }, count, workers);
      expect([...parts.keys()]).toEqual(['users', 'posts']);
      for (const [entity, bytes] of one) {
        expect(parts.get(entity)).toHaveLength(count);
        // Gzip parts are whole gzip members: `cat` makes a gzip stream of the same text.
        expect(unpack(Buffer.concat(parts.get(entity)!)).equals(unpack(bytes)), `${entity} in ${count} shards`).toBe(true);
      }
    }
    // The header is in the first part only.
    const [first, second] = (await shards(blog, { ...base, ...extra, format }, 2, () => 1)).get('posts')!;
    if (format === 'csv') {
      expect(unpack(first!).toString().startsWith('id,authorId,')).toBe(true);
      expect(unpack(second!).toString().startsWith('id,')).toBe(false);
    }
  }, 120_000);

  it('parquet: each shard a whole file of its rows; read together, the rows of the one-process file in order', async () => {
    const options = { ...base, rowCounts: { users: 1_500, posts: 3_001 }, format: 'parquet' as const };
    const one = whole(await generate(blog, { ...options, workers: 1 }));
    for (const count of [1, 3]) {
      const parts = await shards(blog, options, count, (index) => 1 + (index % 2));
      for (const [entity, bytes] of one) {
        const rows: Record<string, unknown>[] = [];
        for (const part of parts.get(entity)!) rows.push(...(await parquetRows(part)));
        expect(rows.length, `${entity} in ${count} shards`).toBe(entity === 'users' ? 1_500 : 3_001);
        expect(rows).toEqual(await parquetRows(bytes));
      }
    }
  }, 120_000);

  it.each(['postgres', 'mysql'] as const)('sql (%s): the parts in order are one script: its start in the first, its end in the last, each table the same rows in order', async (dialect) => {
    const options = { ...base, format: 'sql' as const, dialect, namespace: 'sds_shard' };
    const one = whole(await generate(blog, { ...options, workers: 1 })).get('')!.toString();
    const parts = (await shards(blog, options, 3, (index) => index)).get('')!.map(String);
    const joined = parts.join('');
    expect(parts[0]!.startsWith(one.slice(0, one.indexOf(dialect === 'postgres' ? 'COPY' : 'INSERT')))).toBe(true);
    // What follows the last table's rows: keys, indexes and foreign keys.
    const end = dialect === 'postgres' ? one.slice(one.lastIndexOf('\\.\n') + 3) : one.slice(one.indexOf(';\n', one.lastIndexOf('INSERT INTO')) + 2);
    expect(end.length).toBeGreaterThan(0);
    expect(parts[2]!.endsWith(end)).toBe(true);
    expect(parts[1]!.includes('CREATE TABLE')).toBe(false);
    expect(parts[1]!.endsWith(end)).toBe(false);
    expect(scriptRows(joined, dialect)).toEqual(scriptRows(one, dialect));
  }, 120_000);

  it('schemas/examples/shop.json (fan-out, formulas, after): 3 shards concatenate to the one-process CSV files', async () => {
    const shop = JSON.parse(fs.readFileSync(new URL('../../../schemas/examples/shop.json', import.meta.url), 'utf8')) as SchemaConfig;
    const options = { referenceDate: '2025-06-15', parallelMinRows: 1_000, rangeRows: 2_000, format: 'csv' as const };
    const one = whole(await generate(shop, { ...options, workers: 1 }));
    const parts = await shards(shop, options, 3, (index) => (index === 2 ? 2 : 1));
    expect([...parts.keys()]).toEqual([...one.keys()]);
    for (const [entity, bytes] of one) expect(Buffer.concat(parts.get(entity)!).equals(bytes), entity).toBe(true);
  }, 120_000);

  it('a self-reference (written last) and a unique pool that runs out before the planned rows: 1, 2 and 4 shards concatenate to the one-process CSV files', async () => {
    const config = {
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
          id: 'employees',
          primaryKey: ['id'],
          generation: { rowCount: 3_000 },
          fields: [
            { id: 'id', type: 'integer' },
            { id: 'managerId', type: 'integer', nullable: true, references: { entity: 'employees', field: 'id' } },
            { id: 'userId', type: 'integer', references: { entity: 'users', field: 'id' } },
          ],
        },
      ],
    } as SchemaConfig;
    const options = { referenceDate: '2024-06-01', parallelMinRows: 100, rangeRows: 500, format: 'csv' as const };
    const summary = await generate(config, { ...options, workers: 1 });
    expect(summary.entities[0]!.rowsWritten).toBeLessThan(100);
    const one = whole(summary);
    for (const count of [1, 2, 4]) {
      const parts = await shards(config, options, count, (index) => 1 + (index % 2));
      // Every part exists, empty or not: a scheduler finds each shard's files.
      expect(parts.get('users')).toHaveLength(count);
      for (const [entity, bytes] of one) expect(Buffer.concat(parts.get(entity)!).equals(bytes), `${entity} in ${count} shards`).toBe(true);
    }
  }, 120_000);

  it('small configs: any row counts and shard counts concatenate to the one-process CSV files', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 40 }), fc.integer({ min: 0, max: 120 }), fc.integer({ min: 1, max: 5 }), async (users, posts, count) => {
        const options = { referenceDate: '2024-06-01', rowCounts: { users, posts }, format: 'csv' as const, workers: 1 };
        const one = whole(await generate(blog, options));
        const parts = await shards(blog, options, count, () => 1);
        for (const [entity, bytes] of one) expect(Buffer.concat(parts.get(entity)!).equals(bytes), `${entity}: ${users} users, ${posts} posts, ${count} shards`).toBe(true);
      }),
      { numRuns: 15 },
    );
  }, 120_000);

  it('a coherence report cannot be asked of a shard', async () => {
    await expect(generate(blog, { ...base, format: 'csv', report: true, shard: { index: 1, count: 2 } })).rejects.toThrow('a coherence report counts the rows of one whole generation');
  });
});

/** Each table's data rows of a script, in order (COPY lines, or INSERT tuples), by table. */
function scriptRows(script: string, dialect: 'postgres' | 'mysql'): Record<string, string[]> {
  const rows: Record<string, string[]> = {};
  if (dialect === 'postgres') {
    let table: string | undefined;
    for (const line of script.split('\n')) {
      const copy = /^COPY (\S+) /.exec(line);
      if (copy) table = copy[1]!;
      else if (line === '\\.') table = undefined;
      else if (table) (rows[table] ??= []).push(line);
    }
    return rows;
  }
  for (const statement of script.split(';\n')) {
    const insert = /^INSERT INTO (\S+) \([^)]*\) VALUES\n/.exec(statement);
    if (insert) (rows[insert[1]!] ??= []).push(...statement.slice(insert[0].length).split(',\n'));
  }
  return rows;
}
