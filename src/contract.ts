// The only importer of generated/: the bundled OpenAPI document and the operation table derived from it.
import fs from 'node:fs';
import type { paths } from '../generated/openapi.ts';
import { resourceUrl } from './resources.ts';

import type { FieldType, SchemaConfig } from '../generated/schema-config.ts';

export type { components, operations, paths } from '../generated/openapi.ts';
export type { FieldType, SchemaConfig } from '../generated/schema-config.ts';
/** Database engines of sources (the contract's SourceKind): each has a dialect in src/dialects. */
export type SourceKind = import('../generated/openapi.ts').components['schemas']['SourceKind'];

/**
 * A config from a request body the validator has checked against schema-config.v1.json: the same
 * JSON Schema, typed by openapi-typescript, which types a few constraints (minItems) more loosely
 * than json-schema-to-typescript's SchemaConfig.
 */
export function checkedConfig(config: import('../generated/openapi.ts').components['schemas']['SchemaConfig']): SchemaConfig {
  return config as SchemaConfig;
}

/**
 * Every field type of the schema config (`schemas/schema-config.v1.json`), which are also the column
 * types of generated tables. Per-type behaviour is declared in tables typed `Record<FieldType, …>`,
 * so a type added to the contract makes the compiler name every place that needs it.
 */
export const FIELD_TYPES = ['string', 'text', 'integer', 'number', 'boolean', 'date', 'datetime', 'time', 'uuid', 'json', 'enum'] as const satisfies readonly FieldType[];
/** Fails to compile while FIELD_TYPES misses a type of the contract. */
const everyFieldType: Exclude<FieldType, (typeof FIELD_TYPES)[number]> extends never ? true : never = true;
void everyFieldType;

/** Every source kind of the contract, for code that names them without loading the dialects (the CLI's options). */
export const SOURCE_KINDS = ['postgres', 'mysql'] as const satisfies readonly SourceKind[];
/** Fails to compile while SOURCE_KINDS misses a kind of the contract. */
const everySourceKind: Exclude<SourceKind, (typeof SOURCE_KINDS)[number]> extends never ? true : never = true;
void everySourceKind;

/**
 * Ends a switch that has a case for every field type: `value` is then `never`, and a type added to
 * the contract without a case here fails to compile (switches over field types have no `default:`).
 */
export function unhandledFieldType(value: never): never {
  throw new Error(`Unhandled field type ${JSON.stringify(value)}`);
}

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

export interface OperationSpec {
  operationId: string;
  method: HttpMethod;
  /** OpenAPI path template, e.g. `/public/v1/projects/{projectId}`. */
  path: string;
  /** The same path in Express syntax, e.g. `/public/v1/projects/:projectId`. */
  expressPath: string;
  /** Security requirement alternatives by scheme name; `[]` inside means anonymous is allowed. */
  security: string[][];
  /** Declared response status codes. */
  responses: string[];
  /** Whether a response may be a live `text/event-stream`. */
  streams: boolean;
}

export type OpenApiDocument = {
  openapi: string;
  info: { title: string; version: string };
  paths: Record<string, Record<string, unknown>>;
  security?: Record<string, string[]>[];
  [key: string]: unknown;
};

const METHODS: HttpMethod[] = ['get', 'post', 'put', 'patch', 'delete'];

let cached: OpenApiDocument | undefined;

/** The OpenAPI document with the schema-config JSON Schema bundled in (written by `npm run generate`). */
export function openApiDocument(): OpenApiDocument {
  cached ??= JSON.parse(fs.readFileSync(resourceUrl('generated/openapi.json'), 'utf8')) as OpenApiDocument;
  return cached;
}

export function operationTable(document: OpenApiDocument = openApiDocument()): OperationSpec[] {
  const table: OperationSpec[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of METHODS) {
      const operation = item[method] as
        | { operationId?: string; security?: Record<string, string[]>[]; responses?: Record<string, { content?: Record<string, unknown> }> }
        | undefined;
      if (!operation) continue;
      if (!operation.operationId) throw new Error(`${method.toUpperCase()} ${path} has no operationId`);
      const security = operation.security ?? document.security ?? [];
      table.push({
        operationId: operation.operationId,
        method,
        path,
        expressPath: path.replace(/\{([^}]+)\}/g, ':$1'),
        security: security.map((requirement) => Object.keys(requirement)),
        responses: Object.keys(operation.responses ?? {}),
        streams: Object.values(operation.responses ?? {}).some((response) => 'text/event-stream' in (response.content ?? {})),
      });
    }
  }
  return table;
}

/** Compile-time check that a path exists in the contract. */
export type ContractPath = keyof paths;
