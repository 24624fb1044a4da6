// As root in a private folder (`mktemp -d`, /root), the embedded PostgreSQL (run as "postgres") cannot
// enter the data folder or the binaries: sds keeps the cluster and a copy of the binaries where it
// can, says where in one line, and leaves the user's folders as they are. Root only (this machine, CI).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { postgresBinary, startEmbeddedPostgres } from '../../src/store/embedded.ts';
import { embeddedLayout, readLocation, recordLocation } from '../../src/store/embedded-staging.ts';

const asRoot = process.getuid?.() === 0;
const made: string[] = [];
afterAll(() => {
  for (const folder of made.reverse()) fs.rmSync(folder, { recursive: true, force: true });
});

/** A folder only root may enter, as `mktemp -d` makes it. */
function privateFolder(): string {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'sds-private-'));
  fs.chmodSync(folder, 0o700);
  made.push(folder);
  return folder;
}

async function query<T>(url: string, sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows as T[];
  } finally {
    await client.end();
  }
}

describe.runIf(asRoot)('the embedded PostgreSQL as root in a private folder', () => {
  it('starts, answers, and finds the same data after a restart, leaving the folder private', async () => {
    const folder = privateFolder();
    const dataDir = path.join(folder, '.data');
    const notices: string[] = [];
    const first = await startEmbeddedPostgres(dataDir, undefined, undefined, (line) => notices.push(line));
    const location = readLocation(dataDir);
    expect(location).toBeDefined();
    made.push(path.dirname(location!));
    try {
      await query(first.url, "CREATE TABLE kept (note text); INSERT INTO kept VALUES ('from the first start')");
    } finally {
      await first.stop();
    }
    // One line, saying where the data lives and why.
    expect(notices).toHaveLength(1);
    expect(notices[0]).toContain(`its data lives in ${location}`);
    expect(notices[0]).toContain(`cannot enter ${folder}`);
    expect(location!.startsWith('/var/lib/sds/data-')).toBe(true);
    const owner = fs.statSync(path.dirname(location!));
    expect(owner.uid).toBe(Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' })));
    expect(owner.mode & 0o777).toBe(0o700);
    expect(fs.statSync(folder).mode & 0o777).toBe(0o700);

    const second = await startEmbeddedPostgres(dataDir, undefined, undefined, () => {});
    try {
      expect(await query<{ note: string }>(second.url, 'SELECT note FROM kept')).toEqual([{ note: 'from the first start' }]);
    } finally {
      await second.stop();
    }
    expect(readLocation(dataDir)).toBe(location);
  }, 120_000);

  it('a new data folder at the same path starts on a new cluster, not on the one of the removed folder', async () => {
    const folder = privateFolder();
    const dataDir = path.join(folder, '.data');
    const first = await startEmbeddedPostgres(dataDir, undefined, undefined, () => {});
    made.push(path.dirname(readLocation(dataDir)!));
    await query(first.url, 'CREATE TABLE left_behind (id int)');
    await first.stop();
    // Its password and keys go with it: the old cluster could not be opened with the new ones.
    fs.rmSync(dataDir, { recursive: true });
    const second = await startEmbeddedPostgres(dataDir, undefined, undefined, () => {});
    try {
      expect(await query(second.url, "SELECT 1 FROM pg_tables WHERE tablename = 'left_behind'")).toEqual([]);
    } finally {
      await second.stop();
    }
  }, 120_000);

  it('stages binaries the server user cannot reach into the fallback root once, checked, and reuses them', () => {
    // The package's native folder (bin, lib, share), copied into a private folder as a checkout there has it.
    const packaged = path.dirname(path.dirname(postgresBinary()));
    const checkout = privateFolder();
    const nativeDir = path.join(checkout, 'native');
    fs.cpSync(packaged, nativeDir, { recursive: true, verbatimSymlinks: true });
    fs.copyFileSync(path.join(packaged, '..', 'package.json'), path.join(checkout, 'package.json'));
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'sds-fallback-'));
    fs.chmodSync(root, 0o755);
    made.push(root);
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sds-open-data-'));
    fs.chmodSync(dataDir, 0o755);
    made.push(dataDir);

    const layout = embeddedLayout(dataDir, path.join(nativeDir, 'bin'), root);
    // The data folder is reachable: the cluster stays in it; only the binaries move.
    expect(layout.databaseDir).toBe(path.join(dataDir, 'pg'));
    expect(path.dirname(layout.binDir).startsWith(path.join(root, 'embedded-'))).toBe(true);
    expect(layout.moved?.notice).toContain(`its binaries in ${path.dirname(layout.binDir)}`);
    expect(layout.moved?.notice).not.toContain('its data lives');
    // Nothing to record: the cluster is the usual one (a record would send later starts elsewhere).
    recordLocation(dataDir, layout.databaseDir);
    expect(readLocation(dataDir)).toBeUndefined();
    const staged = fs.statSync(path.dirname(layout.binDir));
    expect([staged.uid, staged.mode & 0o777]).toEqual([0, 0o755]);
    // The staged server runs as the server user: it can reach its libraries and share folder.
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }));
    expect(execFileSync(path.join(layout.binDir, 'postgres'), ['--version'], { uid, encoding: 'utf8' })).toMatch(/^postgres \(PostgreSQL\) \d+/);

    // Reused as it is, not copied again.
    const marker = path.join(path.dirname(layout.binDir), 'lib');
    const before = fs.statSync(marker).ino;
    expect(embeddedLayout(dataDir, path.join(nativeDir, 'bin'), root).binDir).toBe(layout.binDir);
    expect(fs.statSync(marker).ino).toBe(before);

    // A copy that no longer matches the package (here, a truncated file) is replaced.
    fs.truncateSync(path.join(layout.binDir, 'initdb'), 10);
    expect(embeddedLayout(dataDir, path.join(nativeDir, 'bin'), root).binDir).toBe(layout.binDir);
    expect(fs.statSync(path.join(layout.binDir, 'initdb')).size).toBe(fs.statSync(path.join(nativeDir, 'bin', 'initdb')).size);
  }, 60_000);

  it('follows a recorded location only when it is a cluster sds placed', () => {
    const folder = privateFolder();
    const dataDir = path.join(folder, '.data');
    fs.mkdirSync(dataDir);
    const elsewhere = privateFolder();
    fs.writeFileSync(path.join(dataDir, 'pg-location'), `${path.join(elsewhere, 'pg')}\n`);
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'sds-fallback-'));
    fs.chmodSync(root, 0o755);
    made.push(root);
    const layout = embeddedLayout(dataDir, path.dirname(postgresBinary()), root);
    expect(path.dirname(path.dirname(layout.databaseDir))).toBe(root);
    // The folder the record named is not handed to the server user.
    expect(fs.statSync(elsewhere).uid).toBe(0);
    expect(fs.statSync(elsewhere).mode & 0o777).toBe(0o700);
  });

  it('stops with one line when the fallback root cannot be made', () => {
    const folder = privateFolder();
    const notAFolder = path.join(folder, 'file');
    fs.writeFileSync(notAFolder, '');
    expect(() => embeddedLayout(path.join(folder, '.data'), path.dirname(postgresBinary()), path.join(notAFolder, 'sds'))).toThrow(
      new RegExp(`cannot enter ${folder.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}, and sds could not keep its data and binaries in .*: run \`chmod o\\+x`),
    );
  });

  it('keeps the one-line error for a cluster already in the private folder', () => {
    const folder = privateFolder();
    fs.mkdirSync(path.join(folder, '.data', 'pg'), { recursive: true });
    fs.writeFileSync(path.join(folder, '.data', 'pg', 'PG_VERSION'), '17\n');
    expect(() => embeddedLayout(path.join(folder, '.data'), path.dirname(postgresBinary()))).toThrow(/cannot enter .*: run `chmod o\+x/);
  });
});
