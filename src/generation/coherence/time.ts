// Ordered time of generator version 2: within a row, the end of a start/end style pair comes after
// its start (endDate after startDate, validTo after validFrom, closedAt after openedAt, diedOn after
// bornOn); across tables, a child's created-like time comes after its referenced parent's
// created-like time (an order after its customer signed up, a post after its author joined).
import type { RowValue } from '../../model/row-value.ts';
import type { Entity, Field, FieldType } from '../../model/config-types.ts';
import type { KeyPool, ValueProgram } from '../program.ts';
import type { RandomStream } from '../random.ts';
import { rowIndexOf } from '../parent-lookups.ts';
import { DAY_MS, formatDay, formatInstant, localDay, weekdayOf } from '../values/dates.ts';
import { referenceTarget } from '../../model/table-spec.ts';

/** The id without case, `_` and `-` (as named defaults match ids). */
export function normalizeId(id: string): string {
  return id.toLowerCase().replace(/[_-]/g, '');
}

/** Words of an id: `validTo` → valid, to; `end_date` → end, date. */
function idWords(id: string): string[] {
  return id
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[\s_-]+/)
    .filter(Boolean)
    .map((word) => word.toLowerCase());
}

/** The word of an end field and the word of its start: `endDate` pairs with `startDate`. */
export const TIME_PAIRS: readonly [string, string][] = [
  ['end', 'start'],
  ['ends', 'starts'],
  ['ended', 'started'],
  ['finish', 'start'],
  ['finished', 'started'],
  ['completed', 'started'],
  ['to', 'from'],
  ['until', 'from'],
  ['closed', 'opened'],
  ['close', 'open'],
  ['died', 'born'],
  ['death', 'birth'],
  ['checkout', 'checkin'],
  ['resolved', 'reported'],
  ['delivered', 'shipped'],
];
const START_OF = new Map(TIME_PAIRS);

const DATES: FieldType[] = ['date', 'datetime'];

/** Created-like ids of a parent: a child's time comes after it. */
export const PARENT_CREATED = ['createdat', 'created', 'createdon', 'datecreated', 'creationdate', 'insertedat', 'signedupat', 'registeredat', 'joinedat'];
/** Ids of a child's time that comes after its parent's created-like time. */
export const CHILD_TIMES = [...PARENT_CREATED, 'publishedat', 'publishedon', 'postedat', 'orderedat', 'orderdate', 'placedat', 'submittedat', 'sentat'];

/** Index of the start field of an end field of the entity (`endDate` → `startDate`), or -1. */
export function pairStart(entity: Entity, field: Field): number {
  if (!DATES.includes(field.type)) return -1;
  const words = idWords(field.id);
  for (let i = words.length - 1; i >= 0; i--) {
    const start = START_OF.get(words[i]!);
    if (!start) continue;
    const wanted = normalizeId([...words.slice(0, i), start, ...words.slice(i + 1)].join(''));
    const index = entity.fields.findIndex((other) => other !== field && DATES.includes(other.type) && normalizeId(other.id) === wanted);
    if (index >= 0) return index;
  }
  return -1;
}

export interface ParentTimeLink {
  /** Index of the row's reference field. */
  reference: number;
  parent: string;
  /** The referenced key field of the parent. */
  parentKey: string;
  /** The parent's created-like field. */
  parentTime: string;
}

/**
 * The parent whose created-like time a child time field (no strategy) follows: through the first
 * reference of the entity (not deferred, not a self reference) to an entity with a created-like
 * date or datetime field.
 */
export function parentTimeLink(entity: Entity, field: Field, entities: readonly Entity[], deferred: readonly string[]): ParentTimeLink | undefined {
  if (!DATES.includes(field.type) || field.generation?.strategy || !CHILD_TIMES.includes(normalizeId(field.id))) return undefined;
  for (const [index, candidate] of entity.fields.entries()) {
    const target = referenceTarget(candidate);
    if (!target || target.entity === entity.id || deferred.includes(candidate.id)) continue;
    const parent = entities.find((other) => other.id === target.entity);
    const time = parent?.fields.find((other) => DATES.includes(other.type) && PARENT_CREATED.includes(normalizeId(other.id)));
    if (time) return { reference: index, parent: target.entity, parentKey: target.field, parentTime: time.id };
  }
  return undefined;
}

