// `sds types`: row types of a source's tables, read over HTTP from its runtime docs (tables, fields,
// types, nullability, keys, references) and its runtime OpenAPI document (enum values), written as
// a .ts file with one row interface and one create-body interface per table and the maps
// `SourceTables` / `SourceTableInputs` / `SourceReferences` that `createRuntimeClient<…>()` takes.
import fs from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import type { FieldType } from '../contract.ts';
import { FIELD_TYPE_DESCRIPTORS, type FieldTypeDescriptor } from '../model/field-types/index.ts';
import { createManagementClient, type SourceRuntimeDocs } from '../../sdk/src/index.ts';
import { resolveServer, withServerOptions } from './server-options.ts';

type DocsEntity = SourceRuntimeDocs['entities'][number];
type DocsField = DocsEntity['fields'][number];
type JsonObject = Record<string, unknown>;

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
/** The descriptor of a field type the server names (a newer server may name one this CLI does not know). */
const descriptorOf = (type: string): FieldTypeDescriptor | undefined => (Object.hasOwn(FIELD_TYPE_DESCRIPTORS, type) ? FIELD_TYPE_DESCRIPTORS[type as FieldType] : undefined);
/** The TypeScript type of a field type's values (its descriptor's); flavoured ones are declared by FLAVOURS. */
const tsTypeOf = (type: string): string | undefined => descriptorOf(type)?.tsType;

/**
 * Field types whose values TypeScript cannot tell from others (a uuid is a string), declared as the
 * SDK's `FieldValue` flavours: plain values to read and write, which tell the SDK's filter types
 * what the server accepts on them (no `$contains` on a uuid). Structural, so the file needs no import.
 */
const FLAVOURS: Record<string, string> = {
  UuidString: `/** A uuid field's value. */\ntype UuidString = string & { readonly __sdsFieldType?: 'uuid' };`,
  TimeString: `/** A time field's value, \`HH:MM:SS\`. */\ntype TimeString = string & { readonly __sdsFieldType?: 'time' };`,
  DateString: `/** A date field's value (ISO 8601, or the field's \`outputFormat\`). */\ntype DateString = string & { readonly __sdsFieldType?: 'date' };`,
  DatetimeString: `/** A datetime field's value, ISO 8601. */\ntype DatetimeString = string & { readonly __sdsFieldType?: 'datetime' };`,
  JsonValue: `/** A json field's value. */\ntype JsonValue = (string | number | boolean | JsonValue[] | { [key: string]: JsonValue }) & { readonly __sdsFieldType?: 'json' };`,
};
const FORMATS: Record<string, string> = {
  date: 'ISO 8601 date (or the field\'s `outputFormat`)',
  datetime: 'ISO 8601 date-time',
  time: 'time of day, `HH:MM:SS`',
};

/** A label worth a comment: not just the id humanized (`firstName` → "First name"), as the docs derive it. */
const informative = (label: string, id: string) => label !== '' && label.replace(/[\s_-]/g, '').toLowerCase() !== id.replace(/[_-]/g, '').toLowerCase();

/** `order_items` → `OrderItems`, `userProfiles` → `UserProfiles`. */
export function pascalCase(id: string): string {
  const name = id
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');
  return /^[0-9]/.test(name) ? `T${name}` : name || 'Table';
}

const get = (value: unknown, ...keys: string[]): unknown =>
  keys.reduce<unknown>((node, key) => (typeof node === 'object' && node !== null ? (node as JsonObject)[key] : undefined), value);

/** The enum values of each field of a table, from the source's runtime OpenAPI document. */
function enumValues(openapi: JsonObject | undefined, sourceId: string, entity: DocsEntity): Map<string, string[]> {
  const values = new Map<string, string[]>();
  if (!openapi) return values;
  // The row a creation answers (paths relative to the `{baseUrl}/runtime/{sourceId}` server), or, from
  // a server older than that document, the items of the list at its absolute path.
  const ref =
    get(openapi, 'paths', `/${entity.id}`, 'post', 'responses', '201', 'content', 'application/json', 'schema', '$ref') ??
    get(openapi, 'paths', `/runtime/${sourceId}/${entity.id}`, 'get', 'responses', '200', 'content', 'application/json', 'schema', 'properties', 'data', 'items', '$ref');
  const name = typeof ref === 'string' ? ref.split('/').pop()! : pascalCase(entity.id);
  const properties = get(openapi, 'components', 'schemas', name, 'properties');
  for (const field of entity.fields) {
    const list = get(properties, field.id, 'enum');
    if (Array.isArray(list)) values.set(field.id, list.filter((value): value is string => typeof value === 'string'));
  }
  return values;
}

