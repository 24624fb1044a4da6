// A real browser for the studio's tests: Debian's Chromium (found with `command -v chromium`),
// headless, driven by playwright-core, on a fresh profile with no background traffic. When it is
// missing the tests are skipped with the reason, except under SDS_REQUIRE_CHROMIUM=1 (CI), where
// that is a failing test. Also builds the studio when its files are older than its sources.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { it } from 'vitest';
import { repoRoot, run, withBuildLock } from '../helpers/sdk-build.ts';

export const ARTIFACTS = path.join(repoRoot, '.tmp/studio');

const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

/** Chromium's path, or undefined (reason printed, or a failing test registered under SDS_REQUIRE_CHROMIUM=1). */
export function chromiumPath(): string | undefined {
  let found = '';
  try {
    found = execFileSync('bash', ['-c', 'command -v chromium'], { encoding: 'utf8' }).trim();
  } catch {
    // not installed
  }
  if (found) return found;
  const reason = 'Chromium is not installed (`command -v chromium` found nothing; `apt-get install -y chromium`)';
  if (process.env.SDS_REQUIRE_CHROMIUM === '1') {
    it('Chromium is installed (SDS_REQUIRE_CHROMIUM=1)', () => {
      throw new Error(reason);
    });
  } else {
    console.warn(`Skipping the studio's browser tests: ${reason}. Set SDS_REQUIRE_CHROMIUM=1 to fail instead.`);
  }
  return undefined;
}

export interface Browser {
  context: BrowserContext;
  page: Page;
  /** Console errors and uncaught exceptions of the page, in order. */
  problems: string[];
  /** Every URL the page requested. */
  requests: string[];
  screenshot(name: string): Promise<void>;
  close(): Promise<void>;
}

/** Opens Chromium on a fresh profile; the screenshots of an earlier run are removed. */
export async function openBrowser(executablePath: string, viewport = { width: 1280, height: 800 }): Promise<Browser> {
  fs.rmSync(ARTIFACTS, { recursive: true, force: true });
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  const profile = fs.mkdtempSync(path.join(repoRoot, '.tmp/chromium-profile-'));
  const context = await chromium.launchPersistentContext(profile, { executablePath, headless: true, args: CHROMIUM_ARGS, viewport });
  const page = context.pages()[0] ?? (await context.newPage());
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  const requests: string[] = [];
  context.on('request', (request) => requests.push(request.url()));
  let shots = 0;
  return {
    context,
    page,
    problems,
    requests,
    screenshot: async (name) => {
      shots += 1;
      await page.screenshot({ path: path.join(ARTIFACTS, `${String(shots).padStart(2, '0')}-${name}.png`) });
    },
    close: async () => {
      await context.close();
      fs.rmSync(profile, { recursive: true, force: true });
    },
  };
}

const studioDir = path.join(repoRoot, 'studio');

function newestSource(): number {
  const walk = (dir: string): string[] =>
    fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? walk(path.join(dir, entry.name)) : [path.join(dir, entry.name)]));
  const files = [
    ...walk(path.join(studioDir, 'src')),
    ...walk(path.join(repoRoot, 'sdk/src')),
    path.join(studioDir, 'index.html'),
    path.join(studioDir, 'vite.config.ts'),
    path.join(repoRoot, 'schemas/schema-config.v1.json'),
  ];
  return Math.max(...files.map((file) => fs.statSync(file).mtimeMs));
}

/** Runs `npm run build:studio` unless studio/dist is newer than every source of it (npm ci builds it). */
export function ensureStudioBuilt(): Promise<void> {
  return withBuildLock('studio', async () => {
    const built = fs.statSync(path.join(studioDir, 'dist/index.html'), { throwIfNoEntry: false })?.mtimeMs ?? 0;
    if (built > newestSource()) return;
    const result = await run('npm', ['run', 'build:studio'], { timeout: 120_000 });
    if (result.code !== 0) throw new Error(`the studio does not build:\n${result.stdout}\n${result.stderr}`);
  });
}
