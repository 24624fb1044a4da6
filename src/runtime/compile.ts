// Stage 3 of a runtime read: ReadPlan → { sql, params } for one dialect. Every identifier goes
// through quoteIdentifier and every value through a placeholder; the dialect's hooks supply the few
// differences (placeholders, LIKE, null-aware inequality, ordering); each filter compiles by its
// operator's hook in operators.ts.
import type { ColumnSpec } from '../model/table-spec.ts';
import type { SqlHooks } from '../dialects/dialect.ts';
import type { RowValue } from '../model/row-value.ts';
import { formulaEscapedType, type CsvOptions } from '../files/csv.ts';
import { operatorSpec, type OperandParams } from './operators.ts';
import type { ExportPlan, PlannedFilter, PlannedPopulate, ReadPlan } from './plan.ts';
import type { RuntimeTable } from '../model/tables.ts';

export interface CompiledQuery {
  sql: string;
  params: unknown[];
}

export interface CompiledList {
  /** The page: projection, filters, order, LIMIT/OFFSET. */
  rows: CompiledQuery;
  /** COUNT(*) of the rows the filters match. */
  count: CompiledQuery;
  /** The WHERE clause ('' without filters) and its parameters: with the table, the count's cache key. */
  where: CompiledQuery;
}

/** Collects bind parameters and hands out their placeholders. */
export class SqlParams implements OperandParams {
  readonly values: unknown[] = [];
  constructor(private readonly dialect: SqlHooks) {}

  /** A value of `column`, typed as the column. */
  typed(column: ColumnSpec, value: RowValue): string {
    this.values.push(this.dialect.parameter(column, value));
    return this.dialect.typedPlaceholder(this.values.length, column);
  }

  /** A plain value (limit, offset, LIKE pattern). */
  plain(value: unknown): string {
    this.values.push(value);
    return this.dialect.placeholder(this.values.length);
  }
}

export function qualifiedTable(dialect: SqlHooks, namespace: string, table: string): string {
  return `${dialect.quoteIdentifier(namespace)}.${dialect.quoteIdentifier(table)}`;
}

export function columnList(dialect: SqlHooks, names: string[]): string {
  return names.map((name) => dialect.quoteIdentifier(name)).join(', ');
}

export function compileList(dialect: SqlHooks, namespace: string, plan: ReadPlan, table: RuntimeTable): CompiledList {
  const params = new SqlParams(dialect);
  const where = compileWhere(dialect, table, plan.filters, params);
  const whereParams = [...params.values];
  const from = qualifiedTable(dialect, namespace, table.name);
  const order = plan.sort
    .map(({ field, direction }) => {
      const column = knownColumn(table, field);
      return dialect.orderBy(dialect.comparable(dialect.quoteIdentifier(field), column), direction, column.nullable);
    })
    .join(', ');
  const page = dialect.paging(params.plain(plan.limit), params.plain(plan.offset));
  return {
    rows: { sql: `SELECT ${columnList(dialect, plan.fields)} FROM ${from}${where}${order ? ` ORDER BY ${order}` : ''} ${page}`, params: params.values },
    count: { sql: `SELECT COUNT(*) AS total FROM ${from}${where}`, params: whereParams },
    where: { sql: where, params: whereParams },
  };
}

/** An export's one SELECT: projection, filters and order; LIMIT/OFFSET only when asked. */
export function compileExport(dialect: SqlHooks, namespace: string, plan: ExportPlan, table: RuntimeTable): CompiledQuery {
  const clauses = exportClauses(dialect, namespace, plan, table, (field) => dialect.quoteIdentifier(field));
  return { sql: `SELECT ${columnList(dialect, plan.fields)}${clauses.sql}`, params: clauses.params };
}

/**
 * The export as the database's own CSV (`COPY (…) TO STDOUT (FORMAT csv)`, rows ending in LF), when
 * it can write exactly the file compileExport's rows would make: every column rendered in SQL as the
 * API renders it (dialect.exportText), no parameters (COPY takes none: a filtered or paged export
 * reads through a cursor), and two columns at least (PostgreSQL quotes a lone `\.`, the file does not).
 * With `formulaEscape`, text columns go through dialect.formulaEscapedText (none: the cursor path).
 */
