// Every code block of README.md and of every page of docs/, run as a newcomer runs them: on the
// checkout as `npm ci` leaves it (the SDK already built; this test builds nothing), against a live service.
// The README's ```sh walkthrough runs in order as one bash script (`bash -euo pipefail`, as a reader pasting
// the blocks into one terminal) with SDS_URL and SDS_KEY set; its ```ts blocks are one program, compiled
// (strict) against the built SDK and run against the same service. Each page of docs/ then runs its ```sh
// blocks in page order as one script that continues the walkthrough's terminal: its variables and its
// `json` function, as the pages say. ```json and ```yaml blocks are schema configs, validated by the service.
// A block that cannot run here says why in a `<!-- not run: … -->` comment right above it, and is
// listed in NOT_RUN below.
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { parse as parseYaml } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestDatabase } from '../helpers/database.ts';
import { runProgram, startDocsService, type DocsService } from '../helpers/docs-service.ts';
import { PG_TARGET_URL } from '../helpers/dialect-targets.ts';
import { repoRoot, run, tsc } from '../helpers/sdk-build.ts';
import { brokenLinks, extractBlocks, type Block } from './markdown.ts';

/** The README's promise: the first hour, short enough to read top to bottom. */
const README_MAX_LINES = 300;

const PAGES = ['README.md', ...fs.readdirSync(path.join(repoRoot, 'docs')).filter((file) => file.endsWith('.md')).sort().map((file) => `docs/${file}`)];
const text = (page: string) => fs.readFileSync(path.join(repoRoot, page), 'utf8');

/** The blocks that cannot run in a test, by page and first line, and why. */
const NOT_RUN: Record<string, Record<string, string>> = {
  'README.md': {
    'npm ci && npm start': 'installs, then serves on port 3000 until Ctrl-C; this test starts its own service',
  },
  'docs/keys-and-cli.md': {
    'npm run sds -- team create "Data team"': 'changes the teams of the embedded database in ./.data (test/integration/cli.test.ts runs these commands)',
    'npm run sds -- validate schemas/examples/blog.json': '`generate` needs databases at the addresses shown (test/integration/cli-generation.test.ts runs it)',
  },
  'docs/contract-and-sdk.md': {
    'npm run generate': 'rewrites generated/; CI (.ci/run) runs these checks',
    'npm run api:diff -- --changelog CHANGELOG.md HEAD~1': 'compares git history; test/unit/scripts/api-diff-gate.test.ts runs it on planted edits',
    'curl -s "$SDS_URL/public/v1/projects/$PROJECT/sources/$SOURCE/api-changes?to=$VERSION_2" -H "x-api-key: $SDS_KEY"':
      'needs a second schema version; test/integration/source-api-changes.test.ts and the studio test run it',
  },
  'docs/generated-clients.md': {
    "import { createClient } from './sds/client/index.js';": "needs a client generated from a source's document; test/generators/clients.test.ts generates one and runs these calls",
    "const page = await listPosts({ 'filters.publishedOn.$gte': '2026-01-01', populate: ['authorId'], limit: 10 }, { headers: { 'x-api-key': SOURCE_KEY } });":
      "needs a client generated from a source's document; test/generators/clients.test.ts generates one and runs these calls",
    "// kubb 4's fetch client sends JSON bodies without a Content-Type (sds answers 415): say it.":
      "needs a client generated from a source's document; test/generators/clients.test.ts generates one and runs these calls",
  },
  'docs/benchmarks.md': {
    'npm run bench': 'benchmarks take minutes and print figures, not pass/fail of the test suite',
  },
  'docs/operations.md': {
    'docker compose up --build': 'needs Docker, which the test machines do not have',
  },
  'docs/learn.md': {
    'npm run -s sds -- init --from-database "$APP_DATABASE_URL" --learn --out learned.json':
      'needs a database of yours with rows in it; test/integration/learn/learn.test.ts runs it on both engines',
    'npm run -s sds -- fidelity learned.json --database-url "$APP_DATABASE_URL"': 'needs a database of yours with rows in it; test/integration/learn/learn.test.ts runs it on both engines',
  },
  'docs/own-database.md': {
    'mysqldump --no-data --triggers -h db.example.com -u app -p app > schema.sql':
      'needs MySQL, Prisma or Drizzle projects (test/integration/introspection/ddl-import.test.ts runs mysqldump output)',
  },
};

