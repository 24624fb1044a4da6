// Shaped dates and datetimes of dateRange: a linear trend over the range and weights per weekday and
// per hour of the day (in the entity's time zone), and a lower bound per row (`after`: the
// referenced row's date). Days are drawn by inverse transform over cumulative day weights, so any
// window of the range is drawn exactly; each value is a pure function of (stream, row).
import type { FieldType } from '../../model/config-types.ts';
import type { RowValue } from '../../model/row-value.ts';
import type { ValueProgram } from '../program.ts';
import type { RandomStream } from '../random.ts';
import type { DateWindow } from './date-programs.ts';
import { boundDay, boundInstant } from './date-programs.ts';
import { DAY_MS, formatDay, formatInstant, localDay, parseDay, parseIsoInstant, wallToInstant, weekdayOf } from './dates.ts';

const HOUR_MS = 3_600_000;
/** Draws of one value: up to 8 tries of (day, hour, instant) to land inside a partial first or last day. */
const TRIES = 8;
const DRAWS = TRIES * 3;

export interface DateShape {
  /** How much likelier the end of the range is than its start (0: flat). */
  trend?: number;
  /** Monday first. */
  weekdayWeights?: readonly number[];
  hourWeights?: readonly number[];
  weekdaysOnly?: boolean;
}

/**
 * A lower bound per row: the referenced row's date (a day number, `date`) or datetime (milliseconds),
 * NaN or undefined when there is none, and the fields it reads.
 */
export interface LowerBound {
  deps: number[];
  date: boolean;
  value(values: readonly RowValue[]): number | undefined;
}

/** A stored datetime as milliseconds (NaN for null). */
export const storedInstant = (value: RowValue): number => (typeof value === 'string' ? parseIsoInstant(value) : Number.NaN);
/** A stored date as its day number (NaN for null). */
export const storedDay = (value: RowValue): number => (typeof value === 'string' ? parseDay(value) : Number.NaN);

/** Whether a shape changes anything (a plain dateRange keeps its programs and values). */
export function isShaped(shape: DateShape): boolean {
  return (shape.trend ?? 0) !== 0 || shape.weekdayWeights !== undefined || shape.hourWeights !== undefined;
}

export function shapedDateProgram(
  stream: RandomStream,
  type: FieldType,
  window: DateWindow,
  referenceMs: number,
  zone: string,
  shape: DateShape,
  after: LowerBound | undefined,
  fallback: ValueProgram,
): ValueProgram {
  const weekday = shape.weekdaysOnly ? (shape.weekdayWeights ?? [1, 1, 1, 1, 1, 1, 1]).map((w, i) => (i < 5 ? w : 0)) : shape.weekdayWeights;
  const shaped = isShaped(shape) || shape.weekdaysOnly === true;
  // The referenced row's value as an instant and a local day, in two variables (no object per row).
  let lowerMs = 0;
  let lowerDay = 0;
  const lower = (values: readonly RowValue[]): boolean => {
    const value = after?.value(values);
    if (value === undefined || Number.isNaN(value)) return false;
    if (after!.date) {
      lowerDay = value;
      lowerMs = wallToInstant(value * DAY_MS, zone);
    } else {
      lowerMs = value;
      lowerDay = localDay(value, zone);
    }
    return true;
  };
  const deps = after?.deps;

  if (type === 'date') {
    const [fromDay, toDay] = ordered(boundDay(window.from, referenceMs, zone), boundDay(window.to, referenceMs, zone));
    const days = dayDrawer(fromDay, toDay, shape.trend ?? 0, weekday);
    return {
      at: (row, values, attempt) => {
        const bound = after !== undefined && lower(values);
        if (after && !bound) return fallback.at(row, values, attempt);
        const low = bound ? Math.max(fromDay, lowerDay) : fromDay;
        if (low > toDay) return formatDay(low);
        const u = stream.float53(row, attempt * DRAWS);
        return formatDay(shaped ? days(u, low, toDay) : low + Math.floor(u * (toDay - low + 1)));
      },
      typed: true,
      ...(deps && { deps }),
    };
  }

  const [fromMs, toMs] = ordered(boundInstant(window.from, referenceMs, zone, false), boundInstant(window.to, referenceMs, zone, true));
  const highDay = localDay(toMs, zone);
  const days = dayDrawer(localDay(fromMs, zone), highDay, shape.trend ?? 0, weekday);
  const hours = cumulative(shape.hourWeights ?? new Array<number>(24).fill(1));
  return {
    at: (row, values, attempt) => {
      const bound = after !== undefined && lower(values);
      if (after && !bound) return fallback.at(row, values, attempt);
      const low = bound ? Math.max(fromMs, lowerMs) : fromMs;
      if (low > toMs) return formatInstant(low);
      const first = attempt * DRAWS;
      if (!shaped) return formatInstant(low + Math.floor(stream.float53(row, first) * (toMs - low + 1)));
      const lowDay = localDay(low, zone);
      let ms = low;
      for (let i = 0; i < TRIES; i++) {
        const day = days(stream.float53(row, first + i * 3), lowDay, highDay);
        const hour = search(hours, stream.float(row, first + i * 3 + 1) * hours[24]!);
        ms = wallToInstant(day * DAY_MS + hour * HOUR_MS + Math.floor(stream.float(row, first + i * 3 + 2) * HOUR_MS), zone);
        if (ms >= low && ms <= toMs) return formatInstant(ms);
      }
      return formatInstant(Math.min(toMs, Math.max(low, ms)));
    },
    typed: true,
    ...(deps && { deps }),
  };
}

function ordered(a: number, b: number): [number, number] {
  return a <= b ? [a, b] : [b, a];
}

/**
 * Draws a day of [low, high] ⊆ [fromDay, toDay] with weight weekday × (1 + trend × position in the
 * range); a window whose days all weigh 0 is drawn uniformly.
 */
function dayDrawer(fromDay: number, toDay: number, trend: number, weekday: readonly number[] | undefined): (u: number, low: number, high: number) => number {
  const span = toDay - fromDay + 1;
  const weights = new Float64Array(span);
  for (let i = 0; i < span; i++) weights[i] = (weekday ? weekday[weekdayOf(fromDay + i)]! : 1) * (1 + (trend * (i + 0.5)) / span);
  const sums = cumulative(weights);
  return (u, low, high) => {
    const a = sums[low - fromDay]!;
    const b = sums[high - fromDay + 1]!;
    if (!(b > a)) return low + Math.floor(u * (high - low + 1));
    return fromDay + Math.min(high - fromDay, Math.max(low - fromDay, search(sums, a + u * (b - a))));
  };
}

/** Running sums: sums[i] = weights[0] + … + weights[i − 1]. */
function cumulative(weights: ArrayLike<number>): Float64Array {
  const sums = new Float64Array(weights.length + 1);
  for (let i = 0; i < weights.length; i++) sums[i + 1] = sums[i]! + weights[i]!;
  return sums;
}

/** The index i with sums[i] ≤ target < sums[i + 1] (skipping weight-0 entries). */
function search(sums: Float64Array, target: number): number {
  let low = 0;
  let high = sums.length - 2;
  while (low < high) {
    const mid = (low + high + 1) >>> 1;
    if (sums[mid]! <= target) low = mid;
    else high = mid - 1;
  }
  return low;
}
