// What moving a source to another schema version changes for its runtime API's clients: the
// source's runtime document (runtime-docs.ts) under each version, compared and classified by the
// same code as `npm run api:diff` (src/api-changes). Building and comparing two documents of a large
// config takes a while, so it runs in the config work pool (config-work.ts), not on the event loop.
import type { components, SchemaConfig } from '../contract.ts';
import { classifyChanges, type Change, type ChangeType } from '../api-changes/classify-changes.ts';
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
  const before = sourceOpenApi(source, from, baseUrl) as Document;
  const after = sourceOpenApi(source, to, baseUrl) as Document;
  // The diff library's time grows faster than the document (7 s for 100 tables, one field changed in
  // each): the document is compared table by table, each table's paths with the components they reach,
  // and a table whose part is the same in both versions is not compared at all.
  const found: Change[] = classifyChanges(shell(before), shell(after));
  for (const table of new Set([...tablesOf(before), ...tablesOf(after)])) {
    const [was, is] = [part(before, table), part(after, table)];
    if (JSON.stringify(was) !== JSON.stringify(is)) found.push(...classifyChanges(was, is));
  }
  const changes = found.sort(byImportance).map(toApiChange);
  const count = (type: ChangeType) => changes.filter((change) => change.type === type).length;
  const counts = { breaking: count('breaking'), nonBreaking: count('non-breaking'), deprecated: count('deprecated'), annotation: count('annotation'), unclassified: count('unclassified') };
  return { breaking: counts.breaking > 0, counts, changes };
}

interface Document {
  openapi: string;
  info: unknown;
  servers?: unknown;
  paths: Record<string, unknown>;
  components?: Record<string, Record<string, unknown>>;
}

/** A table's paths, `/…/posts` and `/…/posts/{id}`, share the first as their table's key. */
const tableKey = (path: string) => path.replace(/\/\{[^/}]+\}$/, '');
const tablesOf = (document: Document) => Object.keys(document.paths).map(tableKey);

/** The document without its paths: what every table shares (security schemes, servers, info). */
function shell(document: Document): Document {
  return { ...document, paths: {}, components: document.components?.securitySchemes ? { securitySchemes: document.components.securitySchemes } : {} };
}

/** The document reduced to one table's paths and the components they reach through `$ref`. */
function part(document: Document, table: string): Document {
  const paths = Object.fromEntries(Object.entries(document.paths).filter(([path]) => tableKey(path) === table));
  const components: Record<string, Record<string, unknown>> = {};
  const pending: unknown[] = [paths];
  while (pending.length > 0) {
    const value = pending.pop();
    if (Array.isArray(value)) pending.push(...value);
    else if (value && typeof value === 'object') {
      for (const [key, inner] of Object.entries(value)) {
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
  return { ...shell(document), paths, components: { ...shell(document).components, ...components } };
}

const RANK: Record<ChangeType, number> = { breaking: 0, 'non-breaking': 1, deprecated: 2, unclassified: 3, annotation: 4 };

function byImportance(a: Change, b: Change): number {
  return RANK[a.type] - RANK[b.type] || (a.operation ?? '').localeCompare(b.operation ?? '') || a.location.localeCompare(b.location);
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
