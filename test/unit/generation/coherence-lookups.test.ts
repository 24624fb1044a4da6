// The coherence report's per-row look-ups (report-lookups.ts) answer exactly what the plain forms
// they replace would (a Set of joined place keys, a Map of time strings), and the US ZIP codes read
// as JSON are the ones require('zipcodes') gives.
import { createRequire } from 'node:module';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { usZipCodes } from '../../../src/generation/coherence/places.ts';
import { ParentTimes, PlaceTuples } from '../../../src/generation/coherence/report-lookups.ts';
import { formatDay, formatInstant } from '../../../src/generation/values/dates.ts';

const require = createRequire(import.meta.url);
const textOrder = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

describe('US ZIP codes', () => {
  it('are read as JSON, and are the codes require() gives', () => {
    const read = usZipCodes();
    const required = require('zipcodes') as { codes: Record<string, { country: string }>; states: { abbr: Record<string, string> } };
    expect(read.via).toBe('json');
    const us = Object.fromEntries(Object.entries(required.codes).filter(([, zip]) => zip.country === 'US'));
    expect(Object.keys(read.codes)).toEqual(Object.keys(us));
    expect(read.codes).toEqual(us);
    expect(read.abbr).toEqual(required.states.abbr);
  });
});

describe('PlaceTuples', () => {
  const tuples = [
    ['United States', 'New York', 'New York', '10001', '+1'],
    ['United States', 'New York', 'Albany', '12201', '+1'],
    ['United States', 'Texas', 'Paris', '75460', '+1'],
    ['United States', 'Texas', 'Paris', '75461', '+1'],
    ['United States', 'Texas', 'Austin', '', '+1'],
    // Places with an area code: the phone's first two groups.
    ['Germany', 'Sachsen', 'Dresden', '01067', '+49 351'],
    ['Germany', 'Berlin', 'Berlin', '10115', '+49 30'],
  ];
  // Row columns in another order, with other fields between them.
  const columns = [7, 1, 5, 3, 0];
  const row = (values: (string | null | number)[]) => {
    const out: (string | number | null)[] = Array(8).fill('other');
    columns.forEach((column, i) => (out[column] = values[i]!));
    return out;
  };
  // A phone matches a reference value it is, or that it starts with followed by a space.
  const joined = new Set(tuples.map((tuple) => tuple.join('\u0000')));
  const plain = (values: (string | null | number)[]) => {
    if (values.some((value) => typeof value !== 'string')) return undefined;
    const phone = values[4] as string;
    const groups = phone.split(' ');
    return groups.some((_group, end) => joined.has([...values.slice(0, 4), groups.slice(0, end + 1).join(' ')].join('\u0000')));
  };
  const known = new PlaceTuples(tuples, columns, 4);
  const cases: [string, (string | null | number)[]][] = [
    ['a reference tuple', ['United States', 'New York', 'New York', '10001', '+1 212 555 0134']],
    ['a place without a postal code', ['United States', 'Texas', 'Austin', '', '+1 512 555 0199']],
    ['a phone without spaces', ['United States', 'Texas', 'Paris', '75461', '+1']],
    ['another calling code', ['United States', 'New York', 'New York', '10001', '+44 20 7946 0958']],
    ['a calling code that only starts the same', ['United States', 'New York', 'New York', '10001', '+12 212 555 0134']],
    ['a phone that is only the prefix of a code', ['United States', 'New York', 'New York', '10001', '+']],
    ['a city of another state', ['United States', 'New York', 'Paris', '75460', '+1 903 555 0100']],
    ['a postal code of another city', ['United States', 'Texas', 'Paris', '12201', '+1 903 555 0100']],
    ['an unknown postal code', ['United States', 'Texas', 'Paris', '99999', '+1 903 555 0100']],
    ['a null field', ['United States', null, 'Paris', '75460', '+1 903 555 0100']],
    ['a null field after a miss', ['Canada', 'Texas', 'Paris', '75460', null]],
    ['a number', ['United States', 'Texas', 'Paris', 75460, '+1 903 555 0100']],
    ['a phone with the place’s area code', ['Germany', 'Sachsen', 'Dresden', '01067', '+49 351 4567890']],
    ['a two-digit area code', ['Germany', 'Berlin', 'Berlin', '10115', '+49 30 45678901']],
    ['a phone that is the calling code and area code', ['Germany', 'Sachsen', 'Dresden', '01067', '+49 351']],
    ['another area code', ['Germany', 'Sachsen', 'Dresden', '01067', '+49 341 4567890']],
    ['an area code that only starts the same', ['Germany', 'Sachsen', 'Dresden', '01067', '+49 3512 456789']],
    ['the calling code alone where an area code is due', ['Germany', 'Sachsen', 'Dresden', '01067', '+49 4567890']],
    ['an area code split', ['Germany', 'Sachsen', 'Dresden', '01067', '+49 35 14567890']],
  ];
  for (const [name, values] of cases) {
    it(`answers as a Set of joined keys for ${name}`, () => {
      expect(known.has(row(values))).toBe(plain(values));
    });
  }
  it('finds every reference tuple', () => {
    for (const tuple of tuples) expect(known.has(row([...tuple.slice(0, 4), `${tuple[4]} 555 0100`]))).toBe(true);
  });
});

describe('ParentTimes', () => {
  const instant = fc.integer({ min: -62_135_596_800_000, max: 253_402_300_799_999 }).map(formatInstant);
  const time = fc.oneof(
    instant,
    instant,
    fc.integer({ min: 0, max: 80_000 }).map(formatDay),
    fc.constantFrom('2025-06-15T10:00:00+02:00', '2025-06-15T10:00:00.000z', '2025-06-15 10:00:00.000Z', 'not a time', '2025-06-15T1x:00:00.000Z'),
  );
  const key = fc.oneof(fc.integer({ min: 0, max: 300 }), fc.integer({ min: 300, max: 5000 }), fc.constantFrom(-1, 0.5, 2 ** 31, 'k1', 'k2'));

  it('compares a child time with the last time set for its key, as the strings compare', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(key, time), { maxLength: 40 }), key, time, (sets, asked, child) => {
        const times = new ParentTimes(100);
        const strings = new Map<unknown, string>();
        for (const [k, t] of sets) {
          times.set(k, t);
          strings.set(k, t);
        }
        const parent = strings.get(asked);
        const got = times.compare(asked, child, textOrder);
        if (parent === undefined) expect(got).toBeUndefined();
        else expect(Math.sign(got!)).toBe(textOrder(child, parent));
      }),
      { numRuns: 3000 },
    );
  });

  it('hands times of another form to the compare function as stored', () => {
    const times = new ParentTimes(10);
    times.set(3, '2025-06-15T10:00:00.000Z');
    times.set(4, '2025-06-15');
    const seen: [string, string][] = [];
    const record = (a: string, b: string) => (seen.push([a, b]), 0);
    times.compare(3, '2025-06-16', record);
    times.compare(4, '2025-06-16T00:00:00.000Z', record);
    expect(seen).toEqual([
      ['2025-06-16', '2025-06-15T10:00:00.000Z'],
      ['2025-06-16T00:00:00.000Z', '2025-06-15'],
    ]);
  });
});
