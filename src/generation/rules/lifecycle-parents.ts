// The parents whose created-like times version 4's lifecycle-made columns follow, and (version 5) the
// companies whose names work emails read, for the generator to keep those columns of the parents'
// rows. Apart from lifecycle-rules.ts, which the rules table (field-rules.ts) spreads: asking which
// rule makes a field (choose-rule.ts) from there closed an import cycle that left LIFECYCLE_RULES
// undefined where the bundle evaluated it first.
import type { Entity } from '../../model/config-types.ts';
import type { GeneratorVersion } from '../versions.ts';
import { ruleOf } from './choose-rule.ts';
import { lifecycleOf, type ParentAnchor } from './lifecycles.ts';
import { companySource, type CompanySource } from './context-makers.ts';

/** The parents whose created-like times the entity's lifecycle-made columns follow (the generator keeps those columns of the parents' rows). */
export function lifecycleParents(entity: Entity, entities: readonly Entity[], deferred: readonly string[], version: GeneratorVersion): ParentAnchor[] {
  const scope = { entity, entities, deferred, version };
  return entity.fields.flatMap((field) => (ruleOf(scope, field)?.audit?.kind === 'lifecycle' ? (lifecycleOf(entity, field, entities, deferred, version)?.parents ?? []) : []));
}

/** Version 5: the companies whose names the entity's work emails read (rule `web.of-company` through a reference). */
export function companyReads(entity: Entity, entities: readonly Entity[], deferred: readonly string[], version: GeneratorVersion): Extract<CompanySource, { kind: 'parent' }>[] {
  const scope = { entity, entities, deferred, version };
  return entity.fields.flatMap((field) => {
    if (ruleOf(scope, field)?.id !== 'web.of-company') return [];
    const source = companySource(entity, entities, field);
    return source?.kind === 'parent' ? [source] : [];
  });
}
