// Learning, stage 3: the order rules the rows always keep between dates, inside a row (returned on
// or after rented) and after the row's parent (an order after its customer joined). Each learned
// date column with such a rule follows its nearest earlier date (the smallest mean gap) by a gap
// drawn from the observed gaps' quantiles (dateRange `afterField` or `after`, and `gap`). Only
// counts and trimmed order statistics of the gaps leave the database.
import type { Field } from '../model/config-types.ts';
import { columnOf, type MappedTable } from '../introspection/map-config.ts';
import type { ColumnReport } from './fit-column.ts';
import type { DatePair, PairOrder, TableProfiler } from './profile-sql.ts';

/** Most date columns of a table compared pairwise (their pairs grow as the square). */
const MAX_DATES = 12;

/** An order rule learned for a column: the date it follows and over how many rows the rule held. */
export interface OrderRule {
  column: string;
  /** A column of the row, or `<reference>.<column>` of its parent. */
  after: string;
  rows: number;
  /** Whether the column follows by a learned gap (the dates move together) or only never comes before. */
  gap: boolean;
}

interface Candidate {
  after: string;
  pair: DatePair;
  order: PairOrder;
  join?: { parentTable: string; parentColumn: string; childColumn: string };
}

const isDate = (field: Field) => field.type === 'date' || field.type === 'datetime';
/** A column whose dates were learned as quantiles (and may follow another date). */
const learnedDates = (field: Field) => isDate(field) && field.generation?.strategy?.kind === 'dateRange' && field.generation.strategy.quantiles !== undefined;

/** Whether `a` ≤ `b` in every row holding both, `a` < `b` in some, over enough rows for trimmed quantiles. */
function holds(order: PairOrder, minCount: number): boolean {
  return order.both >= Math.max(10, 2 * minCount) && order.notAfter === order.both && order.before > 0;
}

/** The comparisons of a table's learned dates with its parents' dates, under way (see startParentOrders). */
export interface ParentOrders {
  reference: string;
  parent: MappedTable;
  join: { parentTable: string; parentColumn: string; childColumn: string };
  pairs: DatePair[];
  orders: Promise<PairOrder[]>;
}

/**
 * Starts comparing the table's learned date columns with the dates of each table it references
 * (single-column references to another table): each comparison joins the whole parent, and runs
 * beside the rest of learning (pairOrders), so it starts once the table's own columns are fitted.
 */
export function startParentOrders(profiler: TableProfiler, table: MappedTable, byEntity: Map<string, MappedTable>): ParentOrders[] {
  const targets = [...table.fields].filter(([, field]) => isDate(field) && !field.references).slice(0, MAX_DATES).filter(([, field]) => learnedDates(field));
  if (targets.length === 0) return [];
  const started: ParentOrders[] = [];
  for (const [childColumn, reference] of [...table.fields].filter(([, field]) => field.references && field.references.entity !== table.entity.id)) {
    const parent = byEntity.get(reference.references!.entity);
    const parentColumn = parent && columnOf(parent, reference.references!.field);
    if (!parent || !parentColumn) continue;
    const parentDates = [...parent.fields].filter(([, field]) => isDate(field) && !field.references).slice(0, MAX_DATES);
    const pairs: DatePair[] = [];
    for (const [b, fieldB] of targets) for (const [a, fieldA] of parentDates) if (fieldA.type === fieldB.type) pairs.push({ a, b, date: fieldB.type === 'date' });
    const join = { parentTable: parent.table.name, parentColumn, childColumn };
    const orders = profiler.pairOrders(table.table.name, pairs, join);
    // Awaited by learnDateOrder; a failure there, never unhandled here.
    orders.catch(() => {});
    started.push({ reference: reference.id, parent, join, pairs, orders });
  }
  return started;
}

