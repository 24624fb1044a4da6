import { describe, expect, it } from 'vitest';
import type { Field } from '../../../src/model/config-types.ts';
import { config, entity, expectRate, generate, values } from '../../helpers/generate-in-memory.ts';

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('values by type', () => {
  it.each<[string, Field, RegExp]>([
    ['date', { id: 'day', type: 'date' }, /^\d{4}-\d{2}-\d{2}$/],
    ['datetime', { id: 'at', type: 'datetime' }, ISO_INSTANT],
    ['time', { id: 'clock', type: 'time' }, /^([01]\d|2[0-3]):[0-5]\d:[0-5]\d$/],
    ['uuid', { id: 'ref', type: 'uuid' }, UUID_V4],
    ['email format', { id: 'contact', type: 'string', format: 'email' }, /^[a-z0-9._]+@[a-z0-9.-]+\.[a-z]+$/],
    ['url format', { id: 'home', type: 'string', format: 'url' }, /^https:\/\/[a-z0-9-]+\.[a-z]+$/],
    ['slug format', { id: 'path', type: 'string', format: 'slug' }, /^[a-z0-9]+(-[a-z0-9]+)+$/],
    ['phone format', { id: 'line', type: 'string', format: 'phone' }, /^[0-9()+. x-]{7,}$/],
    ['text', { id: 'story', type: 'text' }, /^[A-Z][a-z ]+\.( [A-Z][a-z ]+\.)*$/],
    ['plain string', { id: 'thing', type: 'string' }, /^[a-z]+( [a-z]+){0,2}$/],
  ])('%s values have their shape', (_name, field, shape) => {
    const generated = values(field, 300) as string[];
    for (const value of generated) expect(value).toMatch(shape);
    expect(new Set(generated).size).toBeGreaterThan(100);
  });

  it('booleans, enums, json and numbers have their JavaScript types', () => {
    expect(values({ id: 'flag', type: 'boolean' }, 50).every((value) => typeof value === 'boolean')).toBe(true);
    expect(new Set(values({ id: 'kind', type: 'enum', values: ['a', 'b', 'c'] }, 300))).toEqual(new Set(['a', 'b', 'c']));
    expect(values({ id: 'meta', type: 'json' }, 20).every((value) => typeof value === 'object' && value !== null && !Array.isArray(value))).toBe(true);
    const numbers = values({ id: 'measure', type: 'number' }, 500) as number[];
    expect(numbers.every((value) => value >= 0 && value <= 1000 && /^\d+(\.\d{1,2})?$/.test(String(value)))).toBe(true);
    const ints = values({ id: 'level', type: 'integer', min: -5, max: 5 }, 500) as number[];
    expect(new Set(ints).size).toBe(11);
  });

  it('digits keep numbers within their numeric(digits, precision) column, whatever makes them', () => {
    // A price is 1–1000 by its name and an unnamed number 0–1000: decimal(3,2) holds at most 9.99.
    // Ranges narrow to the column, so values spread over it rather than pile at 9.99; untyped sources are clamped.
    for (const [field, spread] of [
      [{ id: 'price', type: 'number', precision: 2, digits: 3 }, 100],
      [{ id: 'measure', type: 'number', precision: 2, digits: 3 }, 100],
      [{ id: 'measure', type: 'number', precision: 2, digits: 3, generation: { strategy: { kind: 'randomFloat', min: -500, max: 500 } } }, 100],
      [{ id: 'measure', type: 'number', precision: 2, digits: 3, generation: { strategy: { kind: 'faker', method: 'number.float', args: [{ min: -500, max: 500 }] } } }, 1],
    ] satisfies [Field, number][]) {
      const numbers = values(field, 300) as number[];
      expect(Math.max(...numbers.map(Math.abs))).toBeLessThanOrEqual(9.99);
      expect(new Set(numbers).size).toBeGreaterThan(spread);
    }
    // numeric(2, 0) as an integer field: at most 99 in magnitude, spread over the column.
    const levels = values({ id: 'level', type: 'integer', digits: 2, min: -1000, max: 1000 }, 300) as number[];
    expect(Math.max(...levels.map(Math.abs))).toBeLessThanOrEqual(99);
    expect(new Set(levels).size).toBeGreaterThan(100);
    // Wide columns change nothing.
    expect(values({ id: 'measure', type: 'number', precision: 2, digits: 10 }, 50)).toEqual(values({ id: 'measure', type: 'number', precision: 2 }, 50));
  });

  it('enum weights shape the distribution', () => {
    const n = 10_000;
    const picked = values({ id: 'tier', type: 'enum', values: ['free', 'pro', 'team'], weights: [7, 2, 1] }, n);
    expectRate(picked.filter((value) => value === 'free').length, n, 0.7);
    expectRate(picked.filter((value) => value === 'pro').length, n, 0.2);
    expectRate(picked.filter((value) => value === 'team').length, n, 0.1);
  });

  it('uuids are deterministic version-4 uuids, distinct per row', () => {
    const ids = values({ id: 'ref', type: 'uuid' }, 20_000);
    expect(new Set(ids).size).toBe(20_000);
    expect(values({ id: 'ref', type: 'uuid' }, 5)).toEqual(ids.slice(0, 5));
  });

  it('integer primary keys count up from 1 (or from their min, stopping at their max)', () => {
    expect(generate(config(entity('items', 5, []))).column('items', 'id')).toEqual([1, 2, 3, 4, 5]);
    const fromMin = config({ id: 'items', primaryKey: ['id'], generation: { rowCount: 3 }, fields: [{ id: 'id', type: 'integer', min: 1000, max: 1001 }] });
    const bounded = generate(fromMin);
    expect(bounded.column('items', 'id')).toEqual([1000, 1001]);
    expect(bounded.warnings).toEqual([
      { path: '/entities/0/fields/0', message: 'pool of 2 values for items.id within its min and max is exhausted after 2 rows; inserted 2 of 3 planned rows' },
    ]);
  });

  it('numbers honour min, max and precision', () => {
    const numbers = values({ id: 'ratio', type: 'number', min: -1, max: 1, precision: 3 }, 2000) as number[];
    expect(numbers.every((value) => value >= -1 && value <= 1 && /^-?\d(\.\d{1,3})?$/.test(String(value)))).toBe(true);
  });
});

