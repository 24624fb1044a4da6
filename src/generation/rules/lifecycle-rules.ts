// The lifecycle rules of generator version 4 (rule set `meaning`), a part of the field-rules table
// (field-rules.ts spreads them in before its other time rules): context rules on date columns, tried
// in this order; all make the column with one maker (lifecycle-makers.ts), and the report checks
// every fact of its lifecycle (lifecycles.ts), each counted under the rule that states it.
import type { Entity, Field } from '../../model/config-types.ts';
import type { GeneratorVersion } from '../versions.ts';
import type { FieldRule, RuleScope } from './field-rule.ts';
import { hasFeature } from '../versions.ts';
import { lifecycleTime, lifecycleApplies } from './lifecycle-makers.ts';
import { lifecycleOf, type Lifecycle, type ParentAnchor } from './lifecycles.ts';

/** The lifecycle of a field where the lifecycle rules apply to it. */
function lifeOf(scope: RuleScope, field: Field): Lifecycle | undefined {
  const life = lifecycleOf(scope.entity, field, scope.entities, scope.deferred, scope.version);
  return lifecycleApplies(life) ? life : undefined;
}

const rule = (id: string, what: string, holds: (life: Lifecycle, scope: RuleScope) => boolean): FieldRule => ({
  id,
  what,
  types: ['date', 'datetime'],
  fits: (field) => field.weekdaysOnly !== true,
  when: (scope, field) => {
    const life = lifeOf(scope, field);
    return life !== undefined && holds(life, scope);
  },
  make: { meaning: lifecycleTime },
  audit: { kind: 'lifecycle' },
});

export const LIFECYCLE_RULES: readonly FieldRule[] = [
  rule(
    'time.status-implied',
    "a nullable time whose stage a value of the row's status column names (`paid_at` and status `paid`): set on rows whose status is that stage or a later one of its chain (`delivered` implies `shipped_at`), null on the others (`draft`, `cancelled`)",
    (life) => life.status !== undefined,
  ),
  rule(
    'time.stage-order',
    'a time after the earlier stages of its row, by the words of their names: born < created < ordered < paid < shipped < delivered < returned, issued < due, rented < returned, requested < approved < started < ended, hired (16 years after birth) < terminated, delivered < ended (completed), an update after every other stage; close stages follow by days (shipped 0–5 after paid, due 3–45 after issued), an `end_time` by 15 minutes to 8 hours',
    (life) => life.earlier.length > 0,
  ),
  rule(
    'time.after-every-parent',
    "a time with no earlier stage in its row, after the created-like time (or earliest activity) of the parent of every reference (a payment after its rental and its customer's signing up)",
    (life, scope) => life.parents.length > 0 && hasFeature(scope.version, 'childrenAfterParents'),
  ),
  rule('time.birth-window', 'a birth date: 18–90 years before the reference date on people-like tables, up to 20 years elsewhere (pets)', (life) => life.window === 'birth'),
  rule('time.founded-window', 'a founding date (`founded`, `established`, `incorporated`): 4–100 years back, log-uniform (median about 20 years)', (life) => life.window === 'founded'),
  rule(
    'time.past-activity',
    'any other date column that is a fact (no `due`, `expires`, `end`, `to`, `scheduled`… in its name): over the last 5 years (hired: 20), more of it recent, never after the reference date',
    (life) => life.window === 'activity',
  ),
];
