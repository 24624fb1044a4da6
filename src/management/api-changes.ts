// What moving a source to another schema version changes for its runtime API's clients: the
// source's runtime document (runtime-docs.ts) under each version, compared and classified by the
// same code as `npm run api:diff` (src/api-changes). Building and comparing two documents of a large
// config takes a while, so it runs in the config work pool (config-work.ts), not on the event loop.
import type { components, SchemaConfig } from '../contract.ts';
import { classifyChanges, operationsAddedOrRemoved, type Change, type ChangeType } from '../api-changes/classify-changes.ts';
import { errors } from '../errors.ts';
import type { Operation } from '../operation.ts';
import type { SchemaStore } from '../store/schemas.ts';
import type { Source } from '../store/sources.ts';
import type { ConfigWork } from './config-work.ts';
import { sourceOpenApi } from './runtime-docs.ts';

type ApiChange = components['schemas']['ApiChange'];
export type ApiChangeList = Pick<components['schemas']['SourceApiChanges'], 'breaking' | 'counts' | 'changes'>;

/** What a client of the source's runtime API sees change between two configs of it. */
export function compareRuntimeApis(source: Source, from: SchemaConfig, to: SchemaConfig, baseUrl: string): ApiChangeList {
  return summariseChanges([compareRuntimeApisSlice(source, from, to, baseUrl, 0, Infinity).changes]);
}

/** Part of a comparison: the changes of some tables, sorted, and the table to go on from (none when all were compared). */
export interface ApiChangeSlice {
  changes: ApiChange[];
  next?: number;
}

/**
 * Compares tables from the `start`-th on (removed tables first, then the later version's, in its
 * order; the document's shell with the first) until `budgetMs` have passed, at least one table
 * compared (or, with `mayDefer`, none when building the documents took the budget): a version that changes many tables is compared in slices, each a config work task of
 * its own well within the task limit, that summariseChanges puts together.
 */
export function compareRuntimeApisSlice(source: Source, from: SchemaConfig, to: SchemaConfig, baseUrl: string, start: number, budgetMs: number, mayDefer = false): ApiChangeSlice {
  const began = performance.now();
  const built = last?.key !== keyOf(source, from, to, baseUrl);
  const { before, after, tablesBefore, tablesAfter } = documentsOf(source, from, to, baseUrl);
  // Building the documents took the budget (a busy machine): with mayDefer, the next slice (the
  // documents kept) compares the first table, rather than this one passing the task's limit.
  if (mayDefer && built && performance.now() - began >= budgetMs) return { changes: [], next: start };
  // The diff library's time grows faster than the document (7 s for 100 tables, one field changed in
  // each) and with what it reads (about 150 ms of CPU for a table of 9 fields, changed or not): the
  // document is compared table by table, each table's paths with the components they reach, without
  // the parameters and responses that are the same in both versions (withoutCommon) nor the schema
  // properties that are (withoutCommonProperties), and a table whose part is the same in both is not
  // compared at all. A table on one side only is not compared either: the library reports each of
  // its operations as added or removed, and so does operationsAddedOrRemoved, without its cost (2.2 s
  // of CPU for 120 tables renamed, now 0.5 s).
  const found: Change[] = start === 0 ? classifyChanges(shell(before), shell(after)) : [];
  const tables = [...[...tablesBefore.keys()].filter((table) => !tablesAfter.has(table)), ...tablesAfter.keys()];
  let index = start;
  for (; index < tables.length && (index === start || performance.now() - began < budgetMs); index++) {
    const table = tables[index]!;
    const [was, paths] = [tablesBefore.get(table), tablesAfter.get(table)];
    if (!paths) found.push(...operationsAddedOrRemoved(was!, 'remove'));
    else if (!was) found.push(...operationsAddedOrRemoved(paths, 'add'));
    else {
      const pruned = withoutCommon(before, was, after, paths);
      const [partBefore, partAfter] = withoutCommonProperties(part(before, pruned.before), part(after, pruned.after));
      if (JSON.stringify(partBefore) !== JSON.stringify(partAfter)) found.push(...classifyChanges(partBefore, partAfter).map(pruned.restore));
    }
  }
  return { changes: found.sort(byImportance).map(toApiChange), ...(index < tables.length ? { next: index } : {}) };
}

interface Documents {
  key: string;
  before: Document;
  after: Document;
  tablesBefore: Map<string, Record<string, unknown>>;
  tablesAfter: Map<string, Record<string, unknown>>;
}
/** The documents of the last comparison: its next slices, in the same worker, do not build them again (half a second for 120 tables). */
let last: Documents | undefined;

