// Learning, stage 5: numeric columns that move together without an exact formula (a track's length
// and its size in bytes). For pairs of columns learned as empirical quantiles whose rank
// correlation is at least 0.5 in size, the strongest first, one column of the pair follows the
// other by a Gaussian copula (`correlation` of its empirical distribution). A column follows at most
// one other, and a column that others follow follows none. Only the coefficients leave the database.
import { empiricalOf, type Field } from '../model/config-types.ts';
import type { MappedTable } from '../introspection/map-config.ts';
import type { ColumnReport } from './fit-column.ts';
import type { TableProfiler } from './profile-sql.ts';

/** Most numeric columns of a table compared pairwise (their pairs grow as the square). */
const MAX_NUMBERS = 8;
/** Pairs correlated at least this much (in size) are kept together. */
export const MIN_CORRELATION = 0.5;

/** A correlation learned: `column` follows `with` at Spearman's ρ. */
export interface CorrelationRule {
  column: string;
  with: string;
  spearman: number;
}

/** Learns the table's correlated numeric pairs into `correlation`s; returns them for the report. */
export async function learnCorrelations(profiler: TableProfiler, table: MappedTable, minCount: number, columns: ColumnReport[]): Promise<CorrelationRule[]> {
  const numbers = [...table.fields].filter(([, field]) => !field.references && empiricalOf(field)).slice(0, MAX_NUMBERS);
  if (numbers.length < 2) return [];
  const pairs: { a: string; b: string; rho: number }[] = [];
  for (let i = 0; i < numbers.length; i++) {
    for (let j = i + 1; j < numbers.length; j++) {
      const rho = await profiler.spearman(table.table.name, numbers[i]![0], numbers[j]![0], Math.max(10, 2 * minCount));
      if (rho !== null && Math.abs(rho) >= MIN_CORRELATION) pairs.push({ a: numbers[i]![0], b: numbers[j]![0], rho });
    }
  }
  pairs.sort((x, y) => Math.abs(y.rho) - Math.abs(x.rho));
  const leaders = new Set<string>();
  const followers = new Set<string>();
  const rules: CorrelationRule[] = [];
  for (const { a, b, rho } of pairs) {
    // The later column follows the earlier one, unless that one already follows or leads.
    const [leader, follower] = !followers.has(a) && !leaders.has(b) && !followers.has(b) ? [a, b] : !followers.has(b) && !leaders.has(a) && !followers.has(a) ? [b, a] : [];
    if (!leader || !follower) continue;
    const spearman = Math.round(rho * 1000) / 1000;
    const [leadField, followField] = [table.fields.get(leader)!, table.fields.get(follower)!];
    empiricalOf(followField)!.correlation = { field: leadField.id, spearman };
    leaders.add(leader);
    followers.add(follower);
    rules.push({ column: follower, with: leader, spearman });
    const entry = columns.find((report) => report.table === table.table.name && report.column === follower);
    if (entry) entry.learned += `; moves with ${leader} (Spearman ${spearman})`;
  }
  return rules;
}
