// Names for the parts of a schema config, derived from the generated `SchemaConfig` (src/contract.ts
// imports the generated types), so the rest of src/generation never spells out a shape twice.
import type { SchemaConfig } from '../contract.ts';

export type { SchemaConfig };
export type Entity = SchemaConfig['entities'][number];
export type Field = Entity['fields'][number];
export type FieldType = Field['type'];
export type GenerationConfig = NonNullable<SchemaConfig['generationDefaults']>;
export type Reference = NonNullable<Field['references']>;
/** A field's database default: a literal `value` or a `function`. */
export type FieldDefault = NonNullable<Field['default']>;
export type FieldGeneration = NonNullable<Field['generation']>;
export type Strategy = NonNullable<FieldGeneration['strategy']>;
export type StrategyKind = Strategy['kind'];
/** The strategy of one kind, e.g. `StrategyOf<'randomInt'>`. */
export type StrategyOf<K extends StrategyKind> = Extract<Strategy, { kind: K }>;
/** The `distribution` of randomInt and randomFloat. */
export type NumericDistribution = NonNullable<StrategyOf<'randomInt'>['distribution']>;
/** The `fanOut` of a reference. */
export type FanOut = NonNullable<Reference['fanOut']>;
/** An entity-level reference of several fields (a composite foreign key). */
export type CompositeReference = NonNullable<Entity['references']>[number];

/** An empirical distribution of a number strategy (`randomInt`/`randomFloat`), as `sds init --learn` writes it. */
export type EmpiricalDistribution = Extract<NonNullable<Extract<NonNullable<Field['generation']>['strategy'], { kind: 'randomInt' }>['distribution']>, { kind: 'empirical' }>;

/** The field's empirical distribution, when its strategy draws its numbers from one. */
export function empiricalOf(field: Field): EmpiricalDistribution | undefined {
  const strategy = field.generation?.strategy;
  return (strategy?.kind === 'randomInt' || strategy?.kind === 'randomFloat') && strategy.distribution?.kind === 'empirical' ? strategy.distribution : undefined;
}
