// Introspection warnings: everything the database declares that the schema config cannot express,
// each naming the table (and column) and saying what sds did instead.

/** One thing the config does not carry over as the database declares it. */
export interface IntrospectionWarning {
  /** Table as the database names it; unset for a warning about a DDL script as a whole. */
  table?: string;
  /** Column as the database names it, when the warning is about one. */
  column?: string;
  /** `table.column: what the database has; what sds did instead`. */
  message: string;
}

/** Collects warnings in the order they are found. */
export class Warnings {
  readonly list: IntrospectionWarning[] = [];

  add(table: string, column: string | undefined, message: string): void {
    const where = column === undefined ? table : `${table}.${column}`;
    this.list.push({ table, ...(column === undefined ? {} : { column }), message: `${where}: ${message}` });
  }
}
