// Learning, stage 4: derived columns. A numeric column that every row holding its inputs keeps
// equal to the sum or the product of two other numeric columns of the row (`total = subtotal + tax`,
// `amount = quantity * unit_price`, to the cent) becomes a `formula` strategy, so generated rows
// keep the relation. Only counts leave the database.
import type { Field } from '../model/config-types.ts';
import type { MappedTable } from '../introspection/map-config.ts';
import type { ColumnReport } from './fit-column.ts';
import type { FormulaCandidate, TableProfiler } from './profile-sql.ts';

/** Most numeric columns of a table tried as results and inputs (candidates grow as the cube). */
const MAX_NUMBERS = 8;
/** A result within this of its formula holds (half a cent). */
const TOLERANCE = 0.005;

/** A formula learned for a column: its expression in the config's terms and over how many rows it held. */
export interface FormulaRule {
  column: string;
  expression: string;
  rows: number;
}

/** Learns the table's derived numeric columns into formula strategies; returns them for the report. */
export async function learnFormulas(profiler: TableProfiler, table: MappedTable, minCount: number, columns: ColumnReport[], excluded: ReadonlySet<string>): Promise<FormulaRule[]> {
  const numbers = [...table.fields]
    .filter(([column, field]) => (field.type === 'integer' || field.type === 'number') && !field.references && !excluded.has(column) && !(table.entity.primaryKey ?? []).includes(field.id))
    .slice(0, MAX_NUMBERS);
  if (numbers.length < 3) return [];
  const candidates: FormulaCandidate[] = [];
  for (const [result] of numbers) {
    const inputs = numbers.filter(([column]) => column !== result);
    for (let i = 0; i < inputs.length; i++) {
      for (let j = i + 1; j < inputs.length; j++) {
        for (const op of ['+', '*'] as const) candidates.push({ result, op, a: inputs[i]![0], b: inputs[j]![0] });
      }
    }
  }
  const counts = await profiler.formulaCounts(table.table.name, candidates, TOLERANCE);
  const rules: FormulaRule[] = [];
  /** Each formula column's inputs: a chain (total = subtotal + tax, subtotal = quantity * price) is fine, a cycle is not. */
  const readsOf = new Map<string, string[]>();
  const reaches = (from: string, to: string): boolean => from === to || (readsOf.get(from) ?? []).some((next) => reaches(next, to));
  for (const [i, candidate] of candidates.entries()) {
    const { rows, holds } = counts[i]!;
    if (rows < Math.max(10, 2 * minCount) || holds !== rows) continue;
    if (readsOf.has(candidate.result) || reaches(candidate.a, candidate.result) || reaches(candidate.b, candidate.result)) continue;
    const field = table.fields.get(candidate.result)!;
    const [a, b] = [table.fields.get(candidate.a)!, table.fields.get(candidate.b)!];
    const expression = `${a.id} ${candidate.op} ${b.id}`;
    applyFormula(field, expression);
    readsOf.set(candidate.result, [candidate.a, candidate.b]);
    rules.push({ column: candidate.result, expression, rows });
    const entry = columns.find((report) => report.table === table.table.name && report.column === candidate.result);
    if (entry) {
      entry.learned = `formula ${expression} (held in all ${rows} rows)`;
      entry.rule = 'aggregates';
      delete entry.copied;
      delete entry.dropped;
    } else columns.push({ table: table.table.name, column: candidate.result, learned: `formula ${expression} (held in all ${rows} rows)`, rule: 'aggregates' });
  }
  return rules;
}

/** The field is made by the formula; its share of nulls stays (a null input makes it null anyway). */
function applyFormula(field: Field, expression: string): void {
  field.generation = { ...field.generation, strategy: { kind: 'formula', expression } };
}
