// The table view's query as plain data: filters (field, operator, text), sort, page and populate;
// turned into the SDK's ListQuery, and into the equivalent curl command and SDK call to copy.
import { serializeQuery, type ListQuery } from '@sds/sdk';
import type { RuntimeDocsField } from '../api.ts';

export type Operator = '$eq' | '$ne' | '$gt' | '$gte' | '$lt' | '$lte' | '$in' | '$notIn' | '$contains' | '$containsi' | '$startsWith' | '$endsWith' | '$null';

const EQUALITY: Operator[] = ['$eq', '$ne', '$in', '$notIn'];
const ORDERING: Operator[] = ['$gt', '$gte', '$lt', '$lte'];
const TEXT: Operator[] = ['$contains', '$containsi', '$startsWith', '$endsWith'];

/** The operators the runtime API accepts per field type (docs/runtime-api.md), `$null` for every field. */
const OPERATORS_BY_TYPE: Record<string, Operator[]> = {
  string: [...EQUALITY, ...ORDERING, ...TEXT],
  text: [...EQUALITY, ...ORDERING, ...TEXT],
  enum: [...EQUALITY, ...ORDERING, ...TEXT],
  integer: [...EQUALITY, ...ORDERING],
  number: [...EQUALITY, ...ORDERING],
  date: [...EQUALITY, ...ORDERING],
  datetime: [...EQUALITY, ...ORDERING],
  time: [...EQUALITY, ...ORDERING],
  uuid: [...EQUALITY, ...ORDERING],
  boolean: EQUALITY,
  json: [],
};

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

export function operatorsFor(type: string): Operator[] {
  return [...(OPERATORS_BY_TYPE[type] ?? EQUALITY), '$null'];
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
  const type = field?.type;
  if ((type === 'integer' || type === 'number') && text.trim() !== '' && !Number.isNaN(Number(text))) return Number(text);
  if (type === 'boolean' && (text === 'true' || text === 'false')) return text === 'true';
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
