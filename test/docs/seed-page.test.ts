// docs/seed.md: its ```sh blocks run in order, as one bash script (`bash -euo pipefail`, as a reader
// pasting them into one terminal), against a fresh PostgreSQL "app" database in APP_DATABASE_URL, and
// each does what the page says.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PG_TARGET_URL } from '../helpers/dialect-targets.ts';
import { repoRoot, run } from '../helpers/sdk-build.ts';

const page = fs.readFileSync(path.join(repoRoot, 'docs/seed.md'), 'utf8');
const shBlocks = [...page.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((match) => match[1]!);
/** Files the page's commands write in the checkout. */
const WRITTEN = ['vet.json'];

/** What each block visibly does, in order. */
const OUTCOMES: ((output: string) => void)[] = [
  () => expect(fs.existsSync(path.join(repoRoot, 'vet.json'))).toBe(true),
  (output) => {
    expect(output).toMatch(/^owners: 20 rows planned$/m);
    expect(output).toMatch(/^ {2}label: left to the database \(generated/m);
    expect(output).toMatch(/nothing written$/m);
  },
  (output) => {
    expect(output).toMatch(/^40 rows into 2 tables of vet in /m);
    // The application's insert got the key after the seeded ones.
    expect(output).toMatch(/^21$/m);
  },
  (output) => {
    expect(output).toMatch(/^refused \(exit code 1\)$/m);
    expect(output).toMatch(/"rowsInserted": 40/);
    expect(output).toMatch(/"truncated"/);
  },
];

const server = new URL(PG_TARGET_URL);
const name = `sds_seed_page_${randomBytes(4).toString('hex')}`;
async function admin(sql: string): Promise<void> {
  const url = new URL(server);
  url.pathname = '/postgres';
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

beforeAll(() => admin(`CREATE DATABASE "${name}"`));
afterAll(async () => {
  await admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  for (const file of WRITTEN) fs.rmSync(path.join(repoRoot, file), { force: true });
});

describe('docs/seed.md', () => {
  it('the shell blocks run in order, each doing what it says', async () => {
    expect(shBlocks).toHaveLength(OUTCOMES.length);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sds-seed-page-'));
    const script = shBlocks.map((code, index) => `printf '\\n::block %s::\\n' ${index}\n${code}`).join('\n');
    fs.writeFileSync(path.join(dir, 'page.sh'), script);
    const url = new URL(server);
    url.pathname = `/${name}`;
    try {
      const result = await run('bash', ['-euo', 'pipefail', path.join(dir, 'page.sh')], { cwd: repoRoot, env: { APP_DATABASE_URL: url.toString() }, timeout: 240_000 });
      expect(result.code, `${result.stdout}\n${result.stderr}`).toBe(0);
      const parts = result.stdout.split(/^::block (\d+)::$/m);
      for (let index = 0; index < shBlocks.length; index++) {
        const at = parts.indexOf(String(index));
        expect(at, `block ${index} did not run`).toBeGreaterThan(0);
        OUTCOMES[index]!(parts[at + 1]!);
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 300_000);
});
