// Date, datetime and time programs. Dates are local calendar days of the entity's time zone,
// stored 'YYYY-MM-DD'; datetimes are UTC instants ('…Z') whose weekday is judged in that zone.
// Bounds: ISO dates/datetimes, `now` (the plan's reference date) and offsets such as `-30d`.
import type { FieldType } from '../../model/config-types.ts';
import type { ValueProgram } from '../program.ts';
import type { RandomStream } from '../random.ts';
import { parseDateBound, resolveDateBound } from '../date-bounds.ts';
import { quantileFunction } from './distributions.ts';
import { DAY_MS, dayList, formatDay, formatInstant, formatTimeOfDay, localDay, parseDay, wallToInstant, weekdayOf } from './dates.ts';

const CALENDAR_DATE = /^\d{4}-\d{2}-\d{2}$/;
const WITH_OFFSET = /(?:Z|[+-]\d{2}:?\d{2})$/;
const WEEKDAY_DRAWS = 8;

/** The instant a bound stands for; a calendar date is its local midnight, or its last millisecond when `end`. */
export function boundInstant(text: string, referenceMs: number, zone: string, end: boolean): number {
  const bound = parseDateBound(text);
  if (!bound) throw new RangeError(`date bound "${text}" is not an ISO date, "now" or an offset such as "-30d"`);
  if (bound.kind === 'relative') return resolveDateBound(bound, new Date(referenceMs)).getTime();
  if (CALENDAR_DATE.test(text)) {
    const day = parseDay(text);
    return end ? wallToInstant((day + 1) * DAY_MS, zone) - 1 : wallToInstant(day * DAY_MS, zone);
  }
  // A datetime without an offset is a wall-clock time of the entity's zone.
  return WITH_OFFSET.test(text) ? bound.date.getTime() : wallToInstant(bound.date.getTime(), zone);
}

/** The local day a bound stands for. */
export function boundDay(text: string, referenceMs: number, zone: string): number {
  return CALENDAR_DATE.test(text) ? parseDay(text) : localDay(boundInstant(text, referenceMs, zone, false), zone);
}

export interface DateWindow {
  from: string;
  to: string;
}

/** A program of random dates or datetimes between two bounds (inclusive). */
export function dateRangeProgram(
  stream: RandomStream,
  type: FieldType,
  window: DateWindow,
  referenceMs: number,
  zone: string,
  weekdaysOnly: boolean,
): ValueProgram {
  if (type === 'date') {
    const [from, to] = ordered(boundDay(window.from, referenceMs, zone), boundDay(window.to, referenceMs, zone));
    return dayProgram(stream, from, to, weekdaysOnly);
  }
  const [from, to] = ordered(boundInstant(window.from, referenceMs, zone, false), boundInstant(window.to, referenceMs, zone, true));
  return instantProgram(stream, from, to, zone, weekdaysOnly);
}

function ordered(a: number, b: number): [number, number] {
  return a <= b ? [a, b] : [b, a];
}

/** Uniform local days of [fromDay, toDay], Monday to Friday only when asked; its pool is those days. */
export function dayProgram(stream: RandomStream, fromDay: number, toDay: number, weekdaysOnly: boolean): ValueProgram {
  let days = dayList(fromDay, toDay, weekdaysOnly);
  // A range without weekdays cannot honour weekdaysOnly: keep its days rather than invent others.
  if (days.size === 0) days = dayList(fromDay, toDay, false);
  const at = (index: number) => formatDay(days.at(index));
  return {
    at: (row, _values, attempt) => at(Math.floor(stream.float(row, attempt) * days.size)),
    pool: { size: days.size, at },
    typed: true,
  };
}

