// The table view's query as plain data: filters (field, operator, text), sort, page and populate;
// turned into the SDK's ListQuery, and into the equivalent curl command and SDK call to copy.
import { FIELD_TYPE_FILTERS, serializeQuery, type ListQuery } from '@sds/sdk';
import type { RuntimeDocsField } from '../api.ts';

export type Operator = '$eq' | '$ne' | '$gt' | '$gte' | '$lt' | '$lte' | '$in' | '$notIn' | '$contains' | '$containsi' | '$startsWith' | '$endsWith' | '$null';

const EQUALITY: Operator[] = ['$eq', '$ne', '$in', '$notIn'];
const ORDERING: Operator[] = ['$gt', '$gte', '$lt', '$lte'];
const TEXT: Operator[] = ['$contains', '$containsi', '$startsWith', '$endsWith'];

/** The order operators are offered in: equality and lists, ranges, text matching, then null. */
const OFFERED: Operator[] = [...EQUALITY, ...ORDERING, ...TEXT, '$null'];

/** A field type's filters as the SDK declares them (from the server's field-type registry); undefined for a type this studio does not know. */
export function typeFilters(type: string): (typeof FIELD_TYPE_FILTERS)[keyof typeof FIELD_TYPE_FILTERS] | undefined {
  return Object.hasOwn(FIELD_TYPE_FILTERS, type) ? FIELD_TYPE_FILTERS[type as keyof typeof FIELD_TYPE_FILTERS] : undefined;
}

export const OPERATOR_LABELS: Record<Operator, string> = {
  $eq: 'equals',
  $ne: 'does not equal',
  $gt: 'greater than',
  $gte: 'at least',
  $lt: 'less than',
  $lte: 'at most',
  $in: 'is one of',
  $notIn: 'is none of',
  $contains: 'contains',
  $containsi: 'contains (any case)',
  $startsWith: 'starts with',
  $endsWith: 'ends with',
  $null: 'is null',
};

/** The operators the runtime API accepts on a field of `type` (equality and `$null` for a type this studio does not know). */
export function operatorsFor(type: string): Operator[] {
  const accepted: readonly Operator[] = typeFilters(type)?.operators ?? [...EQUALITY, '$null'];
  return OFFERED.filter((operator) => accepted.includes(operator));
}

export interface FilterRow {
  field: string;
  operator: Operator;
  /** As typed; comma-separated for $in/$notIn, "true"/"false" for $null and booleans. */
  value: string;
}

export interface TableQuery {
  filters: FilterRow[];
  sort?: { field: string; direction: 'asc' | 'desc' };
  offset: number;
  limit: number;
  populate: string[];
}

/** A typed value of a field from its text: numbers for numeric fields, booleans for booleans. */
export function castValue(field: RuntimeDocsField | undefined, text: string): string | number | boolean {
  const input = field && typeFilters(field.type)?.input;
  if (input === 'number' && text.trim() !== '' && !Number.isNaN(Number(text))) return Number(text);
  if (input === 'boolean' && (text === 'true' || text === 'false')) return text === 'true';
  return text;
}

export function listQuery(query: TableQuery, fields: RuntimeDocsField[]): ListQuery {
  const filters: Record<string, Record<string, unknown>> = {};
  for (const filter of query.filters) {
    const field = fields.find((candidate) => candidate.id === filter.field);
    if (!field || (filter.value.trim() === '' && filter.operator !== '$null')) continue;
    const value =
      filter.operator === '$null'
        ? filter.value !== 'false'
        : filter.operator === '$in' || filter.operator === '$notIn'
          ? filter.value.split(',').map((part) => castValue(field, part.trim()))
          : castValue(field, filter.value);
    (filters[filter.field] ??= {})[filter.operator] = value;
  }
  return {
    ...(Object.keys(filters).length ? { filters } : {}),
    ...(query.sort ? { sort: `${query.sort.field}:${query.sort.direction}` } : {}),
    ...(query.populate.length ? { populate: query.populate } : {}),
    limit: query.limit,
    offset: query.offset,
  } as ListQuery;
}

/** The same request as a curl command (the key left in a variable) and as an SDK call. */
export function equivalentRequests(baseUrl: string, sourceId: string, table: string, query: ListQuery): { curl: string; sdk: string } {
  const url = `${baseUrl}/runtime/${sourceId}/${encodeURIComponent(table)}?${serializeQuery(query as Record<string, unknown>)}`;
  const curl = [`# SRC_KEY=svc_src_…  (a key of this source: Keys view)`, `curl -sS -g '${url.replace(/'/g, "'\\''")}' \\`, `  -H "x-api-key: $SRC_KEY"`].join(
    '\n',
  );
  const sdk = [
    `import { createRuntimeClient } from '@sds/sdk';`,
    ``,
    `const runtime = createRuntimeClient({ baseUrl: ${JSON.stringify(baseUrl)}, sourceId: ${JSON.stringify(sourceId)}, apiKey: process.env.SRC_KEY });`,
    `const { data, error } = await runtime.list(${JSON.stringify(table)}, ${JSON.stringify(query, null, 2).replace(/\n/g, '\n')});`,
  ].join('\n');
  return { curl, sdk };
}

/** A row's id in runtime paths: its key value, or composite values joined by commas (`\,` escapes). */
export function rowId(row: Record<string, unknown>, primaryKey: string[]): string | undefined {
  if (primaryKey.length === 0) return undefined;
  const values = primaryKey.map((field) => row[field]);
  if (values.some((value) => value === null || value === undefined || typeof value === 'object')) return undefined;
  if (values.length === 1) return String(values[0]);
  return values.map((value) => String(value).replace(/\\/g, '\\\\').replace(/,/g, '\\,')).join(',');
}
