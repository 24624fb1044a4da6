// Row counts of an introspected config: one count for every entity (`--rows`), or a total shared
// out in proportion to the database's own statistics (pg_class.reltuples, TABLE_ROWS).
import type { SchemaConfig } from '../model/config-types.ts';
import { DEFAULT_ROW_COUNT } from '../model/config-graph.ts';
import type { MappedTable } from './map-config.ts';
import type { Warnings } from './warnings.ts';

export interface RowCountOptions {
  /** Rows of every entity (generationDefaults.rowCount); default 100. */
  rows?: number;
  /** A total of rows shared out by the database's statistics; each entity gets at least 1. */
  rowsFromStatistics?: number;
}

export function assignRowCounts(config: SchemaConfig, mapped: MappedTable[], options: RowCountOptions, warnings: Warnings): void {
  config.generationDefaults = { rowCount: options.rows ?? DEFAULT_ROW_COUNT };
  const total = options.rowsFromStatistics;
  if (total === undefined) return;
  const known = mapped.filter((table) => table.table.estimatedRows !== undefined);
  const sum = known.reduce((acc, table) => acc + table.table.estimatedRows!, 0);
  if (sum === 0) {
    const name = mapped[0]?.table.name ?? config.metadata?.name ?? '';
    warnings.add(name, undefined, `the database has no row statistics for these tables (run ANALYZE first); every entity gets ${config.generationDefaults.rowCount} rows`);
    return;
  }
  for (const table of mapped) {
    const estimate = table.table.estimatedRows;
    if (estimate === undefined) {
      warnings.add(table.table.name, undefined, `no row statistics (run ANALYZE first); it gets ${config.generationDefaults.rowCount} rows`);
      continue;
    }
    const rowCount = Math.max(1, Math.round((total * estimate) / sum));
    table.entity.generation = { ...table.entity.generation, rowCount };
  }
}