/** Learns the order rules of one table into its fields' strategies; returns them for the report. */
export async function learnDateOrder(
  profiler: TableProfiler,
  table: MappedTable,
  byEntity: Map<string, MappedTable>,
  minCount: number,
  columns: ColumnReport[],
  parentOrders: ParentOrders[] = startParentOrders(profiler, table, byEntity),
): Promise<OrderRule[]> {
  const fields = [...table.fields].filter(([, field]) => isDate(field) && !field.references).slice(0, MAX_DATES);
  const targets = fields.filter(([, field]) => learnedDates(field));
  if (targets.length === 0) return [];
  const candidates = new Map<string, Candidate[]>();
  const add = (column: string, candidate: Candidate) => candidates.set(column, [...(candidates.get(column) ?? []), candidate]);

  // Inside the row: every ordered pair of same-typed dates, b a learned column.
  const pairs: DatePair[] = [];
  for (const [b, fieldB] of targets) {
    for (const [a, fieldA] of fields) if (a !== b && fieldA.type === fieldB.type) pairs.push({ a, b, date: fieldB.type === 'date' });
  }
  const orders = await profiler.pairOrders(table.table.name, pairs);
  for (const [i, pair] of pairs.entries()) {
    if (holds(orders[i]!, minCount)) add(pair.b, { after: table.fields.get(pair.a)!.id, pair, order: orders[i]! });
  }

  // After the parent: dates of each referenced table, compared since the table's columns were fitted.
  for (const { reference, parent, join, pairs: joined, orders } of parentOrders) {
    const compared = await orders;
    for (const [i, pair] of joined.entries()) {
      if (holds(compared[i]!, minCount)) add(pair.b, { after: `${reference}.${parent.fields.get(pair.a)!.id}`, pair, order: compared[i]!, join });
    }
  }

  const rules: OrderRule[] = [];
  for (const [column, list] of candidates) {
    // The nearest earlier date; a date of the row before a parent's (its own rule may follow the parent).
    const [best] = list.sort((x, y) => Number(x.join !== undefined) - Number(y.join !== undefined) || x.order.meanGap - y.order.meanGap);
    if (!best) continue;
    const gap = await profiler.gapQuantiles(table.table.name, best.pair, best.order.both, minCount, best.join);
    if (gap.length < 2 || gap.some((seconds) => !Number.isFinite(seconds) || seconds < 0)) continue;
    const field = table.fields.get(column)!;
    const strategy = field.generation!.strategy as Extract<NonNullable<Field['generation']>['strategy'], { kind: 'dateRange' }>;
    // Dates that move together (the gap spreads much less than the column): the earlier date plus a
    // gap. Dates far apart (customers joined in 2021, ordered in 2023): the column's own draw, never
    // before the earlier date, which keeps its distribution.
    const own = (strategy.quantiles ?? []).map((text) => Date.parse(text.length === 10 ? `${text}T00:00:00Z` : text) / 1000);
    const together = spread(gap) < TOGETHER * spread(own);
    field.generation!.strategy = { ...strategy, ...(best.join ? { after: best.after } : { afterField: best.after }), ...(together && { gap: { quantiles: gap as [number, number, ...number[]] } }) };
    rules.push({ column, after: best.after, rows: best.order.both, gap: together });
    const entry = columns.find((report) => report.table === table.table.name && report.column === column);
    if (entry) entry.learned += `; never before ${best.after} (${best.order.both} rows)${together ? `, by a gap of ${describeSeconds(gap[0]!)}–${describeSeconds(gap.at(-1)!)}` : ''}`;
  }
  return rules;
}

/** The interquartile range of ascending quantiles. */
function spread(quantiles: readonly number[]): number {
  const at = (p: number) => quantiles[Math.round(p * (quantiles.length - 1))] ?? 0;
  return at(0.75) - at(0.25);
}

/** A gap spreading less than this share of its column's spread makes the pair move together. */
const TOGETHER = 0.5;

/** A gap in the largest whole unit: `90s`, `3h`, `12d`. */
function describeSeconds(seconds: number): string {
  if (seconds >= 86_400) return `${Math.round(seconds / 86_400)}d`;
  if (seconds >= 3600) return `${Math.round(seconds / 3600)}h`;
  if (seconds >= 60) return `${Math.round(seconds / 60)}m`;
  return `${Math.round(seconds)}s`;
}