const keyOf = (source: Source, from: SchemaConfig, to: SchemaConfig, baseUrl: string) => JSON.stringify([source, from, to, baseUrl]);

function documentsOf(source: Source, from: SchemaConfig, to: SchemaConfig, baseUrl: string): Documents {
  const key = keyOf(source, from, to, baseUrl);
  if (last?.key === key) return last;
  const before = sourceOpenApi(source, from, baseUrl) as Document;
  const after = sourceOpenApi(source, to, baseUrl) as Document;
  last = { key, before, after, tablesBefore: pathsByTable(before), tablesAfter: pathsByTable(after) };
  return last;
}

/** The slices' changes (each sorted) in one list, most important first, and their counts. */
export function summariseChanges(slices: readonly ApiChange[][]): ApiChangeList {
  // Merged in pairs, neighbours together (earlier first on a tie, as one stable sort would have it):
  // merging each slice into the whole in turn took 1.7 s of the event loop for 100 slices of 450.
  let lists = [...slices];
  while (lists.length > 1) lists = Array.from({ length: Math.ceil(lists.length / 2) }, (_, i) => (lists[2 * i + 1] ? merge(lists[2 * i]!, lists[2 * i + 1]!) : lists[2 * i]!));
  const changes = lists[0] ?? [];
  const count = (type: ChangeType) => changes.filter((change) => change.type === type).length;
  const counts = { breaking: count('breaking'), nonBreaking: count('non-breaking'), deprecated: count('deprecated'), annotation: count('annotation'), unclassified: count('unclassified') };
  return { breaking: counts.breaking > 0, counts, changes };
}

function merge(a: ApiChange[], b: ApiChange[]): ApiChange[] {
  if (a.length === 0) return b;
  const out: ApiChange[] = [];
  let [i, j] = [0, 0];
  while (i < a.length && j < b.length) out.push(byImportance(a[i]!, b[j]!) <= 0 ? a[i++]! : b[j++]!);
  return out.concat(a.slice(i), b.slice(j));
}

interface Document {
  openapi: string;
  info: unknown;
  servers?: unknown;
  paths: Record<string, unknown>;
  components?: Record<string, Record<string, unknown>>;
}

/** A table's paths, `/posts`, `/posts/{id}` and `/posts.{format}`, share the first as their table's key. */
const tableKey = (path: string) => path.replace(/(\/\{[^/}]+\}|\.\{format\})$/, '');

/** The document's paths grouped by table, in the document's order. */
function pathsByTable(document: Document): Map<string, Record<string, unknown>> {
  const tables = new Map<string, Record<string, unknown>>();
  for (const [path, item] of Object.entries(document.paths)) {
    const key = tableKey(path);
    if (!tables.has(key)) tables.set(key, {});
    tables.get(key)![path] = item;
  }
  return tables;
}

/** The document without its paths: what every table shares (security schemes, servers, info). */
function shell(document: Document): Document {
  return { ...document, paths: {}, components: document.components?.securitySchemes ? { securitySchemes: document.components.securitySchemes } : {} };
}

type Paths = Record<string, unknown>;
type OperationObject = { parameters?: unknown[]; responses?: Record<string, unknown> } & Record<string, unknown>;
const HTTP_METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

/**
 * A table's paths in both versions, without the parameters (by `in` and `name`) and responses (by
 * status) of an operation that are equal in both, the components they reach included: the library
 * finds no change in them, and reading them is most of its time (the error responses every
 * operation has, the filter parameters of unchanged fields). Everything else is left as it is.
 */
