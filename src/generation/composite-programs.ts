// Programs of keys made of several fields. A composite reference picks one parent row per child row
// and gives each of its fields that row's value of its target field, so the fields always name an
// existing parent row together. A sequence counted `within` other fields numbers a parent's
// children 1…n (a line number within its order); with a max, the parent reference gives no parent
// more children than the numbers allow.
import type { CompositeReference, Entity, Field, FanOut } from '../model/config-types.ts';
import type { RowValue } from '../model/row-value.ts';
import type { EntityContext, KeyPool, ValueProgram } from './program.ts';
import { compositeReferences, isKeySet } from '../model/composite-keys.ts';
import { drawOrder } from './uniqueness.ts';
import { parentPicker } from './fan-out.ts';
import { streamKey } from './random.ts';

export interface CompositePrograms {
  /** The program of each field of a composite reference, by field id. */
  programs: Map<string, ValueProgram>;
  /** Rows the entity can have because of a composite reference, with where and why. */
  limits: { size: number; path: string; what: string; emptyParent?: boolean }[];
  /** Composite references whose rows draw parents without replacement (their fields are unique together). */
  distinct: CompositeReference[];
}

/** Programs of the fields of the entity's composite references; throws while a parent is not generated. */
export function compositePrograms(context: EntityContext, skip: ReadonlySet<string>): CompositePrograms {
  const { entity } = context;
  const result: CompositePrograms = { programs: new Map(), limits: [], distinct: [] };
  compositeReferences(entity).forEach((reference, i) => {
    if (reference.fields.some((id) => skip.has(id))) return;
    const pools = reference.targetFields.map((field) => context.keyPool(reference.entity, field));
    if (pools.some((pool) => !pool)) throw new Error(`${entity.id}.(${reference.fields.join(', ')}) needs the rows of "${reference.entity}": generate that entity first (plan order)`);
    const parents = pools as KeyPool[];
    const size = Math.min(...parents.map((pool) => pool.size));
    const path = `/entities/${context.entityIndex}/references/${i}`;
    const what = `${entity.id}.(${reference.fields.join(', ')}) → ${reference.entity}`;
    const stream = context.stream(reference.fields.join(','), 'composite');
    const distinct = reference.relation === 'one-to-one' || isKeySet(entity, reference.fields);
    const fanOut = reference.fanOut ?? positionFanOut(entity, reference.fields);
    let pick: (row: number, attempt: number) => number;
    if (size === 0) {
      pick = () => -1;
      result.limits.push({ size: 0, path, what, emptyParent: true });
    } else if (distinct) {
      const order = drawOrder({ size, at: (index) => index, ordered: reference.pick === 'sequential' }, streamKey(context.plan.seed, entity.id, reference.fields.join(','), 'unique'));
      pick = (row) => (row < size ? order(row) : -1);
      result.limits.push({ size, path: `${path}${reference.relation === 'one-to-one' ? '/relation' : ''}`, what: `parent rows for ${what}` });
      result.distinct.push(reference);
    } else if (reference.pick === 'sequential') pick = (row) => row % size;
    else {
      const picker = fanOut ? parentPicker(fanOut, size, context.plan.rowCount, stream.derive('fan-out')) : undefined;
      if (picker?.rows !== undefined) result.limits.push({ size: picker.rows, path: `${path}/fanOut`, what: `children for ${what} (every parent has at most its fanOut max)` });
      pick = picker ? (row, attempt) => picker.pick(row, attempt) : (row, attempt) => stream.int(row, attempt, 0, size - 1);
    }
    // Every field asks for the same row's parent: remember the last pick.
    let lastRow = -1;
    let lastAttempt = -1;
    let last = -1;
    const parentOf = (row: number, attempt: number) => {
      if (row !== lastRow || attempt !== lastAttempt) [lastRow, lastAttempt, last] = [row, attempt, pick(row, attempt)];
      return last;
    };
    reference.fields.forEach((id, position) => {
      const pool = parents[position]!;
      result.programs.set(id, {
        at: (row, _values, attempt): RowValue => {
          const parent = parentOf(row, attempt);
          return parent < 0 ? null : pool.at(parent);
        },
        typed: true,
        reference: true,
      });
    });
  });
  return result;
}

/**
 * A bounded fan-out for the reference whose fields a bounded sequence counts within: a line number
 * 1…20 within its order gives each order at most 20 lines. Undefined when no such sequence.
 */
export function positionFanOut(entity: Entity, fields: readonly string[]): FanOut | undefined {
  const wanted = new Set(fields);
  for (const field of entity.fields) {
    const strategy = field.generation?.strategy;
    if (strategy?.kind !== 'sequence' || !strategy.within) continue;
    if (strategy.within.length !== wanted.size || strategy.within.some((id) => !wanted.has(id))) continue;
    const capacity = withinCapacity(field, strategy.start ?? 1, strategy.step ?? 1);
    if (capacity !== undefined) return { kind: 'bounded', min: 0, max: Math.max(1, capacity) };
  }
  return undefined;
}

function withinCapacity(field: Field, start: number, step: number): number | undefined {
  if (step > 0 && field.max !== undefined) return Math.floor((field.max - start) / step + 1e-9) + 1;
  if (step < 0 && field.min !== undefined) return Math.floor((start - field.min) / -step + 1e-9) + 1;
  return undefined;
}

/**
 * Field `field` with the bounded fan-out its position needs (see positionFanOut), when it is a
 * random many-to-one reference without a fan-out of its own; else the field itself.
 */
export function withPositionFanOut(entity: Entity, field: Field): Field {
  const reference = field.references;
  if (!reference || reference.fanOut || reference.relation === 'one-to-one' || reference.pick === 'sequential' || reference.entity === entity.id) return field;
  const fanOut = positionFanOut(entity, [field.id]);
  return fanOut ? { ...field, references: { ...reference, fanOut } } : field;
}

/**
 * start, start + step, … per distinct combination of the `within` fields' values, in row order:
 * the rows must be made in order from the first.
 */
export function withinSequenceProgram(start: number, step: number, within: number[]): ValueProgram {
  const counts = new Map<string, number>();
  return {
    at: (_row, values) => {
      const key = within.length === 1 ? keyOf(values[within[0]!]!) : JSON.stringify(within.map((index) => values[index] ?? null));
      const count = counts.get(key) ?? 0;
      counts.set(key, count + 1);
      return start + count * step;
    },
    typed: true,
    deps: within,
    sequential: true,
  };
}

function keyOf(value: RowValue): string {
  return typeof value === 'string' ? `s${value}` : JSON.stringify(value);
}
