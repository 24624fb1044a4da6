// Requests for every operation of the contract, built from the operation table and the OpenAPI
// document: the right key for each surface (sometimes a wrong one), hostile path values, query
// strings and bodies. No request can legitimately change data: write bodies are always invalid
// (POISON or no object), and deletes and regenerations only ever name ids that do not exist.
import fc from 'fast-check';
import { openApiDocument, type OperationSpec } from '../../../src/contract.ts';
import { OPERATOR_NAMES } from '../../../src/runtime/operators.ts';
import { blogConfig } from '../../fixtures/configs.ts';
import type { RawRequest } from './raw-http.ts';
import {
  encodeHostile,
  HOSTILE_NUMBERS,
  hostileNumberParam,
  hostileQueryPiece,
  hostileQueryValue,
  hostileSegment,
  invalidBody,
  objectText,
  valueText,
} from './hostile.ts';

/** Real ids of the fuzzed project, its keys and the columns of its source's tables. */
export interface FuzzWorld {
  ids: { projectId: string; schemaId: string; versionId: string; sourceId: string; jobId: string; postId: string };
  keys: { team: string; source: string; admin: string };
  columns: Record<string, string[]>;
}

/** POSTs that change nothing: they may answer 2xx to anything. */
const READ_ONLY_POSTS = new Set(['validateSchemaConfig', 'previewSchemaConfig']);

export function isRead(operation: OperationSpec): boolean {
  return operation.method === 'get' || READ_ONLY_POSTS.has(operation.operationId);
}

type Json = Record<string, unknown>;

function resolve(node: Json | undefined): Json | undefined {
  let current = node;
  while (current && typeof current.$ref === 'string') {
    current = (current.$ref as string)
      .slice(2)
      .split('/')
      .reduce<unknown>((at, token) => (at as Json)[token], openApiDocument()) as Json;
  }
  return current;
}

/** Whether the operation's body is required, and its top-level property names. */
export function bodySpec(operation: OperationSpec): { required: boolean; names: string[] } | undefined {
  const item = openApiDocument().paths[operation.path]![operation.method] as Json;
  const body = resolve(item.requestBody as Json | undefined);
  if (!body) return undefined;
  const schema = resolve(((body.content as Json)['application/json'] as Json).schema as Json);
  return { required: body.required === true, names: Object.keys((schema?.properties as Json | undefined) ?? {}) };
}

function queryParameters(operation: OperationSpec): { name: string; schema: { type?: string; format?: string } }[] {
  const item = openApiDocument().paths[operation.path]![operation.method] as Json;
  return ((item.parameters as Json[] | undefined) ?? [])
    .map((parameter) => resolve(parameter) as unknown as { name: string; in: string; schema: { type?: string; format?: string } })
    .filter((parameter) => parameter.in === 'query');
}

/** The path parameter whose real value would let the request destroy or regenerate something. */
function guardedParameter(operation: OperationSpec): string | undefined {
  if (operation.operationId === 'regenerateSource') return 'sourceId';
  if (operation.method !== 'delete') return undefined;
  return [...operation.path.matchAll(/\{([^}]+)\}/g)].at(-1)?.[1];
}

/** Ids no row or resource has: random uuids, integers far above the generated ones, non-ids. */
export const missingSegment: fc.Arbitrary<string> = fc.oneof(
  fc.uuid(),
  fc.integer({ min: 1_000_000, max: 2_147_483_647 }).map(String),
  fc.constantFrom('-1', '0', '2147483648', '-2147483649', '9007199254740993', '99999999999999999999', '1e309', 'NaN', '%00', '..', '%2F', 'x'.repeat(3000), '__proto__', '%E0%A4%A'),
);

const mostly = <T>(real: fc.Arbitrary<T>, hostile: fc.Arbitrary<T>, weight = 4) => fc.oneof({ weight, arbitrary: real }, { weight: 1, arbitrary: hostile });