const blocks = PAGES.flatMap((page) => extractBlocks(text(page), page));
const runnable = (page: string, language: string) => blocks.filter((block) => block.page === page && block.language === language && !block.notRun);
const ran = new Set<Block>();

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const readJson = (file: string) => JSON.parse(fs.readFileSync(path.join(repoRoot, file), 'utf8'));

/** What each walkthrough shell block of the README visibly does, in order. */
const WALKTHROUGH: ((output: string) => void)[] = [
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
];
/** The walkthrough's block whose output is the fetch call. */
const FETCH_BLOCK = 6;

/** What each shell block of a page of docs/ visibly does, in page order. */
const PAGE_OUTCOMES: Record<string, ((output: string) => void)[]> = {
  'docs/own-database.md': [
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
    () => expect(readJson('from-dump.json').entities.map((entity: { id: string }) => entity.id)).toEqual(readJson('app.json').entities.map((entity: { id: string }) => entity.id)),
  ],
  'docs/realism.md': [
    // Rows that hold together: version 3 holds every rule on every row; version 1 does not.
    (output) => {
      expect(output).toMatch(/^\s*names-in-email\s+users\.email\s+against firstName\s+20\/20 rows \(100\.0%\)$/m);
      expect(output).toMatch(/^\s*child-after-parent\s+posts\.publishedOn\s+against users\.createdAt\s+(\d+)\/\1 rows \(100\.0%\)$/m);
      expect(output).toMatch(/^\s*names-in-email\s+users\.email\s+against firstName\s+0\/20 rows \(0\.0%\)$/m);
    },
    (output) => {
      expect(output).toMatch(/│ id\s+│ orderId\s+│ productId\s+│ quantity\s+│ unitPrice\s+│ discount\s+│ lineTotal\s+│/);
      const rows = [...output.matchAll(/^│ \d+\s+│ \d+\s+│ (\d+)\s+│ (\d+)\s+│ (\d+)\s+│ ([\d.]+)\s+│ ([\d.]+)\s+│ ([\d.]+)\s+│$/gm)];
      expect(rows).toHaveLength(3);
      // The rows the page shows under the command are the rows it prints.
      const shown = /preview schemas\/examples\/shop\.json --entity orderLines --rows 3\n```\n\n```\n([\s\S]*?)\n```/.exec(text('docs/realism.md'))?.[1];
      expect(shown).toBeDefined();
      expect(output).toContain(shown!);
      for (const [, , , quantity, unitPrice, discount, total] of rows) {
        expect(Number(total)).toBeCloseTo(Math.round(Number(quantity) * Number(unitPrice) * (1 - Number(discount)) * 100) / 100, 2);
      }
    },
  ],
  'docs/files.md': [
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
    (output) => {
      for (const table of ['users', 'posts']) for (const index of [1, 2, 3]) expect(output).toMatch(new RegExp(`^${table}\\.part-000${index}-of-0003\\.csv$`, 'm'));
      expect(output).toMatch(/^posts\.csv: the same bytes$/m);
    },
  ],
  // Without an admin token (the walkthrough has none) the admin API's own checks are skipped, said so in a row.
  'docs/contract-and-sdk.md': [(output) => expect(output).toMatch(/^[1-9]\d* passed, 0 failed, [0-9] skipped$/m)],
  'docs/keys-and-cli.md': [
    (output) => {
      // The page's table names every command the CLI has.
      const commands = [...output.matchAll(/^  ([a-z][a-z-]+)\b/gm)].map((match) => match[1]!).filter((name) => name !== 'help');
      expect(commands.length).toBeGreaterThan(5);
      const table = text('docs/keys-and-cli.md');
      for (const command of commands) expect(table, command).toContain(`\`${command}\``);
    },
  ],
  'docs/runtime-api.md': [
    (output) => {
      expect(output).toMatch(/^\{"error":.*emial.*\} \(HTTP 400\)$/m);
      expect(output).toContain('email');
    },
  ],
};
/** Files the blocks of the pages write into the checkout. */
const WRITTEN = ['shop.json', 'app.json', 'schema.sql', 'from-dump.json', 'blog-coherent', 'blog-v1', 'blog-files', 'blog-export', 'blog-shards', 'users.csv'];

let t: DocsService;
let appDatabase: TestDatabase;
const dir = path.join(repoRoot, '.tmp', `readme-docs-${process.pid}`);
/** The walkthrough's terminal: its variables and functions, for the pages that continue it. */
const terminal = path.join(dir, 'walkthrough-terminal.sh');
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
 * "Your database" of the pages: a database with the example shop in its public schema, on the
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

