// Schemas, their immutable versions, and schema-config validation.
import { checkedConfig } from '../contract.ts';
import { errors } from '../errors.ts';
import type { ValidationResult } from '../config/validate-config.ts';
import type { ProjectStore } from '../store/projects.ts';
import type { SchemaStore } from '../store/schemas.ts';
import type { TeamPrincipal } from '../store/teams.ts';
import type { ConfigWork } from './config-work.ts';
import { accessibleProject } from './access.ts';
import { listReply, pageOf } from './paging.ts';
import { requirePrincipal } from './access.ts';
import type { BaseContext, Operation, RequestBody } from '../operation.ts';
import { plural } from '../json-syntax.ts';
import { optionalText, requireText } from './required-text.ts';

/**
 * Configs in create requests are checked by the full validator before request validation, so the
 * answer carries every error at once with JSON pointers into the config, as the validate endpoint does.
 * The validator runs in a config worker (config-work.ts) as the requesting team's work.
 */
export function configPrechecks(work: ConfigWork): Record<string, (body: unknown, principal?: TeamPrincipal) => Promise<void>> {
  const check = (config: unknown, principal: TeamPrincipal | undefined) => assertValidConfig(work, principal, config);
  return {
    // Before request validation: the body is whatever was sent, shaped like the contract's at best.
    createSchema: (body, principal) => check((body as Partial<RequestBody<'createSchema'>> | undefined)?.initialVersion?.schema, principal),
    createSchemaVersion: (body, principal) => check((body as Partial<RequestBody<'createSchemaVersion'>> | undefined)?.schema, principal),
    previewSchemaConfig: (body, principal) => check((body as Partial<RequestBody<'previewSchemaConfig'>> | undefined)?.schema, principal),
  };
}

async function assertValidConfig(work: ConfigWork, principal: TeamPrincipal | undefined, config: unknown): Promise<void> {
  // Absent or not an object: left to request validation, which names the missing property.
  if (config === null || typeof config !== 'object' || Array.isArray(config)) return;
  const result = await work.validate(teamOf(principal), config);
  if (!result.valid) throw invalidConfig(result);
}

/** Whose work a request is: its team (team-key operations always have a principal once authenticated). */
function teamOf(principal: TeamPrincipal | undefined): string {
  return principal?.teamId ?? '';
}

function invalidConfig(result: ValidationResult) {
  const [first] = result.errors;
  return errors.badRequest(`Invalid schema config (${plural(result.errors.length, 'error')}): ${first!.path || '/'} ${first!.message}`, result.errors);
}

const MAX_VERSION_NUMBER = 2_147_483_647;

export function schemaOperations(projects: ProjectStore, schemas: SchemaStore, work: ConfigWork) {
  const accessibleSchema = async (context: BaseContext) => {
    const project = await accessibleProject(projects, requirePrincipal(context), context.params.projectId!);
    const schema = await schemas.find(project.id, context.params.schemaId!);
    if (!schema) throw errors.notFound('Schema');
    return schema;
  };

  const listSchemas: Operation<'listSchemas'> = async (context) => {
    const project = await accessibleProject(projects, requirePrincipal(context), context.params.projectId!);
    return listReply(await schemas.list(project.id, pageOf(context.query)));
  };

  const createSchema: Operation<'createSchema'> = async (context) => {
    const project = await accessibleProject(projects, requirePrincipal(context), context.params.projectId!);
    const body = context.body;
    const name = requireText(body.name, 'name');
    const schema = await schemas.create(project.id, {
      name,
      description: body.description,
      initialConfig: body.initialVersion && checkedConfig(body.initialVersion.schema),
    });
    return { status: 201, body: schema, headers: { Location: `/public/v1/projects/${project.id}/schemas/${schema.id}` } };
  };

  const getSchema: Operation<'getSchema'> = async (context) => ({ status: 200, body: await accessibleSchema(context) });

  const updateSchema: Operation<'updateSchema'> = async (context) => {
    const schema = await accessibleSchema(context);
    const body = context.body;
    const name = optionalText(body.name, 'name');
    await schemas.update(schema.id, { name, description: body.description });
    return { status: 200, body: await schemas.find(schema.projectId, schema.id) };
  };

  const deleteSchema: Operation<'deleteSchema'> = async (context) => {
    const schema = await accessibleSchema(context);
    const outcome = await schemas.delete(schema.id);
    if (outcome === 'missing') throw errors.notFound('Schema');
    if (outcome === 'bound') throw errors.conflict('Schema is in use: a source is bound to one of its versions; delete or rebind the source first');
    return { status: 204 };
  };

  const listSchemaVersions: Operation<'listSchemaVersions'> = async (context) => {
    const schema = await accessibleSchema(context);
    return listReply(await schemas.listVersions(schema.id, pageOf(context.query)));
  };

  const createSchemaVersion: Operation<'createSchemaVersion'> = async (context) => {
    const schema = await accessibleSchema(context);
    const version = await schemas.createVersion(schema.id, checkedConfig(context.body.schema));
    const location = `/public/v1/projects/${schema.projectId}/schemas/${schema.id}/versions/${version.version}`;
    return { status: 201, body: version, headers: { Location: location } };
  };

  const getSchemaVersion: Operation<'getSchemaVersion'> = async (context) => {
    const schema = await accessibleSchema(context);
    const number = Number(context.params.version);
    // Version numbers are PostgreSQL integers: a larger one names no version (and would fail the query).
    const version = number <= MAX_VERSION_NUMBER ? await schemas.findVersion(schema.id, number) : undefined;
    if (!version) throw errors.notFound(`Version ${context.params.version} of the schema`);
    return { status: 200, body: version };
  };

  const validateSchemaConfig: Operation<'validateSchemaConfig'> = async (context) => {
    const principal = requirePrincipal(context);
    return { status: 200, body: await work.validate(teamOf(principal), context.body.schema) };
  };

  return {
    listSchemas,
    createSchema,
    getSchema,
    updateSchema,
    deleteSchema,
    listSchemaVersions,
    createSchemaVersion,
    getSchemaVersion,
    validateSchemaConfig,
  };
}
