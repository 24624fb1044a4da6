// The childrenSum strategy: a row's value is the sum over its children (the rows of another entity
// that reference it) of one of their numeric fields, or of the product of two (an invoice's total,
// the sum of its lines' quantity × unit price). It names explicitly, for any names, what version 4's
// `formula.lines-sum` rule infers from names (rules/row-formulas.ts), and it is made the same way:
// the generator makes the children first, in a second generator, and sums them by parent key
// (DataGenerator #childLineSums), to the cent. A child's field may itself be such a sum (an
// invoice's total over lines whose amount is the sum of their sub-lines): it is made the same way.
import type { Entity, Field, StrategyOf } from '../model/config-types.ts';
import type { EntityContext, ValueProgram } from './program.ts';
import type { LinesSum } from './rules/row-formulas.ts';

export type ChildrenSumStrategy = StrategyOf<'childrenSum'>;

export type ChildrenSumResolution = { ok: true; sum: LinesSum } | { ok: false; at: string; message: string };

const NUMERIC = new Set<Field['type']>(['integer', 'number']);

/** The strategy's child, reference, parent key and line (by field index), or what is wrong with it (`at`: a pointer under the strategy). */
export function resolveChildrenSum(entity: Entity, strategy: ChildrenSumStrategy, entities: readonly Entity[]): ChildrenSumResolution {
  const child = entities.find((candidate) => candidate.id === strategy.entity);
  if (!child) return { ok: false, at: '/entity', message: `names no entity "${strategy.entity}"; name the entity whose rows reference ${entity.id} (${childrenOf(entity, entities).join(', ') || 'none does'})` };
  if (child.id === entity.id) return { ok: false, at: '/entity', message: `names ${entity.id} itself; a row's children must be rows of another entity` };
  const referencing = child.fields.flatMap((field, index) => (field.references?.entity === entity.id ? [index] : []));
  let reference: number;
  if (strategy.reference !== undefined) {
    reference = child.fields.findIndex((field) => field.id === strategy.reference);
    if (reference < 0) return { ok: false, at: '/reference', message: `names no field "${strategy.reference}" of ${child.id}` };
    if (!referencing.includes(reference)) return { ok: false, at: '/reference', message: `${child.id}.${strategy.reference} does not reference ${entity.id}; name one that does (${referencing.map((i) => child.fields[i]!.id).join(', ') || 'none does'})` };
  } else {
    if (referencing.length !== 1) {
      return referencing.length === 0
        ? { ok: false, at: '/entity', message: `${child.id} has no field that references ${entity.id}, so its rows are no children of ${entity.id}` }
        : { ok: false, at: '', message: `${child.id} references ${entity.id} by ${referencing.map((i) => child.fields[i]!.id).join(' and ')}; say which in "reference"` };
    }
    reference = referencing[0]!;
  }
  const key = entity.fields.findIndex((field) => field.id === child.fields[reference]!.references!.field);
  if (key < 0) return { ok: false, at: '/reference', message: `${child.id}.${child.fields[reference]!.id} references ${entity.id}.${child.fields[reference]!.references!.field}, which is no field of ${entity.id}` };
  const indexes: number[] = [];
  for (const [i, id] of strategy.fields.entries()) {
    const index = child.fields.findIndex((field) => field.id === id);
    if (index < 0) return { ok: false, at: `/fields/${i}`, message: `names no field "${id}" of ${child.id}` };
    if (!NUMERIC.has(child.fields[index]!.type)) return { ok: false, at: `/fields/${i}`, message: `${child.id}.${id} is ${child.fields[index]!.type}; a sum reads integer or number fields` };
    indexes.push(index);
  }
  const line: LinesSum['line'] = indexes.length === 1 ? { total: indexes[0]! } : { quantity: indexes[0]!, price: indexes[1]! };
  return { ok: true, sum: { child: child.id, reference, key, line, text: `${child.id}.${strategy.fields.join('*')}` } };
}

/**
 * The entities a sum goes down through when a child's summed field is itself a childrenSum (and its
 * child's, and so on), when they come back to one on the way: such sums need themselves made first.
 * Undefined when they end.
 */
export function childrenSumCycle(entity: Entity, strategy: ChildrenSumStrategy, entities: readonly Entity[], path: readonly string[] = [entity.id]): string[] | undefined {
  const resolved = resolveChildrenSum(entity, strategy, entities);
  if (!resolved.ok) return undefined;
  const child = entities.find((candidate) => candidate.id === resolved.sum.child)!;
  if (path.includes(child.id)) return [...path, child.id];
  for (const id of strategy.fields) {
    const inner = child.fields.find((field) => field.id === id)?.generation?.strategy;
    const cycle = inner?.kind === 'childrenSum' ? childrenSumCycle(child, inner, entities, [...path, child.id]) : undefined;
    if (cycle) return cycle;
  }
  return undefined;
}

/** Entities with a field that references `entity`. */
function childrenOf(entity: Entity, entities: readonly Entity[]): string[] {
  return entities.filter((candidate) => candidate.id !== entity.id && candidate.fields.some((field) => field.references?.entity === entity.id)).map((candidate) => candidate.id);
}

/** The program: the row's children's sum (0 without children); null where the children cannot be made first (their reference is filled after insert). */
export function childrenSumProgram(context: EntityContext, field: Field, strategy: ChildrenSumStrategy): ValueProgram {
  const resolved = resolveChildrenSum(context.entity, strategy, context.entities);
  if (!resolved.ok) throw new Error(`childrenSum of ${context.entity.id}.${field.id} ${resolved.message}`);
  const { sum } = resolved;
  const sums = context.childLineSums?.(sum, true);
  if (!sums) return { at: () => null };
  const typed = field.type === 'number' && (field.precision === undefined || field.precision >= 2) && field.min === undefined && field.max === undefined;
  return { at: (_row, values) => (sums(values[sum.key]!) ?? 0) / 100, deps: [sum.key], typed };
}
