// `sds contract-test` against a live service: every check passes and every response conforms to
// the contract, every operation is exercised (an operation the document adds shows up uncovered);
// failures are reported (a wrong team key fails it, prints why, writes the reports, exits non-zero).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatTable } from '../../src/cli/contract-test-run.ts';
import { runContractTest, type ContractTestReport } from '../../src/cli/contract-test.ts';
import { openApiDocument, operationTable, type OpenApiDocument } from '../../src/contract.ts';
import { ADMIN_TOKEN, blogProject, startTestService, type TestService } from '../helpers/service.ts';
import { repoRoot, run } from '../helpers/sdk-build.ts';

let t: TestService;
let report: ContractTestReport;

const COVERAGE = 'coverage: every operation of the document exercised';
/** The bundled document with one operation the server does not have: the coverage row must name it. */
const withWidgets: OpenApiDocument = {
  ...openApiDocument(),
  paths: { ...openApiDocument().paths, '/public/v1/widgets': { get: { operationId: 'listWidgets', responses: { '200': { description: 'Widgets.' } } } } },
};

beforeAll(async () => {
  t = await startTestService('sdk_contract_test');
  report = await runContractTest({ baseUrl: t.url, teamKey: t.teamKey, timeoutMs: 30_000, adminToken: ADMIN_TOKEN, document: withWidgets });
  // Every operation of the contract, one after the other: past the default 2 minutes on a busy machine.
}, 600_000);
afterAll(() => t?.stop());

describe('sds contract-test', () => {
  it('passes every check, every response conforming to the contract', () => {
    const others = report.results.filter((result) => result.name !== COVERAGE);
    expect(others.filter((result) => result.outcome === 'fail'), formatTable(report.results)).toEqual([]);
    // Skipped only what this test service cannot show: the studio is not built, metrics are off.
    expect(others.filter((result) => result.outcome === 'skip').map((result) => result.name).filter((name) => !['getStudio: 200', 'getMetrics: 200 with the metrics token'].includes(name))).toEqual([]);
  });

  it('exercises every operation of the contract, and names one it does not know', () => {
    const operations = operationTable();
    const coverage = report.results.find((result) => result.name === COVERAGE)!;
    expect(coverage.outcome).toBe('fail');
    expect(coverage.notes).toEqual(['not exercised: listWidgets', `${operations.length} of ${operations.length + 1} operations`]);
    expect(report.ok).toBe(false);
  });

  it('checks each documented error status of the operations that declare it', () => {
    const names = report.results.map((result) => result.name);
    for (const operation of operationTable()) {
      for (const [status, name] of [['413', '413 for a body over the limit'], ['415', '415 for a text/plain body']] as const) {
        if (operation.responses.includes(status)) expect(names).toContain(`${name}: ${operation.operationId}`);
      }
      if (operation.security.flat().length) expect(names).toContain(`401 without a credential: ${operation.operationId}`);
    }
    expect(names).toEqual(
      expect.arrayContaining([
        'a scoped key outside its scope: 403',
        "runtime: another source's key: 403",
        'deleting a schema a source uses: 409',
        'runtime: a duplicate unique key on create: 409',
        "runtime: 429 with Retry-After over the source's rateLimitRpm",
        'runtime: CSV export (format=csv)',
        'stream generation events (text/event-stream)',
        'resume the event stream with Last-Event-ID',
      ]),
    );
  });

  it('covers the management API, the runtime CRUD API, regeneration and the error cases', () => {
    const operations = new Set(report.results.map((result) => result.operation));
    for (const operationId of ['createProject', 'getProject', 'listProjects', 'updateProject', 'validateSchemaConfig', 'createSchema', 'createSchemaVersion',
      'createSource', 'createSourceApiKey', 'listRows', 'getRow', 'createRow', 'updateRow', 'deleteRow', 'regenerateSource', 'deleteSource', 'deleteSchema', 'deleteProject']) {
      const [method, template] = operationOf(operationId);
      expect(operations, operationId).toContain(`${method} ${template}`);
    }
    expect(report.results.map((result) => result.name)).toEqual(
      expect.arrayContaining(['missing key: 401 "API key required"', 'bad key: 401 "Invalid API key"', 'bad body: 400', 'unknown route: 404']),
    );
  });

  it('cleans up after itself: projects, the scoped team key', async () => {
    const { data } = await t.client(t.teamKey).GET('/public/v1/projects');
    expect(data!.filter((project) => project.name.startsWith('sds contract test'))).toEqual([]);
    const keys = (await (await fetch(`${t.url}/api/api-keys`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })).json()) as { name: string; revokedAt: string | null }[];
    expect(keys.filter((key) => key.name.startsWith('sds contract test') && key.revokedAt === null)).toEqual([]);
  });

  it('fails, prints the table, writes the reports and exits non-zero with a wrong team key', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sds-contract-test-'));
    const [junit, json] = [path.join(dir, 'junit.xml'), path.join(dir, 'report.json')];
    const result = await run(process.execPath, [
      '--import', 'tsx', path.join(repoRoot, 'src/cli/main.ts'), 'contract-test', '--base-url', t.url, '--team-key', 'svc_api_wrongwrongwrongwrongwrongwrong',
      '--document', path.join(repoRoot, 'generated/openapi.json'), '--junit', junit, '--json', json,
    ]);
    expect(result.code, result.stderr).toBe(1);
    const written = JSON.parse(fs.readFileSync(json, 'utf8')) as ContractTestReport;
    expect(written.ok).toBe(false);
    const failures = written.results.filter((check) => check.outcome === 'fail').length;
    const skips = written.results.filter((check) => check.outcome === 'skip').length;
    expect(fs.readFileSync(junit, 'utf8')).toContain(`tests="${written.results.length}" failures="${failures}" errors="0" skipped="${skips}"`);
    expect(result.stdout).toMatch(/^#\s+check\s+operation\s+status\s+result\s+notes$/m);
    expect(result.stdout).toMatch(/create a project\s+POST \/public\/v1\/projects\s+401\s+FAIL\s+expected 201, got 401: Invalid API key/);
    expect(result.stdout).toMatch(/missing key: 401 "API key required"\s+GET \/public\/v1\/projects\s+401\s+PASS/);
    expect(result.stdout).toMatch(/read the project\s+-\s+-\s+SKIP\s+needs the result of a failed check/);
    expect(result.stdout).toMatch(/^\d+ passed, \d+ failed, \d+ skipped$/m);
    expect(result.stderr).toMatch(/sds: contract test failed: \d+ of \d+ checks did not pass/);
  });
});

