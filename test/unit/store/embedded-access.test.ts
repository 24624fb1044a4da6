// The embedded PostgreSQL runs as `postgres` when sds runs as root: a folder it cannot enter must
// stop the start with one line naming the folder, not an EACCES from deep inside initdb.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { assertServerUserReaches, firstClosedFolder } from '../../../src/store/embedded.ts';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'sds-access-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describe('firstClosedFolder', () => {
  const stranger = { uid: 54321, gid: 54321 };
  it.each([
    ['an open path', 0o755, undefined],
    ['a private folder on the way', 0o700, 'private'],
    ['a folder open to others by execute only', 0o711, undefined],
  ] as const)('%s', (_name, mode, want) => {
    const folder = path.join(root, `case-${mode.toString(8)}`);
    fs.mkdirSync(path.join(folder, 'data'), { recursive: true });
    fs.chmodSync(root, 0o755);
    fs.chmodSync(folder, mode);
    expect(firstClosedFolder(path.join(folder, 'data', 'not-yet'), stranger)).toBe(want === 'private' ? folder : undefined);
  });

  it('lets the owner through its own private folder', () => {
    const folder = path.join(root, 'own');
    fs.mkdirSync(folder);
    fs.chmodSync(folder, 0o700);
    const { uid, gid } = fs.statSync(folder);
    expect(firstClosedFolder(folder, { uid, gid })).toBeUndefined();
  });
});

describe('assertServerUserReaches', () => {
  it.runIf(process.getuid?.() === 0)('as root, names the private folder and what to change', () => {
    const folder = path.join(root, 'mktemp-like');
    fs.mkdirSync(folder);
    fs.chmodSync(folder, 0o700);
    expect(() => assertServerUserReaches([path.join(folder, '.data')])).toThrow(
      new RegExp(`cannot enter ${folder.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: run \`chmod o\\+x`),
    );
  });
});
