// Proof that a consumer can use the SDK: `npm pack` the built package, install the tarball into a
// fresh project outside the repository (offline: openapi-fetch comes from the npm cache), type-check
// a strict consumer program — and one intentional type error that must fail — then run it, as ESM
// (import) against a live service and as CommonJS (require).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../helpers/service.ts';
import { ensureSdkBuilt, npm, repoRoot, run, tsc, withSdkLock } from '../helpers/sdk-build.ts';

const fixtures = path.join(repoRoot, 'test/fixtures/sdk-consumer');
let t: TestService;
let project: string;
let packed: { filename: string; files: { path: string }[] };
let compiled: Awaited<ReturnType<typeof run>>;

beforeAll(async () => {
  project = fs.mkdtempSync(path.join(os.tmpdir(), 'sds-sdk-consumer-'));
  const service = startTestService('sdk_consumer');
  await ensureSdkBuilt();
  const pack = await withSdkLock(() => run(npm, ['pack', '--workspace', 'sdk', '--ignore-scripts', '--json', '--pack-destination', project]));
  expect(pack.code, pack.stderr).toBe(0);
  packed = (JSON.parse(pack.stdout) as (typeof packed)[])[0]!;

  fs.mkdirSync(path.join(project, 'src'));
  // Stored as .txt: the repository's own type-check must not see them (bad.ts fails on purpose).
  for (const file of ['main.ts', 'cjs.cts', 'bad.ts']) fs.copyFileSync(path.join(fixtures, `${file}.txt`), path.join(project, 'src', file));
  fs.writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'sds-consumer', private: true, type: 'module' }, null, 2));
  fs.writeFileSync(
    path.join(project, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        lib: ['ES2023'],
        strict: true,
        skipLibCheck: true,
        outDir: 'dist',
        rootDir: 'src',
        // @types/node from the repository: the consumer's own devDependency, without a download.
        typeRoots: [path.join(repoRoot, 'node_modules/@types')],
        types: ['node'],
      },
      include: ['src'],
    }),
  );
  const install = await run(npm, ['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts', `./${packed.filename}`], { cwd: project });
  expect(install.code, install.stderr).toBe(0);
  t = await service;
});
afterAll(async () => {
  await t?.stop();
  fs.rmSync(project, { recursive: true, force: true });
});

describe('the packed @sds/sdk in a fresh project', () => {
  it('packs the build, the declarations and the README, not the sources', () => {
    const files = packed.files.map((file) => file.path);
    expect(files).toEqual(expect.arrayContaining(['package.json', 'README.md', 'dist/index.js', 'dist/index.d.ts', 'dist/cjs/index.js', 'dist/cjs/index.d.ts', 'dist/cjs/package.json']));
    expect(files.filter((file) => !file.startsWith('dist/') && !['package.json', 'README.md'].includes(file))).toEqual([]);
  });

  it('installs from the tarball with openapi-fetch as its only dependency', () => {
    const installed = JSON.parse(fs.readFileSync(path.join(project, 'node_modules/@sds/sdk/package.json'), 'utf8'));
    expect(installed).toMatchObject({ name: '@sds/sdk', version: '0.1.0', dependencies: { 'openapi-fetch': expect.any(String) } });
    expect(Object.keys(installed.dependencies)).toEqual(['openapi-fetch']);
    expect(fs.realpathSync(path.join(project, 'node_modules/@sds/sdk')).startsWith(repoRoot)).toBe(false);
    expect(fs.existsSync(path.join(project, 'node_modules/openapi-fetch/package.json'))).toBe(true);
  });

  it('type-checks the consumer (strict, ESM and CJS) and refuses the intentional type error', async () => {
    compiled = await run(process.execPath, [tsc, '-p', '.'], { cwd: project });
    const errors = compiled.stdout.trim().split('\n');
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^src\/bad\.ts\(10,\d+\): error TS2353: Object literal may only specify known properties, and '\$containsi' does not exist in type 'NumberFilter<number>'\.$/);
    expect(compiled.code).toBe(2);
  });

  it('loads with require() from the CommonJS build', async () => {
    expect(compiled, 'compiled first').toBeDefined();
    const result = await run(process.execPath, [path.join(project, 'dist/cjs.cjs')], { cwd: project });
    expect(result.code, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout);
    expect(report.resolved).toBe(path.join(fs.realpathSync(project), 'node_modules/@sds/sdk/dist/cjs/index.js'));
    expect(report.exports).toEqual(expect.arrayContaining(['createManagementClient', 'createRuntimeClient', 'serializeQuery', 'waitForJob', 'SdsRequestError']));
    expect(report.methods).toEqual(['function', 'function']);
    expect(report.query).toBe('filters[email][$endsWith]=%40example.com&sort=id:desc');
  });

  describe('run with import() against a live service', () => {
    let report: Record<string, any>;
    beforeAll(async () => {
      const result = await run(process.execPath, [path.join(project, 'dist/main.js'), t.url, t.teamKey], { cwd: project });
      expect(result.code, `${result.stdout}\n${result.stderr}`).toBe(0);
      report = JSON.parse(result.stdout.trim().split('\n').pop()!);
    });

    it('loads the ESM build', () => {
      expect(report.resolved).toBe(`file://${path.join(fs.realpathSync(project), 'node_modules/@sds/sdk/dist/index.js')}`);
    });

    it('creates a project, a schema, a source and a key, and waits for generation', () => {
      expect(report).toMatchObject({ createProject: 201, createSchema: 201, listSchemaVersions: 200, createSource: 201, createSourceApiKey: 201 });
      expect(report.job).toEqual({ status: 'succeeded', rowsInserted: 42 });
    });

    it('lists rows with filters and populate', () => {
      expect(report.list).toEqual({ status: 200, rows: 5, total: 30, author: expect.objectContaining({ id: expect.any(Number), email: expect.stringContaining('@') }), titles: true });
      expect(Object.keys(report.list.author).sort()).toEqual(['email', 'id']);
    });

    it('iterates every page of a filtered list', () => {
      expect(report.rows.total).toBeGreaterThan(0);
      expect(report.rows).toEqual({ iterated: report.rows.total, total: report.rows.total });
    });

    it('patches a row', () => {
      expect(report.patch).toEqual({ status: 200, firstName: 'Patched', email: 'string', reread: { id: 1, firstName: 'Patched' } });
    });
  });
});
