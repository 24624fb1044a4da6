// The error statuses of `sds contract-test`, driven by the document's operation table: for each
// operation that declares them, 401 without a credential (with the specification's text), 404 for an
// unknown id, 413 for a body over the limit and 415 for a body that is not JSON; and once per kind of
// credential, 401 for a wrong one. Each request is well-formed but for the one thing it tests.
import { randomBytes } from 'node:crypto';
import type { OperationSpec } from '../contract.ts';
import { expectThat, type ContractRun } from './contract-test-run.ts';
import { fillPath, OPERATION_REQUESTS, pathParameters, unknownValue, type Auth, type OperationRequest, type RunIds } from './contract-test-requests.ts';

export interface Credentials {
  teamKey: string;
  sourceKey?: string;
  adminToken?: string;
  metricsToken?: string;
}

export interface Answer {
  status: number;
  headers: Headers;
  /** Parsed JSON, or the text. */
  body: unknown;
}

/** Sends one request through the run's validating fetch and reads the answer. */
export async function send(
  run: ContractRun,
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: unknown; rawBody?: string | Uint8Array; contentType?: string } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { ...init.headers };
  let body: string | Uint8Array | undefined = init.rawBody;
  if (init.body !== undefined) body = JSON.stringify(init.body);
  if (body !== undefined) headers['content-type'] = init.contentType ?? 'application/json';
  const response = await run.fetch(url, { method: init.method ?? 'GET', headers, body });
  const text = await response.text();
  let parsed: unknown = text;
  if ((response.headers.get('content-type') ?? '').includes('json') && text) parsed = JSON.parse(text);
  return { status: response.status, headers: response.headers, body: parsed };
}

/** The headers that present `auth` (none when the credential was not given). */
export function credentialHeaders(auth: Auth, credentials: Credentials): Record<string, string> | undefined {
  switch (auth) {
    case 'none':
      return {};
    case 'team':
    case 'adminOrTeam':
      return { 'x-api-key': credentials.teamKey };
    case 'source':
      return credentials.sourceKey ? { 'x-api-key': credentials.sourceKey } : undefined;
    case 'admin':
      return credentials.adminToken ? { authorization: `Bearer ${credentials.adminToken}` } : undefined;
    case 'metrics':
      return credentials.metricsToken ? { authorization: `Bearer ${credentials.metricsToken}` } : undefined;
  }
}

/** The specification's texts of a 401 without a credential, by the credential the operation takes. */
const MISSING_CREDENTIAL_TEXTS: Record<Exclude<Auth, 'none'>, string[]> = {
  team: ['API key required'],
  source: ['API key required'],
  // Without a credential an either-or operation asks for the team key, its usual one.
  adminOrTeam: ['API key required'],
  admin: ['Admin token required', 'Admin API disabled: set SDS_ADMIN_TOKEN to enable it'],
  metrics: ['Metrics token required', 'Metrics disabled: set SDS_METRICS_TOKEN to enable them'],
};

interface LoopContext {
  run: ContractRun;
  baseUrl: string;
  operations: OperationSpec[];
  ids: RunIds;
  credentials: Credentials;
  config: unknown;
  /** The server's body limit in bytes (default 1 MiB, SDS_BODY_LIMIT's default). */
  bodyLimitBytes: number;
}

function requestOf(context: LoopContext, operation: OperationSpec): OperationRequest | undefined {
  return OPERATION_REQUESTS[operation.operationId]?.(context.ids, context.config);
}

/** 401 without a credential, for every operation that takes one. */
export async function checkMissingCredentials(context: LoopContext): Promise<void> {
  const { run, baseUrl } = context;
  for (const operation of context.operations) {
    const request = requestOf(context, operation);
    if (!request || request.auth === 'none') continue;
    const texts = MISSING_CREDENTIAL_TEXTS[request.auth];
    const path = fillPath(operation, request.path, request.query);
    await run.check(`401 without a credential: ${operation.operationId}`, [path], async () => {
      const answer = await send(run, `${baseUrl}${path}`, { method: operation.method.toUpperCase(), body: request.body });
      const error = (answer.body as { error?: unknown }).error;
      expectThat(answer.status === 401, `expected 401, got ${answer.status}`);
      expectThat(texts.includes(error as string), `error "${String(error)}", expected "${texts.join('" or "')}"`);
    });
  }
}

