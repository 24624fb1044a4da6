// What a developer needs to call a source's runtime API: the documented runtime-docs shape, and an
// OpenAPI 3.1 document of the source's tables (row schemas, list query, errors) for tools and SDKs.
import type { components, SchemaConfig } from '../contract.ts';
import type { SchemaStore } from '../store/schemas.ts';
import type { Operation, BaseContext } from '../operation.ts';
import type { Field } from '../model/config-types.ts';
import type { Source } from '../store/sources.ts';
import { SOURCE_KEY_PREFIX } from '../security/api-keys.ts';
import { OPERATOR_NAMES } from '../runtime/operators.ts';


export function runtimeDocs(source: Source, config: SchemaConfig, baseUrl: string): components['schemas']['SourceRuntimeDocs'] {
  const basePath = `/runtime/${source.id}`;
  const first = config.entities[0]?.id ?? 'table';
  const url = `${baseUrl}${basePath}/${first}?limit=5`;
  const keyHeader = source.requireAuth ? ` -H 'x-api-key: <SOURCE_API_KEY>'` : '';
  const fetchHeaders = source.requireAuth ? `, { headers: { 'x-api-key': '<SOURCE_API_KEY>' } }` : '';
  return {
    sourceId: source.id,
    schemaVersionId: source.schemaVersionId,
    baseUrl,
    runtimeBasePath: basePath,
    auth: { headerName: 'x-api-key', keyPrefix: SOURCE_KEY_PREFIX },
    entities: config.entities.map((entity) => ({
      id: entity.id,
      label: entity.label ?? humanize(entity.id),
      description: entity.description ?? '',
      primaryKey: entity.primaryKey ?? [],
      fields: entity.fields.map((field) => ({
        id: field.id,
        label: field.label ?? humanize(field.id),
        description: field.description ?? '',
        type: field.type,
        nullable: field.nullable ?? false,
        ...(field.type === 'enum' && field.values ? { values: field.values.map(String) } : {}),
        ...(field.references ? { references: field.references } : {}),
      })),
    })),
    examples: {
      curl: `curl -s '${url}'${keyHeader}`,
      fetch: `const response = await fetch('${url}'${fetchHeaders});\nconst { data, meta } = await response.json();`,
    },
  };
}

