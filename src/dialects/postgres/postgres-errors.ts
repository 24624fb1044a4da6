// Maps pg errors to DriverError, once: SQLSTATE codes become kinds, columns come from the error's
// fields and the key part of its detail ("Key (a, b)="), never from the values that follow.
import type { DriverError } from '../dialect.ts';
import type { TableSpec } from '../../model/table-spec.ts';
import { constraintColumns, driverError, identifiersOnly, networkErrorCode } from '../driver-errors.ts';
import { STALLED } from '../stall-watch.ts';

interface PgErrorFields {
  code?: unknown;
  detail?: unknown;
  constraint?: unknown;
  table?: unknown;
  column?: unknown;
  message?: unknown;
}

/** pg's own "no answer within query_timeout" (the pool's client-side limit), which carries no code. */
export function isClientTimeout(error: unknown): boolean {
  return (error as { message?: unknown } | null)?.message === 'Query read timeout';
}

export function mapPostgresError(error: unknown, table?: TableSpec): DriverError {
  const network = networkErrorCode(error);
  if (network) return driverError('connection', { code: network }, 'network');
  if (isClientTimeout(error)) return driverError('timeout');
  const fields = (typeof error === 'object' && error !== null ? error : {}) as PgErrorFields;
  const code = typeof fields.code === 'string' ? fields.code : undefined;
  const message = typeof fields.message === 'string' ? fields.message : '';
  if (code === STALLED) return driverError('connection', { code });
  if (!code || !/^[0-9A-Z]{5}$/.test(code)) {
    // pg's lost or timed-out connections, pg-pool's connect timeout, and a client used after its connection failed.
    if (/^Connection terminated|^timeout expired|connection timeout|^timeout exceeded when trying to connect|connection error and is not queryable/i.test(message)) {
      return driverError('connection', {}, /timeout/i.test(message) ? 'network' : undefined);
    }
    return driverError('other');
  }
  const constraint = identifiersOnly([text(fields.constraint)])[0];
  const tableName = identifiersOnly([text(fields.table)])[0];
  const keyColumns = detailKeyColumns(text(fields.detail));
  const common = { code, constraint, table: tableName };
  switch (code) {
    case '23505':
      return driverError('unique_violation', { ...common, columns: keyColumns ?? constraintColumns(table, constraint) ?? primaryKeyOf(table, constraint) });
    case '23503': {
      const referenced = /is still referenced/.test(text(fields.detail) ?? '');
      return driverError('foreign_key_violation', {
        ...common,
        columns: referenced ? keyColumns : (constraintColumns(table, constraint) ?? keyColumns),
        detail: referenced ? 'referenced' : undefined,
      });
    }
    case '23502':
      return driverError('not_null_violation', { ...common, columns: identifiersOnly([text(fields.column)]) });
    case '23514':
      return driverError('check_violation', { ...common, columns: checkColumns(table, constraint) });
    case '40001':
    case '40P01':
      return driverError('serialization_failure', { code });
    // query_canceled: statement_timeout (or a cancel request; sds sends none).
    case '57014':
      return driverError('timeout', { code });
    case '42P01':
    case '3F000':
      return driverError('undefined_table', { code, table: tableName ?? missingRelation(message) });
  }
  if (code.startsWith('22')) {
    // 22021 (invalid byte sequence) and 22P05 (unsupported Unicode escape in jsonb): pg sends valid UTF-8, so a NUL in a text.
    const detail = code === '22001' ? 'too-long' : code === '22003' ? 'out-of-range' : code === '22021' || code === '22P05' ? 'nul-character' : undefined;
    return driverError('invalid_value', { code, table: tableName, columns: identifiersOnly([text(fields.column)]), detail });
  }
  // XX (internal error, e.g. XX000) and 58 (system error): the server failed, not the statement; as
  // unavailable to the caller as a lost connection (503), never a 500 of sds's.
  if (code.startsWith('08') || code.startsWith('28') || code.startsWith('XX') || code.startsWith('58') || code === '3D000' || code === '53300' || code === '57P01' || code === '57P02' || code === '57P03') {
    return driverError('connection', { code }, code.startsWith('28') ? 'credentials' : code === '3D000' ? 'database' : undefined);
  }
  return driverError('other', { code });
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** `Key (a, "b")=(…) …` → ['a', 'b']; the values after '=' are never read. */
function detailKeyColumns(detail: string | undefined): string[] | undefined {
  const match = detail ? /^Key \(([A-Za-z0-9_", ]+)\)=/.exec(detail) : null;
  if (!match) return undefined;
  const columns = identifiersOnly(match[1]!.split(',').map((part) => part.trim().replace(/^"(.*)"$/, '$1')));
  return columns.length > 0 ? columns : undefined;
}

/** PostgreSQL names a primary key `<table>_pkey`. */
function primaryKeyOf(table: TableSpec | undefined, constraint: string | undefined): string[] | undefined {
  return table && constraint === `${table.name}_pkey`.slice(0, 63) ? table.primaryKey : undefined;
}

/** Enum checks are column constraints, named `<table>_<column>_check` by PostgreSQL. */
function checkColumns(table: TableSpec | undefined, constraint: string | undefined): string[] | undefined {
  const column = table?.columns.find((candidate) => `${table.name}_${candidate.name}_check`.slice(0, 63) === constraint);
  return column ? [column.name] : undefined;
}

function missingRelation(message: string): string | undefined {
  const match = /^relation "(?:[A-Za-z0-9_]+\.)?([A-Za-z0-9_]+)" does not exist/.exec(message);
  return match?.[1];
}