describe('string constraints', () => {
  it('respects minLength and maxLength whatever the source', () => {
    const fields: Field[] = [
      { id: 'name', type: 'string', minLength: 30, maxLength: 40 },
      { id: 'email', type: 'string', format: 'email', maxLength: 12 },
      { id: 'code', type: 'string', minLength: 3, maxLength: 3 },
      { id: 'story', type: 'text', maxLength: 25 },
      { id: 'note', type: 'string', maxLength: 5, generation: { strategy: { kind: 'faker', method: 'lorem.paragraph' } } },
      { id: 'lit', type: 'string', minLength: 6, generation: { strategy: { kind: 'literal', value: 'ab' } } },
    ];
    const run = generate(config(entity('items', 300, fields)));
    const lengths = (field: string) => (run.column('items', field) as string[]).map((value) => value.length);
    expect(lengths('name').every((n) => n >= 30 && n <= 40)).toBe(true);
    expect(lengths('email').every((n) => n <= 12)).toBe(true);
    expect((run.column('items', 'email') as string[]).filter((value) => value.includes('@')).length).toBeGreaterThan(150);
    expect(lengths('code').every((n) => n === 3)).toBe(true);
    expect(lengths('story').every((n) => n <= 25)).toBe(true);
    expect(lengths('note').every((n) => n <= 5)).toBe(true);
    expect((run.column('items', 'lit') as string[]).every((value) => value.startsWith('ab') && value.length === 6)).toBe(true);
  });

  it('counts prefix and suffix within maxLength', () => {
    const field: Field = { id: 'sku', type: 'string', prefix: 'SKU-', suffix: '-X', maxLength: 12 };
    for (const value of values(field, 300) as string[]) {
      expect(value.startsWith('SKU-') && value.endsWith('-X')).toBe(true);
      expect(value.length).toBeLessThanOrEqual(12);
      expect(value.length).toBeGreaterThan(6);
    }
    const text = values({ id: 'memo', type: 'text', prefix: '[', suffix: ']' }, 5) as string[];
    expect(text.every((value) => value.startsWith('[') && value.endsWith(']'))).toBe(true);
  });

  it('ignores outputFormat: dates are stored as YYYY-MM-DD', () => {
    for (const outputFormat of ['iso', 'slash', 'sql'] as const) {
      expect((values({ id: 'day', type: 'date', outputFormat }, 20) as string[]).every((value) => /^\d{4}-\d{2}-\d{2}$/.test(value))).toBe(true);
    }
  });
});