export function compileCsvCopy(dialect: SqlHooks, namespace: string, plan: ExportPlan, table: RuntimeTable, options: CsvOptions = {}): string | undefined {
  if (!dialect.exportText || plan.fields.length < 2) return undefined;
  const from = qualifiedTable(dialect, namespace, table.name);
  // The select list's expressions are unnamed; sorting names the table's columns, qualified, so an
  // ORDER BY never reads a rendered (text) output column in place of the column itself.
  const qualified = (field: string) => `${from}.${dialect.quoteIdentifier(field)}`;
  const clauses = exportClauses(dialect, namespace, plan, table, qualified);
  if (clauses.params.length > 0) return undefined;
  const texts: string[] = [];
  for (const field of plan.fields) {
    const column = table.byName.get(field);
    if (!column) return undefined;
    // Dates come as ISO text; the other output formats are left to the cursor's rows.
    const text = column.type === 'date' && column.outputFormat !== 'iso' ? undefined : dialect.exportText(column, qualified(field));
    if (text === undefined) return undefined;
    if (options.formulaEscape && formulaEscapedType(column.type)) {
      if (!dialect.formulaEscapedText) return undefined;
      texts.push(dialect.formulaEscapedText(text));
    } else {
      texts.push(text);
    }
  }
  return `COPY (SELECT ${texts.join(', ')}${clauses.sql}) TO STDOUT (FORMAT csv)`;
}

/** ` FROM … WHERE … ORDER BY … LIMIT … OFFSET …` of an export, sorting by `column(field)`. */
function exportClauses(dialect: SqlHooks, namespace: string, plan: ExportPlan, table: RuntimeTable, column: (field: string) => string): CompiledQuery {
  const params = new SqlParams(dialect);
  const where = compileWhere(dialect, table, plan.filters, params);
  const order = plan.sort
    .map(({ field, direction }) => {
      const spec = knownColumn(table, field);
      return dialect.orderBy(dialect.comparable(column(field), spec), direction, spec.nullable);
    })
    .join(', ');
  // MySQL takes OFFSET only after a LIMIT: an offset alone gets the largest safe one.
  const page = plan.limit !== undefined || plan.offset > 0 ? ` ${dialect.paging(params.plain(plan.limit ?? Number.MAX_SAFE_INTEGER), params.plain(plan.offset))}` : '';
  return { sql: ` FROM ${qualifiedTable(dialect, namespace, table.name)}${where}${order ? ` ORDER BY ${order}` : ''}${page}`, params: params.values };
}

/** The row a plan's filters on the whole primary key select: no order, no page (there is one row at most). */
export function compileOne(dialect: SqlHooks, namespace: string, plan: ReadPlan, table: RuntimeTable): CompiledQuery {
  const params = new SqlParams(dialect);
  const where = compileWhere(dialect, table, plan.filters, params);
  return { sql: `SELECT ${columnList(dialect, plan.fields)} FROM ${qualifiedTable(dialect, namespace, table.name)}${where}`, params: params.values };
}

/** ` WHERE a AND b`, or '' without filters. */
export function compileWhere(dialect: SqlHooks, table: RuntimeTable, filters: PlannedFilter[], params: SqlParams): string {
  if (filters.length === 0) return '';
  return ` WHERE ${filters.map((filter) => compileFilter(dialect, knownColumn(table, filter.field), filter, params)).join(' AND ')}`;
}

function compileFilter(dialect: SqlHooks, column: ColumnSpec, filter: PlannedFilter, params: SqlParams): string {
  return operatorSpec(filter.operator).compile({ dialect, name: dialect.quoteIdentifier(column.name), column, values: filter.values, params });
}

/**
 * The referenced rows of one populated field: one query for the whole page. `keys` holds one value
 * per key column of each referenced row (`populate.keys` order).
 */
export function compilePopulate(dialect: SqlHooks, namespace: string, populate: PlannedPopulate, target: RuntimeTable, keys: RowValue[][]): CompiledQuery {
  const params = new SqlParams(dialect);
  const columns = populate.keys.map((name) => knownColumn(target, name));
  const fields = [...populate.fields, ...populate.keys.filter((name) => !populate.fields.includes(name))];
  let where: string;
  if (columns.length === 1) {
    where = `${dialect.quoteIdentifier(columns[0]!.name)} IN (${keys.map((values) => params.typed(columns[0]!, values[0]!)).join(', ')})`;
  } else {
    // (a = ? AND b = ?) OR …: row-value IN lists differ between the engines.
    where = keys.map((values) => `(${columns.map((column, i) => `${dialect.quoteIdentifier(column.name)} = ${params.typed(column, values[i]!)}`).join(' AND ')})`).join(' OR ');
  }
  return {
    sql: `SELECT ${columnList(dialect, fields)} FROM ${qualifiedTable(dialect, namespace, target.name)} WHERE ${where}`,
    params: params.values,
  };
}

/** A column the planner has already checked. */
export function knownColumn(table: RuntimeTable, name: string): ColumnSpec {
  const column = table.byName.get(name);
  if (!column) throw new Error(`Column "${name}" is not in table "${table.name}"`);
  return column;
}
