// The coherence report: per rule, entity and field, how many generated rows hold the rule — measured
// on the rows as they are made, not claimed. Each field is checked by the audit of the field rule
// that made it (rules/field-rules.ts, chosen as the generator chooses). Checks: an email or username built from the row's names;
// a row's place fields (country, code, state, city, postal code where the reference data has postal
// codes, phone prefix and, where it has them, area code) forming a tuple of the reference data of the run's generator version; the end
// of a time pair not before its start; a child's time not before its referenced parent's
// created-like time. Rows where a side is null are not counted.
import type { RowValue } from '../../model/row-value.ts';
import type { Entity, SchemaConfig } from '../../model/config-types.ts';
import type { GenerationPlan } from '../plan.ts';
import { GENERATOR_VERSIONS, hasFeature, type GeneratorVersion } from '../versions.ts';
import { localeCountry, placesOf } from './places.ts';
import { ParentTimes, PlaceTuples } from './report-lookups.ts';
import { pairStart, parentTimeLink, type ParentTimeLink } from './time.ts';
import { lifecycleChecks } from './lifecycle-audit.ts';
import { lifecycleOf } from '../rules/lifecycles.ts';
import { FIELD_RULES } from '../rules/field-rules.ts';
import { ruleOf } from '../rules/choose-rule.ts';
import { formatDay, localDay } from '../values/dates.ts';
import { lineWorth, linesSumOf, rowFormulaHolds, rowFormulaOf, type LinesSum } from '../rules/row-formulas.ts';
import { referenceAgreements } from '../reference-agreement.ts';
import { NULL_SHARE, REFERENCES_AGREE } from '../rules/row-rules.ts';
import { defaultNullShare } from '../null-shares.ts';
import { ParentColumns, agreementCheck } from './agreement-audit.ts';
import { companyDomain, companySource } from '../rules/context-makers.ts';

export type CoherenceRuleName =
  | 'names-in-email'
  | 'place-in-reference'
  | 'time-pair-ordered'
  | 'child-after-parent'
  | 'row-formula'
  | 'references-agree'
  | 'null-share'
  | 'status-implies-time'
  | 'not-in-future'
  | 'in-window'
  | 'in-vocabulary'
  | 'from-company';

export interface CoherenceCount {
  /** The check run. */
  rule: CoherenceRuleName;
  /** Id of the field rule that made the field (rules/field-rules.ts; place rules joined by `+`, as the fields are). */
  ruleId: string;
  entity: string;
  /** The field the rule checks (the email, the end of a pair, the child time; the place fields joined by `+`). */
  field: string;
  /** What it is checked against (`firstName+lastName`, `startDate`, `users.createdAt`, the reference data). */
  against: string;
  /** Rows checked (both sides present). */
  rows: number;
  /** Rows that hold the rule. */
  holding: number;
}

type Check = { count: CoherenceCount; test: (values: readonly RowValue[]) => boolean | undefined };

/** toLowerCase, remembered: rows repeat the names of a short list, so most rows lower-case nothing. */
function lowerCase(): (text: string) => string {
  const known = new Map<string, string>();
  return (text) => {
    let lower = known.get(text);
    if (lower === undefined) {
      if (known.size >= 10_000) known.clear();
      known.set(text, (lower = text.toLowerCase()));
    }
    return lower;
  };
}

/**
 * The version whose rules a run is checked against: its own, or for a version that does not audit
 * by default (1, whose `--report` shows how far it is from them) the oldest one that does.
 */
function auditedVersion(version: GeneratorVersion): GeneratorVersion {
  return hasFeature(version, 'auditByDefault') ? version : (GENERATOR_VERSIONS.find((candidate) => hasFeature(candidate, 'auditByDefault')) ?? version);
}
const text = (value: RowValue | undefined) => (typeof value === 'string' ? value : undefined);

export class CoherenceAudit {
  readonly #checks = new Map<string, Check[]>();
  /** Created-like times of parents by key, kept while their children are made. */
  readonly #parentTimes = new Map<string, { key: number; time: number; times: ParentTimes }>();
  /** Parents' reference columns by key, kept for the checks of agreeing references. */
  readonly #parentColumns: ParentColumns;
  /** Lines sums: each parent's value and its children's lines, in cents by key, compared when reporting. */
  readonly #linesSums: { count: CoherenceCount; sum: LinesSum; parents: Map<string, number>; lines: Map<string, number> }[] = [];