describe('dates, weekdays and time zones', () => {
  const weekday = (date: string) => new Date(`${date}T00:00:00Z`).getUTCDay();
  const formats = new Map<string, Intl.DateTimeFormat>();
  const localWeekday = (instant: string, timeZone: string) => {
    if (!formats.has(timeZone)) formats.set(timeZone, new Intl.DateTimeFormat('en-US', { timeZone, weekday: 'short' }));
    return formats.get(timeZone)!.format(new Date(instant));
  };

  it('weekdaysOnly dates fall on Monday to Friday, every weekday of the range used', () => {
    const dates = values({ id: 'due', type: 'date', weekdaysOnly: true, generation: { strategy: { kind: 'dateRange', from: '2024-01-01', to: '2024-01-31' } } }, 2000) as string[];
    expect(dates.every((date) => weekday(date) >= 1 && weekday(date) <= 5)).toBe(true);
    expect(new Set(dates).size).toBe(23);
  });

  it('weekdaysOnly datetimes fall on Monday to Friday in the entity time zone', () => {
    const zone = 'Pacific/Auckland';
    const instants = values(
      { id: 'at', type: 'datetime', weekdaysOnly: true },
      3000,
      {},
      { generation: { rowCount: 3000, timezone: zone } },
    ) as string[];
    const days = instants.map((instant) => localWeekday(instant, zone));
    expect(days.filter((day) => day === 'Sat' || day === 'Sun')).toEqual([]);
    expect(new Set(days)).toEqual(new Set(['Mon', 'Tue', 'Wed', 'Thu', 'Fri']));
    // In UTC some of these instants are still (or already) weekend days.
    expect(instants.some((instant) => [0, 6].includes(new Date(instant).getUTCDay()))).toBe(true);
  });

  it('reads dates and zone-less datetimes of dateRange bounds in the entity time zone', () => {
    const zone = 'America/New_York';
    const local = (rowCount: number) => ({ generation: { rowCount, timezone: zone } });
    const instants = values(
      { id: 'at', type: 'datetime', generation: { strategy: { kind: 'dateRange', from: '2024-07-04', to: '2024-07-04' } } },
      500,
      {},
      local(500),
    ) as string[];
    for (const instant of instants) {
      expect(instant >= '2024-07-04T04:00:00.000Z' && instant <= '2024-07-05T03:59:59.999Z').toBe(true);
    }
    expect(instants.some((instant) => instant.startsWith('2024-07-05'))).toBe(true);
    const wall = values(
      { id: 'at', type: 'datetime', generation: { strategy: { kind: 'dateRange', from: '2024-01-10T09:00', to: '2024-01-10T09:00' } } },
      3,
      {},
      local(3),
    );
    expect(wall).toEqual(['2024-01-10T14:00:00.000Z', '2024-01-10T14:00:00.000Z', '2024-01-10T14:00:00.000Z']);
    const today = values({ id: 'day', type: 'date', generation: { strategy: { kind: 'dateRange', from: 'now', to: 'now' } } }, 3, {}, local(3));
    expect(today).toEqual(['2025-06-14', '2025-06-14', '2025-06-14']);
  });
});

