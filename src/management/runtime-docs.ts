// What a developer needs to call a source's runtime API: the documented runtime-docs shape, and an
// OpenAPI 3.1 document of the source's tables (operations per table, typed rows, the list query as
// parameters generators serialise correctly, errors) to generate typed clients from.
import { compositeReferenceNames } from '../model/composite-keys.ts';
import type { components, SchemaConfig } from '../contract.ts';
import type { SchemaStore } from '../store/schemas.ts';
import type { Operation, BaseContext } from '../operation.ts';
import type { Field } from '../model/config-types.ts';
import type { Source } from '../store/sources.ts';
import { SOURCE_KEY_PREFIX } from '../security/api-keys.ts';
import { operatorsFor, operatorSpec, type FilterOperator } from '../runtime/operators.ts';
import { COMPONENT_SUFFIXES, tableNames, type TableNames } from './table-names.ts';


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
    openApiPath: `/public/v1/projects/${source.projectId}/sources/${source.id}/openapi.json`,
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

/**
 * A value's schema as writes take it: the row's schema with the bounds create and update enforce
 * (min and max as minimum and maximum, minLength and maxLength), which rows and filters do not carry.
 */
function inputValueSchema(field: Field): Record<string, unknown> {
  const schema = valueSchema(field);
  if (field.type === 'integer' || field.type === 'number') {
    if (field.min !== undefined) schema.minimum = field.min;
    if (field.max !== undefined) schema.maximum = field.max;
  }
  if (field.type === 'string' || field.type === 'text') {
    if (field.minLength !== undefined) schema.minLength = field.minLength;
    if (field.maxLength !== undefined) schema.maxLength = field.maxLength;
  }
  return schema;
}

/** A value's schema without null: what a filter parameter takes. */
function operandSchema(field: Field): Record<string, unknown> {
  const { description: _description, ...schema } = valueSchema({ ...field, nullable: false, description: undefined });
  return schema;
}

/** The schema of one operator's operand on `field`, as a query parameter or in `where`. */
function operatorSchema(field: Field, operator: FilterOperator, inWhere: boolean): Record<string, unknown> {
  const spec = operatorSpec(operator);
  if (spec.operand === 'boolean') return { type: 'boolean' };
  const value = spec.operand === 'text' ? { type: 'string' } : operandSchema(field);
  if (!spec.list) return value;
  return inWhere ? { type: 'array', minItems: 1, items: value } : { type: 'array', items: value };
}

const list = (values: string[]) => ({ type: 'array', items: { type: 'string', enum: values } });
/** A list parameter: `name=a,b` (form, not exploded); sds also takes the names repeated. */
const listParameter = (name: string, description: string, values: string[]) => ({ name, in: 'query', description, style: 'form', explode: false, schema: list(values) });

/**
 * An OpenAPI 3.1 document of the source's runtime API, for generating typed clients: operations per
 * table with stable names (table-names.ts), a server with `baseUrl` and `sourceId` variables, typed
 * rows, selections, inputs and patches, and the list query as flat parameters (one per field and
 * operator), which every client generator serialises as sds reads them.
 */
