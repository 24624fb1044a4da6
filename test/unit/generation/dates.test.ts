import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { DAY_MS, dayList, formatDay, formatInstant, formatTimeOfDay, localDay, parseDay, wallToInstant, weekdayOf, zoneOffset } from '../../../src/generation/values/dates.ts';

describe('date helpers', () => {
  it('format days and instants exactly as Date#toISOString does', () => {
    fc.assert(
      fc.property(fc.integer({ min: Date.UTC(1, 0, 1), max: Date.UTC(9999, 11, 31) }), (ms) => {
        const iso = new Date(ms).toISOString();
        return formatInstant(ms) === iso && formatDay(Math.floor(ms / DAY_MS)) === iso.slice(0, 10) && parseDay(iso) === Math.floor(ms / DAY_MS);
      }),
      { numRuns: 5000 },
    );
    expect(formatDay(0)).toBe('1970-01-01');
    expect(formatDay(-1)).toBe('1969-12-31');
    expect(formatDay(parseDay('2024-02-29'))).toBe('2024-02-29');
  });

  it('formats times of day', () => {
    expect([0, 59, 3600, 86_399].map(formatTimeOfDay)).toEqual(['00:00:00', '00:00:59', '01:00:00', '23:59:59']);
  });

  it('counts weekdays from Monday = 0', () => {
    expect(weekdayOf(parseDay('2024-01-01'))).toBe(0);
    expect(weekdayOf(parseDay('2024-01-06'))).toBe(5);
    expect(weekdayOf(parseDay('1969-12-28'))).toBe(6);
  });

  it('lists every day, or every weekday, of a range', () => {
    fc.assert(
      fc.property(fc.integer({ min: -3000, max: 30_000 }), fc.integer({ min: 0, max: 40 }), (from, length) => {
        const to = from + length;
        const all = Array.from({ length: length + 1 }, (_, i) => from + i);
        const week = dayList(from, to, true);
        const listed = Array.from({ length: week.size }, (_, i) => week.at(i));
        const every = dayList(from, to, false);
        return (
          JSON.stringify(listed) === JSON.stringify(all.filter((day) => weekdayOf(day) < 5)) &&
          every.size === all.length &&
          every.at(every.size - 1) === to
        );
      }),
      { numRuns: 500 },
    );
  });

  it('knows time-zone offsets, including daylight saving time', () => {
    expect(zoneOffset('UTC', Date.UTC(2024, 6, 1))).toBe(0);
    expect(zoneOffset('Europe/Berlin', Date.UTC(2024, 0, 15))).toBe(3_600_000);
    expect(zoneOffset('Europe/Berlin', Date.UTC(2024, 6, 15))).toBe(7_200_000);
    expect(zoneOffset('Asia/Kathmandu', Date.UTC(2024, 6, 15))).toBe(20_700_000);
    expect(zoneOffset('America/New_York', Date.UTC(2024, 2, 10, 6, 59))).toBe(-5 * 3_600_000);
    expect(zoneOffset('America/New_York', Date.UTC(2024, 2, 10, 7, 0))).toBe(-4 * 3_600_000);
    expect(localDay(Date.UTC(2024, 0, 1, 23, 30), 'Europe/Berlin')).toBe(parseDay('2024-01-02'));
    expect(wallToInstant(Date.UTC(2024, 6, 4, 9), 'America/New_York')).toBe(Date.UTC(2024, 6, 4, 13));
  });
});