function fillPath(operation: OperationSpec, value: (name: string) => fc.Arbitrary<string>): fc.Arbitrary<string> {
  const names = [...operation.path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]!);
  return fc.tuple(...names.map(value)).map((chosen) => {
    let index = 0;
    return operation.path.replace(/\{[^}]+\}/g, () => chosen[index++]!);
  });
}

const filterValue: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...HOSTILE_NUMBERS, '1', '2', '0.5'),
  fc.constantFrom('2024-02-30', '2024-01-31', '99999-01-01', '2024-01-01T25:00:00Z', '2024-01-01T00:00:00Z', '-30d', 'now', '24:00:00', 'admin', 'true', 'yes', '%25_%5C', '%00', 'a,b,,c', ''),
  hostileQueryValue.map(encodeHostile),
);

/** Runtime query pieces for a table's columns: filters (both forms), fields, sort, populate, paging. */
function runtimeQueryPiece(columns: string[], list: boolean): fc.Arbitrary<string> {
  const field = mostly(fc.constantFrom(...columns), hostileQueryValue.map(encodeHostile));
  const operator = mostly(fc.constantFrom<string>(...OPERATOR_NAMES), fc.constantFrom('$where', '$regex', '$EQ', 'eq', '', '$in]', '__proto__', 'constructor'));
  const names = fc.array(field, { minLength: 0, maxLength: 6 }).map((items) => items.join(','));
  const projection = [
    { weight: 2, arbitrary: names.map((items) => `fields=${items}`) },
    { weight: 2, arbitrary: names.map((items) => `populate=${items}`) },
    { weight: 1, arbitrary: fc.tuple(field, names).map(([f, items]) => `populate[${f}][fields]=${items}`) },
    { weight: 1, arbitrary: fc.tuple(field, names).map(([f, items]) => `populate.${f}.fields=${items}`) },
    { weight: 1, arbitrary: fc.tuple(field, field).map(([f, g]) => `populate.${f}.populate.${g}=1`) },
  ];
  if (!list) return fc.oneof(...projection);
  return fc.oneof(
    ...projection,
    { weight: 6, arbitrary: fc.tuple(field, operator, filterValue).map(([f, op, value]) => `filters[${f}][${op}]=${value}`) },
    { weight: 2, arbitrary: fc.tuple(field, operator, filterValue).map(([f, op, value]) => `filters.${f}.${op}=${value}`) },
    { weight: 1, arbitrary: fc.tuple(field, fc.constantFrom('$in', '$notIn', '$eq'), fc.nat(99), filterValue).map(([f, op, i, value]) => `filters[${f}][${op}][${i}]=${value}`) },
    { weight: 2, arbitrary: fc.tuple(field, fc.constantFrom('asc', 'desc', 'ASC', 'up', '', 'asc:desc', 'desc%00')).map(([f, d]) => `sort=${f}:${d}`) },
    { weight: 2, arbitrary: hostileNumberParam('limit') },
    { weight: 2, arbitrary: hostileNumberParam('offset') },
  );
}

/** Query strings: mostly the operation's own parameters with hostile values, sometimes junk. */
function queryOf(own: fc.Arbitrary<string>[]): fc.Arbitrary<string> {
  if (own.length === 0) return fc.option(fc.array(hostileQueryPiece, { minLength: 1, maxLength: 3 }), { freq: 2 }).map((pieces) => pieces?.join('&') ?? '');
  const piece = fc.oneof({ weight: 6, arbitrary: fc.oneof(...own) }, { weight: 1, arbitrary: hostileQueryPiece });
  return fc.array(piece, { maxLength: 4 }).map((pieces) => pieces.join('&'));
}