function withoutCommon(before: Document, was: Paths, after: Document, is: Paths): { before: Paths; after: Paths; restore: (change: Change) => Change } {
  const [left, right]: [Paths, Paths] = [{ ...was }, { ...is }];
  /** Per operation (`GET /posts`), the index each parameter left had in the whole list, and that list's length. */
  const kept = new Map<string, { indexes: number[]; length: number }>();
  const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b) && JSON.stringify(reached(before, a)) === JSON.stringify(reached(after, b));
  for (const route of Object.keys(was)) {
    if (!(route in is)) continue;
    const [itemA, itemB] = [{ ...(was[route] as Paths) }, { ...(is[route] as Paths) }];
    for (const method of Object.keys(itemA)) {
      if (!HTTP_METHODS.has(method) || !(method in itemB)) continue;
      const [a, b] = [{ ...(itemA[method] as OperationObject) }, { ...(itemB[method] as OperationObject) }];
      if (Array.isArray(a.parameters) && Array.isArray(b.parameters)) {
        const key = (parameter: unknown) => { const { in: place, name } = (parameter ?? {}) as { in?: unknown; name?: unknown }; return typeof place === 'string' && typeof name === 'string' ? `${place}\n${name}` : undefined; };
        const other = new Map(b.parameters.map((parameter) => [key(parameter), parameter]));
        const common = new Set(a.parameters.filter((parameter) => key(parameter) !== undefined && other.has(key(parameter)) && same(parameter, other.get(key(parameter)))).map(key));
        if (common.size > 0) kept.set(`${method.toUpperCase()} ${route}`, { indexes: a.parameters.flatMap((parameter, index) => (common.has(key(parameter)) ? [] : [index])), length: a.parameters.length });
        a.parameters = a.parameters.filter((parameter) => !common.has(key(parameter)));
        b.parameters = b.parameters.filter((parameter) => !common.has(key(parameter)));
      }
      if (a.responses && b.responses && typeof a.responses === 'object' && typeof b.responses === 'object') {
        const [responsesA, responsesB] = [{ ...a.responses }, { ...b.responses }];
        for (const status of Object.keys(responsesA)) {
          if (status in responsesB && same(responsesA[status], responsesB[status])) {
            delete responsesA[status];
            delete responsesB[status];
          }
        }
        [a.responses, b.responses] = [responsesA, responsesB];
      }
      [itemA[method], itemB[method]] = [a, b];
    }
    [left[route], right[route]] = [itemA, itemB];
  }
  // The library names a parameter by its index: in the earlier list when it is there, after the
  // earlier list's end (in the later list's order) when it is new. Indexes in the shorter lists are
  // put back to what the whole lists give.
  const restore = (change: Change): Change => {
    const list = change.operation === undefined ? undefined : kept.get(change.operation);
    const match = list ? /^\/parameters\/(\d+)(?=\/|$)/.exec(change.location) : null;
    if (!list || !match) return change;
    const index = Number(match[1]);
    const whole = index < list.indexes.length ? list.indexes[index]! : list.length + index - list.indexes.length;
    const location = `/parameters/${whole}${change.location.slice(match[0].length)}`;
    return { ...change, location, pointer: change.pointer.slice(0, change.pointer.length - change.location.length) + location };
  };
  return { before: left, after: right, restore };
}

/** The components a value reaches through `$ref`, directly or not, by kind and name. */
function reached(document: Document, value: unknown): Record<string, Record<string, unknown>> {
  const components: Record<string, Record<string, unknown>> = {};
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if (Array.isArray(next)) pending.push(...next);
    else if (next && typeof next === 'object') {
      for (const [key, inner] of Object.entries(next)) {
        const match = key === '$ref' && typeof inner === 'string' ? /^#\/components\/([^/]+)\/([^/]+)$/.exec(inner) : null;
        if (match) {
          const [, kind, name] = match as unknown as [string, string, string];
          const target = document.components?.[kind]?.[name];
          if (target !== undefined && !(components[kind] ??= {})[name]) {
            components[kind]![name] = target;
            pending.push(target);
          }
        } else pending.push(inner);
      }
    }
  }
  return components;
}

/**
 * The two parts without the properties of a component schema that are the same in both (their
 * reached components included): when one field of a table changed, the library would otherwise
 * read every field of the table's seven schemas and of the referencing tables' projections (about
 * 0.1 s of CPU a table), and find nothing in all but one. Done only when every `$ref` that sits at
 * the same place in both parts names the same component, so that a component is only ever compared
 * with its namesake; otherwise the parts are left as they are.
 */
function withoutCommonProperties(was: Document, is: Document): [Document, Document] {
  const [schemasA, schemasB] = [was.components?.schemas ?? {}, is.components?.schemas ?? {}];
  if (!aligned(was, is)) return [was, is];
  const [outA, outB] = [{ ...schemasA }, { ...schemasB }];
  let changed = false;
  for (const name of Object.keys(schemasA)) {
    if (!(name in schemasB)) continue;
    const [a, b] = [schemasA[name] as { properties?: Record<string, unknown> }, schemasB[name] as { properties?: Record<string, unknown> }];
    if (!a?.properties || !b?.properties || typeof a.properties !== 'object' || typeof b.properties !== 'object') continue;
    const common = Object.keys(a.properties).filter((key) => key in b.properties! && sameReaching(was, a.properties![key], is, b.properties![key]));
    if (common.length === 0) continue;
    const [propertiesA, propertiesB] = [{ ...a.properties }, { ...b.properties }];
    for (const key of common) {
      delete propertiesA[key];
      delete propertiesB[key];
    }
    [outA[name], outB[name]] = [{ ...a, properties: propertiesA }, { ...b, properties: propertiesB }];
    changed = true;
  }
  if (!changed) return [was, is];
  // Components only the removed properties reached are left out too.
  const reduce = (document: Document, schemas: Record<string, unknown>): Document => {
    const whole = { ...document, components: { ...document.components, schemas } };
    return { ...whole, components: { ...shell(document).components, ...reached(whole, document.paths) } };
  };
  return [reduce(was, outA), reduce(is, outB)];
}

