// Calendar arithmetic and formatting without Date objects in hot paths: day numbers (days since
// 1970-01-01), cached 'YYYY-MM-DD' strings, hand-built ISO datetimes, time-zone offsets cached per
// quarter hour, and weekday enumeration (Monday to Friday).

export const DAY_MS = 86_400_000;
const QUARTER_HOUR_MS = 900_000;
const CACHE_LIMIT = 100_000;

const PAD2 = Array.from({ length: 100 }, (_, i) => String(i).padStart(2, '0'));
const PAD3 = Array.from({ length: 1000 }, (_, i) => String(i).padStart(3, '0'));
const dayStrings = new Map<number, string>();
// Days 1970-01-01 to 2149-06-06 (most generated dates) are also kept in an array: indexing it is
// several times cheaper than a Map lookup, and formatDay runs for every date and datetime.
const ARRAY_DAYS = 65_536;
// Allocated at full length, so it keeps fast (not dictionary) elements however it fills.
const dayArray = new Array<string | undefined>(ARRAY_DAYS);

/** 'YYYY-MM-DD' of a day number (proleptic Gregorian; Howard Hinnant's civil_from_days). */
export function formatDay(day: number): string {
  if (Number.isInteger(day) && day >= 0 && day < ARRAY_DAYS) return (dayArray[day] ??= civilDay(day));
  let text = dayStrings.get(day);
  if (text !== undefined) return text;
  text = civilDay(day);
  if (dayStrings.size >= CACHE_LIMIT) dayStrings.clear();
  dayStrings.set(day, text);
  return text;
}

function civilDay(day: number): string {
  const z = day + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  const y = yoe + era * 400 + (m <= 2 ? 1 : 0);
  return `${String(y).padStart(4, '0')}-${PAD2[m]}-${PAD2[d]}`;
}

/** Day number of 'YYYY-MM-DD' (or the date part of an ISO datetime). */
export function parseDay(text: string): number {
  // Digits read in place (Howard Hinnant's days_from_civil); anything else as Date.UTC reads it.
  const y = fourDigits(text);
  const m = twoDigits(text, 5);
  const d = twoDigits(text, 8);
  if (y < 100 || m < 1 || m > 12 || d < 0 || text.length < 10) return Math.floor(Date.UTC(Number(text.slice(0, 4)), Number(text.slice(5, 7)) - 1, Number(text.slice(8, 10))) / DAY_MS);
  const year = m <= 2 ? y - 1 : y;
  const era = Math.floor(year / 400);
  const yoe = year - era * 400;
  const doy = Math.floor((153 * (m > 2 ? m - 3 : m + 9) + 2) / 5) + d - 1;
  return era * 146_097 + yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy - 719_468;
}

function digit(text: string, at: number): number {
  const code = text.charCodeAt(at) - 48;
  return code >= 0 && code <= 9 ? code : -1_000_000;
}

function fourDigits(text: string): number {
  return digit(text, 0) * 1000 + digit(text, 1) * 100 + digit(text, 2) * 10 + digit(text, 3);
}

function twoDigits(text: string, at: number): number {
  return digit(text, at) * 10 + digit(text, at + 1);
}

// 'THH:mm:' for every minute of a day, 'ss.' for every second and 'sssZ' for every millisecond: an
// instant is then four ready strings joined (DESIGN.md measured formatting as a hot spot). The
// tables stay small enough for the CPU caches: a table of every second of the day (86,400 strings)
// made random instants wait on memory and cost three times as much.
const MINUTE_TEXTS = Array.from({ length: 1440 }, (_, minute) => `T${PAD2[Math.floor(minute / 60)]}:${PAD2[minute % 60]}:`);
const SECOND_TEXTS = Array.from({ length: 60 }, (_, second) => `${PAD2[second]}.`);
const MILLI_TEXTS = PAD3.map((text) => `${text}Z`);

/** 'YYYY-MM-DDTHH:mm:ss.sssZ' of an instant, as `Date#toISOString` gives for years 0–9999. */
export function formatInstant(ms: number): string {
  const day = Math.floor(ms / DAY_MS);
  const rest = ms - day * DAY_MS;
  const second = Math.floor(rest / 1000);
  const minute = Math.floor(second / 60);
  return formatDay(day) + MINUTE_TEXTS[minute]! + SECOND_TEXTS[second - minute * 60]! + MILLI_TEXTS[rest - second * 1000]!;
}