function managementQuery(world: FuzzWorld, operation: OperationSpec): fc.Arbitrary<string> {
  return queryOf(
    queryParameters(operation).map((parameter) => {
      if (parameter.schema.type === 'integer') return hostileNumberParam(parameter.name);
      if (parameter.schema.format === 'uuid') return fc.oneof(hostileSegment, fc.constant(world.ids.jobId)).map((value) => `${parameter.name}=${value}`);
      if (parameter.schema.type === 'boolean') return fc.constantFrom('true', '1', 'yes', 'TRUE', '', '%00', 'true&wait=false').map((value) => `${parameter.name}=${value}`);
      return hostileQueryValue.map((value) => `${parameter.name}=${encodeHostile(value)}`);
    }),
  );
}

const JSON_TYPES = ['application/json', 'application/json; charset=utf-8', 'application/JSON', 'application/vnd.sds+json'];
const OTHER_TYPES = ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/json; charset=latin1', 'application/json; charset=utf-16', 'application/xml', '', '*/*'];

const STRATEGY_KINDS = ['literal', 'sequence', 'randomInt', 'randomFloat', 'randomBoolean', 'weightedChoice', 'faker', 'template', 'dateRange', 'reference'];
const STRATEGY_PROPERTIES = ['value', 'start', 'step', 'min', 'max', 'precision', 'trueRate', 'choices', 'method', 'args', 'template', 'from', 'to', 'entity', 'field', 'pick'];

/** A strategy object of a real or made-up kind with random properties. */
const strategyText: fc.Arbitrary<string> = fc
  .tuple(mostly(fc.constantFrom(...STRATEGY_KINDS), fc.string()), fc.array(fc.tuple(fc.constantFrom(...STRATEGY_PROPERTIES), valueText), { maxLength: 4 }))
  .map(([kind, entries]) => objectText([['kind', JSON.stringify(kind)], ...entries]));

const MUTATION_PATHS: (string | number)[][] = [
  [], ['formatVersion'], ['metadata'], ['entities'], ['entities', 0], ['entities', 0, 'id'], ['entities', 0, 'fields'], ['entities', 0, 'fields', 1],
  ['entities', 0, 'fields', 1, 'maxLength'], ['entities', 0, 'fields', 1, 'format'], ['entities', 0, 'fields', 3, 'values'], ['entities', 0, 'fields', 3, 'weights'],
  ['entities', 1, 'fields', 1, 'references'], ['entities', 1, 'fields', 1, 'references', 'entity'], ['entities', 1, 'generation'], ['entities', 1, 'generation', 'rowCount'],
  ['entities', 0, 'primaryKey'], ['entities', 0, 'uniqueKeys'], ['entities', 1, 'fields', 5, 'precision'], ['generationDefaults'], ['generationDefaults', 'locale'],
  ['generationDefaults', 'timezone'], ['generationDefaults', 'seed'],
];

/** The blog config with one to three values replaced by hostile JSON, or a strategy put on a field. */
export const mutatedConfig: fc.Arbitrary<string> = fc
  .array(
    fc.oneof(
      fc.tuple(fc.constantFrom(...MUTATION_PATHS), valueText),
      fc.tuple(fc.nat(6).map((field): (string | number)[] => ['entities', 1, 'fields', field, 'generation']), strategyText.map((strategy) => `{"strategy":${strategy}}`)),
    ),
    { minLength: 1, maxLength: 3 },
  )
  .map((mutations) => {
    const config = blogConfig() as unknown as Json;
    const texts: string[] = [];
    for (const [path, text] of mutations) {
      if (path.length === 0) return text;
      const parent = path.slice(0, -1).reduce<unknown>((at, token) => (at !== null && typeof at === 'object' ? (at as Json)[token] : undefined), config);
      if (parent === null || typeof parent !== 'object') continue;
      (parent as Json)[path.at(-1)!] = `@@hole${texts.length}@@`;
      texts.push(text);
    }
    return texts.reduce((json, text, i) => json.replace(`"@@hole${i}@@"`, () => text), JSON.stringify(config));
  });

