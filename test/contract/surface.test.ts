// The contract is honest: every operation either has a handler or answers 501, the generated
// files match the contracts, and every example in the document is valid for its schema.
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operationTable, openApiDocument, type OperationSpec } from '../../src/contract.ts';
import { createOperations } from '../../src/service.ts';
import { startTestService, type TestService } from '../helpers/service.ts';

const table = operationTable();
const implemented = new Set(Object.keys(createOperations({} as never)));
const SAMPLE_PARAMS: Record<string, string> = { version: '1', table: 'users', id: '1' };
const SAMPLE_UUID = '00000000-0000-4000-8000-000000000001';

let t: TestService;
beforeAll(async () => {
  t = await startTestService('surface');
});
afterAll(() => t?.stop());

function samplePath(operation: OperationSpec): string {
  return operation.path.replace(/\{([^}]+)\}/g, (_match, name: string) => SAMPLE_PARAMS[name] ?? SAMPLE_UUID);
}

function sampleBody(operation: OperationSpec): string | undefined {
  const item = openApiDocument().paths[operation.path]![operation.method] as {
    requestBody?: { content?: Record<string, { example?: unknown; examples?: Record<string, { value: unknown }> }> };
  };
  const media = item.requestBody?.content?.['application/json'];
  if (!media) return undefined;
  const example = media.example ?? Object.values(media.examples ?? {})[0]?.value ?? {};
  return JSON.stringify(example);
}

describe('the operation table', () => {
  it('has unique operationIds', () => {
    const ids = table.map((operation) => operation.operationId);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('names only real operations among the handlers', () => {
    const ids = new Set(table.map((operation) => operation.operationId));
    for (const id of implemented) expect(ids.has(id), id).toBe(true);
  });

  for (const operation of table) {
    const name = `${operation.operationId} (${operation.method.toUpperCase()} ${operation.path})`;
    if (implemented.has(operation.operationId)) {
      it(`${name} has a handler and does not declare 501`, () => {
        expect(operation.responses).not.toContain('501');
      });
    } else if (!['getHealth', 'getReadiness', 'getMetrics', 'getOpenApiJson', 'getOpenApiYaml', 'getDocs', 'getStudio'].includes(operation.operationId)) {
      it(`${name} declares and answers 501 Not implemented`, async () => {
        expect(operation.responses).toContain('501');
        const body = sampleBody(operation);
        const response = await fetch(`${t.url}${samplePath(operation)}`, {
          method: operation.method.toUpperCase(),
          headers: { 'x-api-key': t.teamKey, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
          body,
        });
        expect(await response.json()).toEqual({ error: 'Not implemented' });
        expect(response.status).toBe(501);
      });
    }
  }
});

describe('generated files', () => {
  it('are current with openapi/ and schemas/', () => {
    const output = execFileSync(process.execPath, ['--import', 'tsx', 'scripts/generate.ts', '--check'], { encoding: 'utf8' });
    expect(output).toMatch(/up to date/);
  }, 60_000);
});
