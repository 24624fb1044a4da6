// Learning, stage 4b: derived columns across tables. A parent's numeric column that every parent
// row keeps equal to the sum over its children (the rows of a table that references it) of one of
// their numeric columns, or of the product of two (an invoice's total, the sum of its lines'
// unit_price × quantity), to half a cent, becomes a `childrenSum` strategy: generated parents then
// always agree with their generated lines, which an empirical distribution of the total would not.
// A child's summed column may itself be such a sum (a region's takings over its shops' takings).
// Only counts leave the database.
import type { Field } from '../model/config-types.ts';
import { columnOf, type MappedTable } from '../introspection/map-config.ts';
import type { ColumnReport } from './fit-column.ts';
import type { TableProfiler } from './profile-sql.ts';
import { childrenSumCycle } from '../generation/children-sum.ts';

/** Most numeric columns of a parent tried as sums, and of a child tried as parts (pairs grow as the square). */
const MAX_NUMBERS = 8;
/** A parent's value within this of its children's sum holds (half a cent). */
const TOLERANCE = 0.005;

/** A sum learned for a parent column: its children's table, their reference and the columns summed (a product when two). */
export interface ChildrenSumRule {
  column: string;
  entity: string;
  reference: string;
  fields: string[];
  rows: number;
}

const numeric = (field: Field) => (field.type === 'integer' || field.type === 'number') && !field.references;

/**
 * Learns the parent columns of `table` that are sums over their children into childrenSum strategies
 * (columns already made by a formula, keys, references and `excluded` ones are left alone).
 */
export async function learnChildrenSums(profiler: TableProfiler, table: MappedTable, tables: readonly MappedTable[], minCount: number, columns: ColumnReport[], excluded: ReadonlySet<string>): Promise<ChildrenSumRule[]> {
  const keys = new Set(table.entity.primaryKey ?? []);
  const candidates = [...table.fields]
    .filter(([column, field]) => numeric(field) && !keys.has(field.id) && !excluded.has(column) && !field.generation?.strategy?.kind.match(/^(formula|childrenSum)$/))
    .slice(0, MAX_NUMBERS);
  if (candidates.length === 0) return [];
  const rules: ChildrenSumRule[] = [];
  const taken = new Set<string>();
  for (const child of tables) {
    if (child === table) continue;
    for (const [referenceColumn, reference] of child.fields) {
      if (reference.references?.entity !== table.entity.id || reference.references.fillAfterInsert) continue;
      const keyColumn = columnOf(table, reference.references.field);
      if (!keyColumn) continue;
      const parts = [...child.fields]
        .filter(([, field]) => numeric(field) && !(child.entity.primaryKey ?? []).includes(field.id))
        .slice(0, MAX_NUMBERS);
      if (parts.length === 0) continue;
      // One column first (a line's own total), then products of two (quantity × price).
      const sums: [string, Field][][] = [...parts.map((part) => [part]), ...parts.flatMap((a, i) => parts.slice(i + 1).map((b) => [a, b]))];
      const open = candidates.filter(([column]) => !taken.has(column));
      if (open.length === 0) return rules;
      const counts = await profiler.childrenSumCounts(
        { table: table.table.name, key: keyColumn, columns: open.map(([column]) => column) },
        { table: child.table.name, reference: referenceColumn, sums: sums.map((sum) => sum.map(([column]) => column)) },
        TOLERANCE,
      );
      for (const [i, [column, field]] of open.entries()) {
        const j = counts[i]!.findIndex(({ rows, holds }) => rows >= Math.max(10, 2 * minCount) && holds === rows);
        if (j < 0) continue;
        const summed = sums[j]!;
        // The quantity first: a line is worth it times the price rounded to the cent.
        const ordered = summed.length === 2 && summed[1]![1].type === 'integer' && summed[0]![1].type !== 'integer' ? [summed[1]!, summed[0]!] : summed;
        const strategy = { kind: 'childrenSum', entity: child.entity.id, reference: reference.id, fields: ordered.map(([, part]) => part.id) as [string] | [string, string] } as const;
        // A child's part may itself be a sum over its children (generated one generation down), but a chain back up could never be made.
        if (childrenSumCycle(table.entity, strategy, tables.map((mapped) => mapped.entity))) continue;
        field.generation = { ...field.generation, strategy };
        taken.add(column);
        const rule = { column, entity: child.table.name, reference: referenceColumn, fields: ordered.map(([part]) => part), rows: counts[i]![j]!.rows };
        rules.push(rule);
        const learned = `sum over ${child.table.name} of ${rule.fields.join(' × ')} (held in all ${rule.rows} rows)`;
        const entry = columns.find((report) => report.table === table.table.name && report.column === column);
        if (entry) {
          entry.learned = learned;
          entry.rule = 'aggregates';
          delete entry.copied;
          delete entry.dropped;
        } else columns.push({ table: table.table.name, column, learned, rule: 'aggregates' });
      }
    }
  }
  return rules;
}
