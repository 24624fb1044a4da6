// The gate around the classification: exit codes of `npm run api:diff` on planted edits of a copy of
// the real contract, the CHANGELOG.md acknowledgement rule CI applies, and sides read from git history
// (external $refs from the same commit), in this repository and in a scratch one.
import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readAcknowledgements, unacknowledged } from '../../../scripts/api-diff/changelog.ts';
import type { Change } from '../../../src/api-changes/classify-changes.ts';
import { runApiDiff } from '../../../scripts/api-diff/run-api-diff.ts';

const repo = process.cwd();
const contract = JSON.parse(fs.readFileSync('generated/openapi.json', 'utf8')) as {
  components: { schemas: Record<string, { required?: string[]; properties: Record<string, unknown> }> };
};
let dir: string;

async function apiDiff(args: string[], root = repo) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runApiDiff(args, { root, cwd: dir, out: (text) => out.push(text), err: (text) => err.push(text) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

const changelog = (breaking: string) => `# Changelog\n\n## Unreleased\n\n### Security\n\n- Teams kept apart.\n\n### Breaking\n\n${breaking}\n\n## 0.1.0\n`;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sds-api-diff-test-'));
  const write = (name: string, edit: (document: typeof contract) => void) => {
    const copy = structuredClone(contract);
    edit(copy);
    fs.writeFileSync(path.join(dir, name), JSON.stringify(copy));
  };
  write('base.json', () => {});
  // `description` of createProject's body made required: breaking for every client that omits it.
  write('required.json', (d) => void d.components.schemas.ProjectCreate!.required!.push('description'));
  write('additive.json', (d) => void (d.components.schemas.ProjectCreate!.properties.color = { type: 'string' }));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('npm run api:diff exit codes', () => {
  it('a breaking edit exits 1, printing the change by side with its operation and pointer, and the summary', async () => {
    const { code, out, err } = await apiDiff(['base.json', 'required.json']);
    expect(code).toBe(1);
    expect(out).toContain('breaking (1)\n  request side\n    POST /public/v1/projects  /requestBody/content/application~1json/schema/required/1\n');
    expect(out).toContain('summary: 1 breaking (1 request, 0 response), 0 non-breaking');
    expect(err).toContain('- `POST /public/v1/projects`: <what breaks');
  }, 60_000);

  it('an additive edit exits 0 and lists it as non-breaking', async () => {
    const { code, out } = await apiDiff(['base.json', 'additive.json']);
    expect(code).toBe(0);
    expect(out).toMatch(/non-breaking \(1\)\n {2}request side\n {4}POST \/public\/v1\/projects {2}\/requestBody\/content\/application~1json\/schema\/properties\/color\n/);
    expect(out).toContain('summary: 0 breaking');
  }, 60_000);

  it('--json gives every change with its classification, side and pointer', async () => {
    const { code, out } = await apiDiff(['--json', 'base.json', 'required.json']);
    expect(code).toBe(1);
    const report = JSON.parse(out) as { changes: Change[]; unacknowledged: string[]; summary: { breaking: number } };
    expect(report.summary.breaking).toBe(1);
    expect(report.changes[0]).toMatchObject({ type: 'breaking', side: 'request', operation: 'POST /public/v1/projects' });
    expect(report.unacknowledged).toEqual(['#/paths/~1public~1v1~1projects/post/requestBody/content/application~1json/schema/required/1']);
  }, 60_000);

  it('a side that is neither a file nor a git ref exits 2 and says so', async () => {
    const { code, err } = await apiDiff(['no-such-ref-or-file', 'base.json']);
    expect(code).toBe(2);
    expect(err).toContain('"no-such-ref-or-file" is neither a file nor a git ref');
  });

  it('a third side or an unknown option exits 2', async () => {
    expect((await apiDiff(['base.json', 'base.json', 'base.json'])).code).toBe(2);
    expect((await apiDiff(['--breaking-only'])).err).toContain('unknown option --breaking-only');
  });
});

describe('CHANGELOG.md acknowledgement of breaking changes', () => {
  const gate = async (text: string) => {
    fs.writeFileSync(path.join(dir, 'CHANGELOG.md'), text);
    return apiDiff(['--changelog', 'CHANGELOG.md', 'base.json', 'required.json']);
  };

  it('a bullet under Unreleased → Breaking naming the operation lets the breaking change pass', async () => {
    const { code, out } = await gate(changelog('- `POST /public/v1/projects`: `description` is now required; send it.'));
    expect(code).toBe(0);
    expect(out).toContain('[acknowledged in the changelog]');
    expect(out).toContain('1 breaking acknowledged in CHANGELOG.md');
  }, 60_000);

  it('an entry naming another operation, a released section, another subsection or a comment acknowledges nothing', async () => {
    const refused = [
      changelog('- `PATCH /public/v1/projects/{projectId}`: renamed.'),
      changelog('<!-- - `POST /public/v1/projects`: placeholder -->'),
      '# Changelog\n\n## Unreleased\n\n### Security\n\n- `POST /public/v1/projects`: stricter.\n',
      '# Changelog\n\n## Unreleased\n\n### Breaking\n\n## 0.1.0\n\n### Breaking\n\n- `POST /public/v1/projects`: old news.\n',
    ];
    for (const text of refused) {
      const { code, err } = await gate(text);
      expect(code, text).toBe(1);
      expect(err).toContain('not acknowledged in CHANGELOG.md (POST /public/v1/projects)');
    }
  }, 120_000);

  it('a missing changelog exits 2', async () => {
    const { code, err } = await apiDiff(['--changelog', 'NOPE.md', 'base.json', 'required.json']);
    expect(code).toBe(2);
    expect(err).toContain('--changelog NOPE.md: no such file');
  });

  it('reads backquoted names under ## Unreleased → ### Breaking only', () => {
    const names = readAcknowledgements(
      '# Changelog\n- `GET /a` in the preamble\n## [Unreleased]\n### Breaking changes\n- `POST /public/v1/projects` and `DELETE  /x`: both.\n' +
        '<!--\n- `GET /commented`\n-->\n### Security\n- `GET /security`\n## 1.0.0\n### Breaking\n- `GET /released`\n',
    );
    expect([...names]).toEqual(['POST /public/v1/projects', 'DELETE /x']);
    const change = (key: string, type: Change['type'] = 'breaking') => ({ key, type }) as Change;
    expect(unacknowledged([change('POST /public/v1/projects'), change('GET /b'), change('GET /c', 'non-breaking')], names)).toEqual([change('GET /b')]);
  });

  it("the repository's CHANGELOG.md states the convention and acknowledges only the breaks made on purpose", () => {
    const text = fs.readFileSync('CHANGELOG.md', 'utf8');
    expect(text).toMatch(/^## Unreleased$/m);
    expect(text).toMatch(/^### Security$/m);
    expect(text).toMatch(/^### Breaking$/m);
    expect(text).toContain('npm run api:diff -- --changelog CHANGELOG.md HEAD~1');
    const operations = [...readAcknowledgements(text)].filter((key) => /^[A-Z]+ \//.test(key));
    expect(operations).toEqual([
      // childrenSum, a new strategy kind in answers, and the privacy report's childrenSums (issue 27).
      'GET /public/v1/projects/{projectId}/schemas/{schemaId}/versions',
      'POST /public/v1/projects/{projectId}/schemas/{schemaId}/versions',
      'GET /public/v1/projects/{projectId}/schemas/{schemaId}/versions/{version}',
      'POST /public/v1/schema-config/introspect',
      // styledText's email formats renamed within this release (issue 27), before any user had them;
      // the versions and introspect operations also carry the kinds `sds init --learn` writes.
      'POST /public/v1/projects/{projectId}/schemas',
      'POST /public/v1/schema-config/preview',
      'POST /public/v1/schema-config/validate',
      // Last-Event-ID became a string header (issue 28): the same values on the wire, a type change for generated clients.
      'GET /public/v1/projects/{projectId}/sources/{sourceId}/generation-events',
      // Generator version 4 (issue 26): a new value of generatorConfig.generatorVersion in answers.
      'GET /public/v1/projects/{projectId}/sources',
      'POST /public/v1/projects/{projectId}/sources',
      'GET /public/v1/projects/{projectId}/sources/{sourceId}',
      'PATCH /public/v1/projects/{projectId}/sources/{sourceId}',
      // The per-source document's operation and type names (issue 28): clients generated from it, once regenerated.
      'GET /public/v1/projects/{projectId}/sources/{sourceId}/openapi.json',
      'GET /public/v1/projects/{projectId}/sources/{sourceId}/runtime-docs',
    ]);
  });
});

describe('sides from git history', () => {
  it("HEAD against HEAD in this repository: openapi.yaml and the schema it references at HEAD, no changes", async () => {
    const { code, out } = await apiDiff(['HEAD', 'HEAD']);
    expect(code).toBe(0);
    expect(out).toMatch(/^API changes from HEAD@[0-9a-f]{7}:openapi\/openapi.yaml to HEAD@[0-9a-f]{7}:openapi\/openapi.yaml\nno changes\n/);
  }, 60_000);

  it('<ref>:<path>: the bundled generated/openapi.json at HEAD is the same contract as openapi.yaml at HEAD', async () => {
    const { code, out } = await apiDiff(['HEAD', 'HEAD:generated/openapi.json']);
    expect(code).toBe(0);
    expect(out).toContain('no changes');
  }, 60_000);

  it('npm run api:diff -- --help answers its usage', async () => {
    const { stdout } = await promisify(execFile)('npm', ['run', '-s', 'api:diff', '--', '--help'], { timeout: 60_000 });
    expect(stdout).toMatch(/^Usage: npm run api:diff -- \[options\] \[<old> \[<new>\]\]/);
  }, 90_000);

  describe('in a scratch repository', () => {
    let scratch: string;
    const sh = (...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd: scratch, stdio: 'pipe' });
    beforeAll(() => {
      scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'sds-api-diff-repo-'));
      for (const file of ['openapi/openapi.yaml', 'schemas/schema-config.v1.json']) {
        fs.mkdirSync(path.join(scratch, path.dirname(file)), { recursive: true });
        fs.copyFileSync(file, path.join(scratch, file));
      }
      sh('init', '-q', '-b', 'main');
      sh('add', '.');
      sh('commit', '-qm', 'contract');
    });
    afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

    it('with one commit, the default old side (HEAD~1) is missing: exit 2 with the reason', async () => {
      const { code, err } = await apiDiff([], scratch);
      expect(code).toBe(2);
      expect(err).toContain('HEAD has no parent commit');
    });

    it('a breaking edit committed in the referenced JSON Schema is found between HEAD~1 and HEAD (and by default on main)', async () => {
      const file = path.join(scratch, 'schemas/schema-config.v1.json');
      const schema = JSON.parse(fs.readFileSync(file, 'utf8')) as { $defs: { entity: { properties: { id: { maxLength: number } } } } };
      schema.$defs.entity.properties.id.maxLength = 30;
      fs.writeFileSync(file, JSON.stringify(schema, null, 2));
      sh('commit', '-qam', 'entity ids shorter');

      const explicit = await apiDiff(['HEAD~1', 'HEAD'], scratch);
      expect(explicit.code).toBe(1);
      expect(explicit.out).toMatch(/POST \/public\/v1\/projects\/\{projectId\}\/schemas\/\{schemaId\}\/versions {2}\/requestBody\/content\/application~1json\/schema\/.*\/id\/maxLength\n.*\(63 → 30\)/);
      const byDefault = await apiDiff([], scratch);
      expect(byDefault.code).toBe(1);
      expect(byDefault.out).toContain('(the previous commit: HEAD is on main) to openapi/openapi.yaml');
    }, 120_000);
  });
});
