// Every code block of README.md. The ```sh blocks of the walkthrough run in order, as one bash script
// (`bash -euo pipefail`, as a reader pasting them into one terminal), against a live service with
// SDS_URL and SDS_KEY set; the ```ts blocks are one program, compiled (strict) against the built SDK
// and run against the same service. A block that cannot run here says why in a
// `<!-- not run: … -->` comment right above it, and must be listed in NOT_RUN below.
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestDatabase } from '../helpers/database.ts';
import { runWalkthroughProgram, startDocsService, type DocsService } from '../helpers/docs-service.ts';
import { PG_TARGET_URL } from '../helpers/dialect-targets.ts';
import { repoRoot, run, tsc } from '../helpers/sdk-build.ts';

interface Block {
  line: number;
  language: string;
  code: string;
  /** The reason of its `<!-- not run: … -->` marker, if it has one. */
  notRun?: string;
}

/** The blocks that cannot run in a test, by their first line, and why. */
const NOT_RUN: Record<string, string> = {
  'npm ci && npm start': 'installs, then serves on port 3000 until Ctrl-C; this test starts its own service',
  'npm run sds -- team create "Data team"': 'changes the teams of the embedded database in ./.data (test/integration/cli.test.ts runs these commands)',
  'npm run sds -- validate schemas/examples/blog.json': '`generate` needs databases at the addresses shown (test/integration/cli-generation.test.ts runs it)',
  'npm run generate': 'rewrites generated/; CI (.ci/run) runs these checks',
  'npm run bench': 'benchmarks take minutes and print figures, not pass/fail of the test suite',
  'docker compose up --build': 'needs Docker, which the test machines do not have',
  'mysqldump --no-data --triggers -h db.example.com -u app -p app > schema.sql':
    'needs MySQL, Prisma or Drizzle projects (test/integration/introspection/ddl-import.test.ts runs mysqldump output)',
};

const readme = fs.readFileSync(path.join(repoRoot, 'README.md'), 'utf8');

function extractBlocks(markdown: string): Block[] {
  const blocks: Block[] = [];
  // Fences without a language (the first start's output) show output, not code.
  for (const match of markdown.matchAll(/^```(\w+)[^\n]*\n([\s\S]*?)^```$/gm)) {
    const before = markdown.slice(0, match.index).split('\n');
    const marker = /^<!-- not run: (.+) -->$/.exec(before.at(-2) ?? '');
    blocks.push({ line: before.length, language: match[1]!, code: match[2]!, ...(marker ? { notRun: marker[1]! } : {}) });
  }
  return blocks;
}