describe('defaults from the field id', () => {
  const run = generate(
    config(
      entity('people', 400, [
        { id: 'email', type: 'string' },
        { id: 'first_name', type: 'string' },
        { id: 'lastName', type: 'string' },
        { id: 'fullName', type: 'string' },
        { id: 'username', type: 'string' },
        { id: 'phone', type: 'string' },
        { id: 'city', type: 'string' },
        { id: 'country', type: 'string' },
        { id: 'countryCode', type: 'string' },
        { id: 'street', type: 'string' },
        { id: 'zip', type: 'string' },
        { id: 'company', type: 'string' },
        { id: 'jobTitle', type: 'string' },
        { id: 'website', type: 'string' },
        { id: 'avatar', type: 'string' },
        { id: 'title', type: 'string' },
        { id: 'bio', type: 'text' },
        { id: 'price', type: 'number' },
        { id: 'unitPrice', type: 'number', precision: 2 },
        { id: 'quantity', type: 'integer' },
        { id: 'age', type: 'integer' },
        { id: 'rating', type: 'number' },
        { id: 'createdAt', type: 'datetime' },
        { id: 'updated_at', type: 'datetime' },
        { id: 'birthDate', type: 'date' },
        { id: 'status', type: 'string' },
        { id: 'slug', type: 'string' },
        { id: 'color', type: 'string' },
        { id: 'currency', type: 'string' },
        { id: 'ipAddress', type: 'string' },
        { id: 'latitude', type: 'number' },
        { id: 'longitude', type: 'number' },
        { id: 'contactEmail', type: 'string' },
      ]),
    ),
  );
  const rows = run.objects('people');
  const all = (check: (row: Record<string, unknown>) => boolean) => expect(rows.filter((row) => !check(row))).toEqual([]);

  it('gives people, places and companies realistic text', () => {
    all((row) => /^[a-z0-9._]+@(gmail|yahoo|hotmail)\.com$/.test(row.email as string));
    all((row) => /^[a-z0-9._]+@/.test(row.contactEmail as string));
    all((row) => /^[A-Z][A-Za-z'’ -]+$/.test(row.first_name as string));
    all((row) => /^[A-Z][A-Za-z'’ -]+$/.test(row.lastName as string));
    all((row) => (row.fullName as string).split(' ').length >= 2);
    all((row) => /^[a-z0-9._]+$/.test(row.username as string));
    all((row) => /\d{3}/.test(row.phone as string));
    all((row) => /^[A-Z]/.test(row.city as string));
    all((row) => /^[A-Z]{2}$/.test(row.countryCode as string));
    all((row) => /^\d+ \S/.test(row.street as string));
    all((row) => /^\d{5}(-\d{4})?$/.test(row.zip as string));
    all((row) => /^https:\/\//.test(row.website as string) && /^https:\/\//.test(row.avatar as string));
    all((row) => /^[A-Z]/.test(row.title as string) && (row.bio as string).endsWith('.'));
    all((row) => /^[a-z0-9-]+$/.test(row.slug as string) && /^[a-z ]+$/.test(row.color as string));
    all((row) => /^[A-Z]{3}$/.test(row.currency as string) && /^\d+\.\d+\.\d+\.\d+$/.test(row.ipAddress as string));
    expect(new Set(rows.map((row) => row.status))).toEqual(new Set(['active', 'inactive', 'pending', 'archived']));
    expect(new Set(rows.map((row) => row.country)).size).toBeGreaterThan(100);
  });

  it('gives amounts, quantities, ages, ratings and coordinates plausible ranges', () => {
    all((row) => (row.price as number) >= 1 && (row.price as number) <= 1000 && /^\d+(\.\d{1,2})?$/.test(String(row.price)));
    all((row) => (row.unitPrice as number) > 0);
    all((row) => Number.isInteger(row.quantity) && (row.quantity as number) >= 1 && (row.quantity as number) <= 100);
    all((row) => Number.isInteger(row.age) && (row.age as number) >= 18 && (row.age as number) <= 90);
    all((row) => (row.rating as number) >= 1 && (row.rating as number) <= 5);
    all((row) => Math.abs(row.latitude as number) <= 90 && Math.abs(row.longitude as number) <= 180);
  });

  it('dates createdAt in the two years before the reference date, updatedAt after it, birth dates 18 to 90 years back', () => {
    all((row) => (row.createdAt as string) >= '2023-06-15' && (row.createdAt as string) <= '2025-06-15T00:00:00.000Z');
    all((row) => (row.updated_at as string) >= (row.createdAt as string) && (row.updated_at as string) <= '2025-06-15T00:00:00.000Z');
    all((row) => (row.birthDate as string) >= '1935-06-15' && (row.birthDate as string) <= '2007-06-15');
  });

  it('lets field bounds override the named defaults', () => {
    const ages = values({ id: 'age', type: 'integer', min: 30, max: 31 }, 200);
    expect(new Set(ages)).toEqual(new Set([30, 31]));
  });

  it('speaks the entity locale', () => {
    const german = generate(
      config(entity('kunden', 200, [{ id: 'city', type: 'string' }, { id: 'lastName', type: 'string' }, { id: 'street', type: 'string' }], { generation: { rowCount: 200, locale: 'de' } })),
    );
    const english = generate(config(entity('kunden', 200, [{ id: 'city', type: 'string' }, { id: 'lastName', type: 'string' }, { id: 'street', type: 'string' }])));
    expect(german.column('kunden', 'city')).not.toEqual(english.column('kunden', 'city'));
    expect((german.column('kunden', 'street') as string[]).every((street) => /\D \d+[a-z]?$/.test(street))).toBe(true);
    const japanese = generate(config(entity('users', 20, [{ id: 'fullName', type: 'string' }, { id: 'email', type: 'string' }], { generation: { rowCount: 20, locale: 'ja' } })));
    expect((japanese.column('users', 'fullName') as string[]).every((name) => /[^\x00-\x7f]/.test(name))).toBe(true);
    expect((japanese.column('users', 'email') as string[]).every((email) => /^[a-z0-9._]+@/.test(email))).toBe(true);
  });
});