/** 'HH:mm:ss' of a second of the day (0–86399). */
export function formatTimeOfDay(second: number): string {
  const hours = Math.floor(second / 3600);
  const minutes = Math.floor((second % 3600) / 60);
  return `${PAD2[hours]}:${PAD2[minutes]}:${PAD2[second % 60]}`;
}

/** Day of the week of a day number, Monday = 0 … Sunday = 6 (1970-01-01 was a Thursday). */
export function weekdayOf(day: number): number {
  return (((day + 3) % 7) + 7) % 7;
}

// Weekdays counted from Monday 1969-12-29 (day -3): the ordinal of the first weekday ≥ `day`.
function weekdaysBefore(day: number): number {
  const offset = day + 3;
  const weeks = Math.floor(offset / 7);
  return weeks * 5 + Math.min(offset - weeks * 7, 5);
}

function weekdayAt(ordinal: number): number {
  const weeks = Math.floor(ordinal / 5);
  return weeks * 7 + (ordinal - weeks * 5) - 3;
}

/** The days of [fromDay, toDay] (all, or Monday to Friday only) as an indexable list. */
export interface DayList {
  size: number;
  at(index: number): number;
}

export function dayList(fromDay: number, toDay: number, weekdaysOnly: boolean): DayList {
  if (!weekdaysOnly) return { size: Math.max(0, toDay - fromDay + 1), at: (index) => fromDay + index };
  const first = weekdaysBefore(fromDay);
  return { size: Math.max(0, weekdaysBefore(toDay + 1) - first), at: (index) => weekdayAt(first + index) };
}

const formatters = new Map<string, Intl.DateTimeFormat>();
const offsets = new Map<string, Map<number, number>>();

/** Offset of a time zone from UTC at an instant, in milliseconds (Europe/Berlin in summer: 7 200 000). */
export function zoneOffset(zone: string, ms: number): number {
  if (zone === 'UTC' || zone === 'Etc/UTC' || zone === 'GMT' || zone === 'Etc/GMT') return 0;
  let cache = offsets.get(zone);
  if (!cache) offsets.set(zone, (cache = new Map()));
  const bucket = Math.floor(ms / QUARTER_HOUR_MS);
  let offset = cache.get(bucket);
  if (offset !== undefined) return offset;
  let formatter = formatters.get(zone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(zone, formatter);
  }
  const at = bucket * QUARTER_HOUR_MS;
  const parts: Record<string, number> = {};
  for (const part of formatter.formatToParts(new Date(at))) parts[part.type] = Number(part.value);
  const wall = Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!);
  offset = wall - at;
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(bucket, offset);
  return offset;
}

/** Day number of the local date of an instant in a time zone. */
export function localDay(ms: number, zone: string): number {
  return Math.floor((ms + zoneOffset(zone, ms)) / DAY_MS);
}

/** The instant at which the wall clock of a time zone shows `wallMs` (read as if UTC). */
export function wallToInstant(wallMs: number, zone: string): number {
  const guess = wallMs - zoneOffset(zone, wallMs);
  return wallMs - zoneOffset(zone, guess);
}

const ZERO = 48;
const digitsAt = (text: string, at: number, count: number) => {
  let value = 0;
  for (let i = at; i < at + count; i++) value = value * 10 + text.charCodeAt(i) - ZERO;
  return value;
};

/** Milliseconds of a stored datetime ('YYYY-MM-DDTHH:mm:ss.sssZ' read without Date.parse, else Date.parse). */
export function parseIsoInstant(text: string): number {
  if (text.length !== 24 || text.charCodeAt(23) !== 90 /* Z */ || text.charCodeAt(10) !== 84 /* T */) return Date.parse(text);
  const day = parseDay(text);
  return day * DAY_MS + digitsAt(text, 11, 2) * 3_600_000 + digitsAt(text, 14, 2) * 60_000 + digitsAt(text, 17, 2) * 1000 + digitsAt(text, 20, 3);
}