  constructor(config: SchemaConfig, plan: GenerationPlan) {
    this.#parentColumns = new ParentColumns(config.entities);
    const rowsOf = (entityId: string) => plan.entities.find((candidate) => candidate.id === entityId)?.rowCount ?? 0;
    for (const entityPlan of plan.entities) {
      const entity = config.entities.find((candidate) => candidate.id === entityPlan.id);
      if (entity) this.#checks.set(entity.id, this.#checksOf(entity, config, entityPlan.deferredColumns, entityPlan.locale, entityPlan.timezone, plan, rowsOf));
    }
  }

  #checksOf(entity: Entity, config: SchemaConfig, deferred: string[], locale: string, zone: string, plan: GenerationPlan, rowsOf: (entityId: string) => number): Check[] {
    const version = plan.version;
    const checks: Check[] = [];
    const add = (rule: CoherenceRuleName, ruleId: string, field: string, against: string, test: Check['test']) =>
      checks.push({ count: { rule, ruleId, entity: entity.id, field, against, rows: 0, holding: 0 }, test });

    // The rule that made each field (the generator asks the same question): the report checks what was made.
    const scope = { entity, entities: config.entities, deferred, version: auditedVersion(version) };
    const rules = entity.fields.map((field) => ruleOf(scope, field));
    const fieldOf = (ruleId: string) => rules.findIndex((rule) => rule?.id === ruleId);

    const first = fieldOf('person.first-name');
    const last = fieldOf('person.last-name');
    if (first >= 0 || last >= 0) {
      const names = [first, last].filter((index) => index >= 0).map((index) => entity.fields[index]!.id).join('+');
      entity.fields.forEach((field, index) => {
        const rule = rules[index];
        if (rule?.audit?.kind !== 'names-in-email') return;
        const lower = lowerCase();
        add('names-in-email', rule.id, field.id, names, (values) => {
          const value = text(values[index])?.toLowerCase();
          const firstName = first >= 0 ? text(values[first]) : '';
          const lastName = last >= 0 ? text(values[last]) : '';
          if (value === undefined || firstName === undefined || lastName === undefined) return undefined;
          return value.startsWith(firstName.slice(0, 1).toLowerCase()) && value.includes(lower(lastName));
        });
      });
    }

    // Per place rule (table order), the first field it made.
    const candidates = FIELD_RULES.flatMap((rule) => {
      const audit = rule.audit;
      const index = audit?.kind === 'place-in-reference' ? fieldOf(rule.id) : -1;
      return audit?.kind === 'place-in-reference' && index >= 0 ? [{ index, rule: rule.id, of: audit.of, phone: audit.phone === true, postal: audit.postal === true }] : [];
    });
    // The reference places are loaded only for an entity with place fields to check.
    const places = candidates.length >= 2 ? placesOf(localeCountry(locale), version) : [];
    // A postal code is part of the tuple where the reference data has postal codes (the US; in
    // version 3 also FR, AU, FI, DE); elsewhere it follows the locale's pattern and is not checked.
    const postal = places.some((place) => place.postalCode !== undefined);
    const placeFields = candidates.filter((place) => postal || !place.postal);
    if (placeFields.length >= 2) {
      // `+<calling code>` (and area code) is made per place: the tuples keep one string per code.
      const codes = new Map<string, string>();
      const code = (text: string) => codes.get(text) ?? (codes.set(text, text), text);
      const tuples = places.map((place) => placeFields.map((field) => (field.phone ? code(field.of(place) ?? '') : (field.of(place) ?? ''))));
      const known = new PlaceTuples(tuples, placeFields.map((field) => field.index), placeFields.findIndex((field) => field.phone));
      const ids = (of: (field: (typeof placeFields)[number]) => string) => placeFields.map(of).join('+');
      add('place-in-reference', ids((field) => field.rule), ids((field) => entity.fields[field.index]!.id), `reference places of ${localeCountry(locale)}`, (values) => known.has(values));
    }