const digit = (text: string, at: number) => text.charCodeAt(at) - 48;

/** Day number of a stored 'YYYY-MM-DD…' (days_from_civil; no Date, no substrings: it runs for every row). */
export function dayOfText(text: string): number {
  let y = digit(text, 0) * 1000 + digit(text, 1) * 100 + digit(text, 2) * 10 + digit(text, 3);
  const m = digit(text, 5) * 10 + digit(text, 6);
  const d = digit(text, 8) * 10 + digit(text, 9);
  if (m <= 2) y -= 1;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (m > 2 ? m - 3 : m + 9) + 2) / 5) + d - 1;
  return era * 146_097 + yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy - 719_468;
}

/** The instant (ms) a stored date or datetime value stands for, or NaN. */
export function instantOf(value: RowValue | undefined): number {
  if (typeof value !== 'string') return Number.NaN;
  if (value.length === 10) return dayOfText(value) * DAY_MS;
  // Stored instants are 'YYYY-MM-DDTHH:mm:ss.sssZ' (formatInstant); anything else goes to Date.parse.
  if (value.length === 24 && value.charCodeAt(10) === 84 && value.charCodeAt(23) === 90) {
    const time = (digit(value, 11) * 10 + digit(value, 12)) * 3_600_000 + (digit(value, 14) * 10 + digit(value, 15)) * 60_000 + (digit(value, 17) * 10 + digit(value, 18)) * 1000;
    return dayOfText(value) * DAY_MS + time + digit(value, 20) * 100 + digit(value, 21) * 10 + digit(value, 22);
  }
  return Date.parse(value);
}

/**
 * A date or datetime no earlier than `earlier(row, values)`: uniform up to `now`, or up to
 * `minSpanDays` after it when that is later. Weekends move to the next Monday when weekdaysOnly.
 * `fallback` when there is no earlier value.
 */
export function laterProgram(options: {
  stream: RandomStream;
  type: FieldType;
  earlier: (row: number, values: readonly RowValue[]) => RowValue | undefined;
  deps: number[];
  referenceMs: number;
  zone: string;
  weekdaysOnly: boolean;
  minSpanDays: number;
  fallback: ValueProgram;
}): ValueProgram {
  const { stream, type, earlier, referenceMs, zone, weekdaysOnly, minSpanDays, fallback } = options;
  return {
    at: (row, values, attempt) => {
      const value = earlier(row, values);
      const earlierMs = instantOf(value);
      if (Number.isNaN(earlierMs)) return fallback.at(row, values, attempt);
      if (type === 'date') {
        const fromDay = typeof value === 'string' && value.length === 10 ? earlierMs / DAY_MS : localDay(earlierMs, zone);
        const toDay = Math.max(fromDay + minSpanDays, localDay(referenceMs, zone));
        let day = fromDay + Math.floor(stream.float(row, attempt) * (toDay - fromDay + 1));
        if (weekdaysOnly) while (weekdayOf(day) >= 5) day++;
        return formatDay(day);
      }
      const to = Math.max(earlierMs + minSpanDays * DAY_MS, referenceMs);
      let ms = earlierMs + Math.floor(stream.float53(row, attempt) * (to - earlierMs + 1));
      if (weekdaysOnly) while (weekdayOf(localDay(ms, zone)) >= 5) ms += DAY_MS;
      return formatInstant(ms);
    },
    typed: true,
    deps: options.deps,
  };
}

/** The parent's created-like value of the parent a row references (by its key), through the parent's pools. */
export function parentTimeLookup(keys: KeyPool, times: KeyPool): (key: RowValue | undefined) => RowValue | undefined {
  let rowOf: ((key: RowValue) => number | undefined) | undefined;
  return (key) => {
    if (key === null || key === undefined) return undefined;
    // Built on first use: the parent's keys are complete by the time its children are made.
    const row = (rowOf ??= rowIndexOf(keys))(key);
    return row === undefined ? undefined : times.at(row);
  };
}