const sameReaching = (before: Document, a: unknown, after: Document, b: unknown) =>
  JSON.stringify(a) === JSON.stringify(b) && JSON.stringify(reached(before, a)) === JSON.stringify(reached(after, b));

/** Whether every `$ref` of one part has, at the same place of the other (when that place is there), the same `$ref`. */
function aligned(was: Document, is: Document): boolean {
  const look = (document: Document, place: readonly string[]): unknown => place.reduce<unknown>((value, key) => (value && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined), document);
  const check = (from: Document, other: Document): boolean => {
    const pending: [unknown, string[]][] = [[from.paths, ['paths']], [from.components ?? {}, ['components']]];
    while (pending.length > 0) {
      const [value, place] = pending.pop()!;
      if (!value || typeof value !== 'object') continue;
      const ref = (value as { $ref?: unknown }).$ref;
      if (typeof ref === 'string') {
        const there = look(other, place);
        if (there !== undefined && (!there || typeof there !== 'object' || (there as { $ref?: unknown }).$ref !== ref)) return false;
      }
      for (const [key, inner] of Object.entries(value)) if (inner && typeof inner === 'object') pending.push([inner, [...place, key]]);
    }
    return true;
  };
  return check(was, is) && check(is, was);
}

/** The document reduced to one table's paths and the components they reach through `$ref`. */
function part(document: Document, paths: Paths): Document {
  const components = reached(document, paths);
  return { ...shell(document), paths, components: { ...shell(document).components, ...components } };
}

const RANK: Record<ChangeType, number> = { breaking: 0, 'non-breaking': 1, deprecated: 2, unclassified: 3, annotation: 4 };
/** localeCompare's order, without building a collator for each comparison (a tenth of the time of 10,000 changes). */
const collate = new Intl.Collator().compare;

function byImportance(a: Pick<Change, 'type' | 'operation' | 'location'>, b: Pick<Change, 'type' | 'operation' | 'location'>): number {
  return RANK[a.type] - RANK[b.type] || collate(a.operation ?? '', b.operation ?? '') || collate(a.location, b.location);
}

function toApiChange(change: Change): ApiChange {
  return {
    type: change.type,
    side: change.side,
    ...(change.operation !== undefined ? { operation: change.operation } : {}),
    location: change.location,
    description: change.description,
    ...(change.rule !== undefined ? { rule: change.rule } : {}),
  };
}

export function apiChangeOperations(schemas: SchemaStore, work: ConfigWork, accessibleSource: (context: Parameters<Operation<'getSourceApiChanges'>>[0]) => Promise<Source>) {
  /** A version of a schema of the source's project, or 400 naming the query parameter. */
  const versionOf = async (source: Source, versionId: string, parameter: 'from' | 'to') => {
    const version = await schemas.findVersionById(versionId);
    if (!version || version.projectId !== source.projectId) {
      throw errors.badRequest(`${parameter} ${versionId} is not a version of a schema in this project`, [
        { path: `/query/${parameter}`, message: 'no such schema version in this project' },
      ]);
    }
    return version;
  };

  const getSourceApiChanges: Operation<'getSourceApiChanges'> = async (context) => {
    const source = await accessibleSource(context);
    const from = await versionOf(source, String(context.query.from ?? source.schemaVersionId), 'from');
    const to = await versionOf(source, String(context.query.to), 'to');
    const list = await work.compareRuntimeApis(context.principal?.teamId ?? '', { source, from: from.schema, to: to.schema, baseUrl: context.baseUrl });
    const ref = (version: typeof from) => ({ schemaVersionId: version.id, schemaId: version.schemaId, version: version.version });
    return { status: 200, body: { sourceId: source.id, from: ref(from), to: ref(to), ...list } };
  };

  return { getSourceApiChanges };
}
