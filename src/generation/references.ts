// Reference fields: values are key values of generated parent rows. many-to-one picks a parent at
// random or in order (row i → parent i mod n); one-to-one and unique references draw parents
// without replacement (see uniqueness.ts). A random self reference points at an earlier row, so
// self-referencing rows form trees rather than loops.
import type { FanOut, Field } from '../model/config-types.ts';
import type { KeyPool, ValueProgram } from './program.ts';
import type { RandomStream } from './random.ts';
import { parentPicker } from './fan-out.ts';

export interface ReferenceSpec {
  entity: string;
  field: string;
  relation: 'many-to-one' | 'one-to-one';
  pick: 'random' | 'sequential';
  /** How many children each parent gets; undefined: uniform. */
  fanOut?: FanOut;
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
    fanOut: field.references?.fanOut ?? fromStrategy?.fanOut,
  };
}

/** `children`: the planned rows of the referencing entity (bounded fan-out spreads them). */
export function referenceProgram(spec: ReferenceSpec, parents: KeyPool, stream: RandomStream, self: boolean, children = 0): ValueProgram {
  const size = parents.size;
  // A fan-out other than uniform draws from its own stream: uniform references keep their values.
  const picker = spec.fanOut && !self && spec.pick === 'random' ? parentPicker(spec.fanOut, size, children, stream.derive('fan-out')) : undefined;
  let at: ValueProgram['at'];
  if (size === 0) at = () => null;
  else if (picker)
    at = (row, _values, attempt) => {
      const index = picker.pick(row, attempt);
      return index < 0 ? null : parents.at(index);
    };
  else if (spec.pick === 'sequential') at = (row) => parents.at(row % size);
  else if (self) at = (row, _values, attempt) => (row === 0 ? null : parents.at(stream.int(row, attempt, 0, Math.min(row, size) - 1)));
  else at = (row, _values, attempt) => parents.at(stream.int(row, attempt, 0, size - 1));
  return {
    at,
    pool: { size, at: (index) => parents.at(index), ordered: spec.pick === 'sequential' },
    typed: true,
    reference: true,
    ...(picker?.rows !== undefined && { rows: picker.rows }),
    ...(picker?.shortfall !== undefined && { shortfall: picker.shortfall }),
  };
}
