// The coherence report: per rule, entity and field, how many generated rows hold the rule — measured
// on the rows as they are made, not claimed. Rules: an email or username built from the row's names;
// a row's place fields (country, code, state, city, postal code where the reference data has postal
// codes, phone prefix and, where it has them, area code) forming a tuple of the reference data of the run's generator version; the end
// of a time pair not before its start; a child's time not before its referenced parent's
// created-like time. Rows where a side is null are not counted.
import type { RowValue } from '../../model/row-value.ts';
import type { Entity, SchemaConfig } from '../../model/config-types.ts';
import type { GenerationPlan, GeneratorVersion } from '../plan.ts';
import { localeCountry, placesOf, type Place } from './places.ts';
import { ParentTimes, PlaceTuples } from './report-lookups.ts';
import { normalizeId, pairStart, parentTimeLink } from './time.ts';
import { formatDay, localDay } from '../values/dates.ts';

export type CoherenceRuleName = 'names-in-email' | 'place-in-reference' | 'time-pair-ordered' | 'child-after-parent';

export interface CoherenceCount {
  rule: CoherenceRuleName;
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

const FIRST = ['firstname', 'givenname', 'forename'];
const LAST = ['lastname', 'surname', 'familyname'];
const DERIVED = ['email', 'emailaddress', 'mail', 'username', 'login', 'handle', 'nickname', 'screenname'];
/** Place fields the report checks, and the reference value each stands for. */
const PLACE_FIELDS: [string[], (place: Place) => string | undefined][] = [
  [['country', 'countryname'], (place) => place.country],
  [['countrycode', 'countryiso'], (place) => place.countryCode],
  [['state', 'province', 'region'], (place) => place.state],
  [['city', 'town'], (place) => place.city],
  [['zip', 'zipcode', 'postalcode', 'postcode'], (place) => place.postalCode],
  [['phone', 'phonenumber', 'mobile', 'mobilephone', 'telephone', 'tel', 'cellphone'], (place) => (place.areaCode === undefined ? `+${place.phonePrefix}` : `+${place.phonePrefix} ${place.areaCode}`)],
];

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

const free = (entity: Entity, ids: string[]) => entity.fields.findIndex((field) => !field.generation?.strategy && !field.references && ids.includes(normalizeId(field.id)));
const text = (value: RowValue | undefined) => (typeof value === 'string' ? value : undefined);

export class CoherenceAudit {
  readonly #checks = new Map<string, Check[]>();
  /** Created-like times of parents by key, kept while their children are made. */
  readonly #parentTimes = new Map<string, { key: number; time: number; times: ParentTimes }>();

  constructor(config: SchemaConfig, plan: GenerationPlan) {
    const rowsOf = (entityId: string) => plan.entities.find((candidate) => candidate.id === entityId)?.rowCount ?? 0;
    for (const entityPlan of plan.entities) {
      const entity = config.entities.find((candidate) => candidate.id === entityPlan.id);
      if (entity) this.#checks.set(entity.id, this.#checksOf(entity, config, entityPlan.deferredColumns, entityPlan.locale, entityPlan.timezone, plan.version, rowsOf));
    }
  }

  #checksOf(entity: Entity, config: SchemaConfig, deferred: string[], locale: string, zone: string, version: GeneratorVersion, rowsOf: (entityId: string) => number): Check[] {
    const checks: Check[] = [];
    const add = (rule: CoherenceRuleName, field: string, against: string, test: Check['test']) =>
      checks.push({ count: { rule, entity: entity.id, field, against, rows: 0, holding: 0 }, test });