/** 401 for a wrong credential, once per kind (wrong credentials count against the address's budget). */
export async function checkWrongCredentials(context: LoopContext): Promise<void> {
  const { run, baseUrl, ids } = context;
  const wrong: [string, string, Record<string, string>, string[]][] = [
    ['wrong team key: 401 "Invalid API key"', '/public/v1/projects', { 'x-api-key': `svc_api_${randomBytes(16).toString('hex')}` }, ['Invalid API key']],
    ['wrong source key: 401 "Invalid API key"', `/runtime/${ids.sourceId}/authors`, { 'x-api-key': `svc_src_${randomBytes(16).toString('hex')}` }, ['Invalid API key']],
  ];
  if (context.credentials.adminToken) wrong.push(['wrong admin token: 401 "Invalid admin token"', '/api/api-keys', { authorization: `Bearer wrong-${randomBytes(8).toString('hex')}` }, ['Invalid admin token']]);
  if (context.credentials.metricsToken) wrong.push(['wrong metrics token: 401 "Invalid metrics token"', '/metrics', { authorization: `Bearer wrong-${randomBytes(8).toString('hex')}` }, ['Invalid metrics token']]);
  for (const [name, path, headers, texts] of wrong) {
    await run.check(name, [ids.sourceId], async () => {
      const answer = await send(run, `${baseUrl}${path}`, { headers });
      const error = (answer.body as { error?: unknown }).error;
      expectThat(answer.status === 401 && texts.includes(error as string), `got ${answer.status} "${String(error)}", expected 401 "${texts.join('" or "')}"`);
    });
  }
}

/** 404 for every operation declaring it, with its last path parameter naming nothing. */
export async function checkNotFound(context: LoopContext): Promise<void> {
  const { run, baseUrl } = context;
  for (const operation of context.operations) {
    const request = requestOf(context, operation);
    const last = pathParameters(operation).at(-1);
    if (!request || !last || !operation.responses.includes('404')) continue;
    const headers = credentialHeaders(request.auth, context.credentials);
    const name = `404 for an unknown ${last}: ${operation.operationId}`;
    if (!headers) {
      run.skip(name, `needs the ${request.auth} credential (not given)`);
      continue;
    }
    const path = fillPath(operation, { ...request.path, [last]: unknownValue(last) }, request.query);
    await run.check(name, [path], async () => {
      const answer = await send(run, `${baseUrl}${path}`, { method: operation.method.toUpperCase(), headers, body: request.body });
      expectThat(answer.status === 404, `expected 404, got ${answer.status}: ${JSON.stringify(answer.body).slice(0, 200)}`);
    });
  }
}

/** 413 for a body over the limit and 415 for a text body, for every operation declaring them. */
export async function checkBodyRefusals(context: LoopContext): Promise<void> {
  const { run, baseUrl } = context;
  // A JSON object just over the limit: refused for its size before anything reads it.
  const oversized = `{"name":"${'x'.repeat(context.bodyLimitBytes + 1024)}"}`;
  for (const [status, what, rawBody, contentType, text] of [
    [413, 'a body over the limit', oversized, 'application/json', /^Request body too large/],
    [415, 'a text/plain body', 'name=sds', 'text/plain', /^Unsupported content type text\/plain/],
  ] as const) {
    for (const operation of context.operations) {
      const request = requestOf(context, operation);
      if (!request || !operation.responses.includes(String(status))) continue;
      const headers = credentialHeaders(request.auth, context.credentials);
      const name = `${status} for ${what}: ${operation.operationId}`;
      if (!headers) {
        run.skip(name, `needs the ${request.auth} credential (not given)`);
        continue;
      }
      const path = fillPath(operation, request.path, request.query);
      await run.check(name, [path], async () => {
        const answer = await send(run, `${baseUrl}${path}`, { method: operation.method.toUpperCase(), headers, rawBody, contentType });
        const error = (answer.body as { error?: unknown }).error;
        expectThat(answer.status === status, `expected ${status}, got ${answer.status}: ${String(error)}`);
        expectThat(typeof error === 'string' && text.test(error), `error "${String(error)}"`);
      });
    }
  }
}

export type { LoopContext };