/** The environment of a reader's terminal: the service, their key, their own database. */
const readerEnv = () => ({
  SDS_URL: t.url,
  SDS_KEY: t.teamKey,
  // curl prints an answer without a newline after it; this .curlrc adds one, so the answers can be told apart.
  CURL_HOME: dir,
  APP_DATABASE_URL: appDatabase.url,
  // The embedded PostgreSQL that runs the pages' DDL keeps its data in a folder of this run.
  SDS_DATA_DIR: path.join(dir, 'data'),
});

/** Runs shell blocks in order as one bash script; answers each block's output, by its index. */
async function runShell(name: string, shBlocks: Block[], prelude: string, epilogue = ''): Promise<string[]> {
  const script = [prelude, ...shBlocks.map((block, index) => `printf '\\n::block %s::\\n' ${index}\n# ${block.page} line ${block.line}\n${block.code}`), epilogue].join('\n');
  fs.writeFileSync(path.join(dir, `${name}.sh`), script);
  fs.writeFileSync(path.join(dir, '.curlrc'), 'write-out = "\\n"\n');
  const result = await run('bash', ['-euo', 'pipefail', path.join(dir, `${name}.sh`)], { cwd: repoRoot, env: readerEnv(), timeout: 480_000 });
  expect(result.code, `${result.stdout}\n${result.stderr}`).toBe(0);
  const parts = result.stdout.split(/^::block (\d+)::$/m);
  return shBlocks.map((_, index) => {
    const at = parts.indexOf(String(index));
    expect(at, `block ${index} of ${name} did not run`).toBeGreaterThan(0);
    return parts[at + 1]!;
  });
}

const SDK_ENTRY = path.join(repoRoot, 'node_modules/@sds/sdk/dist/index.js');

/** Compiles ```ts blocks (strict) as one program against the installed SDK, and runs it. */
async function runTypeScript(name: string, tsBlocks: Block[], env: NodeJS.ProcessEnv) {
  // A newcomer's checkout after `npm ci`: the SDK is built by the install, not by this test.
  expect(fs.existsSync(SDK_ENTRY), `${path.relative(repoRoot, SDK_ENTRY)} is missing: run npm ci: it builds the SDK (prepare runs npm run build)`).toBe(true);
  const folder = path.join(dir, name);
  fs.mkdirSync(folder, { recursive: true });
  fs.writeFileSync(path.join(folder, 'package.json'), JSON.stringify({ type: 'module', private: true }));
  fs.writeFileSync(
    path.join(folder, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', lib: ['ES2023', 'DOM'], types: ['node'], strict: true, skipLibCheck: true, outDir: 'out', rootDir: '.'},
      include: ['*.ts'],
    }),
  );
  fs.writeFileSync(path.join(folder, `${name}.ts`), tsBlocks.map((block) => `// ${block.page} line ${block.line}\n${block.code}`).join('\n'));
  const compiled = await run(process.execPath, [tsc, '-p', folder]);
  expect(compiled.stdout + compiled.stderr).toBe('');
  expect(compiled.code).toBe(0);
  const result = await runProgram(t, folder, name, env);
  expect(result.code, `${result.stdout}\n${result.stderr}`).toBe(0);
  expect(result.stderr).toBe('');
  return result;
}

