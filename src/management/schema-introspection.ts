// introspectSchemaConfig: a schema config from a live database, over HTTP. The connection string
// is used for this one request and goes nowhere else: failures become messages sds wrote (refused
// credentials or a missing schema 400, an unreachable server 503), never the driver's text.
import type { components } from '../contract.ts';
import { dialectOfUrl } from '../introspection/read-catalog.ts';
import { introspectDatabase, IntrospectionError } from '../introspection/introspect.ts';
import { AppError, errors } from '../errors.ts';
import type { Operation, RequestBody } from '../operation.ts';
import { requirePrincipal } from './access.ts';

type IntrospectionRequest = RequestBody<'introspectSchemaConfig'>;
type IntrospectionAnswer = components['schemas']['SchemaConfigIntrospection'];

export function schemaIntrospectionOperations() {
  const introspectSchemaConfig: Operation<'introspectSchemaConfig'> = async (context) => {
    requirePrincipal(context);
    const request = context.body;
    if (request.rows !== undefined && request.rowsFromStatistics !== undefined) {
      throw errors.badRequest('Give rows or rowsFromStatistics, not both', [{ path: '/body/rowsFromStatistics', message: 'not together with rows' }]);
    }
    try {
      const namespace = namespaceOf(request);
      const { config, warnings } = await introspectDatabase(request.connectionString, {
        namespace,
        tables: request.tables,
        rows: request.rows,
        rowsFromStatistics: request.rowsFromStatistics,
      });
      const body: IntrospectionAnswer = { schema: config, warnings };
      return { status: 200, body };
    } catch (error) {
      throw asAppError(error);
    }
  };
  return { introspectSchemaConfig };
}

/** `schema` for PostgreSQL, `database` for MySQL: the other word names a mistake. */
function namespaceOf(request: IntrospectionRequest): string | undefined {
  const dialect = dialectOfUrl(request.connectionString);
  const kind = dialect.kind;
  const word = dialect.facts.namespaceField;
  const other = word === 'schema' ? 'database' : 'schema';
  if (request[other] !== undefined) {
    throw errors.badRequest(`${other} is not for ${dialect.facts.label} connections: give the ${word} to introspect`, [
      { path: `/body/${other}`, message: `use ${word} with a ${kind} connection string` },
    ]);
  }
  return request[word];
}

function asAppError(error: unknown): unknown {
  if (!(error instanceof IntrospectionError)) return error;
  switch (error.kind) {
    case 'unreachable':
      return new AppError(503, error.message);
    case 'internal':
      return new AppError(500, error.message);
    case 'invalid':
    case 'refused':
    case 'script':
      return errors.badRequest(error.message);
  }
}
