// The parents whose created-like times version 4's lifecycle-made columns follow, for the generator
// to keep those columns of the parents' rows. Apart from lifecycle-rules.ts, which the rules table
// (field-rules.ts) spreads: asking which rule makes a field (choose-rule.ts) from there closed an
// import cycle that left LIFECYCLE_RULES undefined where the bundle evaluated it first.
import type { Entity } from '../../model/config-types.ts';
import type { GeneratorVersion } from '../versions.ts';
import { ruleOf } from './choose-rule.ts';
import { lifecycleOf, type ParentAnchor } from './lifecycles.ts';

/** The parents whose created-like times the entity's lifecycle-made columns follow (the generator keeps those columns of the parents' rows). */
export function lifecycleParents(entity: Entity, entities: readonly Entity[], deferred: readonly string[], version: GeneratorVersion): ParentAnchor[] {
  const scope = { entity, entities, deferred, version };
  return entity.fields.flatMap((field) => (ruleOf(scope, field)?.audit?.kind === 'lifecycle' ? (lifecycleOf(entity, field, entities, deferred)?.parents ?? []) : []));
}