function managementBody(operation: OperationSpec): fc.Arbitrary<{ body?: string; contentType?: string }> {
  const spec = bodySpec(operation);
  if (operation.method === 'get') return fc.constant({});
  if (!spec) {
    // Bodies the operation does not take (deletes): usually none, sometimes junk.
    return fc.option(fc.tuple(valueText, fc.constantFrom(...JSON_TYPES, ...OTHER_TYPES)), { freq: 3 }).map((pair) => (pair ? { body: pair[0], contentType: pair[1] } : {}));
  }
  // Configs reach the full validator first (createSchema and createSchemaVersion check them before the body's shape).
  const configs: [string, fc.Arbitrary<string>][] =
    operation.operationId === 'createSchema'
      ? [['initialVersion', mutatedConfig.map((config) => `{"schema":${config}}`)]]
      : operation.operationId === 'createSchemaVersion'
        ? [['schema', mutatedConfig]]
        : [];
  const validating = READ_ONLY_POSTS.has(operation.operationId);
  const body = validating
    ? fc.oneof({ weight: 4, arbitrary: mutatedConfig.map((config) => `{"schema":${config}}`) }, { weight: 1, arbitrary: invalidBody(spec.names) }, { weight: 1, arbitrary: valueText })
    : invalidBody(spec.names, configs);
  // A JSON body that is not parsed would leave an optional body empty, which is a valid request.
  const types = spec.required ? mostly(fc.constantFrom(...JSON_TYPES), fc.constantFrom(...OTHER_TYPES), validating ? 12 : 4) : fc.constantFrom(...JSON_TYPES);
  return fc.record({ body, contentType: types });
}

/** The proper credentials of an operation's surface, and now and then wrong ones. */
function authFor(world: FuzzWorld, operation: OperationSpec): fc.Arbitrary<Record<string, string>> {
  const schemes = new Set(operation.security.flat());
  const team = { 'x-api-key': world.keys.team };
  const admin = { authorization: `Bearer ${world.keys.admin}` };
  const proper: fc.Arbitrary<Record<string, string>> = schemes.has('sourceApiKey')
    ? fc.constant({ 'x-api-key': world.keys.source })
    : schemes.has('adminToken') && schemes.has('teamApiKey')
      ? fc.constantFrom(team, admin)
      : schemes.has('adminToken')
        ? fc.constant(admin)
        : schemes.has('teamApiKey')
          ? fc.constant(team)
          : fc.constant({});
  const wrong = fc.oneof(
    fc.constantFrom('', 'svc_api_', `svc_src_${'z'.repeat(43)}`, world.keys.team, world.keys.source, 'x'.repeat(4000), `${world.keys.team}\t`).map((key) => ({ 'x-api-key': key })),
    fc.string({ unit: 'grapheme-ascii', maxLength: 60 }).map((key) => ({ 'x-api-key': key })),
    fc.constantFrom('Bearer', 'Bearer ', `Bearer ${'x'.repeat(4000)}`, 'Basic Zm9vOmJhcg==', `Bearer ${world.keys.admin} extra`, `Bearer ${world.keys.team}`).map((value) => ({ authorization: value })),
  );
  return mostly(proper, wrong, 9);
}

function realValue(world: FuzzWorld, name: string): string | undefined {
  if (name === 'version') return '1';
  return Object.hasOwn(world.ids, name) ? world.ids[name as keyof FuzzWorld['ids']] : undefined;
}

function assemble(operation: OperationSpec, path: string, query: string, auth: Record<string, string>, payload: { body?: string; contentType?: string }): RawRequest {
  return {
    method: operation.method.toUpperCase(),
    target: query ? `${path}?${query}` : path,
    headers: { ...auth, ...(payload.contentType !== undefined && payload.body !== undefined ? { 'content-type': payload.contentType } : {}) },
    ...(payload.body !== undefined ? { body: payload.body } : {}),
  };
}

