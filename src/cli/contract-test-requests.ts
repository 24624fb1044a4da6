// One well-formed request per operationId of the contract, built from the ids the contract test has
// created so far: the error loops of `sds contract-test` (401 without a credential, 404 for an unknown
// id, 413, 415) send them with one thing wrong. An operation of the document missing here is
// exercised by no loop and shows up in the coverage row; one whose ids are not there yet is skipped.
import type { OperationSpec } from '../contract.ts';

/** The credential an operation is called with. */
export type Auth = 'none' | 'team' | 'source' | 'admin' | 'adminOrTeam' | 'metrics';

/** What the contract test has created and can name in a request. */
export interface RunIds {
  projectId?: string;
  /** An empty project outside a scoped key's scope. */
  otherProjectId?: string;
  schemaId?: string;
  versionId?: string;
  version?: number;
  sourceId?: string;
  sourceKey?: string;
  sourceKeyId?: string;
  jobId?: string;
  rowId?: number;
  teamKeyId?: string;
  scopedKey?: string;
}

export interface OperationRequest {
  auth: Auth;
  /** Path parameters; an undefined one means the id is not there (the request is skipped). */
  path: Record<string, string | number | undefined>;
  /** Required query parameters; an undefined one means the value is not there (the request is skipped). */
  query?: Record<string, string | undefined>;
  body?: unknown;
}

/** A table of the contract test's config: an integer primary key and a unique `email`. */
export const ROW_TABLE = 'authors';

const none = (): OperationRequest => ({ auth: 'none', path: {} });
const project = (ids: RunIds) => ({ projectId: ids.projectId });
const schema = (ids: RunIds) => ({ ...project(ids), schemaId: ids.schemaId });
const source = (ids: RunIds) => ({ ...project(ids), sourceId: ids.sourceId });
const row = (ids: RunIds) => ({ sourceId: ids.sourceId, table: ROW_TABLE, id: ids.rowId ?? 1 });

