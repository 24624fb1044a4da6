// Reference fields: values are key values of generated parent rows. many-to-one picks a parent at
// random or in order (row i → parent i mod n); one-to-one and unique references draw parents
// without replacement (see uniqueness.ts). A random self reference points at an earlier row, so
// self-referencing rows form trees rather than loops.
import type { Field } from './config-types.ts';
import type { KeyPool, ValueProgram } from './program.ts';
import type { RandomStream } from './random.ts';

export interface ReferenceSpec {
  entity: string;
  field: string;
  relation: 'many-to-one' | 'one-to-one';
  pick: 'random' | 'sequential';
}

/** Where a field takes its values from: its `references`, else a reference strategy. */
export function referenceSpec(field: Field): ReferenceSpec | undefined {
  const strategy = field.generation?.strategy;
  const fromStrategy = strategy?.kind === 'reference' ? strategy : undefined;
  const target = field.references ?? fromStrategy;
  if (!target) return undefined;
  return {
    entity: target.entity,
    field: target.field,
    relation: field.references?.relation ?? 'many-to-one',
    pick: field.references?.pick ?? fromStrategy?.pick ?? 'random',
  };
}

export function referenceProgram(spec: ReferenceSpec, parents: KeyPool, stream: RandomStream, self: boolean): ValueProgram {
  const size = parents.size;
  let at: ValueProgram['at'];
  if (size === 0) at = () => null;
  else if (spec.pick === 'sequential') at = (row) => parents.at(row % size);
  else if (self) at = (row, _values, attempt) => (row === 0 ? null : parents.at(stream.int(row, attempt, 0, Math.min(row, size) - 1)));
  else at = (row, _values, attempt) => parents.at(stream.int(row, attempt, 0, size - 1));
  return {
    at,
    pool: { size, at: (index) => parents.at(index), ordered: spec.pick === 'sequential' },
    typed: true,
    reference: true,
  };
}
