// introspectSchemaConfig: a schema config from a live database, over HTTP. The connection string
// passes the connection guard before any connection, is used for this one request and goes nowhere
// else: failures become messages sds wrote (a refused string, credentials or a missing schema 400,
// a failing server 502, an unreachable server 503), never the driver's text. Every network failure
// (refused, timed out, another protocol, a host that does not resolve) answers the same text, no
// sooner than the connect timeout, so that answers do not tell open ports from closed ones.
import type { LookupFunction } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { components } from '../contract.ts';
import { introspectDatabase, IntrospectionError } from '../introspection/introspect.ts';
import { HTTP_STATEMENT_TIMEOUT_MS, learnDatabase } from '../learn/learn-database.ts';
import { AppError, errors } from '../errors.ts';
import type { Operation, RequestBody } from '../operation.ts';
import { ConnectionRefusal, type ConnectionGuard } from '../security/connection-guard.ts';
import type { Dialect } from '../dialects/dialect.ts';
import { requirePrincipal } from './access.ts';

type IntrospectionRequest = RequestBody<'introspectSchemaConfig'>;
type IntrospectionAnswer = components['schemas']['SchemaConfigIntrospection'];

export interface SchemaIntrospectionDeps {
  guard: ConnectionGuard;
  /** The connect timeout (SDS_CONNECT_TIMEOUT_MS): network failures answer no sooner. */
  connectTimeoutMs: number;
  /** Longest a profiling statement of `learn` may run; default HTTP_STATEMENT_TIMEOUT_MS (30 s). */
  learnStatementTimeoutMs?: number;
}

const UNREACHABLE = 'The database server cannot be reached; check the host and port, and that it accepts connections';

export function schemaIntrospectionOperations(deps: SchemaIntrospectionDeps) {
  const introspectSchemaConfig: Operation<'introspectSchemaConfig'> = async (context) => {
    requirePrincipal(context);
    const request = context.body;
    if (request.rows !== undefined && request.rowsFromStatistics !== undefined) {
      throw errors.badRequest('Give rows or rowsFromStatistics, not both', [{ path: '/body/rowsFromStatistics', message: 'not together with rows' }]);
    }
    if (request.learn === true && (request.rows !== undefined || request.rowsFromStatistics !== undefined)) {
      const field = request.rows !== undefined ? 'rows' : 'rowsFromStatistics';
      throw errors.badRequest(`learn takes row counts from the database (use scale); give ${field} without learn`, [{ path: `/body/${field}`, message: 'not together with learn' }]);
    }
    if (request.learn !== true) {
      const stray = (['scale', 'minCount', 'lookups'] as const).find((name) => request[name] !== undefined);
      if (stray) throw errors.badRequest(`${stray} goes with learn: true`, [{ path: `/body/${stray}`, message: 'only with learn' }]);
    }
    const started = Date.now();
    const unreachable = async () => {
      await sleep(Math.max(0, started + deps.connectTimeoutMs - Date.now()));
      return new AppError(503, UNREACHABLE);
    };
    let dialect: Dialect;
    let lookup: LookupFunction;
    try {
      ({ dialect, lookup } = await deps.guard.check(request.connectionString));
    } catch (error) {
      if (!(error instanceof ConnectionRefusal)) throw error;
      if (error.kind === 'unresolvable') throw await unreachable();
      throw errors.badRequest(`The connection string cannot be used: ${error.message}`, [{ path: '/body/connectionString', message: error.message }]);
    }
    try {
      const connect = { connectTimeoutMs: deps.connectTimeoutMs, fromRequest: true, lookup };
      if (request.learn === true) {
        const { config, warnings, report } = await learnDatabase(request.connectionString, {
          namespace: namespaceOf(request, dialect),
          tables: request.tables,
          scale: request.scale,
          minCount: request.minCount,
          lookups: request.lookups,
          statementTimeoutMs: deps.learnStatementTimeoutMs ?? HTTP_STATEMENT_TIMEOUT_MS,
          connect,
        });
        const body: IntrospectionAnswer = { schema: config, warnings, privacyReport: report };
        return { status: 200, body };
      }
      const { config, warnings } = await introspectDatabase(request.connectionString, {
        namespace: namespaceOf(request, dialect),
        tables: request.tables,
        rows: request.rows,
        rowsFromStatistics: request.rowsFromStatistics,
        connect,
      });
      const body: IntrospectionAnswer = { schema: config, warnings };
      return { status: 200, body };
    } catch (error) {
      if (error instanceof IntrospectionError && error.kind === 'unreachable') throw await unreachable();
      throw asAppError(error);
    }
  };
  return { introspectSchemaConfig };
}

/** `schema` for PostgreSQL, `database` for MySQL: the other word names a mistake. */
function namespaceOf(request: IntrospectionRequest, dialect: Dialect): string | undefined {
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
      return new AppError(503, UNREACHABLE);
    case 'upstream':
      return new AppError(502, error.message);
    case 'internal':
      return new AppError(500, error.message);
    case 'invalid':
    case 'refused':
    case 'script':
      return errors.badRequest(error.message);
  }
}
