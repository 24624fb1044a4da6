// `sds contract-test`: exercises a running deployment through its public API with @sds/sdk —
// every operation of the document with its success and its documented error statuses, headers,
// exports and event streams — validating every response against the OpenAPI document, deleting what
// it created whatever failed, and ending with a coverage row naming any operation left unexercised.
import { randomBytes, randomUUID } from 'node:crypto';
import { createManagementClient, createRuntimeClient, waitForJob, type SchemaConfig } from '../../sdk/src/index.ts';
import { openApiDocument, operationTable, type OpenApiDocument } from '../contract.ts';
import { checkBodyRefusals, checkMissingCredentials, checkNotFound, checkWrongCredentials, send, type Credentials } from './contract-test-errors.ts';
import { parseCsv, parseNdjson, parseSse } from '../http/body-formats.ts';
import { ROW_TABLE, UNSUPPORTED_DATABASE, type RunIds } from './contract-test-requests.ts';
import { runSourceDocumentTest } from './contract-test-source.ts';
import { ContractRun, expectStatus, expectThat, Skip, type CheckResult } from './contract-test-run.ts';

export interface ContractTestOptions {
  baseUrl: string;
  teamKey: string;
  /** The document responses must conform to (default: generated/openapi.json). */
  document?: OpenApiDocument;
  /** Longest wait for one generation job (default 60 s). */
  timeoutMs?: number;
  /** SDS_ADMIN_TOKEN of the server: without it the admin API's successes, and 403s of scoped keys, are skipped. */
  adminToken?: string;
  /** SDS_METRICS_TOKEN of the server: without it only /metrics' 401 is checked. */
  metricsToken?: string;
  /** The server's SDS_BODY_LIMIT in bytes (default 1 MiB) for the 413 checks. */
  bodyLimitBytes?: number;
  /** Operations of the document no check exercised make the coverage row a skip instead of a failure. */
  allowUncovered?: boolean;
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
          // restrict: deleting an author with posts answers 409, a conflict the test provokes.
          { id: 'authorId', type: 'integer', references: { entity: 'authors', field: 'id', onDelete: 'restrict' } },
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

/** The fields of the config's posts, in order: the columns of a CSV export. */
const POST_FIELDS = ['id', 'authorId', 'title', 'status', 'publishedAt'];
const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';
/** A stream of a finished job must end by itself (the contract says so); one still open after this fails its check. */
const STREAM_DEADLINE_MS = 10_000;

export async function runContractTest(options: ContractTestOptions): Promise<ContractTestReport> {
  const { baseUrl, teamKey, document = openApiDocument(), timeoutMs = 60_000, adminToken, metricsToken } = options;
  const run = new ContractRun(document);
  const operations = operationTable(document);
  const has = (operationId: string) => operations.some((operation) => operation.operationId === operationId);
  // No retries: the contract test judges each answer as the server gave it, 429s included.
  const api = createManagementClient({ baseUrl, apiKey: teamKey, fetch: run.fetch, retry: false });
  const tag = randomBytes(3).toString('hex');
  const ids: RunIds = {};
  const credentials: Credentials = { teamKey, adminToken, metricsToken };
  const team = { 'x-api-key': teamKey };
  const admin = adminToken ? { authorization: `Bearer ${adminToken}` } : undefined;
  const project = () => ({ projectId: ids.projectId! });
  const source = () => ({ projectId: ids.projectId!, sourceId: ids.sourceId! });
  const sourcePath = () => `${baseUrl}/public/v1/projects/${ids.projectId}/sources/${ids.sourceId}`;
  const config = contractTestConfig();

  try {
    // ---------------------------------------------------------------- service documents and probes
    for (const operation of operations) {
      if (operation.security.length && !operation.security.some((requirement) => requirement.length === 0)) continue;
      if (operation.method !== 'get' || operation.path.includes('{')) continue;
      await run.check(`${operation.operationId}: 200`, [], async () => {
        const answer = await send(run, `${baseUrl}${operation.path}`);
        // A declared 503 (the studio not built into this deployment, a database down) is the server's
        // honest answer: the document held it, but the success cannot be checked.
        if (answer.status === 503) return new Skip(`503: ${(answer.body as { error?: string }).error ?? 'unavailable'}`);
        expectThat(answer.status === 200, `expected 200, got ${answer.status}`);
      });
    }
    if (has('getMetrics')) {
      await run.check('getMetrics: 200 with the metrics token', [], async () => {
        if (!metricsToken) return new Skip('no --metrics-token (SDS_METRICS_TOKEN): only its 401 is checked');
        const answer = await send(run, `${baseUrl}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } });
        expectThat(answer.status === 200 && /^# (HELP|TYPE) /m.test(String(answer.body)), `expected 200 with Prometheus text, got ${answer.status}`);
      });
    }

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
      expectTotal(result.response, data.length, 1000);
    });
    await run.check('list projects one at a time: X-Total-Count counts them all', [ids.projectId], async () => {
      const result = await api.GET('/public/v1/projects', { params: { query: { limit: 1 } } });
      const data = expectStatus(result, 200);
      expectThat(data.length === 1, `${data.length} projects on a page of 1`);
      expectThat(Number(result.response.headers.get('x-total-count')) >= 1, 'X-Total-Count is not a count of at least 1');
    });
    await run.check('update the project', [ids.projectId], async () => {
      const data = expectStatus(await api.PATCH('/public/v1/projects/{projectId}', { params: { path: project() }, body: { name: `sds contract test ${tag} (renamed)` } }), 200);
      expectThat(data.name.endsWith('(renamed)'), 'the name did not change');
    });

    // ---------------------------------------------------------------- schema config, schemas, versions
    await run.check('validate a valid schema config', [], async () => {
      const data = expectStatus(await api.POST('/public/v1/schema-config/validate', { body: { schema: config } }), 200);
      expectThat(data.valid, `the config is reported invalid: ${JSON.stringify(data.errors)}`);
    });
    await run.check('validate an invalid schema config', [], async () => {
      const data = expectStatus(await api.POST('/public/v1/schema-config/validate', { body: { schema: { formatVersion: 1, entities: 'none' } } }), 200);
      expectThat(!data.valid && data.errors.length > 0, 'an invalid config is reported valid');
    });
    await run.check('preview a schema config', [], async () => {
      const answer = await send(run, `${baseUrl}/public/v1/schema-config/preview`, { method: 'POST', headers: team, body: { schema: config, rows: 2 } });
      expectThat(answer.status === 200, `expected 200, got ${answer.status}`);
      expectThat(JSON.stringify(answer.body).includes('"posts"'), 'the preview does not show posts');
    });
    await run.check('introspect a connection string of no known engine: 400', [], async () => {
      // No database is touched: a success needs one the server can reach, which a black box cannot name.
      const answer = await send(run, `${baseUrl}/public/v1/schema-config/introspect`, { method: 'POST', headers: team, body: { connectionString: UNSUPPORTED_DATABASE } });
      expectThat(answer.status === 400, `expected 400, got ${answer.status}`);
      return 'a success needs a database the server can reach';
    });
    await run.check('create a schema', [ids.projectId], async () => {
      const data = expectStatus(await api.POST('/public/v1/projects/{projectId}/schemas', { params: { path: project() }, body: { name: `Blog ${tag}` } }), 201);
      ids.schemaId = data.id;
    });
    await run.check('read the schema', [ids.schemaId], async () => {
      const answer = await send(run, `${baseUrl}/public/v1/projects/${ids.projectId}/schemas/${ids.schemaId}`, { headers: team });
      expectThat(answer.status === 200 && (answer.body as { id?: string }).id === ids.schemaId, `got ${answer.status}`);
    });
    await run.check('list schemas', [ids.schemaId], async () => {
      const response = await run.fetch(`${baseUrl}/public/v1/projects/${ids.projectId}/schemas`, { headers: team });
      const data = (await response.json()) as { id: string }[];
      expectThat(response.status === 200 && data.some((item) => item.id === ids.schemaId), 'the schema is not listed');
      expectTotal(response, data.length);
    });
    await run.check('update the schema', [ids.schemaId], async () => {
      const answer = await send(run, `${baseUrl}/public/v1/projects/${ids.projectId}/schemas/${ids.schemaId}`, { method: 'PATCH', headers: team, body: { description: 'updated by sds contract-test' } });
      expectThat(answer.status === 200 && (answer.body as { description?: string }).description === 'updated by sds contract-test', `got ${answer.status}`);
    });
    await run.check('create a schema version', [ids.schemaId], async () => {
      const data = expectStatus(
        await api.POST('/public/v1/projects/{projectId}/schemas/{schemaId}/versions', { params: { path: { ...project(), schemaId: ids.schemaId! } }, body: { schema: config } }),
        201,
      );
      expectThat(data.version === 1, `version ${data.version}, expected 1`);
      ids.versionId = data.id;
      ids.version = data.version;
    });
    await run.check('list schema versions', [ids.versionId], async () => {
      const data = expectStatus(await api.GET('/public/v1/projects/{projectId}/schemas/{schemaId}/versions', { params: { path: { ...project(), schemaId: ids.schemaId! } } }), 200);
      expectThat(data.length === 1 && data[0]!.id === ids.versionId, 'the version is not listed');
    });
    await run.check('read a schema version', [ids.versionId], async () => {
      const answer = await send(run, `${baseUrl}/public/v1/projects/${ids.projectId}/schemas/${ids.schemaId}/versions/${ids.version}`, { headers: team });
      expectThat(answer.status === 200 && (answer.body as { id?: string }).id === ids.versionId, `got ${answer.status}`);
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
    await run.check('wait for the first generation', [ids.sourceId], async () => {
      const job = await waitForJob(api, source(), { timeoutMs, intervalMs: 200 });
      if (job.error) throw new Error(job.error.error);
      expectThat(job.data.status === 'succeeded', `the job ${job.data.status}: ${job.data.error ?? ''}`);
      ids.jobId = job.data.id;
      return `${job.data.rowsInserted} rows`;
    });
    const generated = ids.jobId;
    await run.check('read the generated source', [generated], async () => {
      const data = expectStatus(await api.GET('/public/v1/projects/{projectId}/sources/{sourceId}', { params: { path: source() } }), 200);
      expectThat(data.lastGenerationAt !== null, 'lastGenerationAt is still null');
    });
    await run.check('list sources', [ids.sourceId], async () => {
      const result = await api.GET('/public/v1/projects/{projectId}/sources', { params: { path: project() } });
      const data = expectStatus(result, 200);
      expectThat(data.some((item) => item.id === ids.sourceId), 'the source is not listed');
      expectTotal(result.response, data.length);
    });
    await run.check('update the source', [generated], async () => {
      const answer = await send(run, sourcePath(), { method: 'PATCH', headers: team, body: { description: 'updated by sds contract-test' } });
      expectThat(answer.status === 200 && (answer.body as { description?: string }).description === 'updated by sds contract-test', `got ${answer.status}`);
    });
    await run.check('list generation jobs', [generated], async () => {
      const response = await run.fetch(`${sourcePath()}/generation-jobs`, { headers: team });
      const data = (await response.json()) as { id: string }[];
      expectThat(response.status === 200 && data.some((job) => job.id === generated), 'the job is not listed');
      expectTotal(response, data.length);
    });
    await run.check('read a generation job', [generated], async () => {
      const answer = await send(run, `${sourcePath()}/generation-jobs/${generated}`, { headers: team });
      expectThat(answer.status === 200 && (answer.body as { status?: string }).status === 'succeeded', `got ${answer.status}`);
    });
    let eventIds: number[] = [];
    await run.check('list generation events', [generated], async () => {
      const data = expectStatus(
        await api.GET('/public/v1/projects/{projectId}/sources/{sourceId}/generation-events', { params: { path: source(), query: { jobId: generated } } }),
        200,
      );
      expectThat(Array.isArray(data) && data.some((event) => event.type === 'job.succeeded'), 'no job.succeeded event');
      eventIds = data.map((event) => event.id);
    });
    await run.check('stream generation events (text/event-stream)', [generated, eventIds[0]], async () => {
      const response = await run.fetch(`${sourcePath()}/generation-events?jobId=${generated}`, { headers: { ...team, accept: 'text/event-stream' }, signal: AbortSignal.timeout(STREAM_DEADLINE_MS) });
      expectThat(response.status === 200, `expected 200, got ${response.status}`);
      const events = parseSse(await response.text());
      expectThat(events.map((event) => Number(event.id)).join() === eventIds.join(), `stream ids ${events.map((event) => event.id).join()}, listed ${eventIds.join()}`);
      expectThat(events.at(-1)?.event === 'job.succeeded', `the stream ends with ${events.at(-1)?.event}, not job.succeeded`);
      return `${events.length} events`;
    });
    await run.check('resume the event stream with Last-Event-ID', [generated, eventIds[1]], async () => {
      const response = await run.fetch(`${sourcePath()}/generation-events?jobId=${generated}`, { headers: { ...team, accept: 'text/event-stream', 'last-event-id': String(eventIds[0]) }, signal: AbortSignal.timeout(STREAM_DEADLINE_MS) });
      const events = parseSse(await response.text());
      expectThat(events.map((event) => Number(event.id)).join() === eventIds.slice(1).join(), `resumed ids ${events.map((event) => event.id).join()}, expected ${eventIds.slice(1).join()}`);
    });
    await run.check('read the runtime docs', [ids.sourceId], async () => {
      const data = expectStatus(await api.GET('/public/v1/projects/{projectId}/sources/{sourceId}/runtime-docs', { params: { path: source() } }), 200);
      expectThat(data.entities.map((entity) => entity.id).join() === 'authors,posts', 'the docs do not list the tables');
    });
    let sourceDocument: OpenApiDocument | undefined;
    await run.check("read the source's own OpenAPI document", [ids.sourceId], async () => {
      const answer = await send(run, `${sourcePath()}/openapi.json`, { headers: team });
      const paths = Object.keys((answer.body as { paths?: object }).paths ?? {});
      expectThat(answer.status === 200 && paths.some((path) => path.includes('posts')), `got ${answer.status} with paths ${paths.join(', ')}`);
      sourceDocument = answer.body as OpenApiDocument;
    });
    await run.check("compare the source's runtime API under its own version: no changes", [ids.sourceId, ids.versionId], async () => {
      const answer = await send(run, `${sourcePath()}/api-changes?to=${ids.versionId}`, { headers: team });
      const body = answer.body as { breaking?: boolean; changes?: unknown[] };
      expectThat(answer.status === 200 && body.breaking === false && body.changes?.length === 0, `got ${answer.status} ${JSON.stringify(body).slice(0, 200)}`);
    });

    // ---------------------------------------------------------------- source keys
    await run.check('create a source API key', [ids.sourceId], async () => {
      const data = expectStatus(await api.POST('/public/v1/projects/{projectId}/sources/{sourceId}/api-keys', { params: { path: source() }, body: {} }), 201);
      ids.sourceKey = data.key;
      credentials.sourceKey = data.key;
    });
    await run.check('list source API keys', [ids.sourceKey], async () => {
      const response = await run.fetch(`${sourcePath()}/api-keys`, { headers: team });
      const data = (await response.json()) as { id: string }[];
      expectThat(response.status === 200 && data.length >= 1, `got ${response.status} with ${data.length} keys`);
      expectTotal(response, data.length);
    });
    await run.check('create and revoke a second source API key', [ids.sourceKey], async () => {
      const created = await send(run, `${sourcePath()}/api-keys`, { method: 'POST', headers: team, body: { name: 'contract test, revoked' } });
      expectThat(created.status === 201, `create: expected 201, got ${created.status}`);
      const keyId = (created.body as { id: string }).id;
      ids.sourceKeyId = keyId;
      const revoked = await send(run, `${sourcePath()}/api-keys/${keyId}`, { method: 'DELETE', headers: team });
      expectThat(revoked.status === 204, `revoke: expected 204, got ${revoked.status}`);
    });
    await run.check('source API keys under /api with a team key', [ids.sourceKey], async () => {
      const created = await send(run, `${baseUrl}/api/sources/${ids.sourceId}/api-keys`, { method: 'POST', headers: team, body: { name: 'contract test, /api' } });
      expectThat(created.status === 201, `create: expected 201, got ${created.status}`);
      const keyId = (created.body as { id: string }).id;
      const listed = await send(run, `${baseUrl}/api/sources/${ids.sourceId}/api-keys`, { headers: team });
      expectThat(listed.status === 200 && (listed.body as { id: string }[]).some((key) => key.id === keyId), 'the key is not listed');
      const revoked = await send(run, `${baseUrl}/api/sources/${ids.sourceId}/api-keys/${keyId}`, { method: 'DELETE', headers: team });
      expectThat(revoked.status === 204, `revoke: expected 204, got ${revoked.status}`);
    });

    // ---------------------------------------------------------------- runtime CRUD
    const runtime = ids.sourceId ? createRuntimeClient<{ authors: Author; posts: Post }>({ baseUrl, sourceId: ids.sourceId, apiKey: ids.sourceKey, fetch: run.fetch, retry: false }) : undefined;
    const rows = `${baseUrl}/runtime/${ids.sourceId}`;
    const sourceKey = () => ({ 'x-api-key': ids.sourceKey! });
    let firstPost: Post | undefined;
    let postTotal: number | undefined;
    await run.check('runtime: list rows with filters and populate', [runtime, ids.sourceKey, generated], async () => {
      const data = expectStatus(
        await runtime!.list('posts', { filters: { status: { $in: ['draft', 'published'] }, title: { $null: false } }, sort: ['id:asc'], populate: ['authorId'], limit: 5 }),
        200,
      );
      expectThat(data.data.length === 5 && data.meta.pagination.total === 20, `expected 5 of 20 rows, got ${data.data.length} of ${data.meta.pagination.total}`);
      const author = data.data[0]!.authorId;
      expectThat(author !== null && typeof author === 'object' && 'email' in author, 'authorId was not populated');
      firstPost = (await runtime!.get('posts', data.data[0]!.id)).data;
      postTotal = data.meta.pagination.total;
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
    let author1: Author | undefined;
    await run.check('runtime: a duplicate unique key on create: 409', [ids.rowId], async () => {
      author1 = (await runtime!.get('authors', 1)).data;
      const answer = await send(run, `${rows}/${ROW_TABLE}`, { method: 'POST', headers: sourceKey(), body: { name: 'Duplicate', email: author1?.email } });
      expectThat(answer.status === 409, `expected 409, got ${answer.status}`);
    });
    await run.check('runtime: a duplicate unique key on update: 409', [ids.rowId, author1], async () => {
      const answer = await send(run, `${rows}/${ROW_TABLE}/${ids.rowId}`, { method: 'PATCH', headers: sourceKey(), body: { email: author1!.email } });
      expectThat(answer.status === 409, `expected 409, got ${answer.status}`);
    });
    await run.check('runtime: deleting a referenced row: 409', [firstPost], async () => {
      const answer = await send(run, `${rows}/${ROW_TABLE}/${firstPost!.authorId}`, { method: 'DELETE', headers: sourceKey() });
      expectThat(answer.status === 409, `expected 409 (posts reference author ${firstPost!.authorId} with onDelete restrict), got ${answer.status}`);
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
    await run.check("runtime: another source's key: 403", [ids.sourceKey], async () => {
      const answer = await send(run, `${baseUrl}/runtime/${UNKNOWN_ID}/${ROW_TABLE}`, { headers: sourceKey() });
      const error = (answer.body as { error?: string }).error;
      expectThat(answer.status === 403 && error === 'This API key is not allowed to access this source', `got ${answer.status} "${error}"`);
    });

    // ---------------------------------------------------------------- the source's own document, against the source
    await run.check("the source's own document: every operation against the source", [sourceDocument, ids.sourceKey, generated], async () => {
      const report = await runSourceDocumentTest({
        baseUrl,
        document: sourceDocument!,
        sourceId: ids.sourceId!,
        sourceKey: ids.sourceKey,
        samples: {
          authors: { create: { name: 'Source document', email: `source-document-${tag}@example.com` }, update: { name: 'Source document (updated)' } },
          posts: { create: { id: randomUUID(), authorId: 1, title: 'Source document', status: 'draft', publishedAt: null }, update: { title: 'Source document (updated)' } },
        },
      });
      run.include('source document: ', report.results);
      const failed = report.results.filter((result) => result.outcome === 'fail').length;
      expectThat(failed === 0, `${failed} of its ${report.results.length} checks failed (the rows below)`);
      return `${report.results.length} checks`;
    });

    // ---------------------------------------------------------------- exports
    await run.check('runtime: CSV export (format=csv)', [ids.sourceKey, postTotal], async () => {
      const response = await run.fetch(`${rows}/posts?format=csv&sort=id:asc`, { headers: sourceKey() });
      expectThat(response.status === 200, `expected 200, got ${response.status}`);
      const records = parseCsv(await response.text());
      expectThat(records[0]?.join() === POST_FIELDS.join(), `header row ${records[0]?.join()}, expected ${POST_FIELDS.join()}`);
      expectThat(records.length - 1 === postTotal, `${records.length - 1} rows, the table has ${postTotal}`);
      expectThat(records.every((record) => record.length === POST_FIELDS.length), 'a record has another column count');
      expectThat(records[1]?.[0] === firstPost?.id, `the first row is ${records[1]?.[0]}, sorted by id it is ${firstPost?.id}`);
    });
    await run.check('runtime: JSON Lines export (Accept: application/x-ndjson)', [ids.sourceKey, postTotal], async () => {
      const response = await run.fetch(`${rows}/posts?sort=id:asc`, { headers: { ...sourceKey(), accept: 'application/x-ndjson' } });
      expectThat(response.status === 200, `expected 200, got ${response.status}`);
      const lines = parseNdjson(await response.text()) as Record<string, unknown>[];
      expectThat(lines.length === postTotal, `${lines.length} lines, the table has ${postTotal}`);
      expectThat(lines.every((line) => Object.keys(line).join() === POST_FIELDS.join()), `a line has other fields than ${POST_FIELDS.join()}`);
      expectThat(lines[0]?.title === firstPost?.title, 'the first line is not the first post');
    });
    await run.check('runtime: CSV export by its own path (exportRows, posts.csv)', [ids.sourceKey, postTotal], async () => {
      const response = await run.fetch(`${rows}/posts.csv?sort=id:asc`, { headers: sourceKey() });
      expectThat(response.status === 200 && (response.headers.get('content-type') ?? '').startsWith('text/csv'), `expected 200 text/csv, got ${response.status} ${response.headers.get('content-type')}`);
      const records = parseCsv(await response.text());
      expectThat(records.length - 1 === postTotal, `${records.length - 1} rows, the table has ${postTotal}`);
      expectThat(records[1]?.[0] === firstPost?.id, `the first row is ${records[1]?.[0]}, sorted by id it is ${firstPost?.id}`);
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

    // ---------------------------------------------------------------- admin API and scoped keys
    if (!admin) {
      run.skip('admin API: team API keys and a project-scoped key', 'no --admin-token (SDS_ADMIN_TOKEN): the admin API is checked for its 401s only');
    } else {
      await run.check('admin: list team API keys', [], async () => {
        const response = await run.fetch(`${baseUrl}/api/api-keys`, { headers: admin });
        const data = (await response.json()) as unknown[];
        expectThat(response.status === 200 && data.length >= 1, `got ${response.status}`);
        expectTotal(response, data.length);
      });
      await run.check('create another project (outside the scoped key)', [ids.projectId], async () => {
        const answer = await send(run, `${baseUrl}/public/v1/projects`, { method: 'POST', headers: team, body: { name: `sds contract test ${tag} (other)` } });
        expectThat(answer.status === 201, `expected 201, got ${answer.status}`);
        ids.otherProjectId = (answer.body as { id: string }).id;
      });
      await run.check('admin: create a project-scoped team key', [ids.projectId], async () => {
        const answer = await send(run, `${baseUrl}/api/api-keys`, { method: 'POST', headers: admin, body: { name: `sds contract test ${tag}`, projectsScope: [ids.projectId] } });
        expectThat(answer.status === 201, `expected 201, got ${answer.status}`);
        const created = answer.body as { key: string; id?: string; keyId?: string };
        ids.scopedKey = created.key;
        ids.teamKeyId = created.id ?? created.keyId;
      });
      await run.check('a scoped key outside its scope: 403', [ids.scopedKey, ids.otherProjectId], async () => {
        const answer = await send(run, `${baseUrl}/public/v1/projects/${ids.otherProjectId}`, { headers: { 'x-api-key': ids.scopedKey! } });
        expectThat(answer.status === 403, `expected 403, got ${answer.status}`);
        const inside = await send(run, `${baseUrl}/public/v1/projects/${ids.projectId}`, { headers: { 'x-api-key': ids.scopedKey! } });
        expectThat(inside.status === 200, `inside its scope: expected 200, got ${inside.status}`);
      });
      await run.check('a scoped key creating a project: 403', [ids.scopedKey], async () => {
        const answer = await send(run, `${baseUrl}/public/v1/projects`, { method: 'POST', headers: { 'x-api-key': ids.scopedKey! }, body: { name: 'never created' } });
        const error = (answer.body as { error?: string }).error;
        expectThat(answer.status === 403 && error === 'Project-scoped API keys cannot create projects', `got ${answer.status} "${error}"`);
      });
    }

    // ---------------------------------------------------------------- error statuses of every operation
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
    await run.check('deleting a schema a source uses: 409', [ids.sourceId], async () => {
      const answer = await send(run, `${baseUrl}/public/v1/projects/${ids.projectId}/schemas/${ids.schemaId}`, { method: 'DELETE', headers: team });
      expectThat(answer.status === 409, `expected 409, got ${answer.status}`);
    });
    const loops = { run, baseUrl, operations, ids, credentials, config, bodyLimitBytes: options.bodyLimitBytes ?? 1024 * 1024 };
    await checkMissingCredentials(loops);
    await checkWrongCredentials(loops);
    await checkNotFound(loops);
    await checkBodyRefusals(loops);

    // ---------------------------------------------------------------- rate limit (last: it spends the source's budget)
    await run.check("runtime: 429 with Retry-After over the source's rateLimitRpm", [ids.sourceKey], async () => {
      const lowered = await send(run, sourcePath(), { method: 'PATCH', headers: team, body: { rateLimitRpm: 2 } });
      expectThat(lowered.status === 200, `lowering rateLimitRpm: expected 200, got ${lowered.status}`);
      for (let attempt = 1; attempt <= 8; attempt++) {
        const answer = await send(run, `${rows}/${ROW_TABLE}?limit=1`, { headers: sourceKey() });
        if (answer.status === 200) continue;
        expectThat(answer.status === 429, `expected 200 or 429, got ${answer.status}`);
        const retryAfter = answer.headers.get('retry-after');
        expectThat(retryAfter !== null && /^\d+$/.test(retryAfter) && Number(retryAfter) >= 1, `Retry-After "${retryAfter}"`);
        expectThat(answer.headers.get('ratelimit-remaining') === '0', `RateLimit-Remaining "${answer.headers.get('ratelimit-remaining')}" on a 429`);
        return `429 after ${attempt - 1} requests, Retry-After ${retryAfter}`;
      }
      throw new Error('no 429 in 8 requests with rateLimitRpm 2');
    });
  } finally {
    // ---------------------------------------------------------------- clean-up, whatever failed
    if (admin) {
      await run.check('admin: revoke the scoped team key', [ids.teamKeyId], async () => {
        const answer = await send(run, `${baseUrl}/api/api-keys/${ids.teamKeyId}`, { method: 'DELETE', headers: admin });
        expectThat(answer.status === 204, `expected 204, got ${answer.status}`);
      });
    }
    await run.check('delete the source', [ids.sourceId], async () => {
      expectStatus(await api.DELETE('/public/v1/projects/{projectId}/sources/{sourceId}', { params: { path: source() } }), 204);
    });
    await run.check('delete the schema', [ids.schemaId], async () => {
      expectStatus(await api.DELETE('/public/v1/projects/{projectId}/schemas/{schemaId}', { params: { path: { ...project(), schemaId: ids.schemaId! } } }), 204);
    });
    await run.check('delete the other project', [ids.otherProjectId], async () => {
      expectStatus(await api.DELETE('/public/v1/projects/{projectId}', { params: { path: { projectId: ids.otherProjectId! } } }), 204);
    });
    await run.check('delete the project', [ids.projectId], async () => {
      expectStatus(await api.DELETE('/public/v1/projects/{projectId}', { params: { path: project() } }), 204);
      expectStatus(await api.GET('/public/v1/projects/{projectId}', { params: { path: project() } }), 404);
    });
  }
  run.coverage(operations.map((operation) => operation.operationId), options.allowUncovered ?? false);
  return { ok: !run.failed, results: run.results };
}

/**
 * `X-Total-Count` (its schema is the validator's) must count at least the items listed, and exactly
 * them when the page was not full.
 */
function expectTotal(response: Response, listed: number, limit = 25): void {
  const header = response.headers.get('x-total-count');
  const total = Number(header);
  expectThat(header !== null && Number.isInteger(total), `X-Total-Count "${header}" is not a count`);
  expectThat(listed < limit ? total === listed : total >= listed, `X-Total-Count ${total} for ${listed} items listed`);
}
