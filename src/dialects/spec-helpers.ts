// Reading table specs for the DDL and loaders of both dialects: columns by name, keyed columns,
// checked enum values and sizes, referential actions.
import type { ColumnSpec, ReferentialAction, TableSpec } from '../model/table-spec.ts';

/** The specs of `names` in `table`, in the given order; throws on a name the table lacks. */
export function pickColumns(table: TableSpec, names: string[]): ColumnSpec[] {
  return names.map((name) => {
    const column = table.columns.find((candidate) => candidate.name === name);
    if (!column) throw new Error(`Table "${table.name}" has no column "${name}"`);
    return column;
  });
}

/** Columns in the primary key, any index or any foreign key: the ones a database must index. */
export function keyedColumns(table: TableSpec): Set<string> {
  return new Set([
    ...table.primaryKey,
    ...table.indexes.flatMap((index) => index.columns),
    ...table.foreignKeys.flatMap((foreignKey) => foreignKey.columns),
  ]);
}

/** Enum values checked before they become SQL literals. */
export function enumValues(table: TableSpec, column: ColumnSpec): string[] {
  const values = column.values ?? [];
  if (values.length === 0) throw new Error(`Enum column "${table.name}.${column.name}" has no values`);
  for (const value of values) {
    if (value.includes('\0')) {
      throw new Error(`Enum value ${JSON.stringify(value)} of column "${table.name}.${column.name}" contains a NUL byte, which SQL text cannot hold`);
    }
  }
  return values;
}

/** RESTRICT / CASCADE / SET NULL (MySQL reads RESTRICT as NO ACTION, which checks at once too). */
export function referentialAction(action: ReferentialAction): string {
  switch (action) {
    case 'restrict':
      return 'RESTRICT';
    case 'cascade':
      return 'CASCADE';
    case 'set-null':
      return 'SET NULL';
  }
}

/** A size that is interpolated into DDL: an integer in range, or a clear error. */
export function checkedInteger(column: ColumnSpec, property: string, value: number, min: number, max: number): number {
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new Error(`Column "${column.name}": ${property} must be an integer from ${min} to ${max}, got ${value}`);
  }
  return value;
}