describe('the pages', () => {
  it(`README.md is the first hour: at most ${README_MAX_LINES} lines, and it links every page of docs/`, () => {
    const readme = text('README.md');
    expect(readme.trimEnd().split('\n').length).toBeLessThanOrEqual(README_MAX_LINES);
    for (const page of PAGES.filter((page) => page !== 'README.md')) expect(readme).toContain(`](${page})`);
  });

  it.each(PAGES)('every link of %s leads to a file, and its anchor to a heading there', (page) => {
    expect(brokenLinks(repoRoot, page)).toEqual([]);
  });

  it('marks exactly the blocks listed in NOT_RUN, each with its reason', () => {
    const marked: Record<string, Record<string, string>> = {};
    for (const block of blocks.filter((block) => block.notRun)) (marked[block.page] ??= {})[block.code.split('\n')[0]!.replace(/\s+#.*$/, '').trim()] = block.notRun!;
    expect(Object.fromEntries(Object.entries(marked).map(([page, lines]) => [page, Object.keys(lines).sort()]))).toEqual(
      Object.fromEntries(Object.entries(NOT_RUN).map(([page, lines]) => [page, Object.keys(lines).sort()])),
    );
    for (const block of blocks.filter((block) => block.notRun)) expect(block.notRun).not.toBe('');
    // A language this test cannot run would slip through unrun.
    expect(blocks.filter((block) => !['sh', 'ts', 'json', 'yaml'].includes(block.language)).map((block) => `${block.page}:${block.line} ${block.language}`)).toEqual([]);
  });

  it('every ```json and ```yaml block is a schema config the service finds valid', async () => {
    const configs = blocks.filter((block) => (block.language === 'json' || block.language === 'yaml') && !block.notRun);
    expect(configs.length).toBeGreaterThan(0);
    for (const block of configs) {
      const response = await fetch(`${t.url}/public/v1/schema-config/validate`, {
        method: 'POST',
        headers: { 'x-api-key': t.teamKey, 'content-type': 'application/json' },
        body: JSON.stringify({ schema: block.language === 'json' ? JSON.parse(block.code) : parseYaml(block.code) }),
      });
      const body = (await response.json()) as { valid: boolean; errors: unknown[] };
      expect({ at: `${block.page}:${block.line}`, valid: body.valid, errors: body.errors }).toEqual({ at: `${block.page}:${block.line}`, valid: true, errors: [] });
      ran.add(block);
    }
  });
});

describe('README.md', () => {
  const shBlocks = runnable('README.md', 'sh');
  const tsBlocks = runnable('README.md', 'ts');

  it('the walkthrough shell blocks run in order, each doing what it says', async () => {
    expect(shBlocks).toHaveLength(WALKTHROUGH.length);
    // The terminal is kept for the pages that continue it.
    const keep = `{ declare -p SDS_URL SDS_KEY PROJECT_ID SCHEMA_ID VERSION_ID SOURCE_ID SRC_KEY BASE; declare -f json; } > '${terminal}'`;
    const answers = await runShell('walkthrough', shBlocks, '', keep);
    answers.forEach((output, index) => {
      outputs[index] = output;
      WALKTHROUGH[index]!(output);
      ran.add(shBlocks[index]!);
    });
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
    const result = await runTypeScript('walkthrough', tsBlocks, { SDS_URL: t.url, SDS_KEY: t.teamKey });
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
});

/** Pages whose shell blocks a test of their own runs, on databases this test does not have, and where. */
const OWN_TESTS: Record<string, string> = {
  'docs/seed.md': 'test/docs/seed-page.test.ts (a fresh PostgreSQL database with the page\'s own tables)',
};
const pages = PAGES.filter((page) => page !== 'README.md' && !OWN_TESTS[page]);
// A page with shell blocks or outcomes for them (a page whose blocks were removed fails here, not silently).
describe.each(pages.filter((page) => runnable(page, 'sh').length > 0 || PAGE_OUTCOMES[page]))('%s', (page) => {
  const shBlocks = runnable(page, 'sh');

  it('its shell blocks run in order after the walkthrough, each doing what it says', async () => {
    expect(shBlocks).toHaveLength(PAGE_OUTCOMES[page]?.length ?? 0);
    expect(fs.existsSync(terminal), 'the README walkthrough did not run').toBe(true);
    const answers = await runShell(path.basename(page, '.md'), shBlocks, `source '${terminal}'`);
    answers.forEach((output, index) => {
      PAGE_OUTCOMES[page]![index]!(output);
      ran.add(shBlocks[index]!);
    });
  }, 540_000);
});

for (const page of pages.filter((page) => runnable(page, 'ts').length > 0)) {
  it(`${page}: its TypeScript blocks compile (strict) as one program and run`, async () => {
    const tsBlocks = runnable(page, 'ts');
    await runTypeScript(path.basename(page, '.md'), tsBlocks, { SDS_URL: t.url, SDS_KEY: t.teamKey });
    for (const block of tsBlocks) ran.add(block);
  }, 120_000);
}

describe('all pages', () => {
  it('ran every block that is not marked `not run`', () => {
    const missed = blocks
      .filter((block) => !block.notRun && !ran.has(block) && !(OWN_TESTS[block.page] && block.language === 'sh'))
      .map((block) => `${block.page}:${block.line}`);
    expect(missed).toEqual([]);
  });
});
