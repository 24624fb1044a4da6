// `sds contract-test --source <id>`: a source's own OpenAPI document (GET …/sources/{id}/openapi.json)
// run against that source. Its operations are recognised by shape, not by name (a collection path:
// list, create, export; an item path: get, update, delete), so renamed operations and new export
// operations are exercised alike; each response is validated against that document.
import { operationTable, type OpenApiDocument, type OperationSpec } from '../contract.ts';
import { send } from './contract-test-errors.ts';
import { ContractRun, expectThat, Skip, type CheckResult } from './contract-test-run.ts';

export interface SourceDocumentOptions {
  baseUrl: string;
  document: OpenApiDocument;
  sourceId: string;
  sourceKey?: string;
  /**
   * Bodies to create and then patch a row, by table: writes run only for these tables (the contract
   * test's own source); against a source someone else owns they are skipped and left uncovered.
   */
  samples?: Record<string, { create: Record<string, unknown>; update: Record<string, unknown> }>;
  allowUncovered?: boolean;
}

type Kind = 'list' | 'export' | 'create' | 'get' | 'update' | 'delete';

interface TableOperation {
  operation: OperationSpec;
  kind: Kind;
  table: string;
  /** Media types of its 200 (list and export). */
  media: string[];
}

/** The literal segments of a path template (no parameters; `posts.{format}` is `posts`). */
const literals = (path: string) =>
  path
    .split('/')
    .map((segment) => segment.replace(/\.\{[^}]+\}$/, ''))
    .filter((segment) => segment && !segment.startsWith('{') && segment !== 'runtime');
/** An item path ends with a parameter segment (`/posts/{id}`); `/posts.{format}` is a collection's file. */
const isItemPath = (path: string) => /\/\{[^}]+\}$/.test(path);
/** The file suffix of an export path (`/posts.{format}`) for a media type. */
const FORMAT_OF: Record<string, string> = { 'text/csv': 'csv', 'application/x-ndjson': 'jsonl' };

/** Each operation of the document as a table operation, by its method and the shape of its path. */
export function tableOperations(document: OpenApiDocument): TableOperation[] {
  const operations = operationTable(document);
  const mediaOf = (operation: OperationSpec) => {
    const item = document.paths[operation.path]?.[operation.method] as { responses?: Record<string, { content?: Record<string, unknown> }> } | undefined;
    return Object.keys(item?.responses?.['200']?.content ?? {});
  };
  const lists = operations.filter((operation) => operation.method === 'get' && !isItemPath(operation.path) && mediaOf(operation).includes('application/json'));
  const tables = new Set(lists.map((operation) => literals(operation.path).at(-1)!));
  return operations.flatMap((operation): TableOperation[] => {
    const item = isItemPath(operation.path);
    const table = literals(operation.path).find((segment) => tables.has(segment)) ?? literals(operation.path).at(-1) ?? '';
    const media = mediaOf(operation);
    const kind: Kind | undefined = item
      ? ({ get: 'get', patch: 'update', put: 'update', delete: 'delete' } as const)[operation.method as 'get']
      : operation.method === 'post'
        ? 'create'
        : operation.method === 'get'
          ? media.includes('application/json') ? 'list' : 'export'
          : undefined;
    return kind ? [{ operation, kind, table, media }] : [];
  });
}

/** The primary-key field of an item path, from its `id` parameter's description ("Primary key (id)."); `id` when it says none. */
function primaryKeyOf(document: OpenApiDocument, operation: OperationSpec): string[] {
  type Parameters = { parameters?: { name?: string; description?: string }[] };
  const item = document.paths[operation.path] as (Parameters & Record<string, unknown>) | undefined;
  const parameters = [...(item?.parameters ?? []), ...((item?.[operation.method] as Parameters | undefined)?.parameters ?? [])];
  const described = parameters.map((parameter) => /Primary key \(([^)]+)\)/.exec(parameter.description ?? '')?.[1]).find(Boolean);
  return described ? described.split(',').map((field) => field.trim()) : ['id'];
}