/** A runtime request: a table of the source (mostly), its own ids, columns and query parameters. */
function runtimeRequest(world: FuzzWorld, operation: OperationSpec): fc.Arbitrary<RawRequest> {
  const tables = Object.keys(world.columns);
  return fc.tuple(mostly(fc.constantFrom(...tables), hostileSegment, 9), mostly(fc.constant(world.ids.sourceId), hostileSegment, 9)).chain(([table, sourceId]) => {
    // Own properties only: a hostile table name may well be `constructor`.
    const columns = Object.hasOwn(world.columns, table) ? world.columns[table]! : [...new Set(Object.values(world.columns).flat())];
    const realIds = table === 'posts' ? [world.ids.postId] : ['1', '2'];
    const id = operation.method === 'delete' ? missingSegment : mostly(fc.constantFrom(...realIds), hostileSegment, 3);
    const path = fillPath(operation, (name) => (name === 'table' ? fc.constant(table) : name === 'sourceId' ? fc.constant(sourceId) : id));
    const reads = operation.method === 'get';
    const query = reads ? queryOf([runtimeQueryPiece(columns, operation.operationId === 'listRows')]) : fc.option(hostileQueryPiece, { freq: 4 }).map((piece) => piece ?? '');
    const payload = operation.method === 'post' || operation.method === 'patch'
      ? fc.record({ body: invalidBody(columns), contentType: fc.constantFrom(...JSON_TYPES) })
      : managementBody(operation);
    return fc.tuple(path, query, authFor(world, operation), payload).map(([p, q, auth, body]) => assemble(operation, p, q, auth, body));
  });
}

/** A request for `operation` with every part hostile in some way. */
export function requestFor(world: FuzzWorld, operation: OperationSpec): fc.Arbitrary<RawRequest> {
  if (operation.path.startsWith('/runtime/')) return runtimeRequest(world, operation);
  const guarded = guardedParameter(operation);
  const path = fillPath(operation, (name) => {
    const real = realValue(world, name);
    if (name === guarded) return missingSegment;
    return real === undefined ? hostileSegment : mostly(fc.constant(real), hostileSegment, 3);
  });
  return fc.tuple(path, managementQuery(world, operation), authFor(world, operation), managementBody(operation)).map(([p, q, auth, body]) => assemble(operation, p, q, auth, body));
}

/**
 * Runtime updates that reach SQL: known columns with hostile values, on rows that do not exist
 * (so even a bug that accepted a value could change nothing).
 */
export function missingRowUpdate(world: FuzzWorld): fc.Arbitrary<RawRequest> {
  return fc.constantFrom(...Object.keys(world.columns)).chain((table) =>
    fc
      .record({
        id: missingSegment,
        entries: fc.array(fc.tuple(fc.constantFrom(...world.columns[table]!), valueText), { minLength: 1, maxLength: 4 }),
        query: fc.option(hostileQueryPiece, { freq: 5 }),
      })
      .map(({ id, entries, query }) => ({
        method: 'PATCH',
        target: `/runtime/${world.ids.sourceId}/${table}/${id}${query ? `?${query}` : ''}`,
        headers: { 'x-api-key': world.keys.source, 'content-type': 'application/json' },
        body: objectText(entries),
      })),
  );
}

/** Paths outside the table and methods nobody declared. */
export function strayRequest(): fc.Arbitrary<RawRequest> {
  return fc
    .record({
      method: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD', 'TRACE'),
      prefix: fc.constantFrom('', '/public', '/public/v1', '/public/v2', '/runtime', '/api', '/docs', '/openapi.json', '/healthz', '/public/v1/projects'),
      segments: fc.array(hostileSegment, { maxLength: 4 }),
      body: fc.option(invalidBody([]), { freq: 2 }),
    })
    .map(({ method, prefix, segments, body }): RawRequest => {
      const target = `${prefix}/${segments.join('/')}`;
      if (body === null || method === 'GET' || method === 'HEAD') return { method, target, headers: {} };
      return { method, target, headers: { 'content-type': 'application/json' }, body };
    });
}
