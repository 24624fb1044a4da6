// Maps mysql2 errors to DriverError, once: error numbers become kinds; key, constraint and column
// names are read from the fixed parts of the server's message, never the quoted values in it.
import type { DriverError } from '../dialect.ts';
import type { TableSpec } from '../../model/table-spec.ts';
import { constraintColumns, driverError, identifiersOnly, networkErrorCode } from '../driver-errors.ts';
import { STALLED } from '../stall-watch.ts';

const CONNECTION_ERRNOS = new Set([1040, 1044, 1045, 1049, 1053, 1129, 1130, 1927, 2002, 2003, 2005, 2006, 2013, 4031]);
const CONNECTION_CODES = new Set(['PROTOCOL_CONNECTION_LOST', 'ER_CON_COUNT_ERROR', 'POOL_CLOSED', 'HANDSHAKE_NO_SSL_SUPPORT', STALLED]);
/** Statements cut by the query timeout: MariaDB max_statement_time, MySQL max_execution_time, a lock wait. */
const TIMEOUT_ERRNOS = new Set([1969, 3024, 1205]);

/** mysql2's own "no answer within the query's timeout" (the client-side limit). */
export function isClientTimeout(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 'PROTOCOL_SEQUENCE_TIMEOUT';
}

interface MysqlErrorFields {
  errno?: unknown;
  code?: unknown;
  sqlMessage?: unknown;
  message?: unknown;
}

export function mapMysqlError(error: unknown, table?: TableSpec): DriverError {
  const network = networkErrorCode(error);
  if (network) return driverError('connection', { code: network }, 'network');
  const fields = (typeof error === 'object' && error !== null ? error : {}) as MysqlErrorFields;
  const errno = typeof fields.errno === 'number' ? fields.errno : undefined;
  const driverCode = typeof fields.code === 'string' ? fields.code : undefined;
  const message = typeof fields.sqlMessage === 'string' ? fields.sqlMessage : typeof fields.message === 'string' ? fields.message : '';
  const code = errno !== undefined ? String(errno) : driverCode;
  if (isClientTimeout(error) || (errno !== undefined && TIMEOUT_ERRNOS.has(errno))) return driverError('timeout', { code });
  if ((errno !== undefined && CONNECTION_ERRNOS.has(errno)) || (driverCode && CONNECTION_CODES.has(driverCode)) || (error as { fatal?: unknown })?.fatal === true) {
    const problem = errno === 1044 || errno === 1045 ? 'credentials' : errno === 1049 ? 'database' : errno === 2002 || errno === 2003 || errno === 2005 ? 'network' : undefined;
    return driverError('connection', { code }, problem);
  }
  switch (errno) {
    case 1062:
    case 1586: {
      // "Duplicate entry '…' for key 'name'" (MariaDB) or "… for key 'table.name'" (MySQL 8): read from the end.
      const key = /for key '(?:[A-Za-z0-9_]+\.)?([A-Za-z0-9_]+)'$/.exec(message)?.[1];
      const columns = key === 'PRIMARY' ? table?.primaryKey : constraintColumns(table, key);
      return driverError('unique_violation', { code, constraint: key === 'PRIMARY' ? undefined : key, table: table?.name, columns });
    }
    case 1451:
    case 1452:
    case 1216:
    case 1217: {
      // "(`db`.`child`, CONSTRAINT `fk` FOREIGN KEY (`a`) REFERENCES `parent` (`id`) …)": a missing parent names
      // the child's columns; a still-referenced parent names its own key columns, like PostgreSQL's detail.
      const match = /\(`[A-Za-z0-9_]+`\.`([A-Za-z0-9_]+)`, CONSTRAINT `([A-Za-z0-9_]+)` FOREIGN KEY \(([`A-Za-z0-9_, ]+)\) REFERENCES `[A-Za-z0-9_]+` \(([`A-Za-z0-9_, ]+)\)/.exec(message);
      const referenced = errno === 1451 || errno === 1217;
      const columns = match ? backtickedList(referenced ? match[4]! : match[3]!) : undefined;
      return driverError('foreign_key_violation', { code, table: match?.[1], constraint: match?.[2], columns, detail: referenced ? 'referenced' : undefined });
    }
    case 1048:
    case 1364:
      return driverError('not_null_violation', { code, table: table?.name, columns: identifiersOnly([quotedColumn(message)]) });
    case 3819: {
      const constraint = identifiersOnly([/^Check constraint '([^']+)' is violated/.exec(message)?.[1]])[0];
      return driverError('check_violation', { code, constraint, table: table?.name, columns: constraintColumns(table, constraint) });
    }
    case 4025: {
      // MariaDB: "CONSTRAINT `name` failed for `db`.`table`"; a JSON column's json_valid check is named after the column.
      const constraint = identifiersOnly([/^CONSTRAINT `([^`]+)` failed/.exec(message)?.[1]])[0];
      const column = table?.columns.find((candidate) => candidate.name === constraint);
      if (column?.type === 'json') return driverError('invalid_value', { code, constraint, table: table?.name, columns: [column.name] });
      return driverError('check_violation', { code, constraint, table: table?.name, columns: constraintColumns(table, constraint) });
    }
    case 1265: {
      // Strict mode rejects a value outside an ENUM as "Data truncated for column 'x'".
      const column = identifiersOnly([quotedColumn(message)]);
      const isEnum = table?.columns.some((candidate) => candidate.name === column[0] && candidate.type === 'enum');
      return driverError(isEnum ? 'check_violation' : 'invalid_value', { code, table: table?.name, columns: column });
    }
    case 1406:
    case 1264:
    case 1292:
    case 1366:
    case 1367:
    case 3140:
    case 1690: {
      const detail = errno === 1406 ? 'too-long' : errno === 1264 || errno === 1690 ? 'out-of-range' : undefined;
      return driverError('invalid_value', { code, table: table?.name, columns: identifiersOnly([quotedColumn(message)]), detail });
    }
    case 1213:
      return driverError('serialization_failure', { code });
    case 1146: {
      const missing = /^Table '(?:[A-Za-z0-9_]+\.)?([A-Za-z0-9_]+)' doesn't exist/.exec(message)?.[1];
      return driverError('undefined_table', { code, table: missing });
    }
  }
  return driverError('other', { code });
}

/** The column named in "… column 'x' …" or "… for column `db`.`t`.`x` at row 1"; quoted values come before it. */
function quotedColumn(message: string): string | undefined {
  const match =
    /(?:column|Column|Field) '([A-Za-z0-9_]+)'(?: at row \d+| cannot be null| doesn't have a default value)?\s*$/.exec(message) ??
    /column (?:`[A-Za-z0-9_]+`\.)*`([A-Za-z0-9_]+)` at row \d+\s*$/.exec(message);
  return match?.[1];
}

function backtickedList(list: string): string[] {
  return identifiersOnly(list.split(',').map((part) => part.trim().replace(/^`(.*)`$/, '$1')));
}
