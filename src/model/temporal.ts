// Dates, datetimes and times: parsing what clients send (into one canonical text each) and reading
// what the drivers return (PostgreSQL and MySQL text forms) into the same canonical JSON.

/** How date fields are rendered: `iso` 2024-01-31, `slash` 01/31/2024, `sql` 2024-01-31 00:00:00 (a field's `outputFormat`). */
export type DateOutputFormat = 'iso' | 'slash' | 'sql';

/** Years both databases hold in DATE and DATETIME columns (MySQL's range). */
const MIN_YEAR = 1000;
const MAX_YEAR = 9999;

function validDate(year: number, month: number, day: number): boolean {
  if (year < MIN_YEAR || year > MAX_YEAR || month < 1 || month > 12 || day < 1) return false;
  // Day 0 of the next month is the last day of this one.
  return day <= new Date(Date.UTC(year, month, 0)).getUTCDate();
}

const pad = (value: number, width = 2) => String(value).padStart(width, '0');

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const SLASH_DATE = /^(\d{2})\/(\d{2})\/(\d{4})$/;
const SQL_DATE = /^(\d{4})-(\d{2})-(\d{2}) 00:00:00$/;

/** `YYYY-MM-DD`, or a date in either other output format (`MM/DD/YYYY`, `YYYY-MM-DD 00:00:00`) → `YYYY-MM-DD`. */
export function parseDate(text: string): string | undefined {
  let year: number;
  let month: number;
  let day: number;
  const iso = ISO_DATE.exec(text) ?? SQL_DATE.exec(text);
  const slash = iso ? null : SLASH_DATE.exec(text);
  if (iso) [year, month, day] = [Number(iso[1]), Number(iso[2]), Number(iso[3])];
  else if (slash) [year, month, day] = [Number(slash[3]), Number(slash[1]), Number(slash[2])];
  else return undefined;
  return validDate(year, month, day) ? `${pad(year, 4)}-${pad(month)}-${pad(day)}` : undefined;
}

const DATETIME = /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?([Zz]|[+-]\d{2}(?::?\d{2})?)?$/;

/**
 * An ISO 8601 datetime (or date, meaning midnight) → UTC `YYYY-MM-DDTHH:mm:ss.sssZ`. An offset is
 * applied; without one the time is UTC. Fractions beyond milliseconds are cut, as MySQL's
 * DATETIME(3) would round them differently from PostgreSQL's microseconds.
 */
export function parseDatetime(text: string): string | undefined {
  const match = DATETIME.exec(text);
  if (!match) return undefined;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const [hour, minute, second] = [Number(match[4] ?? 0), Number(match[5] ?? 0), Number(match[6] ?? 0)];
  if (!validDate(year, month, day) || hour > 23 || minute > 59 || second > 59) return undefined;
  const millis = Number((match[7] ?? '').padEnd(3, '0').slice(0, 3));
  let offsetMinutes = 0;
  const offset = match[8];
  if (offset && offset.toUpperCase() !== 'Z') {
    const digits = offset.slice(1).replace(':', '');
    const hours = Number(digits.slice(0, 2));
    const minutes = Number(digits.slice(2) || 0);
    if (hours > 23 || minutes > 59) return undefined;
    offsetMinutes = (offset[0] === '-' ? -1 : 1) * (hours * 60 + minutes);
  }
  const date = new Date(Date.UTC(year, month - 1, day, hour, minute, second, millis) - offsetMinutes * 60_000);
  const utcYear = date.getUTCFullYear();
  if (utcYear < MIN_YEAR || utcYear > MAX_YEAR) return undefined;
  return date.toISOString();
}

const TIME = /^(\d{2}):(\d{2})(?::(\d{2}))?$/;

/** `HH:mm` or `HH:mm:ss`, 00:00:00 to 23:59:59 → `HH:mm:ss`. */
export function parseTime(text: string): string | undefined {
  const match = TIME.exec(text);
  if (!match) return undefined;
  const [hour, minute, second] = [Number(match[1]), Number(match[2]), Number(match[3] ?? 0)];
  if (hour > 23 || minute > 59 || second > 59) return undefined;
  return `${match[1]}:${match[2]}:${pad(second)}`;
}

/** A `YYYY-MM-DD` date in its field's output format. */
export function renderDate(date: string, format: DateOutputFormat): string {
  switch (format) {
    case 'iso':
      return date;
    case 'slash':
      return `${date.slice(5, 7)}/${date.slice(8, 10)}/${date.slice(0, 4)}`;
    case 'sql':
      return `${date} 00:00:00`;
  }
}

const DRIVER_DATETIME = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2})(?:\.(\d+))?(Z|[+-]\d{2}(?::?\d{2})?)?$/;

/**
 * A datetime as a driver returns it (PostgreSQL timestamptz text in a UTC session,
 * '2024-01-31 12:00:00.5+00'; MySQL DATETIME(3) text, '2024-01-31 12:00:00.500', stored as UTC)
 * → '2024-01-31T12:00:00.500Z'.
 */
export function readDatetime(raw: unknown): string {
  if (raw instanceof Date) return raw.toISOString();
  const text = String(raw);
  // Already canonical (what the generator makes): the match below would give it back unchanged.
  if (text.length === 24 && text.charCodeAt(23) === 90 /* Z */ && text.charCodeAt(10) === 84 /* T */ && text.charCodeAt(19) === 46 /* . */) return text;
  const match = DRIVER_DATETIME.exec(text);
  if (!match) return text;
  const millis = (match[3] ?? '').padEnd(3, '0').slice(0, 3);
  const offset = match[4];
  if (!offset || offset === 'Z' || /^\+00(?::?00)?$/.test(offset)) return `${match[1]}T${match[2]}.${millis}Z`;
  return parseDatetime(`${match[1]}T${match[2]}.${millis}${offset}`) ?? text;
}

/** A date as a driver returns it ('YYYY-MM-DD', or a Date at UTC midnight) → 'YYYY-MM-DD'. */
export function readDate(raw: unknown): string {
  return raw instanceof Date ? raw.toISOString().slice(0, 10) : String(raw).slice(0, 10);
}

/** A time as a driver returns it ('HH:MM:SS' with an optional fraction) → 'HH:mm:ss'. */
export function readTime(raw: unknown): string {
  return String(raw).slice(0, 8);
}
