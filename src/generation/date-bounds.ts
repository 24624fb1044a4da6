// Bounds of dateRange strategies: ISO dates and datetimes, `now`, and offsets from now such as
// `-30d` or `+1y` (units s, m, h, d, w, M, y; M and y are calendar months and years).

export type DateBound =
  | { kind: 'absolute'; date: Date }
  | { kind: 'relative'; offset: { sign: 1 | -1; amount: number; unit: OffsetUnit } };

type OffsetUnit = 's' | 'm' | 'h' | 'd' | 'w' | 'M' | 'y';

const RELATIVE = /^(?:now|([+-])([0-9]+)([smhdwMy]))$/;
const ISO = /^([0-9]{4})-([0-9]{2})-([0-9]{2})(?:T([0-9]{2}):([0-9]{2})(?::([0-9]{2})(?:\.[0-9]{1,9})?)?(Z|[+-][0-9]{2}:?[0-9]{2})?)?$/;
const UNIT_MS: Record<string, number> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/** Parses a bound; undefined when it is malformed or names an impossible date (2024-02-30, 25:00). */
export function parseDateBound(text: string): DateBound | undefined {
  const relative = RELATIVE.exec(text);
  if (relative) {
    const [, sign, amount, unit] = relative;
    if (sign === undefined) return { kind: 'relative', offset: { sign: 1, amount: 0, unit: 's' } };
    return { kind: 'relative', offset: { sign: sign === '-' ? -1 : 1, amount: Number(amount), unit: unit as OffsetUnit } };
  }
  const iso = ISO.exec(text);
  if (!iso) return undefined;
  const [, year, month, day, hour, minute, second = '00', offset] = iso;
  const calendar = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
  const sameDay =
    calendar.getUTCFullYear() === Number(year) &&
    calendar.getUTCMonth() === Number(month) - 1 &&
    calendar.getUTCDate() === Number(day);
  if (!sameDay || Number(hour ?? 0) > 23 || Number(minute ?? 0) > 59 || Number(second) > 59) return undefined;
  if (hour === undefined) return { kind: 'absolute', date: calendar };
  // A datetime without an offset is read as UTC; the generator applies the configured time zone.
  const zone = offset === undefined ? 'Z' : offset.length === 5 ? `${offset.slice(0, 3)}:${offset.slice(3)}` : offset;
  const date = new Date(`${text.slice(0, text.length - (offset?.length ?? 0))}${zone}`);
  return Number.isNaN(date.getTime()) ? undefined : { kind: 'absolute', date };
}

/** The instant a bound stands for, given the instant of `now`. */
export function resolveDateBound(bound: DateBound, now: Date): Date {
  if (bound.kind === 'absolute') return bound.date;
  const { sign, amount, unit } = bound.offset;
  const date = new Date(now.getTime());
  if (unit === 'M') date.setUTCMonth(date.getUTCMonth() + sign * amount);
  else if (unit === 'y') date.setUTCFullYear(date.getUTCFullYear() + sign * amount);
  else date.setTime(date.getTime() + sign * amount * (UNIT_MS[unit] ?? 0));
  return date;
}