describe('sds contract-test --source', () => {
  it("runs a source's own document, named by its URL, against the source: reads checked, writes skipped", async () => {
    const api = t.client(t.teamKey);
    const { projectId, versionId } = await blogProject(api, 'Source document test');
    const sourceId = (await api.POST('/public/v1/projects/{projectId}/sources', { params: { path: { projectId } }, body: { name: 'Blog', kind: 'postgres', schemaVersionId: versionId } })).data!.id;
    for (let waited = 0; waited < 30_000; waited += 200) {
      const { data } = await api.GET('/public/v1/projects/{projectId}/sources/{sourceId}', { params: { path: { projectId, sourceId } } });
      if (data?.lastGenerationAt) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const sourceKey = (await api.POST('/public/v1/projects/{projectId}/sources/{sourceId}/api-keys', { params: { path: { projectId, sourceId } }, body: {} })).data!.key;
    const json = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'sds-contract-test-')), 'report.json');
    const document = `${t.url}/public/v1/projects/${projectId}/sources/${sourceId}/openapi.json`;
    const cli = ['--import', 'tsx', path.join(repoRoot, 'src/cli/main.ts'), 'contract-test', '--base-url', t.url, '--team-key', t.teamKey, '--document', document, '--source', sourceId, '--source-key', sourceKey, '--json', json];

    const strict = await run(process.execPath, cli);
    expect(strict.code, strict.stdout).toBe(1);
    expect(strict.stdout).toMatch(/coverage: every operation of the document exercised\s+-\s+-\s+FAIL\s+not exercised: create\w+, update\w+, delete\w+/);

    const lenient = await run(process.execPath, [...cli, '--allow-uncovered']);
    expect(lenient.code, lenient.stdout).toBe(0);
    const report = JSON.parse(fs.readFileSync(json, 'utf8')) as ContractTestReport;
    const outcomes = (kind: RegExp) => report.results.filter((result) => kind.test(result.name)).map((result) => result.outcome);
    expect(outcomes(/: a page of /).length).toBeGreaterThan(1);
    expect(new Set([...outcomes(/: a page of /), ...outcomes(/: every row as /), ...outcomes(/: a row of /), ...outcomes(/: an unknown id/)])).toEqual(new Set(['pass']));
    expect(new Set(outcomes(/: writes /))).toEqual(new Set(['skip']));
    // The rows are the source's own: nothing was written.
    await api.DELETE('/public/v1/projects/{projectId}', { params: { path: { projectId } } });
  }, 120_000);
});

function operationOf(operationId: string): [string, string] {
  for (const [template, item] of Object.entries(openApiDocument().paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if ((operation as { operationId?: string }).operationId === operationId) return [method.toUpperCase(), template];
    }
  }
  throw new Error(`no operation ${operationId}`);
}
