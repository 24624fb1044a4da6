// Every code block of sdk/README.md: the ```ts blocks are compiled together as programs against the
// built package (strict), with the row types `sds types` writes for the source, and the blocks
// marked `runnable` run against a live service. The first one creates that source; the later ones
// use it through the environment variables it prints, as a reader would.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildCli } from '../../src/cli/main.ts';
import { startTestService, type TestService } from '../helpers/service.ts';
import { ensureSdkBuilt, repoRoot, run, sdkDir, tsc } from '../helpers/sdk-build.ts';

interface Sample {
  index: number;
  line: number;
  language: 'ts' | 'js';
  runnable: boolean;
  code: string;
  file: string;
}

const readme = fs.readFileSync(path.join(sdkDir, 'README.md'), 'utf8');

function extractSamples(markdown: string): Sample[] {
  const samples: Sample[] = [];
  const fence = /^```(\w+)([^\n]*)\n([\s\S]*?)^```$/gm;
  for (const match of markdown.matchAll(fence)) {
    const [, language, info, code] = match;
    if (language !== 'ts' && language !== 'js') continue;
    const flags = info!.trim().split(/\s+/);
    const index = samples.length + 1;
    samples.push({
      index,
      line: markdown.slice(0, match.index).split('\n').length + 1,
      language,
      runnable: flags.includes('runnable'),
      code: code!,
      file: `sample-${index}.${language === 'ts' ? 'ts' : 'cjs'}`,
    });
  }
  return samples;
}

const samples = extractSamples(readme);
const dir = path.join(repoRoot, '.tmp', `readme-samples-${process.pid}`);
let t: TestService;
const env: Record<string, string> = {};

beforeAll(async () => {
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ type: 'module', private: true }));
  fs.writeFileSync(
    path.join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', lib: ['ES2023'], types: ['node'], strict: true, skipLibCheck: true, outDir: 'out', rootDir: '.' },
      include: ['*.ts'],
    }),
  );
  for (const sample of samples) fs.writeFileSync(path.join(dir, sample.file), `// sdk/README.md, the block at line ${sample.line}\n${sample.code}`);
  const [service] = await Promise.all([startTestService('sdk_readme'), ensureSdkBuilt()]);
  t = service;
  Object.assign(env, { SDS_BASE_URL: t.url, SDS_TEAM_KEY: t.teamKey });
});
afterAll(async () => {
  await t?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('sdk/README.md', () => {
  it('has ts samples, runnable ones among them', () => {
    expect(samples.filter((sample) => sample.language === 'ts').length).toBeGreaterThanOrEqual(8);
    expect(samples[0]).toMatchObject({ language: 'ts', runnable: true });
  });

  it('sample 1 creates a project, schema, source and key and prints their ids', async () => {
    const result = await run(process.execPath, ['--import', 'tsx', samples[0]!.file], { cwd: dir, env });
    expect(result.code, result.stderr).toBe(0);
    for (const [, name, value] of result.stdout.matchAll(/^export (SDS_\w+)=(\S+)$/gm)) env[name!] = value!;
    expect(Object.keys(env)).toEqual(expect.arrayContaining(['SDS_PROJECT_ID', 'SDS_SOURCE_ID', 'SDS_SOURCE_KEY']));
    expect(result.stdout).toMatch(/^generated \d+ rows$/m);
  });

  it('`sds types` writes the row types of that source, as the README shows', async () => {
    const types = path.join(dir, 'sds-types.ts');
    const args = ['types', '--source', env.SDS_SOURCE_ID!, '--project', env.SDS_PROJECT_ID!, '--base-url', t.url, '--team-key', t.teamKey, '--out', types];
    // In process (a spawned CLI costs seconds); contract-test.test.ts spawns the real command.
    const logged: unknown[][] = [];
    const spy = vi.spyOn(console, 'error').mockImplementation((...line: unknown[]) => void logged.push(line));
    try {
      await buildCli().parseAsync(args, { from: 'user' });
    } finally {
      spy.mockRestore();
    }
    expect(logged).toEqual([[`wrote ${types}`]]);
    const source = fs.readFileSync(types, 'utf8');
    expect(source).toContain(`  role: "admin" | "editor" | "reader";`);
    expect(source).toContain(`  publishedAt: DatetimeString | null;`);
    expect(source).toMatch(/export interface SourceTables \{\n {2}users: UsersRow;\n {2}posts: PostsRow;\n\}/);
  });

  it('every ts sample compiles (strict) against the built package and those row types', async () => {
    const result = await run(process.execPath, [tsc, '-p', dir]);
    expect(result.stdout + result.stderr).toBe('');
    expect(result.code).toBe(0);
  });

  for (const sample of samples.slice(1).filter((candidate) => candidate.runnable)) {
    it(`sample ${sample.index} (line ${sample.line}) runs`, async () => {
      const file = sample.language === 'ts' ? path.join('out', sample.file.replace(/\.ts$/, '.js')) : sample.file;
      const result = await run(process.execPath, [file], { cwd: dir, env });
      expect(result.code, `${result.stdout}\n${result.stderr}`).toBe(0);
      expect(result.stderr).toBe('');
    });
  }
});