function fieldType(field: DocsField, values: string[] | undefined): string {
  const base =
    field.type === 'enum' && values?.length ? values.map((value) => JSON.stringify(value)).join(' | ') : (tsTypeOf(field.type) ?? 'unknown');
  // A json document may be the JSON null even where the column is NOT NULL.
  if (base === 'unknown') return base;
  return field.nullable || field.type === 'json' ? `${base} | null` : base;
}

function comment(lines: string[], indent: string): string {
  const text = lines.filter(Boolean).map((line) => line.replace(/\*\//g, '*\\/'));
  if (text.length === 0) return '';
  if (text.length === 1) return `${indent}/** ${text[0]} */\n`;
  return `${indent}/**\n${text.map((line) => `${indent} * ${line}`).join('\n')}\n${indent} */\n`;
}

function fieldComment(field: DocsField, entity: DocsEntity, values: string[] | undefined): string[] {
  const notes = [
    entity.primaryKey.includes(field.id) ? 'primary key' : '',
    field.references ? `references \`${field.references.entity}.${field.references.field}\` (populate it to get that row)` : '',
    field.type === 'enum' && !values?.length ? 'enum (values unknown: the runtime OpenAPI document was not available)' : '',
    FORMATS[field.type] ? `${field.type}: ${FORMATS[field.type]}` : '',
  ].filter(Boolean);
  const title = field.description || (informative(field.label, field.id) ? field.label : '');
  const format = field.type === 'datetime' ? 'date-time' : field.type === 'date' ? 'date' : '';
  return [title, notes.length ? `${notes.join('; ')}.` : '', format ? `@format ${format}` : ''];
}

/** Whether create may leave a field out: nullable, or a primary key the service generates. */
function optionalOnCreate(field: DocsField, entity: DocsEntity): boolean {
  if (field.nullable) return true;
  return entity.primaryKey.includes(field.id) && descriptorOf(field.type)?.generatedKey !== undefined;
}

/** The .ts source of a source's row types. */
export function renderSourceTypes(docs: SourceRuntimeDocs, openapi?: JsonObject, sourceName?: string): string {
  const used = new Set<string>();
  const names = docs.entities.map((entity) => {
    let name = pascalCase(entity.id);
    for (let n = 2; used.has(name); n++) name = `${pascalCase(entity.id)}${n}`;
    used.add(name);
    return name;
  });
  const key = (id: string) => (IDENTIFIER.test(id) ? id : JSON.stringify(id));
  let out = `/**\n * Row types of the tables of source ${sourceName ? `"${sourceName}" ` : ''}${docs.sourceId} (schema version ${docs.schemaVersionId}).\n`;
  out += ` * Generated by \`sds types\`. Do not edit: run it again after the source's schema version changes.\n *\n`;
  out += ` *   const runtime = createRuntimeClient<SourceTables, SourceTableInputs, SourceReferences>({ baseUrl, sourceId, apiKey });\n */\n`;
  const flavours = new Set(docs.entities.flatMap((entity) => entity.fields.map((field) => tsTypeOf(field.type) ?? '')));
  for (const [name, declaration] of Object.entries(FLAVOURS)) if (flavours.has(name)) out += `\n${declaration}\n`;
  docs.entities.forEach((entity, index) => {
    const name = names[index]!;
    const values = enumValues(openapi, docs.sourceId, entity);
    const title = [informative(entity.label, entity.id) ? entity.label : '', entity.description].filter(Boolean).join(': ');
    out += `\n${comment([`A row of \`${entity.id}\`${title ? ` (${title})` : ''}.`, entity.primaryKey.length ? `Primary key: ${entity.primaryKey.join(', ')}.` : ''], '')}`;
    out += `export interface ${name}Row {\n`;
    for (const field of entity.fields) out += `${comment(fieldComment(field, entity, values.get(field.id)), '  ')}  ${key(field.id)}: ${fieldType(field, values.get(field.id))};\n`;
    out += `}\n\n${comment([`Body of \`create('${entity.id}', …)\`: nullable fields and generated primary keys may be left out.`], '')}`;
    out += `export interface ${name}Input {\n`;
    for (const field of entity.fields) out += `  ${key(field.id)}${optionalOnCreate(field, entity) ? '?' : ''}: ${fieldType(field, values.get(field.id))};\n`;
    out += '}\n';
  });
  const map = (suffix: string) => docs.entities.map((entity, index) => `  ${key(entity.id)}: ${names[index]}${suffix};\n`).join('');
  out += `\n/** Row type of each table: \`createRuntimeClient<SourceTables>()\`. */\nexport interface SourceTables {\n${map('Row')}}\n`;
  out += `\n/** Create body of each table: \`createRuntimeClient<SourceTables, SourceTableInputs>()\`. */\nexport interface SourceTableInputs {\n${map('Input')}}\n`;
  const tables = new Set(docs.entities.map((entity) => entity.id));
  const references = docs.entities
    .map((entity) => {
      const fields = entity.fields.filter((field) => field.references && tables.has(field.references.entity));
      return fields.length ? `  ${key(entity.id)}: { ${fields.map((field) => `${key(field.id)}: ${JSON.stringify(field.references!.entity)}`).join('; ')} };\n` : '';
    })
    .join('');
  out +=
    `\n/**\n * The table each reference field points to: with it, \`createRuntimeClient<SourceTables, SourceTableInputs, SourceReferences>()\`\n` +
    ` * types a populated reference as the row of that table (projected by \`populate.<field>.fields\`).\n */\n` +
    `export interface SourceReferences {\n${references}}\n`;
  out += `\nexport type TableName = keyof SourceTables;\n`;
  return out;
}

export interface SourceTypesOptions {
  baseUrl: string;
  teamKey: string;
  projectId: string;
  sourceId: string;
}

/** Reads the source's runtime docs and runtime OpenAPI document and renders its row types. */
export async function fetchSourceTypes({ baseUrl, teamKey, projectId, sourceId }: SourceTypesOptions): Promise<{ source: string; warnings: string[] }> {
  const api = createManagementClient({ baseUrl, apiKey: teamKey });
  const params = { params: { path: { projectId, sourceId } } };
  const [docs, openapi, source] = await Promise.all([
    api.GET('/public/v1/projects/{projectId}/sources/{sourceId}/runtime-docs', params),
    api.GET('/public/v1/projects/{projectId}/sources/{sourceId}/openapi.json', params),
    api.GET('/public/v1/projects/{projectId}/sources/{sourceId}', params),
  ]);
  if (docs.error) throw new Error(`cannot read the runtime docs of source ${sourceId}: ${docs.response.status} ${docs.error.error}`);
  const warnings = openapi.error ? [`the runtime OpenAPI document is not available (${openapi.response.status} ${openapi.error.error}): enum fields are typed as string`] : [];
  return { source: renderSourceTypes(docs.data, openapi.data as JsonObject | undefined, source.data?.name), warnings };
}

export function registerTypesCommand(program: Command): void {
  withServerOptions(program.command('types'))
    .description("write TypeScript row types of a source's tables, for createRuntimeClient<SourceTables>() of @sds/sdk")
    .requiredOption('--source <id>', 'source id')
    .requiredOption('--project <id>', 'project id of the source')
    .option('--out <file>', 'write to this .ts file instead of standard output')
    .action(async (options: { source: string; project: string; baseUrl?: string; teamKey?: string; out?: string }) => {
      const { source, warnings } = await fetchSourceTypes({
        ...resolveServer(options),
        projectId: options.project,
        sourceId: options.source,
      });
      for (const warning of warnings) console.error(`warning: ${warning}`);
      if (!options.out) {
        process.stdout.write(source);
        return;
      }
      fs.mkdirSync(path.dirname(path.resolve(options.out)), { recursive: true });
      fs.writeFileSync(options.out, source);
      console.error(`wrote ${options.out}`);
    });
}
