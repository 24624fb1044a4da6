// `sds contract-test` against a live service: every check passes and every response conforms to
// the contract; failures are reported (a wrong team key fails it, prints why and exits non-zero).
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatTable } from '../../src/cli/contract-test-run.ts';
import { runContractTest, type ContractTestReport } from '../../src/cli/contract-test.ts';
import { openApiDocument } from '../../src/contract.ts';
import { startTestService, type TestService } from '../helpers/service.ts';
import { repoRoot, run } from '../helpers/sdk-build.ts';

let t: TestService;
let report: ContractTestReport;

beforeAll(async () => {
  t = await startTestService('sdk_contract_test');
  report = await runContractTest({ baseUrl: t.url, teamKey: t.teamKey, timeoutMs: 30_000 });
});
afterAll(() => t?.stop());

describe('sds contract-test', () => {
  it('passes every check, every response conforming to the contract', () => {
    expect(report.results.filter((result) => result.outcome !== 'pass'), formatTable(report.results)).toEqual([]);
    expect(report.ok).toBe(true);
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

  it('cleans up after itself', async () => {
    const { data } = await t.client(t.teamKey).GET('/public/v1/projects');
    expect(data!.filter((project) => project.name.startsWith('sds contract test'))).toEqual([]);
  });

  it('fails, prints the table and exits non-zero with a wrong team key', async () => {
    const result = await run(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'src/cli/main.ts'), 'contract-test', '--base-url', t.url, '--team-key', 'svc_api_wrongwrongwrongwrongwrongwrong']);
    expect(result.code, result.stderr).toBe(1);
    expect(result.stdout).toMatch(/^#\s+check\s+operation\s+status\s+result\s+notes$/m);
    expect(result.stdout).toMatch(/create a project\s+POST \/public\/v1\/projects\s+401\s+FAIL\s+expected 201, got 401: Invalid API key/);
    expect(result.stdout).toMatch(/missing key: 401 "API key required"\s+GET \/public\/v1\/projects\s+401\s+PASS/);
    expect(result.stdout).toMatch(/read the project\s+-\s+-\s+SKIP\s+needs the result of a failed check/);
    expect(result.stdout).toMatch(/^\d+ passed, \d+ failed, \d+ skipped$/m);
    expect(result.stderr).toMatch(/sds: contract test failed: \d+ of \d+ checks did not pass/);
  });
});

function operationOf(operationId: string): [string, string] {
  for (const [template, item] of Object.entries(openApiDocument().paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if ((operation as { operationId?: string }).operationId === operationId) return [method.toUpperCase(), template];
    }
  }
  throw new Error(`no operation ${operationId}`);
}
