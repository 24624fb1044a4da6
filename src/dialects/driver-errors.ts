// Building DriverErrors, shared by the dialects' error mappers: the user-facing message is
// composed here from the kind, constraint and column names only, never from the database's text.
import type { DriverError, DriverErrorKind } from './dialect.ts';
import type { TableSpec } from '../model/table-spec.ts';
import { IDENTIFIER } from './dialect.ts';

/**
 * The code of a connection to a server named by a request that failed for a network reason, said
 * the same way whatever the reason (refused, timed out, a port speaking another protocol), so that
 * errors do not tell open ports from closed ones.
 */
export const UNREACHABLE_CODE = 'EUNREACHABLE';

const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EPIPE', 'ECONNABORTED', UNREACHABLE_CODE]);

interface ErrorFields {
  constraint?: string | undefined;
  table?: string | undefined;
  columns?: string[] | undefined;
  code?: string | undefined;
  /** Refines the message, e.g. 'too-long' for invalid values or 'referenced' for foreign keys. */
  detail?: string | undefined;
}

export function driverError(kind: DriverErrorKind, fields: ErrorFields = {}, connectionProblem?: DriverError['connectionProblem']): DriverError {
  const error: DriverError = { kind, message: describe(kind, fields) };
  if (connectionProblem !== undefined) error.connectionProblem = connectionProblem;
  if (fields.constraint !== undefined) error.constraint = fields.constraint;
  if (fields.table !== undefined) error.table = fields.table;
  if (fields.columns !== undefined && fields.columns.length > 0) error.columns = fields.columns;
  if (fields.code !== undefined) error.code = fields.code;
  if (kind === 'foreign_key_violation') error.referenced = fields.detail === 'referenced';
  if (kind === 'invalid_value' && fields.detail === 'nul-character') error.nulCharacter = true;
  return error;
}

function describe(kind: DriverErrorKind, { constraint, table, columns, detail }: ErrorFields): string {
  const on = columns?.length ? ` (${columns.join(', ')})` : constraint ? ` ${constraint}` : '';
  const of = table ? ` of table ${table}` : '';
  switch (kind) {
    case 'unique_violation':
      return `Duplicate value for unique key${on}${of}`;
    case 'foreign_key_violation':
      return detail === 'referenced'
        ? `Row is still referenced through foreign key${constraint ? ` ${constraint}` : ''}${of}`
        : `Referenced row does not exist for foreign key${on}${of}`;
    case 'not_null_violation':
      return `Missing value for required column${on}${of}`;
    case 'check_violation':
      return `Value not allowed by check${on}${of}`;
    case 'invalid_value':
      if (detail === 'nul-character') return `Text with a NUL character (\\u0000) for column${on}${of}`;
      return `${detail === 'too-long' ? 'Value too long' : detail === 'out-of-range' ? 'Value out of range' : 'Invalid value'} for column${on}${of}`;
    case 'undefined_table':
      return `Table${table ? ` ${table}` : ''} does not exist`;
    case 'serialization_failure':
      return 'Concurrent writes conflicted; try again';
    case 'timeout':
      return 'The database did not answer within the query timeout';
    case 'connection':
      return 'Cannot reach the database';
    case 'other':
      return 'Database error';
  }
}

/** The network error code of a socket error (also inside an AggregateError from dual-stack connects). */
export function networkErrorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && NETWORK_CODES.has(code)) return code;
  const inner = (error as { errors?: unknown } | null)?.errors;
  if (Array.isArray(inner)) for (const each of inner) if (networkErrorCode(each)) return networkErrorCode(each);
  return undefined;
}

/** Keeps only names that are identifiers: nothing else from a database message reaches users. */
export function identifiersOnly(names: Array<string | undefined>): string[] {
  return names.filter((name): name is string => name !== undefined && IDENTIFIER.test(name));
}

/** Columns of a named unique key, index, primary key or foreign key in `table`. */
export function constraintColumns(table: TableSpec | undefined, constraint: string | undefined): string[] | undefined {
  if (!table || !constraint) return undefined;
  const index = table.indexes.find((candidate) => candidate.name === constraint);
  if (index) return index.columns;
  const foreignKey = table.foreignKeys.find((candidate) => candidate.name === constraint);
  if (foreignKey) return foreignKey.columns;
  return undefined;
}
