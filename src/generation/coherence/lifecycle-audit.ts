// The checks of a date column made by version 4's lifecycle rules (rules/lifecycle-rules.ts), each
// counted under the rule that states it: not before the earlier stages of its row (`time.stage-order`;
// a hire 16 years after birth), set exactly where the row's status names its stage or a later one
// (`time.status-implied`), not before the created time of any parent (`time.after-every-parent`),
// never after the reference date when it is a fact, and within its window (births, foundings).
import type { RowValue } from '../../model/row-value.ts';
import type { Entity } from '../../model/config-types.ts';
import type { ParentTimes } from './report-lookups.ts';
import type { ParentTimeLink } from './time.ts';
import type { CoherenceRuleName } from './report.ts';
import { dayOfText, instantOf } from './time.ts';
import { formatDay, formatInstant, localDay } from '../values/dates.ts';
import type { Lifecycle } from '../rules/lifecycles.ts';
import { windowBack } from '../rules/lifecycle-makers.ts';

export interface LifecycleCheck {
  rule: CoherenceRuleName;
  ruleId: string;
  against: string;
  /** Whether a row holds it; undefined when a side is null. */
  test: (values: readonly RowValue[]) => boolean | undefined;
}

const DAY = 86_400_000;
const YEARS = (ms: number) => Math.round(ms / (365.25 * DAY));

export function lifecycleChecks(options: {
  entity: Entity;
  /** Index of the date column. */
  index: number;
  /** Id of the rule that made it. */
  rule: string;
  life: Lifecycle;
  zone: string;
  referenceMs: number;
  compare: (a: string, b: string, zone: string) => number;
  parentTimes: (link: ParentTimeLink) => ParentTimes;
}): LifecycleCheck[] {
  const { entity, index, rule, life, zone, referenceMs, compare } = options;
  const checks: LifecycleCheck[] = [];
  const text = (value: RowValue | undefined) => (typeof value === 'string' ? value : undefined);
  const dayOf = (value: string) => (value.length === 10 ? dayOfText(value) : localDay(instantOf(value), zone));

  for (const earlier of life.earlier) {
    const birthDays = earlier === life.birth ? (life.stage?.afterBirthDays ?? 0) : 0;
    const name = entity.fields[earlier]!.id;
    checks.push({
      rule: 'time-pair-ordered',
      ruleId: 'time.stage-order',
      against: birthDays > 0 ? `${name} + ${YEARS(birthDays * DAY)} years` : name,
      test: (values) => {
        const value = text(values[index]);
        const before = text(values[earlier]);
        if (value === undefined || before === undefined) return undefined;
        return birthDays > 0 ? dayOf(value) >= dayOf(before) + Math.floor(birthDays) : compare(value, before, zone) >= 0;
      },
    });
  }

  const status = life.status;
  if (status) {
    const stage = life.stage!.id;
    checks.push({
      rule: 'status-implies-time',
      ruleId: 'time.status-implied',
      against: entity.fields[status.index]!.id,
      test: (values) => {
        const value = values[status.index];
        if (value === null || value === undefined) return undefined;
        return (values[index] !== null) === status.implying.has(String(value));
      },
    });
  }

  for (const link of life.parents) {
    const times = options.parentTimes(link);
    const compareIn = (a: string, b: string) => compare(a, b, zone);
    checks.push({
      rule: 'child-after-parent',
      ruleId: 'time.after-every-parent',
      against: `${link.parent}.${link.parentTime}`,
      test: (values) => {
        const child = text(values[index]);
        if (child === undefined) return undefined;
        const order = times.compare(values[link.reference]!, child, compareIn);
        return order === undefined ? undefined : order >= 0;
      },
    });
  }

  if (life.past) {
    const today = localDay(referenceMs, zone);
    // Stored instants (ISO UTC text of 24 characters) and dates sort as text: no parsing per row.
    const [todayText, nowText] = [formatDay(today), formatInstant(referenceMs)];
    const textOrder = todayText.length === 10 && nowText.length === 24;
    checks.push({
      rule: 'not-in-future',
      ruleId: rule,
      against: 'the reference date',
      test: (values) => {
        const value = text(values[index]);
        if (value === undefined) return undefined;
        if (textOrder && value.length === 10 && value.charCodeAt(4) === 45) return value <= todayText;
        if (textOrder && value.length === 24 && value.charCodeAt(10) === 84 && value.charCodeAt(23) === 90) return value <= nowText;
        return value.length === 10 ? dayOfText(value) <= today : instantOf(value) <= referenceMs;
      },
    });
  }

  const range = life.window === 'birth' || life.window === 'founded' ? windowBack(life, entity) : undefined;
  if (range) {
    // A day's slack either side: dates are whole local days.
    const [low, high] = [referenceMs - range[1] - DAY, referenceMs - range[0] + DAY];
    checks.push({
      rule: 'in-window',
      ruleId: rule,
      against: range[0] < 365 * DAY ? `up to ${YEARS(range[1])} years back` : `${YEARS(range[0])}–${YEARS(range[1])} years back`,
      test: (values) => {
        const value = text(values[index]);
        if (value === undefined) return undefined;
        const ms = value.length === 10 ? dayOfText(value) * DAY : instantOf(value);
        return ms >= low && ms <= high;
      },
    });
  }
  return checks;
}
