// Worker threads started before the config is read (files/workers-ahead.ts): whether the CLI's
// entry starts them, and how generateFiles takes them.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { generateFiles } from '../../../src/files/generate-files.ts';
import { RangeWorkers } from '../../../src/files/range-workers.ts';
import { releaseWorkersAhead, startWorkersAhead, takeWorkersAhead, workersToStartAhead } from '../../../src/files/workers-ahead.ts';
import { blogConfig } from '../../fixtures/configs.ts';

const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'sds-ahead-'));
afterAll(() => fs.rmSync(folder, { recursive: true, force: true }));

const large = { formatVersion: 1, entities: [{ id: 'a', generation: { rowCount: 60_000 }, fields: [{ id: 'id', type: 'integer' }] }] };
const small = { formatVersion: 1, generationDefaults: { rowCount: 10 }, entities: [{ id: 'a', fields: [{ id: 'id', type: 'integer' }] }] };

describe('workersToStartAhead', () => {
  it('starts workers - 1 threads when an entity may have enough rows, none otherwise', () => {
    expect(workersToStartAhead(large, { workers: 3 })).toBe(2);
    expect(workersToStartAhead(small, { workers: 3 })).toBe(0);
    // A row count given on the command line wins; so does a range's upper bound.
    expect(workersToStartAhead(small, { workers: 2, rowCounts: { a: 50_000 } })).toBe(1);
    expect(workersToStartAhead({ ...small, generationDefaults: { rowCount: { min: 1, max: 80_000 } } }, { workers: 2 })).toBe(1);
    expect(workersToStartAhead(large, { workers: 1 })).toBe(0);
    expect(workersToStartAhead(large, { workers: 4, report: true })).toBe(0);
    // Not a config: nothing is started (the command reports what is wrong with it).
    expect(workersToStartAhead({ entities: 'none' }, { workers: 2 })).toBe(0);
    expect(workersToStartAhead(null, { workers: 2 })).toBe(0);
  });
});

describe('startWorkersAhead', () => {
  const configFile = path.join(folder, 'large.json');
  fs.writeFileSync(configFile, JSON.stringify(large));
  const argv = (...args: string[]) => ['node', 'sds', ...args];

  it('starts the workers of `generate <config> --out`, taken once by a command asking for as many', async () => {
    startWorkersAhead(argv('generate', configFile, '--out', folder, '--workers', '3'));
    const workers = await takeWorkersAhead(2);
    expect(workers?.size).toBe(2);
    await workers!.close();
    expect(await takeWorkersAhead(2)).toBeUndefined();
  });

  it('closes them when the command asks for another number', async () => {
    const spawn = vi.spyOn(RangeWorkers, 'spawn');
    startWorkersAhead(argv('generate', configFile, '--out', folder, '--workers', '2'));
    const started = spawn.mock.results[0]!.value as RangeWorkers;
    const close = vi.spyOn(started, 'close');
    expect(await takeWorkersAhead(3)).toBeUndefined();
    expect(close).toHaveBeenCalledOnce();
    spawn.mockRestore();
  });

  it('closes them once the command is over when it did not take them', async () => {
    const spawn = vi.spyOn(RangeWorkers, 'spawn');
    startWorkersAhead(argv('generate', configFile, '--out', folder, '--workers', '2'));
    const close = vi.spyOn(spawn.mock.results[0]!.value as RangeWorkers, 'close');
    await releaseWorkersAhead();
    expect(close).toHaveBeenCalledOnce();
    expect(await takeWorkersAhead(1)).toBeUndefined();
    spawn.mockRestore();
  });

  it('starts nothing for other command lines', async () => {
    const spawn = vi.spyOn(RangeWorkers, 'spawn');
    for (const args of [
      ['validate', configFile],
      ['generate', configFile, '--database-url', 'postgres://x'],
      ['generate', configFile, '--out', folder, '--report'],
      ['generate', configFile, '--out', folder, '--workers', '1'],
      ['generate', configFile, '--out', folder, '--workers', 'many'],
      ['generate', path.join(folder, 'missing.json'), '--out', folder, '--workers', '2'],
      ['generate', '--out', folder],
    ]) {
      startWorkersAhead(argv(...args));
    }
    expect(spawn).not.toHaveBeenCalled();
    expect(await takeWorkersAhead(1)).toBeUndefined();
    spawn.mockRestore();
  });
});

describe('generateFiles with workers started ahead', () => {
  const config = blogConfig();
  const digest = async (options: Parameters<typeof generateFiles>[1]) => {
    const summary = await generateFiles(config, options);
    const hash = createHash('sha256');
    for (const file of summary.files) hash.update(path.basename(file.path)).update(fs.readFileSync(file.path));
    return { digest: hash.digest('hex'), summary };
  };
  const options = (name: string, posts: number) => ({ referenceDate: '2024-06-01', rowCounts: { users: 3_000, posts }, parallelMinRows: 10_000, format: 'csv' as const, out: path.join(folder, name) });

  it('uses them in place of starting its own: the same bytes as one thread', async () => {
    const one = await digest({ ...options('one', 25_000), workers: 1 });
    const startedWorkers = RangeWorkers.spawn(1);
    const close = vi.spyOn(startedWorkers, 'close');
    const ahead = await digest({ ...options('ahead', 25_000), startedWorkers });
    expect(ahead.summary.workers).toBe(2);
    expect(ahead.digest).toBe(one.digest);
    expect(close).toHaveBeenCalled();
  }, 60_000);

  it('closes them when no entity is large enough to use them', async () => {
    const startedWorkers = RangeWorkers.spawn(1);
    const close = vi.spyOn(startedWorkers, 'close');
    const made = await digest({ ...options('unused', 500), startedWorkers });
    expect(made.summary.workers).toBe(1);
    expect(close).toHaveBeenCalled();
  }, 60_000);
});