/** "createdAt" → "Created at", "first_name" → "First name". */
function humanize(id: string): string {
  const words = id.replace(/_/g, ' ').replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase().trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function valueSchema(field: Field): Record<string, unknown> {
  const base = ((): Record<string, unknown> => {
    switch (field.type) {
      case 'string':
        return { type: 'string', ...(field.maxLength ? { maxLength: field.maxLength } : {}) };
      case 'text':
        return { type: 'string' };
      case 'integer':
        return { type: 'integer' };
      case 'number':
        return { type: 'number' };
      case 'boolean':
        return { type: 'boolean' };
      case 'date':
        return field.outputFormat === 'slash'
          ? { type: 'string', pattern: '^\\d{2}/\\d{2}/\\d{4}$' }
          : field.outputFormat === 'sql'
            ? { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2} 00:00:00$' }
            : { type: 'string', format: 'date' };
      case 'datetime':
        return { type: 'string', format: 'date-time' };
      case 'time':
        return { type: 'string', pattern: '^\\d{2}:\\d{2}:\\d{2}$' };
      case 'uuid':
        return { type: 'string', format: 'uuid' };
      case 'json':
        return {};
      case 'enum':
        return { type: 'string', enum: field.values ?? [] };
    }
  })();
  if (field.description) base.description = field.description;
  if (!field.nullable) return base;
  if (field.type === 'json') return base;
  if (field.type === 'enum') return { ...base, type: ['string', 'null'], enum: [...(field.values ?? []), null] };
  return { ...base, type: [base.type as string, 'null'] };
}

/** An OpenAPI 3.1 document of the source's runtime API. */
export function sourceOpenApi(source: Source, config: SchemaConfig, baseUrl: string) {
  const schemas: Record<string, unknown> = {
    Error: {
      type: 'object',
      required: ['error'],
      properties: { error: { type: 'string' }, details: { type: 'array', items: { type: 'object', properties: { path: { type: 'string' }, message: { type: 'string' } } } } },
    },
    Pagination: {
      type: 'object',
      required: ['offset', 'limit', 'total'],
      properties: { offset: { type: 'integer', minimum: 0 }, limit: { type: 'integer', minimum: 0 }, total: { type: 'integer', minimum: 0 } },
    },
  };
  const paths: Record<string, unknown> = {};
  const errorResponse = (description: string) => ({ description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } });
  const errorResponses = {
    '400': errorResponse('Invalid query, body or key value; the error names it.'),
    '401': errorResponse('Missing, invalid or revoked source API key.'),
    '403': errorResponse('A key of another source.'),
    '404': errorResponse('No such row.'),
    '429': errorResponse('Rate limit of the source exceeded.'),
  };
  const names = new Map(config.entities.map((entity) => [entity.id, pascal(entity.id)]));
  for (const entity of config.entities) {
    const name = names.get(entity.id)!;
    const properties = Object.fromEntries(entity.fields.map((field) => [field.id, valueSchema(field)]));
    schemas[name] = { type: 'object', description: `A whole row of ${entity.id}, as writes answer it.`, properties, required: entity.fields.map((field) => field.id) };
    // Reads answer what the query asks for: some fields (`fields`), references replaced by rows (`populate`).
    schemas[`${name}Selection`] = {
      type: 'object',
      description:
        `A row of ${entity.id} as reads answer it: every field, or those \`fields\` names; a reference field named in ` +
        `\`populate\` holds the referenced row (projected by \`populate.<field>.fields\`), or null when there is none.`,
      properties: Object.fromEntries(
        entity.fields.map((field) => {
          const target = field.references && names.get(field.references.entity);
          if (!target) return [field.id, valueSchema(field)];
          return [field.id, { anyOf: [valueSchema(field), { $ref: `#/components/schemas/${target}Projection` }, { type: 'null' }] }];
        }),
      ),
    };
    schemas[`${name}Projection`] = {
      type: 'object',
      description: `A row of ${entity.id} as \`populate\` embeds it in a referencing row: every field, or those \`populate.<field>.fields\` names.`,
      properties,
    };
    schemas[`${name}Input`] = {
      type: 'object',
      additionalProperties: false,
      properties,
      required: entity.fields.filter((field) => !field.nullable && !(entity.primaryKey ?? []).includes(field.id)).map((field) => field.id),
    };
    const row = { $ref: `#/components/schemas/${name}` };
    const selection = { $ref: `#/components/schemas/${name}Selection` };
    const fieldNames = entity.fields.map((field) => field.id).join(', ');
    const references = entity.fields.filter((field) => field.references).map((field) => field.id);
    const readParameters = [
      { name: 'fields', in: 'query', description: `Comma-separated fields to return (of ${fieldNames}); all of them when absent.`, schema: { type: 'string' } },
      {
        name: 'populate',
        in: 'query',
        description:
          `Comma-separated reference fields (${references.join(', ') || 'this table has none'}) to replace with the referenced row; ` +
          '`populate.<field>.fields` projects that row.',
        schema: { type: 'string' },
      },
    ];
    paths[`/runtime/${source.id}/${entity.id}`] = {
      get: {
        operationId: `list${name}`,
        summary: `List ${entity.id}`,
        description: `Filters: \`filters[<field>][<operator>]=value\` or \`filters.<field>.<operator>=value\` with operators ${OPERATOR_NAMES.join(', ')}. Fields: ${fieldNames}.`,
        parameters: [
          { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 0, maximum: 1000, default: 25 } },
          { name: 'offset', in: 'query', schema: { type: 'integer', minimum: 0, default: 0 } },
          { name: 'sort', in: 'query', description: '`field:asc` or `field:desc`, comma-separated.', schema: { type: 'string' } },
          ...readParameters,
          { name: 'filters', in: 'query', style: 'deepObject', explode: true, schema: { type: 'object', additionalProperties: true } },
          {
            name: 'format',
            in: 'query',
            description: '`csv` or `jsonl`: every selected row as a file (no page; no populate), whatever `Accept` says; `json` (the default): a page.',
            schema: { type: 'string', enum: ['json', 'csv', 'jsonl'], default: 'json' },
          },
          {
            name: 'csvFormulaEscape',
            in: 'query',
            description: "CSV exports only: `true` (the default) puts a `'` before text cells beginning with =, +, -, @, tab or CR, so spreadsheets do not run them as formulas; `false` writes values as stored.",
            schema: { type: 'boolean', default: true },
          },
        ],
        responses: {
          '200': {
            description: `A page of ${entity.id}; with Accept text/csv or application/x-ndjson (or format=csv|jsonl), every selected row as a file.`,
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['data', 'meta'],
                  properties: {
                    data: { type: 'array', items: selection },
                    meta: { type: 'object', required: ['pagination'], properties: { pagination: { $ref: '#/components/schemas/Pagination' } } },
                  },
                },
              },
              'text/csv': {
                schema: { type: 'string', description: `Every selected row of ${entity.id}: a header row (${fieldNames}), NULL as an empty field.` },
              },
              'application/x-ndjson': {
                schema: { type: 'string', description: `Every selected row of ${entity.id}, one JSON object (a ${name}Selection) per line.` },
              },
            },
          },
          ...errorResponses,
        },
      },
      post: {
        operationId: `create${name}`,
        summary: `Create a row of ${entity.id}`,
        requestBody: { required: true, content: { 'application/json': { schema: { $ref: `#/components/schemas/${name}Input` } } } },
        responses: {
          '201': { description: 'The created row.', content: { 'application/json': { schema: row } } },
          '409': errorResponse('Unique or foreign-key violation.'),
          ...errorResponses,
        },
      },
    };
    paths[`/runtime/${source.id}/${entity.id}/{id}`] = {
      parameters: [{ name: 'id', in: 'path', required: true, description: `Primary key (${(entity.primaryKey ?? []).join(', ')}).`, schema: { type: 'string' } }],
      get: {
        operationId: `get${name}`,
        summary: `Read a row of ${entity.id}`,
        parameters: readParameters,
        responses: { '200': { description: 'The row.', content: { 'application/json': { schema: selection } } }, ...errorResponses },
      },
      patch: {
        operationId: `update${name}`,
        summary: `Update a row of ${entity.id}`,
        requestBody: { required: true, content: { 'application/json': { schema: { type: 'object', additionalProperties: false, properties } } } },
        responses: { '200': { description: 'The updated row.', content: { 'application/json': { schema: row } } }, '409': errorResponse('Unique or foreign-key violation.'), ...errorResponses },
      },
      delete: { operationId: `delete${name}`, summary: `Delete a row of ${entity.id}`, responses: { '204': { description: 'Deleted.' }, '409': errorResponse('Still referenced.'), ...errorResponses } },
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: `${source.name} runtime API`,
      version: source.schemaVersionId,
      description: `Runtime CRUD API of source ${source.slug}. Authenticate with a source API key (${SOURCE_KEY_PREFIX}…) in the x-api-key header.`,
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    servers: [{ url: baseUrl }],
    security: source.requireAuth ? [{ sourceApiKey: [] }] : [{ sourceApiKey: [] }, {}],
    tags: [{ name: 'rows' }],
    paths,
    components: { schemas, securitySchemes: { sourceApiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' } } },
  };
}

function pascal(id: string): string {
  return id
    .split('_')
    .filter(Boolean)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');
}

export function runtimeDocOperations(schemas: SchemaStore, accessibleSource: (context: BaseContext) => Promise<Source>) {
  const configOf = async (source: Source) => (await schemas.findVersionById(source.schemaVersionId))!.schema;

  const getSourceRuntimeDocs: Operation<'getSourceRuntimeDocs'> = async (context) => {
    const source = await accessibleSource(context);
    return { status: 200, body: runtimeDocs(source, await configOf(source), context.baseUrl) };
  };

  const getSourceOpenApi: Operation<'getSourceOpenApi'> = async (context) => {
    const source = await accessibleSource(context);
    return { status: 200, body: sourceOpenApi(source, await configOf(source), context.baseUrl) };
  };

  return { getSourceRuntimeDocs, getSourceOpenApi };
}