const blocks = extractBlocks(readme);
const shBlocks = blocks.filter((block) => block.language === 'sh' && !block.notRun);
const tsBlocks = blocks.filter((block) => block.language === 'ts' && !block.notRun);
const ran = new Set<Block>();

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
/** What each walkthrough shell block visibly does, in order. */
const SH_OUTCOMES: ((output: string) => void)[] = [
  (output) => expect(output).toMatch(/"status":\s*"ok"/),
  (output) => {
    expect(output).toMatch(new RegExp(`^project ${UUID}$`, 'm'));
    expect(output).toMatch(/^x-total-count: 1\r?$/im);
    expect(output).toContain('"name":"Blog"');
  },
  (output) => {
    expect(output).toContain('"valid":true');
    expect(output).toMatch(/"entities":\[\{"id":"users","seed":"demo","rowsPlanned":20,"rows":\[\{"id":1,/);
    expect(output).toMatch(new RegExp(`^schema ${UUID}, version 1 is ${UUID}$`, 'm'));
  },
  (output) => {
    expect(output).toMatch(new RegExp(`^source ${UUID}$`, 'm'));
    expect(output).toMatch(/^generation succeeded$/m);
    expect(output).toMatch(/"status":"succeeded".*"seed":"another"|"seed":"another".*"status":"succeeded"/);
  },
  (output) => {
    expect(output).toMatch(/^source key svc_src_/m);
    expect(output).toContain('"users"');
  },
  (output) => {
    const answers = output.split('\n').filter((line) => line.startsWith('{'));
    const [newest, staff, posts] = answers.map((line) => JSON.parse(line) as { data: Record<string, unknown>[] });
    expect(newest!.data).toHaveLength(5);
    expect(Object.keys(newest!.data[0]!).sort()).toEqual(['email', 'id', 'role']);
    // The filter example must find rows: an example that answers nothing teaches nothing.
    expect(staff!.data.length).toBeGreaterThan(0);
    for (const user of staff!.data) expect(['admin', 'editor']).toContain(user.role);
    expect(posts!.data).toHaveLength(2);
    expect(posts!.data[0]!.authorId).toMatchObject({ id: expect.any(Number), email: expect.any(String) });
    expect(output).toContain('"firstName":"Ada"');
    expect(output).toMatch(/^created and deleted user \d+$/m);
  },
  (output) => expect(output).toMatch(/^fetch\('http:\/\/.+\/runtime\/.+\/posts\?limit=5/m),
  // Start from your own schema
  (output) => {
    expect(output).toMatch(/^true$/m);
    expect(readJson('shop.json').entities).toHaveLength(9);
  },
  (output) => {
    expect(output.match(/^no drift: app\.json matches the database \(public\)$/gm)).toHaveLength(1);
    expect(readJson('app.json').generationDefaults).toEqual({ rowCount: 50 });
  },
  (output) => {
    expect(output).toMatch(/^\d+ warnings$/m);
    expect(output).toMatch(new RegExp(`^schema ${UUID}$`, 'm'));
  },
  (output) => expect(readJson('from-dump.json').entities.map((entity: { id: string }) => entity.id)).toEqual(readJson('app.json').entities.map((entity: { id: string }) => entity.id)),
  // Rows that hold together: version 2 holds every rule on every row; version 1 does not.
  (output) => {
    expect(output).toMatch(/^\s*names-in-email\s+users\.email\s+against firstName\s+20\/20 rows \(100\.0%\)$/m);
    expect(output).toMatch(/^\s*child-after-parent\s+posts\.publishedOn\s+against users\.createdAt\s+(\d+)\/\1 rows \(100\.0%\)$/m);
    expect(output).toMatch(/^\s*names-in-email\s+users\.email\s+against firstName\s+0\/20 rows \(0\.0%\)$/m);
  },
  // Files
  (output) => {
    for (const file of ['users.csv.gz', 'posts.csv.gz', 'users.parquet', 'posts.parquet', 'sds_blog_files.sql']) expect(output).toMatch(new RegExp(`^${file.replaceAll('.', '\\.')}$`, 'm'));
    expect(output).toMatch(/^2000$/m);
  },
  (output) => {
    expect(output).toMatch(/^id,email,role\r?$/m);
    expect(output).toMatch(/^1,\S+@\S+,(admin|editor|reader)\r?$/m);
    expect(output).toMatch(/^\s*\d+$/m);
    expect(fs.readdirSync(path.join(repoRoot, 'blog-export')).sort()).toEqual(['posts.jsonl', 'users.jsonl']);
  },
  // Realistic data
  (output) => {
    expect(output).toMatch(/│ id\s+│ orderId\s+│ productId\s+│ quantity\s+│ unitPrice\s+│ discount\s+│ lineTotal\s+│/);
    const rows = [...output.matchAll(/^│ \d+\s+│ \d+\s+│ (\d+)\s+│ (\d+)\s+│ (\d+)\s+│ ([\d.]+)\s+│ ([\d.]+)\s+│ ([\d.]+)\s+│$/gm)];
    expect(rows).toHaveLength(3);
    // The rows the README shows under the command are the rows it prints.
    const shown = /preview schemas\/examples\/shop\.json --entity orderLines --rows 3\n```\n\n```\n([\s\S]*?)\n```/.exec(readme)?.[1];
    expect(shown).toBeDefined();
    expect(output).toContain(shown!);
    for (const [, , , quantity, unitPrice, discount, total] of rows) {
      expect(Number(total)).toBeCloseTo(Math.round(Number(quantity) * Number(unitPrice) * (1 - Number(discount)) * 100) / 100, 2);
    }
  },
];
/** The walkthrough's block whose output is the fetch call. */
const FETCH_BLOCK = 6;
/** Files the blocks of "Start from your own schema", "Rows that hold together" and "Files" write into the checkout. */
const WRITTEN = ['shop.json', 'app.json', 'schema.sql', 'from-dump.json', 'blog-coherent', 'blog-v1', 'blog-files', 'blog-export', 'users.csv'];
const readJson = (file: string) => JSON.parse(fs.readFileSync(path.join(repoRoot, file), 'utf8'));

let t: DocsService;
let appDatabase: TestDatabase;
const dir = path.join(repoRoot, '.tmp', `readme-docs-${process.pid}`);
const outputs: string[] = [];

beforeAll(async () => {
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  const [service, database] = await Promise.all([startDocsService('docs_readme'), appDatabaseWithShop()]);
  t = service;
  appDatabase = database;
});
afterAll(async () => {
  await t?.stop();
  await appDatabase?.drop();
  fs.rmSync(dir, { recursive: true, force: true });
  for (const file of WRITTEN) fs.rmSync(path.join(repoRoot, file), { force: true, recursive: true });
});

/**
 * "Your database" of the README: a database with the example shop in its public schema, on the
 * machine's PostgreSQL (PG_TARGET_URL's server), whose major version the machine's pg_dump matches.
 */
async function appDatabaseWithShop(): Promise<TestDatabase> {
  const server = new URL(PG_TARGET_URL);
  const name = `sds_readme_app_${randomBytes(4).toString('hex')}`;
  const admin = async (sql: string, database = 'postgres') => {
    server.pathname = `/${database}`;
    const client = new pg.Client({ connectionString: server.toString() });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE "${name}"`);
  await admin(fs.readFileSync(path.join(repoRoot, 'schemas/examples/shop.sql'), 'utf8'), name);
  server.pathname = `/${name}`;
  const url = server.toString();
  return { url, drop: () => admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`) };
}

describe('README.md', () => {
  it('marks exactly the blocks listed in NOT_RUN, each with its reason', () => {
    const marked = Object.fromEntries(blocks.filter((block) => block.notRun).map((block) => [block.code.split('\n')[0]!.replace(/\s+#.*$/, '').trim(), block.notRun]));
    expect(Object.keys(marked).sort()).toEqual(Object.keys(NOT_RUN).sort());
    for (const reason of Object.values(marked)) expect(reason).not.toBe('');
    expect(new Set(blocks.map((block) => block.language))).toEqual(new Set(['sh', 'ts']));
  });

  it('the walkthrough shell blocks run in order, each doing what it says', async () => {
    expect(shBlocks).toHaveLength(SH_OUTCOMES.length);
    const script = shBlocks.map((block, index) => `printf '\\n::block %s::\\n' ${index}\n# README.md line ${block.line}\n${block.code}`).join('\n');
    fs.writeFileSync(path.join(dir, 'walkthrough.sh'), script);
    // curl prints an answer without a newline after it; this .curlrc adds one, so the answers can be told apart.
    fs.writeFileSync(path.join(dir, '.curlrc'), 'write-out = "\\n"\n');
    // The embedded PostgreSQL that runs the README's DDL keeps its data in a folder of this run.
    const env = { SDS_URL: t.url, SDS_KEY: t.teamKey, CURL_HOME: dir, APP_DATABASE_URL: appDatabase.url, SDS_DATA_DIR: path.join(dir, 'data') };
    const result = await run('bash', ['-euo', 'pipefail', path.join(dir, 'walkthrough.sh')], { cwd: repoRoot, env, timeout: 480_000 });
    expect(result.code, `${result.stdout}\n${result.stderr}`).toBe(0);
    const parts = result.stdout.split(/^::block (\d+)::$/m);
    for (let index = 0; index < shBlocks.length; index++) {
      const at = parts.indexOf(String(index));
      expect(at, `block ${index} did not run`).toBeGreaterThan(0);
      outputs[index] = parts[at + 1]!;
      SH_OUTCOMES[index]!(outputs[index]!);
      ran.add(shBlocks[index]!);
    }
  }, 540_000);

  it('the fetch call the walkthrough prints returns rows, and CORS lets a page send it', async () => {
    const snippet = outputs[FETCH_BLOCK];
    expect(snippet).toBeDefined();
    // Node has fetch and console.table too: the pasted snippet runs as it would in a browser console.
    const result = await run(process.execPath, ['--input-type=module', '-e', snippet!]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/title/);
    expect(result.stdout.split('\n').filter((line) => /^│ \d /.test(line))).toHaveLength(5);

    const preflight = await fetch(`${t.url}/runtime/some-source/posts`, {
      method: 'OPTIONS',
      headers: { origin: 'http://page.example', 'access-control-request-method': 'GET', 'access-control-request-headers': 'x-api-key' },
    });
    expect(preflight.status).toBeLessThan(300);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('http://page.example');
    expect(preflight.headers.get('access-control-allow-headers')).toMatch(/x-api-key/);
  });

  it('the walkthrough TypeScript blocks compile (strict) as one program and run', async () => {
    // One TypeScript block or more for each step of the walkthrough.
    expect(tsBlocks.length).toBeGreaterThanOrEqual(FETCH_BLOCK + 1);
    fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ type: 'module', private: true }));
    fs.writeFileSync(
      path.join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', lib: ['ES2023', 'DOM'], types: ['node'], strict: true, skipLibCheck: true, outDir: 'out', rootDir: '.' },
        include: ['*.ts'],
      }),
    );
    fs.writeFileSync(path.join(dir, 'walkthrough.ts'), tsBlocks.map((block) => `// README.md line ${block.line}\n${block.code}`).join('\n'));
    const compiled = await run(process.execPath, [tsc, '-p', dir]);
    expect(compiled.stdout + compiled.stderr).toBe('');
    expect(compiled.code).toBe(0);

    const result = await runWalkthroughProgram(t, dir, { SDS_URL: t.url, SDS_KEY: t.teamKey });
    expect(result.code, `${result.stdout}\n${result.stderr}`).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).toMatch(/^2 projects$/m);
    expect(result.stdout).toMatch(/^valid: true$/m);
    expect(result.stdout).toMatch(/^preview: 3 of 20 users, the first is \S+@\S+$/m);
    expect(result.stdout).toMatch(/^generated \d+ rows$/m);
    expect(result.stdout).toMatch(/^regeneration succeeded$/m);
    expect(result.stdout).toMatch(/^[1-9]\d* admins and editors$/m);
    expect(result.stdout.split('\n').filter((line) => /^│ \d /.test(line))).toHaveLength(5);
    for (const block of tsBlocks) ran.add(block);
    // tsc and a run of the program: seconds alone, and half a minute once on two busy cores.
  }, 120_000);

  it('ran every block that is not marked `not run`', () => {
    const missed = blocks.filter((block) => !block.notRun && !ran.has(block)).map((block) => `line ${block.line}`);
    expect(missed).toEqual([]);
  });
});
