// The build: `npm run build:server` bundles the server and the CLI into JavaScript that plain `node`
// runs (what `npm start` and `bin/sds.js` run). The bundle finds the files it reads at run time from
// the package root: the OpenAPI document, the config JSON Schema and the migrations; and the modules
// it loads on first use (the config validator, the generation engine) are chunks beside it.
import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueKey, TEAM_KEY_PREFIX } from '../../src/security/api-keys.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { childEnv, startServerProcess } from '../helpers/processes.ts';

const run = promisify(execFile);
const outdir = `.tmp/build-${randomBytes(4).toString('hex')}`;
let database: TestDatabase;

beforeAll(async () => {
  await run('npm', ['run', '-s', 'build:server', '--', '--outdir', outdir], { timeout: 60_000 });
  database = await createTestDatabase('build');
}, 90_000);
afterAll(async () => {
  fs.rmSync(outdir, { recursive: true, force: true });
  await database?.drop();
});

describe('the built server and CLI', () => {
  it('writes server.js, cli.js and their chunks', () => {
    expect(fs.existsSync(`${outdir}/server.js`)).toBe(true);
    expect(fs.existsSync(`${outdir}/cli.js`)).toBe(true);
    expect(fs.readdirSync(`${outdir}/chunks`).some((file) => file.endsWith('.js'))).toBe(true);
    // The worker threads of validation and previews start from an entry point of their own.
    expect(fs.existsSync(`${outdir}/config-worker.js`)).toBe(true);
  });

  it('serves from plain node: migrations applied, the documents served, a config validated', async () => {
    const teamKey = issueKey(TEAM_KEY_PREFIX).key;
    const server = await startServerProcess(childEnv({ DATABASE_URL: database.url, PORT: '0', SDS_BOOTSTRAP_TEAM_KEY: teamKey }), 60_000, `${outdir}/server.js`);
    try {
      const health = await fetch(`${server.url}/healthz`);
      expect(health.status).toBe(200);
      const document = (await (await fetch(`${server.url}/openapi.json`)).json()) as { openapi: string };
      expect(document.openapi).toMatch(/^3\.1/);
      const blog = JSON.parse(fs.readFileSync('schemas/examples/blog.json', 'utf8')) as unknown;
      const validate = (schema: unknown) =>
        fetch(`${server.url}/public/v1/schema-config/validate`, {
          method: 'POST',
          headers: { 'x-api-key': teamKey, 'content-type': 'application/json' },
          body: JSON.stringify({ schema }),
        }).then(async (response) => ({ status: response.status, body: (await response.json()) as { valid: boolean; errors: Array<{ path: string }> } }));
      const valid = await validate(blog);
      expect(valid).toMatchObject({ status: 200, body: { valid: true } });
      // Without response validation, replies skip res.json (app.ts sendJson): the same headers and body.
      const reply = await fetch(`${server.url}/public/v1/projects?limit=1`, { headers: { 'x-api-key': teamKey } });
      expect(reply.headers.get('content-type')).toBe('application/json; charset=utf-8');
      const text = await reply.text();
      expect(reply.headers.get('content-length')).toBe(String(Buffer.byteLength(text)));
      expect(JSON.parse(text)).toEqual([]);
      expect(reply.headers.get('x-total-count')).toBe('0');
      // A faker method that does not exist: the validator chunk and faker load from the bundle.
      const invalid = await validate({ ...(blog as object), entities: [{ id: 'a', fields: [{ id: 'x', type: 'string', generation: { strategy: { kind: 'faker', method: 'person.nope' } } }] }] });
      expect(invalid.status).toBe(200);
      expect(invalid.body.valid).toBe(false);
      expect(invalid.body.errors.map((error) => error.path)).toContain('/entities/0/fields/0/generation/strategy/method');
      // A preview: made in a config worker thread, started from the bundle's config-worker.js.
      const preview = await fetch(`${server.url}/public/v1/schema-config/preview`, {
        method: 'POST',
        headers: { 'x-api-key': teamKey, 'content-type': 'application/json' },
        body: JSON.stringify({ schema: blog, rows: 2 }),
      });
      expect(preview.status).toBe(200);
      const shown = (await preview.json()) as { entities: { rows: unknown[] }[] };
      expect(shown.entities.length).toBeGreaterThan(0);
      expect(shown.entities[0]!.rows).toHaveLength(2);
    } finally {
      expect(await server.stop('SIGTERM')).toBe(0);
    }
  }, 90_000);

  it('generates files from plain node, its worker threads started before the config is read: the same bytes as one thread', async () => {
    const digests = new Map<number, string>();
    for (const workers of [1, 2]) {
      const out = `${outdir}/files-${workers}`;
      const args = [`${outdir}/cli.js`, 'generate', 'schemas/examples/blog.json', '--out', out, '--rows', 'users=2000,posts=60000', '--workers', String(workers), '--json'];
      const { stdout } = await run(process.execPath, args, { env: childEnv({}), timeout: 60_000 });
      const summary = JSON.parse(stdout) as { workers: number; rowsWritten: number; files: { path: string }[] };
      expect(summary.workers).toBe(workers);
      expect(summary.rowsWritten).toBe(62_000);
      const hash = createHash('sha256');
      for (const file of summary.files) hash.update(path.basename(file.path)).update(fs.readFileSync(file.path));
      digests.set(workers, hash.digest('hex'));
    }
    expect(digests.get(2)).toBe(digests.get(1));
  }, 90_000);

  it('runs the CLI from plain node', async () => {
    // The report goes to stderr, as the CLI's diagnostics do.
    const { stderr } = await run(process.execPath, [`${outdir}/cli.js`, 'validate', 'schemas/examples/blog.json'], { env: childEnv({}), timeout: 60_000 });
    expect(stderr).toMatch(/blog\.json: valid \(0 errors/);
  }, 90_000);
});
