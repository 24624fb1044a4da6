// Write bodies checked against the table schema before any SQL: a JSON object of known columns,
// each value of its column's type (cast to the canonical form), nullability, enum values,
// lengths and value bounds (min, max). Every problem is reported at once, as details with JSON pointers into the body.
import type { RowValue } from '../model/row-value.ts';
import { quoted, type ErrorDetail } from '../errors.ts';
import { castJson, expectation } from '../model/cast.ts';
import { boundsProblem } from '../model/field-default.ts';
import { fieldType } from '../model/field-types/index.ts';
import { runtimeErrors } from './runtime-errors.ts';
import { didYouMean } from '../suggest.ts';
import type { RuntimeColumn, RuntimeTable } from '../model/tables.ts';

export type WriteMode = 'create' | 'update';

/** Values by column name, in table column order. */
export type RowValues = Map<string, RowValue>;

/** A lone primary key that create generates when the body leaves it out (its type says how: integers and uuids). */
export function generatedKey(table: RuntimeTable): RuntimeColumn | undefined {
  const [key, ...rest] = table.primaryKey;
  return key && rest.length === 0 && fieldType(key.type).generatedKey !== undefined ? key : undefined;
}

/**
 * Checks a create or update body. Create needs every non-nullable column except a generated key and
 * columns with a default; update takes any non-empty subset. Throws AppError 400 "Invalid row: …" with all details.
 */
export function validateBody(table: RuntimeTable, body: unknown, mode: WriteMode): RowValues {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw runtimeErrors.invalidRow([{ path: '/body', message: 'the body must be a JSON object' }]);
  }
  const input = body as Record<string, unknown>;
  const details: ErrorDetail[] = [];
  for (const name of Object.keys(input)) {
    if (!table.byName.has(name)) details.push({ path: pointer(name), message: `unknown column ${quoted(name)}${didYouMean(name, table.byName.keys())}` });
  }
  const values: RowValues = new Map();
  const generated = generatedKey(table);
  for (const column of table.columns) {
    if (!Object.hasOwn(input, column.name)) {
      // A column with a default takes it from the database when the insert leaves it out; a position
      // within its group (a line number) is numbered by create when the group's columns are given.
      const numbered = column.within !== undefined && column.within.columns.every((name) => Object.hasOwn(input, name));
      if (mode === 'create' && !column.nullable && column !== generated && column.default === undefined && !numbered) details.push({ path: pointer(column.name), message: `column "${column.name}" is required` });
      continue;
    }
    const problem = check(column, input[column.name], values);
    if (problem) details.push({ path: pointer(column.name), message: problem });
  }
  if (details.length === 0 && values.size === 0 && mode === 'update') {
    details.push({ path: '/body', message: 'the body must name at least one column to change' });
  }
  if (details.length > 0) throw runtimeErrors.invalidRow(details);
  return values;
}

/** Casts one value into `values`; returns the problem, if any. */
function check(column: RuntimeColumn, value: unknown, values: RowValues): string | undefined {
  if (value === null) {
    if (!column.nullable) return `column "${column.name}" must not be null`;
    values.set(column.name, null);
    return undefined;
  }
  const cast = castJson(column, value);
  if (cast === undefined) return `column "${column.name}" must be ${expectation(column)}`;
  const problem = boundsProblem(column, cast);
  if (problem) return `column "${column.name}" ${problem}`;
  values.set(column.name, cast);
  return undefined;
}

/** `/body/<name>` with the name escaped as a JSON pointer token. */
function pointer(name: string): string {
  return `/body/${name.replaceAll('~', '~0').replaceAll('/', '~1')}`;
}
