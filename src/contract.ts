// The only importer of generated/: the bundled OpenAPI document and the operation table derived from it.
import fs from 'node:fs';
import type { paths } from '../generated/openapi.ts';
import { resourceUrl } from './resources.ts';

export type { components, operations, paths } from '../generated/openapi.ts';
export type { SchemaConfig } from '../generated/schema-config.ts';

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
