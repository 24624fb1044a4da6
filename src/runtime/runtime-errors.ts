// The runtime's error catalogue: every expected failure of a runtime request (bad query, unknown
// name, uncastable value, invalid body, missing row, constraint conflict) as an AppError, in one place.
import { AppError, quoted, type ErrorDetail } from '../errors.ts';
import { unknownTable } from '../model/tables.ts';
import { didYouMean } from '../suggest.ts';

/** ` (fields: a, b, c)`: the names to choose from when none is close to a typo. */
function fieldList(names: string[]): string {
  if (names.length === 0) return '';
  const shown = names.slice(0, 30).join(', ');
  return ` (fields: ${shown}${names.length > 30 ? `, … ${names.length - 30} more` : ''})`;
}

const bad = (message: string, details?: ErrorDetail[]) => new AppError(400, message, details ? { details } : {});

export const runtimeErrors = {
  // Query string syntax (parse-query.ts)
  malformedEncoding: (key: string) => bad(`Malformed percent-encoding in query parameter ${quoted(key)}`),
  malformedParameter: (key: string, usage?: string) => bad(`Malformed query parameter ${quoted(key)}${usage ? `: ${usage}` : ''}`),
  unknownParameter: (name: string, known: string[]) => bad(`Unknown query parameter ${quoted(name)}${didYouMean(name, known)}`),
  duplicateParameter: (name: string) => bad(`Duplicate query parameter ${quoted(name)}`),
  emptyName: (parameter: string) => bad(`Empty field name in ${parameter}`),
  missingOperator: (field: string) => bad(`Missing filter operator in ${quoted(`filters.${field}`)}: use filters.${field}.$eq=…`),
  unknownOperator: (operator: string, field: string, known: readonly string[], parameter = 'filters') =>
    bad(`Unknown filter operator ${quoted(operator)} on field ${quoted(field)}${parameter === 'filters' ? '' : ` in ${parameter}`}${didYouMean(operator, known) || ` (operators: ${known.join(', ')})`}`),
  invalidWhere: (reason: string) => bad(`Invalid query parameter "where": ${reason}`),
  missingWhereOperator: (field: string) => bad(`Missing filter operator in where for field ${quoted(field)}: use {"${field}":{"$eq":…}}`),
  notForOneRow: (parameter: string) => bad(`Query parameter ${quoted(parameter)} is not allowed when reading one row (only fields and populate are)`),

  // Names and values against the table schema (plan.ts)
  unknownField: (name: string, where: string, known: Iterable<string>) => {
    const names = [...known];
    return bad(`Unknown field ${quoted(name)} in ${where}${didYouMean(name, names) || fieldList(names)}`);
  },
  /** populate=<child table> on the parent: populate follows references from the row that holds them. */
  populateFromParent: (name: string, table: string, child: string, column: string) =>
    bad(
      `Unknown field ${quoted(name)} in populate: populate follows a reference field of "${table}" to the row it points at. ` +
        `"${child}" rows point at "${table}" through "${column}": list them with /${child}?filters.${column}.$eq=<id>, or populate=${column} there`,
    ),
  operatorNotApplicable: (operator: string, type: string, field: string) => bad(`Filter operator "${operator}" does not apply to ${type} field "${field}"`),
  invalidValue: (value: string, type: string, field: string, where: string, allowed?: string[]) =>
    bad(`Invalid value ${quoted(value)} for ${type} field "${field}" in ${where}${allowed ? ` (allowed: ${allowed.join(', ')})` : ''}`),
  invalidNullTest: (value: string, field: string) => bad(`Invalid value ${quoted(value)} for filters.${field}.$null: use true or false`),
  invalidLimit: (value: string, max: number) => bad(`Invalid limit ${quoted(value)}: use an integer from 0 to ${max}`),
  invalidOffset: (value: string) => bad(`Invalid offset ${quoted(value)}: use an integer of 0 or more`),
  unknownDirection: (direction: string, term: string) => bad(`Unknown sort direction ${quoted(direction)} in ${quoted(term)}: use asc or desc${didYouMean(direction, ['asc', 'desc'])}`),
  notSortable: (type: string, field: string) => bad(`Cannot sort by ${type} field "${field}"`),
  notReference: (field: string, references: string[]) =>
    bad(`Field "${field}" cannot be populated: it is not a reference field${references.length ? ` (reference fields: ${references.join(', ')})` : ''}`),

  // Tables and rows
  unknownTable,
  rowNotFound: () => new AppError(404, 'Row not found'),
  noPrimaryKey: (table: string) => bad(`Table "${table}" has no primary key: its rows cannot be addressed by id`),
  invalidId: (id: string, reason: string) => bad(`Invalid id ${quoted(id)}: ${reason}`),

  // Writes (validate-body.ts, write.ts)
  invalidRow: (details: ErrorDetail[]) =>
    bad(`Invalid row: ${details[0]?.message ?? 'rejected'}${details.length > 1 ? ` (and ${details.length - 1} more)` : ''}`, details),
  uniqueViolation: (columns: string[] | undefined) => new AppError(409, `Unique constraint violated${columns?.length ? ` on (${columns.join(', ')})` : ''}`),
  missingReference: (columns: string[], table: string, referenced: string[]) =>
    new AppError(409, `Foreign key violated on (${columns.join(', ')}) referencing ${table} (${referenced.join(', ')})`),
  stillReferenced: (table: string | undefined, columns: string[] | undefined, change: 'deleted' | 'changed') =>
    new AppError(409, `Row is still referenced${table ? ` by ${table}${columns?.length ? ` (${columns.join(', ')})` : ''}` : ''}, so it cannot be ${change}`),
  rejectedValue: (message: string) => bad(message),
  unknownFormat: (format: string) => bad(`Unknown format ${quoted(format)}: use csv, jsonl or json${didYouMean(format, ['csv', 'jsonl', 'json'])}`),
  formatContradictsPath: (format: string) => bad(`Query parameter "format" contradicts the path's ".${format}": leave it out, or use format=${format}`),
    notExportable: (parameter: string) => bad(`Query parameter ${quoted(parameter)} is not available when exporting a table as a file (fields, sort, filters, limit and offset are)`),
  targetUnavailable: () => new AppError(503, 'Target database is unavailable; try again shortly'),
  targetTimeout: () => new AppError(504, 'Target database did not answer in time; try again shortly, or narrow the request'),
};