export async function runSourceDocumentTest(options: SourceDocumentOptions): Promise<{ ok: boolean; results: CheckResult[] }> {
  const { baseUrl, document, sourceId, sourceKey, samples = {} } = options;
  const run = new ContractRun(document);
  const server = ((document.servers as { url?: string; variables?: Record<string, { default?: string }> }[] | undefined) ?? [])[0];
  // The server URL's path (`{baseUrl}/runtime/{sourceId}`): its variables filled first (the source's id,
  // the others' defaults), then its scheme and host left out.
  const prefix = (server?.url ?? '')
    .replace(/\{([^}]+)\}/g, (_match, name: string) => (name === 'sourceId' ? sourceId : (server?.variables?.[name]?.default ?? '')))
    .replace(/^[^:/]*:\/\/[^/]*/, '')
    .replace(/\/$/, '');
  const urlOf = (operation: OperationSpec, id?: string, mediaType?: string) =>
    `${baseUrl}${prefix}${operation.path
      .replace(/\{sourceId\}/g, sourceId)
      .replace(/\.\{format\}$/, `.${FORMAT_OF[mediaType ?? ''] ?? 'csv'}`)
      .replace(/\{[^}]+\}$/, encodeURIComponent(id ?? ''))}`;
  const key: Record<string, string> = sourceKey ? { 'x-api-key': sourceKey } : {};
  const operations = tableOperations(document);
  const tables = [...new Set(operations.map((operation) => operation.table))];

  for (const table of tables) {
    const of = (kind: Kind) => operations.filter((operation) => operation.table === table && operation.kind === kind);
    let first: Record<string, unknown> | undefined;
    let pk: string[] = ['id'];
    for (const { operation, media } of of('list')) {
      await run.check(`${operation.operationId}: a page of ${table}`, [], async () => {
        const answer = await send(run, `${urlOf(operation)}?limit=5`, { headers: key });
        expectThat(answer.status === 200, `expected 200, got ${answer.status}`);
        first = (answer.body as { data?: Record<string, unknown>[] }).data?.[0];
      });
      for (const type of media.filter((mediaType) => mediaType !== 'application/json')) {
        await run.check(`${operation.operationId}: every row as ${type}`, [], async () => {
          const response = await run.fetch(urlOf(operation), { headers: { ...key, accept: type } });
          expectThat(response.status === 200 && (response.headers.get('content-type') ?? '').startsWith(type), `expected 200 ${type}, got ${response.status} ${response.headers.get('content-type')}`);
        });
      }
    }
    for (const { operation, media } of of('export')) {
      for (const type of media) {
        await run.check(`${operation.operationId}: every row as ${type}`, [], async () => {
          const response = await run.fetch(urlOf(operation, undefined, type), { headers: { ...key, accept: type } });
          expectThat(response.status === 200, `expected 200, got ${response.status}`);
        });
      }
    }
    for (const { operation } of of('get')) {
      pk = primaryKeyOf(document, operation);
      await run.check(`${operation.operationId}: a row of ${table}`, [first], async () => {
        if (pk.length > 1) return new Skip(`a composite key (${pk.join(', ')})`);
        const answer = await send(run, urlOf(operation, String(first![pk[0]!])), { headers: key });
        expectThat(answer.status === 200 && (answer.body as Record<string, unknown>)[pk[0]!] === first![pk[0]!], `expected 200 with the row, got ${answer.status}`);
      });
      await run.check(`${operation.operationId}: an unknown id: 404`, [], async () => {
        const answer = await send(run, urlOf(operation, '999999999'), { headers: key });
        // A uuid key refuses a number as 400; both are declared and name the problem.
        expectThat(answer.status === 404 || answer.status === 400, `expected 404, got ${answer.status}`);
      });
    }
    const sample = samples[table];
    const writes = [...of('create'), ...of('update'), ...of('delete')];
    if (!sample) {
      for (const { operation } of writes) run.skip(`${operation.operationId}: writes ${table}`, 'writes run only against the contract test\'s own source (they would change your data)');
      continue;
    }
    let created: string | undefined;
    for (const { operation } of of('create')) {
      await run.check(`${operation.operationId}: create a row of ${table}`, [], async () => {
        const answer = await send(run, urlOf(operation), { method: 'POST', headers: key, body: sample.create });
        expectThat(answer.status === 201, `expected 201, got ${answer.status}: ${JSON.stringify(answer.body).slice(0, 200)}`);
        created = String((answer.body as Record<string, unknown>)[pk[0]!]);
      });
    }
    for (const { operation } of of('update')) {
      await run.check(`${operation.operationId}: update the row`, [created], async () => {
        const answer = await send(run, urlOf(operation, created), { method: operation.method.toUpperCase(), headers: key, body: sample.update });
        expectThat(answer.status === 200, `expected 200, got ${answer.status}`);
      });
    }
    for (const { operation } of of('delete')) {
      await run.check(`${operation.operationId}: delete the row`, [created], async () => {
        const answer = await send(run, urlOf(operation, created), { method: 'DELETE', headers: key });
        expectThat(answer.status === 204, `expected 204, got ${answer.status}`);
      });
    }
  }
  run.coverage(operationTable(document).map((operation) => operation.operationId), options.allowUncovered ?? false);
  return { ok: !run.failed, results: run.results };
}
