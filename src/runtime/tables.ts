// A table of a source with where its rows live: what each runtime read and write stage runs against.
// The tables themselves are the model's (src/model/tables.ts).
import type { TargetConnection } from '../dialects/dialect.ts';
import type { RuntimeTable, RuntimeTables } from '../model/tables.ts';

export interface TableContext {
  connection: TargetConnection;
  /** The PostgreSQL schema or MySQL database holding the source's tables. */
  namespace: string;
  table: RuntimeTable;
  /** Every table of the source, for populate and foreign-key messages. */
  tables: RuntimeTables;
}
