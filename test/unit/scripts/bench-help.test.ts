// Every benchmark answers `npm run bench… -- --help` with its usage, at once, before it connects to
// anything (docs/benchmarks.md tells people to ask them).
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const scripts = Object.keys((JSON.parse(fs.readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> }).scripts);
const benchmarks = scripts.filter((name) => name === 'bench' || name.startsWith('bench:'));

describe('benchmark --help', () => {
  it('covers every bench script of package.json', () => expect(benchmarks.length).toBeGreaterThan(4));

  for (const name of benchmarks) {
    it(`npm run ${name} -- --help prints its usage and exits 0`, async () => {
      // No database reachable: a benchmark that tried to connect before answering would fail.
      const env = { ...process.env, BENCH_PG_URL: 'postgres://nobody@127.0.0.1:1/none', PG_TARGET_URL: 'postgres://nobody@127.0.0.1:1/none', MYSQL_URL: 'mysql://nobody@127.0.0.1:1/none' };
      const { stdout } = await run('npm', ['run', '-s', name, '--', '--help'], { env, timeout: 60_000 });
      expect(stdout).toMatch(/^Usage: npm run bench/);
      expect(stdout).toContain('--help');
    }, 90_000);
  }
});
