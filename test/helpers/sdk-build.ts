// Shared by the SDK tests: building the SDK once at a time (test files run in parallel), and
// running commands without blocking the event loop (the service under test lives in this process).
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

export const repoRoot = path.resolve(import.meta.dirname, '../..');
export const sdkDir = path.join(repoRoot, 'sdk');

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a command asynchronously; never rejects on a non-zero exit. */
export async function run(file: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv; timeout?: number } = {}): Promise<Run> {
  try {
    const { stdout, stderr } = await promisify(execFile)(file, args, { cwd: options.cwd ?? repoRoot, env: { ...process.env, ...options.env }, timeout: options.timeout ?? 60_000, maxBuffer: 16 * 1024 * 1024 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number | string; stdout?: string; stderr?: string; message: string };
    return { code: typeof failed.code === 'number' ? failed.code : 1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? failed.message };
  }
}

export const tsc = path.join(repoRoot, 'node_modules/typescript/bin/tsc');
export const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** Holds a directory lock while `work` runs, so parallel test files do not build dist/ at once. */
export function withSdkLock<T>(work: () => Promise<T>): Promise<T> {
  return withBuildLock('sdk', work);
}

/** Holds the directory lock `.tmp/<name>-build.lock` while `work` runs (one build at a time across test files). */
export async function withBuildLock<T>(name: string, work: () => Promise<T>): Promise<T> {
  const lock = path.join(repoRoot, `.tmp/${name}-build.lock`);
  fs.mkdirSync(path.dirname(lock), { recursive: true });
  const deadline = Date.now() + 120_000;
  for (;;) {
    try {
      fs.mkdirSync(lock);
      break;
    } catch {
      // A lock older than two minutes belongs to a run that died.
      const age = Date.now() - (fs.statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > 120_000) fs.rmSync(lock, { recursive: true, force: true });
      if (Date.now() > deadline) throw new Error(`${lock} is held for too long`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  try {
    return await work();
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
}

const sourcesStamp = () => {
  const files = ['package.json', 'tsconfig.json', 'tsconfig.cjs.json', 'scripts/build.mjs'].map((file) => path.join(sdkDir, file));
  const walk = (dir: string): string[] => fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? walk(path.join(dir, entry.name)) : [path.join(dir, entry.name)]));
  return Math.max(...[...files, ...walk(path.join(sdkDir, 'src'))].map((file) => fs.statSync(file).mtimeMs));
};

/** Builds sdk/dist unless it is newer than every source file of the SDK. */
export function ensureSdkBuilt(): Promise<void> {
  return withSdkLock(async () => {
    const built = fs.statSync(path.join(sdkDir, 'dist/cjs/package.json'), { throwIfNoEntry: false })?.mtimeMs ?? 0;
    if (built > sourcesStamp()) return;
    const result = await run(process.execPath, [path.join(sdkDir, 'scripts/build.mjs')], { cwd: sdkDir });
    if (result.code !== 0) throw new Error(`the SDK does not build:\n${result.stdout}\n${result.stderr}`);
  });
}