    entity.fields.forEach((field, index) => {
      const rule = rules[index];
      if (rule?.audit?.kind === 'row-formula') {
        const formula = rowFormulaOf(entity, field)!;
        add('row-formula', rule.id, field.id, formula.text, (values) => rowFormulaHolds(formula, values[index]!, values));
        return;
      }
      if (rule?.audit?.kind === 'lines-sum') {
        const sum = linesSumOf(entity, field, config.entities)!;
        const parents = new Map<string, number>();
        add('row-formula', rule.id, field.id, `sum of ${sum.text}`, (values) => {
          const value = values[index];
          const key = values[sum.key];
          if (typeof value === 'number' && key !== null && key !== undefined) parents.set(String(key), Math.round(value * 100));
          return undefined;
        });
        this.#linesSums.push({ count: checks[checks.length - 1]!.count, sum, parents, lines: new Map() });
        return;
      }
      if (rule?.audit?.kind === 'time-pair-ordered') {
        const start = pairStart(entity, field);
        add('time-pair-ordered', rule.id, field.id, entity.fields[start]!.id, (values) => {
          if (typeof values[index] !== 'string' || typeof values[start] !== 'string') return undefined;
          return compareTimes(values[index], values[start], zone) >= 0;
        });
        return;
      }
      if (rule?.audit?.kind === 'lifecycle') {
        const life = lifecycleOf(entity, field, config.entities, deferred, scope.version)!;
        const parentTimes = (link: ParentTimeLink) => this.#parentTimesOf(config, link, rowsOf);
        for (const check of lifecycleChecks({ entity, index, rule: rule.id, life, zone, referenceMs: Date.parse(plan.referenceDate), compare: compareTimes, parentTimes })) {
          add(check.rule, check.ruleId, field.id, check.against, check.test);
        }
        return;
      }
      if (rule?.audit?.kind === 'in-vocabulary') {
        const check = rule.audit.check(entity, config.entities, field);
        if (check) add('in-vocabulary', rule.id, field.id, check.against, (values) => (typeof values[index] === 'string' ? check.holds(values[index]) : undefined));
        return;
      }
      if (rule?.audit?.kind === 'from-company') {
        const source = companySource(entity, config.entities, field);
        if (!source) return;
        const name =
          source.kind === 'row'
            ? (values: readonly RowValue[]) => values[source.index]
            : ((up) => (values: readonly RowValue[]) => up(values[source.reference]!))(
                this.#parentColumns.follow([{ entity: source.parent, key: source.parentKey, field: source.name }]),
              );
        const against = source.kind === 'row' ? entity.fields[source.index]!.id : `${source.parent}.${source.name.id}`;
        // The value ends in the domain of the company's name (a website, a domain, an email at it).
        add('from-company', rule.id, field.id, against, (values) => {
          const value = values[index];
          const company = name(values);
          if (typeof value !== 'string' || typeof company !== 'string') return undefined;
          return value.endsWith(companyDomain(company));
        });
        return;
      }
      if (rule?.audit?.kind !== 'child-after-parent') return;
      const link = parentTimeLink(entity, field, config.entities, deferred)!;
      const times = this.#parentTimesOf(config, link, rowsOf);
      const compare = (a: string, b: string) => compareTimes(a, b, zone);
      add('child-after-parent', rule.id, field.id, `${link.parent}.${link.parentTime}`, (values) => {
        const child = values[index];
        if (typeof child !== 'string') return undefined;
        const order = times.compare(values[link.reference]!, child, compare);
        return order === undefined ? undefined : order >= 0;
      });
    });
    if (hasFeature(version, 'agreeingReferences')) {
      for (const agreement of referenceAgreements(entity, config.entities, deferred)) {
        const way = [entity.fields[agreement.anchor]!.id, ...agreement.anchorPath.map((step) => step.field.id)].join('.');
        add('references-agree', REFERENCES_AGREE.id, entity.fields[agreement.constrained]!.id, `${way} (${agreement.ancestor})`, agreementCheck(agreement, this.#parentColumns));
      }
    }
    // Nulls are counted, not judged: `holding` is the rows left null, to compare with the share in `against`.
    entity.fields.forEach((field, index) => {
      const share = defaultNullShare(version, entity, config.entities, field);
      if (share > 0) add('null-share', NULL_SHARE.id, field.id, `${Math.round(share * 100)}% null`, (values) => values[index] === null);
    });
    return checks;
  }

  /** The created-like times of a parent by key, kept while its children are made (one store per parent column). */
  #parentTimesOf(config: SchemaConfig, link: Omit<ParentTimeLink, 'reference'>, rowsOf: (entityId: string) => number): ParentTimes {
    const slot = `${link.parent}.${link.parentKey}.${link.parentTime}`;
    if (!this.#parentTimes.has(slot)) {
      const parent = config.entities.find((candidate) => candidate.id === link.parent)!;
      this.#parentTimes.set(slot, {
        key: parent.fields.findIndex((other) => other.id === link.parentKey),
        time: parent.fields.findIndex((other) => other.id === link.parentTime),
        times: new ParentTimes(rowsOf(link.parent)),
      });
    }
    return this.#parentTimes.get(slot)!.times;
  }

  readonly #observed = new Set<string>();

  /**
   * What to call with each row of the entity as it is made (values in column order); undefined when
   * nothing is checked, or when its rows were already seen (files make some entities twice).
   */
  observer(entityId: string): ((values: readonly RowValue[]) => void) | undefined {
    if (this.#observed.has(entityId)) return undefined;
    this.#observed.add(entityId);
    const watching = this.#watching(entityId);
    if (!watching) return undefined;
    const { checks, parents, record } = watching;
    const lines = watching.lines.map((audit) => ({ ...audit, worth: lineWorth(audit.sum.line) }));
    return (values) => {
      record?.(values);
      for (const { sum, lines: sums, worth } of lines) {
        const key = values[sum.reference];
        if (key !== null && key !== undefined) sums.set(String(key), (sums.get(String(key)) ?? 0) + worth(values));
      }
      for (const parent of parents) {
        const time = values[parent.time];
        if (typeof time === 'string') parent.times.set(values[parent.key]!, time);
      }
      for (const check of checks) {
        const holds = check.test(values);
        if (holds === undefined) continue;
        check.count.rows++;
        if (holds) check.count.holding++;
      }
    };
  }

  /**
   * Whether the entity's rows are watched (counted, or kept for the checks of later entities): a sink
   * may make the rows of an entity that is not somewhere else (worker threads), and must make those
   * of one that is where the audit sees them.
   */
  observes(entityId: string): boolean {
    return !this.#observed.has(entityId) && this.#watching(entityId) !== undefined;
  }

  /** What watches an entity's rows: its checks, parents' times and columns kept, lines sums; undefined when nothing does. */
  #watching(entityId: string) {
    const checks = this.#checks.get(entityId) ?? [];
    const parents = [...this.#parentTimes].filter(([slot]) => slot.startsWith(`${entityId}.`)).map(([, parent]) => parent);
    const record = this.#parentColumns.recorder(entityId);
    const lines = this.#linesSums.filter((audit) => audit.sum.child === entityId);
    if (checks.length === 0 && parents.length === 0 && !record && lines.length === 0) return undefined;
    return { checks, parents, record, lines };
  }

  /** Counts per rule, entity and field, in plan order. */
  report(): CoherenceCount[] {
    // A parent's lines sum is checked once its children are made: every parent with a value, against its lines (0 without any).
    for (const { count, parents, lines } of this.#linesSums) {
      count.rows = parents.size;
      count.holding = 0;
      for (const [key, cents] of parents) if (cents === (lines.get(key) ?? 0)) count.holding++;
    }
    return [...this.#checks.values()].flat().map((check) => ({ ...check.count }));
  }
}

/** Orders two stored times; a date against a datetime compares calendar days of the entity's zone. */
export function compareTimes(a: string, b: string, zone: string): number {
  // Dates ('YYYY-MM-DD') and stored instants (ISO UTC text of one length) sort as text.
  if (a.length === b.length && (a.length === 10 || (a.endsWith('Z') && b.endsWith('Z')))) return a < b ? -1 : a > b ? 1 : 0;
  if (a.length === 10 || b.length === 10) {
    const x = a.length === 10 ? a : dayOf(a, zone);
    const y = b.length === 10 ? b : dayOf(b, zone);
    return x < y ? -1 : x > y ? 1 : 0;
  }
  return Date.parse(a) - Date.parse(b);
}

function dayOf(instant: string, zone: string): string {
  return zone === 'UTC' && instant.endsWith('Z') ? instant.slice(0, 10) : formatDay(localDay(Date.parse(instant), zone));
}

const share = (holding: number, rows: number) => (rows === 0 ? '-' : `${((holding / rows) * 100).toFixed(1)}%`);

/** The report as lines: `names-in-email  users.email (firstName+lastName)  20/20 rows (100.0%)`. */
export function formatCoherence(counts: readonly CoherenceCount[]): string[] {
  return counts.map(
    (count) =>
      `${count.rule.padEnd(20)} ${`${count.entity}.${count.field}`.padEnd(28)} against ${count.against.padEnd(28)} ${count.holding}/${count.rows} rows (${share(count.holding, count.rows)})`,
  );
}

/** Totals per field rule id (place rules count once each), in the order they first appear: `person.email  40/40 rows (100.0%)`. */
export function formatRuleTotals(counts: readonly CoherenceCount[]): string[] {
  const totals = new Map<string, { rows: number; holding: number }>();
  for (const count of counts) {
    for (const id of count.ruleId.split('+')) {
      const total = totals.get(id) ?? { rows: 0, holding: 0 };
      total.rows += count.rows;
      total.holding += count.holding;
      totals.set(id, total);
    }
  }
  return [...totals].map(([id, total]) => `${id.padEnd(28)} ${total.holding}/${total.rows} rows (${share(total.holding, total.rows)})`);
}