export const OPERATION_REQUESTS: Record<string, (ids: RunIds, config: unknown) => OperationRequest> = {
  getHealth: none,
  getReadiness: none,
  getOpenApiJson: none,
  getOpenApiYaml: none,
  getDocs: none,
  getStudio: none,
  getMetrics: () => ({ auth: 'metrics', path: {} }),
  listProjects: () => ({ auth: 'team', path: {} }),
  createProject: () => ({ auth: 'team', path: {}, body: { name: 'sds contract test (never created)' } }),
  getProject: (ids) => ({ auth: 'team', path: project(ids) }),
  updateProject: (ids) => ({ auth: 'team', path: project(ids), body: { description: 'sds contract test' } }),
  deleteProject: (ids) => ({ auth: 'team', path: project(ids) }),
  listSchemas: (ids) => ({ auth: 'team', path: project(ids) }),
  createSchema: (ids) => ({ auth: 'team', path: project(ids), body: { name: 'never created' } }),
  getSchema: (ids) => ({ auth: 'team', path: schema(ids) }),
  updateSchema: (ids) => ({ auth: 'team', path: schema(ids), body: { description: 'sds contract test' } }),
  deleteSchema: (ids) => ({ auth: 'team', path: schema(ids) }),
  listSchemaVersions: (ids) => ({ auth: 'team', path: schema(ids) }),
  createSchemaVersion: (ids, config) => ({ auth: 'team', path: schema(ids), body: { schema: config } }),
  getSchemaVersion: (ids) => ({ auth: 'team', path: { ...schema(ids), version: ids.version } }),
  validateSchemaConfig: (_ids, config) => ({ auth: 'team', path: {}, body: { schema: config } }),
  previewSchemaConfig: (_ids, config) => ({ auth: 'team', path: {}, body: { schema: config, rows: 2 } }),
  introspectSchemaConfig: () => ({ auth: 'team', path: {}, body: { connectionString: UNSUPPORTED_DATABASE } }),
  listSources: (ids) => ({ auth: 'team', path: project(ids) }),
  createSource: (ids) => ({ auth: 'team', path: project(ids), body: { name: 'never created', kind: 'postgres', schemaVersionId: ids.versionId } }),
  getSource: (ids) => ({ auth: 'team', path: source(ids) }),
  updateSource: (ids) => ({ auth: 'team', path: source(ids), body: { description: 'sds contract test' } }),
  deleteSource: (ids) => ({ auth: 'team', path: source(ids) }),
  listSourceApiKeys: (ids) => ({ auth: 'team', path: source(ids) }),
  createSourceApiKey: (ids) => ({ auth: 'team', path: source(ids), body: {} }),
  revokeSourceApiKey: (ids) => ({ auth: 'team', path: { ...source(ids), keyId: ids.sourceKeyId } }),
  regenerateSource: (ids) => ({ auth: 'team', path: source(ids), body: {} }),
  listGenerationJobs: (ids) => ({ auth: 'team', path: source(ids) }),
  getGenerationJob: (ids) => ({ auth: 'team', path: { ...source(ids), jobId: ids.jobId } }),
  listGenerationEvents: (ids) => ({ auth: 'team', path: source(ids) }),
  getSourceRuntimeDocs: (ids) => ({ auth: 'team', path: source(ids) }),
  getSourceOpenApi: (ids) => ({ auth: 'team', path: source(ids) }),
  getSourceApiChanges: (ids) => ({ auth: 'team', path: source(ids), query: { to: ids.versionId } }),
  listTeamApiKeys: () => ({ auth: 'admin', path: {} }),
  createTeamApiKey: () => ({ auth: 'admin', path: {}, body: { name: 'sds contract test (never created)' } }),
  // Without an admin token there is no key to revoke, but its 401 needs only a well-formed id.
  revokeTeamApiKey: (ids) => ({ auth: 'admin', path: { keyId: ids.teamKeyId ?? '00000000-0000-4000-8000-000000000000' } }),
  adminListSourceApiKeys: (ids) => ({ auth: 'adminOrTeam', path: { sourceId: ids.sourceId } }),
  adminCreateSourceApiKey: (ids) => ({ auth: 'adminOrTeam', path: { sourceId: ids.sourceId }, body: {} }),
  adminRevokeSourceApiKey: (ids) => ({ auth: 'adminOrTeam', path: { sourceId: ids.sourceId, keyId: ids.sourceKeyId } }),
  listRows: (ids) => ({ auth: 'source', path: { sourceId: ids.sourceId, table: ROW_TABLE } }),
  exportRows: (ids) => ({ auth: 'source', path: { sourceId: ids.sourceId, table: ROW_TABLE, format: 'csv' } }),
  createRow: (ids) => ({ auth: 'source', path: { sourceId: ids.sourceId, table: ROW_TABLE }, body: { name: 'never created' } }),
  getRow: (ids) => ({ auth: 'source', path: row(ids) }),
  updateRow: (ids) => ({ auth: 'source', path: row(ids), body: { name: 'never updated' } }),
  deleteRow: (ids) => ({ auth: 'source', path: row(ids) }),
};

/** A connection string of no engine the server knows: introspecting it answers 400 without connecting anywhere. */
export const UNSUPPORTED_DATABASE = 'unsupported://sds-contract-test/none';

/** Values no resource has, by path parameter name: the last parameter of a path gets one for a 404. */
export function unknownValue(parameter: string): string {
  if (parameter === 'table') return 'no_such_table';
  if (parameter === 'version') return '999999';
  if (parameter === 'id') return '999999999';
  return '00000000-0000-4000-8000-000000000000';
}

/** The operation's path with its parameters filled (percent-encoded), or undefined while one is missing. */
export function fillPath(operation: OperationSpec, values: Record<string, string | number | undefined>, query: Record<string, string | undefined> = {}): string | undefined {
  let missing = Object.values(query).some((value) => value === undefined);
  const path = operation.path.replace(/\{([^}]+)\}/g, (_match, name: string) => {
    const value = values[name];
    if (value === undefined) missing = true;
    return encodeURIComponent(String(value));
  });
  const search = new URLSearchParams(query as Record<string, string>).toString();
  return missing ? undefined : search ? `${path}?${search}` : path;
}

/** The names of the operation's path parameters, in order. */
export function pathParameters(operation: OperationSpec): string[] {
  return [...operation.path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]!);
}