/** Uniform instants of [fromMs, toMs]; weekdays (in `zone`) only when asked. */
export function instantProgram(stream: RandomStream, fromMs: number, toMs: number, zone: string, weekdaysOnly: boolean): ValueProgram {
  const span = toMs - fromMs + 1;
  const draw = (row: number, draw: number) => fromMs + Math.floor(stream.float53(row, draw) * span);
  if (!weekdaysOnly) {
    return {
      at: (row, _values, attempt) => formatInstant(draw(row, attempt)),
      pool: { size: span, at: (index) => formatInstant(fromMs + index) },
      typed: true,
    };
  }
  return {
    at: (row, _values, attempt) => {
      let ms = 0;
      for (let i = 0; i < WEEKDAY_DRAWS; i++) {
        ms = draw(row, attempt * WEEKDAY_DRAWS + i);
        if (weekdayOf(localDay(ms, zone)) < 5) return formatInstant(ms);
      }
      return formatInstant(moveToWeekday(ms, fromMs, toMs, zone));
    },
    typed: true,
  };
}

// Saturday and Sunday move to the Friday before or the Monday after, whichever stays in range.
function moveToWeekday(ms: number, fromMs: number, toMs: number, zone: string): number {
  const weekday = weekdayOf(localDay(ms, zone));
  const back = ms - (weekday - 4) * DAY_MS;
  const forward = ms + (7 - weekday) * DAY_MS;
  if (back >= fromMs) return back;
  return forward <= toMs ? forward : ms;
}

/** Uniform times of day 'HH:mm:ss'. */
export function timeProgram(stream: RandomStream): ValueProgram {
  return {
    at: (row, _values, attempt) => formatTimeOfDay(stream.int(row, attempt, 0, 86_399)),
    pool: { size: 86_400, at: formatTimeOfDay },
    typed: true,
  };
}

/**
 * A date or datetime between another field's value (e.g. `createdAt`) and `now`, so that
 * `updatedAt ≥ createdAt`; `fallback` when that value is null.
 */
export function afterFieldProgram(
  stream: RandomStream,
  type: FieldType,
  dependency: number,
  referenceMs: number,
  zone: string,
  fallback: ValueProgram,
): ValueProgram {
  return {
    at: (row, values, attempt) => {
      const earlier = values[dependency];
      if (typeof earlier !== 'string') return fallback.at(row, values, attempt);
      const earlierMs = earlier.length === 10 ? parseDay(earlier) * DAY_MS : Date.parse(earlier);
      if (Number.isNaN(earlierMs)) return fallback.at(row, values, attempt);
      if (type === 'date') {
        const fromDay = earlier.length === 10 ? parseDay(earlier) : localDay(earlierMs, zone);
        const toDay = Math.max(fromDay, localDay(referenceMs, zone));
        return formatDay(fromDay + Math.floor(stream.float(row, attempt) * (toDay - fromDay + 1)));
      }
      const to = Math.max(earlierMs, referenceMs);
      return formatInstant(earlierMs + Math.floor(stream.float53(row, attempt) * (to - earlierMs + 1)));
    },
    typed: true,
    deps: [dependency],
  };
}

/**
 * Dates or datetimes of an observed distribution (dateRange `quantiles`): a uniform draw maps by
 * linear interpolation between the quantiles around it; dates then fall on the local day. With a
 * lower bound per row (`after`), a value before the bound becomes the bound.
 */
export function quantileDateProgram(
  stream: RandomStream,
  type: FieldType,
  quantiles: readonly string[],
  referenceMs: number,
  zone: string,
  lower?: { deps: number[]; date: boolean; value(values: readonly unknown[]): number | undefined },
): ValueProgram {
  const date = type === 'date';
  const points = quantiles.map((text) => (date ? boundDay(text, referenceMs, zone) : boundInstant(text, referenceMs, zone, false))).sort((a, b) => a - b);
  const quantile = quantileFunction(points);
  const last = points[points.length - 1] ?? 0;
  const format = date ? formatDay : formatInstant;
  return {
    at: (row, values, attempt) => {
      let value = Math.min(last, Math.floor(quantile(stream.float53(row, attempt))));
      const bound = lower?.value(values);
      if (bound !== undefined && Number.isFinite(bound)) {
        const floor = lower!.date === date ? bound : date ? localDay(bound, zone) : wallToInstant(bound * DAY_MS, zone);
        if (value < floor) value = floor;
      }
      return format(value);
    },
    typed: true,
    ...(lower ? { deps: lower.deps } : {}),
  };
}