export function sourceOpenApi(source: Source, config: SchemaConfig, baseUrl: string) {
  const schemas: Record<string, unknown> = {
    ErrorBody: {
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
  const errorResponse = (description: string) => ({ description, content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBody' } } } });
  const errorResponses = {
    '400': errorResponse('Invalid query, body or key value; the error names it.'),
    '401': errorResponse('Missing, invalid or revoked source API key.'),
    '403': errorResponse('A key of another source.'),
    '404': errorResponse('No such row.'),
    '429': errorResponse('Rate limit of the source exceeded.'),
  };
  const names = tableNames(config.entities.map((entity) => entity.id));
  const entities = new Map(config.entities.map((entity) => [entity.id, entity]));
  const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
  for (const entity of config.entities) {
    const { singular: name, plural } = names.get(entity.id)!;
    const properties = Object.fromEntries(entity.fields.map((field) => [field.id, valueSchema(field)]));
    const inputProperties = Object.fromEntries(entity.fields.map((field) => [field.id, inputValueSchema(field)]));
    const fieldIds = entity.fields.map((field) => field.id);
    const fieldNames = fieldIds.join(', ');
    const references = entity.fields.filter((field) => field.references && entities.has(field.references.entity));
    // Composite references populate under their own name (model/composite-keys.ts).
    const composites = [...compositeReferenceNames(entity)].filter(([, reference]) => entities.has(reference.entity));
    schemas[name] = { type: 'object', description: `A whole row of ${entity.id}, as writes answer it.`, properties, required: fieldIds };
    // Reads answer what the query asks for: some fields (`fields`), references replaced by rows (`populate`).
    schemas[`${name}Selection`] = {
      type: 'object',
      description:
        `A row of ${entity.id} as reads answer it: every field, or those \`fields\` names; a reference field named in ` +
        `\`populate\` holds the referenced row (projected by \`populate.<field>.fields\`), or null when there is none.`,
      properties: Object.fromEntries([
        ...entity.fields.map((field) => {
          const target = field.references && entities.has(field.references.entity) && names.get(field.references.entity)!.singular;
          if (!target) return [field.id, valueSchema(field)];
          return [field.id, { anyOf: [valueSchema(field), ref(`${target}Projection`), { type: 'null' }] }];
        }),
        ...composites.map(([compositeName, reference]) => [
          compositeName,
          {
            description: `With \`populate=${compositeName}\`: the ${reference.entity} row that (${reference.fields.join(', ')}) references, or null.`,
            anyOf: [ref(`${names.get(reference.entity)!.singular}Projection`), { type: 'null' }],
          },
        ]),
      ]),
    };
    schemas[`${name}Projection`] = {
      type: 'object',
      description: `A row of ${entity.id} as \`populate\` embeds it in a referencing row: every field, or those \`populate.<field>.fields\` names.`,
      properties,
    };
    schemas[`${name}Input`] = {
      type: 'object',
      description: `A new row of ${entity.id}. A missing integer or uuid primary key is generated; a missing field with a default takes it.`,
      additionalProperties: false,
      properties: inputProperties,
      required: entity.fields.filter((field) => !field.nullable && !field.default && !(entity.primaryKey ?? []).includes(field.id)).map((field) => field.id),
    };
    schemas[`${name}Patch`] = { type: 'object', description: `Fields of a row of ${entity.id} to change.`, additionalProperties: false, minProperties: 1, properties: inputProperties };
    schemas[`${name}Page`] = {
      type: 'object',
      description: `A page of ${entity.id}.`,
      required: ['data', 'meta'],
      properties: {
        data: { type: 'array', items: ref(`${name}Selection`) },
        meta: { type: 'object', required: ['pagination'], properties: { pagination: ref('Pagination') } },
      },
    };
    schemas[`${name}Where`] = {
      type: 'object',
      description: `Filters on ${entity.id} by field and operator, combined with AND: the JSON of the \`where\` parameter.`,
      additionalProperties: false,
      properties: Object.fromEntries(
        entity.fields.map((field) => [
          field.id,
          {
            type: 'object',
            minProperties: 1,
            additionalProperties: false,
            properties: Object.fromEntries(operatorsFor(field.type).map((operator) => [operator, operatorSchema(field, operator, true)])),
          },
        ]),
      ),
    };
    // Former component names (the table's id in PascalCase), kept while no new name took them.
    const formerBase = pascal(entity.id);
    for (const suffix of ['', 'Selection', 'Projection', 'Input']) {
      const former = `${formerBase}${suffix}`;
      if (former !== `${name}${suffix}` && !(former in schemas) && !reservedFormerName(former, names)) {
        schemas[former] = { deprecated: true, description: `Former name of ${name}${suffix}.`, allOf: [ref(`${name}${suffix}`)] };
      }
    }

    const sortable = entity.fields.filter((field) => field.type !== 'json').map((field) => field.id);
    const fieldsParameter = listParameter('fields', `Fields to return (of ${fieldNames}); all of them when absent.`, fieldIds);
    const populateNames = [...references.map((field) => field.id), ...composites.map(([compositeName]) => compositeName)];
    const populateParameters = populateNames.length
      ? [
          listParameter(
            'populate',
            `Reference fields (${references.map((field) => field.id).join(', ') || 'none'}) to replace with the referenced row, or null` +
              (composites.length ? `; composite references (${composites.map(([compositeName]) => compositeName).join(', ')}) add the referenced row under their name.` : '.'),
            populateNames,
          ),
          ...composites.map(([compositeName, reference]) =>
            listParameter(
              `populate.${compositeName}.fields`,
              `Fields of the populated ${reference.entity} row in \`${compositeName}\`; all of them when absent. Populates \`${compositeName}\` by itself.`,
              entities.get(reference.entity)!.fields.map((targetField) => targetField.id),
            ),
          ),
          ...references.map((field) => {
            const target = entities.get(field.references!.entity)!;
            return listParameter(
              `populate.${field.id}.fields`,
              `Fields of the populated ${target.id} row in \`${field.id}\`; all of them when absent. Populates \`${field.id}\` by itself.`,
              target.fields.map((targetField) => targetField.id),
            );
          }),
        ]
      : [];
    const selectParameters = [
      listParameter('sort', 'Order: `field`, `field:asc` or `field:desc`, applied in turn; ties end in primary key order.', sortable.flatMap((id) => [id, `${id}:asc`, `${id}:desc`])),
      ...entity.fields.flatMap((field) =>
        operatorsFor(field.type).map((operator) => {
          const takesList = operatorSpec(operator).list;
          return {
            name: `filters.${field.id}.${operator}`,
            in: 'query',
            description: `Filter: ${field.id} ${OPERATOR_TEXT[operator]}.${takesList ? ' Values are joined with commas; a value holding a comma goes in `where`.' : ''}`,
            ...(takesList ? { style: 'form', explode: false } : {}),
            schema: operatorSchema(field, operator, false),
          };
        }),
      ),
      {
        name: 'where',
        in: 'query',
        description: `The filters as one JSON object (\`${name}Where\`), merged with the \`filters.…\` parameters.`,
        schema: { type: 'string', contentMediaType: 'application/json', contentSchema: ref(`${name}Where`) },
      },
    ];
    const filterText = `Filters: one parameter per field and operator (\`filters.<field>.<operator>\`), or \`where\` with them as JSON; several combine with AND. Fields: ${fieldNames}.`;

    paths[`/${entity.id}`] = {
      get: {
        operationId: `list${plural}`,
        summary: `List ${entity.id}`,
        description: `A page of ${entity.id}, filtered, sorted, projected and with references populated. ${filterText}`,
        tags: ['rows'],
        parameters: [
          { name: 'limit', in: 'query', description: 'Page size (`0`: only the pagination).', schema: { type: 'integer', minimum: 0, maximum: 1000, default: 25 } },
          { name: 'offset', in: 'query', description: 'Rows to skip.', schema: { type: 'integer', minimum: 0, default: 0 } },
          fieldsParameter,
          ...populateParameters,
          ...selectParameters,
        ],
        responses: { '200': { description: `A page of ${entity.id}.`, content: { 'application/json': { schema: ref(`${name}Page`) } } }, ...errorResponses },
      },
      post: {
        operationId: `create${name}`,
        summary: `Create a row of ${entity.id}`,
        tags: ['rows'],
        requestBody: { required: true, content: { 'application/json': { schema: ref(`${name}Input`) } } },
        responses: {
          '201': {
            description: 'The created row.',
            headers: { Location: { description: 'The path of the created row.', schema: { type: 'string', format: 'uri-reference' } } },
            content: { 'application/json': { schema: ref(name) } },
          },
          '409': errorResponse('Unique or foreign-key violation.'),
          ...errorResponses,
        },
      },
    };
    paths[`/${entity.id}.{format}`] = {
      parameters: [{ name: 'format', in: 'path', required: true, description: 'The file format: CSV or JSON Lines.', schema: { type: 'string', enum: ['csv', 'jsonl'] } }],
      get: {
        operationId: `export${plural}`,
        summary: `Export ${entity.id} as a file`,
        description: `Every selected row of ${entity.id} as CSV or JSON Lines, streamed: no page (\`limit\` has no maximum), no populate. ${filterText}`,
        tags: ['rows'],
        parameters: [
          { name: 'limit', in: 'query', description: 'Most rows to export; every selected row when absent.', schema: { type: 'integer', minimum: 0 } },
          { name: 'offset', in: 'query', description: 'Rows to skip.', schema: { type: 'integer', minimum: 0, default: 0 } },
          fieldsParameter,
          ...selectParameters,
          {
            name: 'csvFormulaEscape',
            in: 'query',
            description: "CSV only: `true` (the default) puts a `'` before text cells beginning with =, +, -, @, tab or CR, so spreadsheets do not run them as formulas; `false` writes values as stored.",
            schema: { type: 'boolean', default: true },
          },
        ],
        responses: {
          '200': {
            description: `Every selected row of ${entity.id}, as the path's format.`,
            content: {
              'text/csv': { schema: { type: 'string', description: `A header row (${fieldNames}), then a line per row; NULL as an empty field.` } },
              'application/x-ndjson': { schema: { type: 'string', description: `One JSON object (a ${name}Selection) per line.` } },
            },
          },
          ...errorResponses,
        },
      },
    };
    paths[`/${entity.id}/{id}`] = {
      parameters: [{ name: 'id', in: 'path', required: true, description: `Primary key (${(entity.primaryKey ?? []).join(', ')}).`, schema: { type: 'string' } }],
      get: {
        operationId: `get${name}`,
        summary: `Read a row of ${entity.id}`,
        tags: ['rows'],
        parameters: [fieldsParameter, ...populateParameters],
        responses: { '200': { description: 'The row.', content: { 'application/json': { schema: ref(`${name}Selection`) } } }, ...errorResponses },
      },
      patch: {
        operationId: `update${name}`,
        summary: `Update a row of ${entity.id}`,
        tags: ['rows'],
        requestBody: { required: true, content: { 'application/json': { schema: ref(`${name}Patch`) } } },
        responses: { '200': { description: 'The updated row.', content: { 'application/json': { schema: ref(name) } } }, '409': errorResponse('Unique or foreign-key violation.'), ...errorResponses },
      },
      delete: {
        operationId: `delete${name}`,
        summary: `Delete a row of ${entity.id}`,
        tags: ['rows'],
        responses: { '204': { description: 'Deleted.' }, '409': errorResponse('Still referenced.'), ...errorResponses },
      },
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: `${source.name} runtime API`,
      version: source.schemaVersionId,
      description:
        `Runtime CRUD API of source ${source.slug}. Authenticate with a source API key (${SOURCE_KEY_PREFIX}…) in the x-api-key header. ` +
        'Generate a typed client from this document: operation and type names derive from the table names and stay the same for the same schema.',
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    servers: [
      {
        url: '{baseUrl}/runtime/{sourceId}',
        description: 'The runtime API of a source of sds.',
        variables: {
          baseUrl: { default: baseUrl, description: 'Where sds answers: scheme, host and port.' },
          sourceId: { default: source.id, description: 'The source (this document describes the tables of this one).' },
        },
      },
    ],
    security: source.requireAuth ? [{ sourceApiKey: [] }] : [{ sourceApiKey: [] }, {}],
    tags: [{ name: 'rows', description: `Rows of the tables of ${source.name}.` }],
    paths,
    components: {
      schemas,
      securitySchemes: { sourceApiKey: { type: 'apiKey', in: 'header', name: 'x-api-key', description: `A source API key (${SOURCE_KEY_PREFIX}…).`, 'x-sds-key-kind': 'source', 'x-sds-key-prefix': SOURCE_KEY_PREFIX } },
    },
  };
}

/** What each operator tests, for parameter descriptions. */
const OPERATOR_TEXT: Record<FilterOperator, string> = {
  $eq: 'equals the value',
  $ne: 'differs from the value (null kept)',
  $gt: 'is greater than the value',
  $gte: 'is greater than or equal to the value',
  $lt: 'is less than the value',
  $lte: 'is less than or equal to the value',
  $in: 'is one of the values',
  $notIn: 'is none of the values (null kept)',
  $contains: 'contains the text',
  $containsi: 'contains the text, ignoring case',
  $startsWith: 'starts with the text',
  $endsWith: 'ends with the text',
  $null: 'is null (true) or not (false)',
};

/** Whether a former component name is now some table's name (or a reserved one): then it goes. */
function reservedFormerName(former: string, names: Map<string, TableNames>): boolean {
  if (['Error', 'ErrorBody', 'Pagination'].includes(former)) return true;
  return [...names.values()].some(({ singular }) => COMPONENT_SUFFIXES.some((suffix) => `${singular}${suffix}` === former));
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