    const first = free(entity, FIRST);
    const last = free(entity, LAST);
    if (first >= 0 || last >= 0) {
      const names = [first, last].filter((index) => index >= 0).map((index) => entity.fields[index]!.id).join('+');
      entity.fields.forEach((field, index) => {
        const derived = !field.generation?.strategy && field.type === 'string' && (DERIVED.includes(normalizeId(field.id)) || field.format === 'email');
        if (!derived) return;
        const lower = lowerCase();
        add('names-in-email', field.id, names, (values) => {
          const value = text(values[index])?.toLowerCase();
          const firstName = first >= 0 ? text(values[first]) : '';
          const lastName = last >= 0 ? text(values[last]) : '';
          if (value === undefined || firstName === undefined || lastName === undefined) return undefined;
          return value.startsWith(firstName.slice(0, 1).toLowerCase()) && value.includes(lower(lastName));
        });
      });
    }

    const candidates = PLACE_FIELDS.map(([ids, of], position) => ({ index: free(entity, ids), of, phone: position === PLACE_FIELDS.length - 1, postal: ids.includes('postalcode') })).filter(
      (place) => place.index >= 0,
    );
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
      add('place-in-reference', placeFields.map((field) => entity.fields[field.index]!.id).join('+'), `reference places of ${localeCountry(locale)}`, (values) => known.has(values));
    }

    entity.fields.forEach((field, index) => {
      if (field.generation?.strategy) return;
      const start = pairStart(entity, field);
      if (start >= 0) {
        add('time-pair-ordered', field.id, entity.fields[start]!.id, (values) => {
          if (typeof values[index] !== 'string' || typeof values[start] !== 'string') return undefined;
          return compareTimes(values[index], values[start], zone) >= 0;
        });
        return;
      }
      const link = parentTimeLink(entity, field, config.entities, deferred);
      if (!link) return;
      const parent = config.entities.find((candidate) => candidate.id === link.parent)!;
      const slot = `${link.parent}.${link.parentKey}.${link.parentTime}`;
      if (!this.#parentTimes.has(slot)) {
        this.#parentTimes.set(slot, {
          key: parent.fields.findIndex((other) => other.id === link.parentKey),
          time: parent.fields.findIndex((other) => other.id === link.parentTime),
          times: new ParentTimes(rowsOf(link.parent)),
        });
      }
      const times = this.#parentTimes.get(slot)!.times;
      const compare = (a: string, b: string) => compareTimes(a, b, zone);
      add('child-after-parent', field.id, `${link.parent}.${link.parentTime}`, (values) => {
        const child = values[index];
        if (typeof child !== 'string') return undefined;
        const order = times.compare(values[link.reference]!, child, compare);
        return order === undefined ? undefined : order >= 0;
      });
    });
    return checks;
  }

  readonly #observed = new Set<string>();

  /**
   * What to call with each row of the entity as it is made (values in column order); undefined when
   * nothing is checked, or when its rows were already seen (files make some entities twice).
   */
  observer(entityId: string): ((values: readonly RowValue[]) => void) | undefined {
    if (this.#observed.has(entityId)) return undefined;
    this.#observed.add(entityId);
    const checks = this.#checks.get(entityId) ?? [];
    const parents = [...this.#parentTimes].filter(([slot]) => slot.startsWith(`${entityId}.`)).map(([, parent]) => parent);
    if (checks.length === 0 && parents.length === 0) return undefined;
    return (values) => {
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

  /** Counts per rule, entity and field, in plan order. */
  report(): CoherenceCount[] {
    return [...this.#checks.values()].flat().map((check) => ({ ...check.count }));
  }
}

/** Orders two stored times; a date against a datetime compares calendar days of the entity's zone. */
function compareTimes(a: string, b: string, zone: string): number {
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

/** The report as lines: `names-in-email  users.email (firstName+lastName)  20/20 rows (100.0%)`. */
export function formatCoherence(counts: readonly CoherenceCount[]): string[] {
  return counts.map((count) => {
    const share = count.rows === 0 ? '-' : `${((count.holding / count.rows) * 100).toFixed(1)}%`;
    return `${count.rule.padEnd(20)} ${`${count.entity}.${count.field}`.padEnd(28)} against ${count.against.padEnd(28)} ${count.holding}/${count.rows} rows (${share})`;
  });
}
