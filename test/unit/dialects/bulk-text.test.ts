// The fast paths of the bulk-load encoders must write exactly what the general paths write.
import { describe, expect, it } from 'vitest';
import { numberText } from '../../../src/dialects/bulk-text.ts';
import type { ColumnSpec } from '../../../src/model/table-spec.ts';
import type { RowValue } from '../../../src/model/row-value.ts';
import { escapeLoadDataText, loadDataEncoder, mysqlValue } from '../../../src/dialects/mysql/mysql-loader.ts';

/** A deterministic stream of doubles in [0, 1) (xorshift), so failures reproduce. */
function doubles(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 4_294_967_296;
  };
}

describe('numberText', () => {
  it.each([undefined, 0, 1, 2, 3, 4, 2.5])('is String() for every kind of number, precision %s', (precision) => {
    const text = numberText(precision);
    const next = doubles(7);
    const values: number[] = [0, -0, 0.5, -0.5, 0.1, 0.07, 0.005, 1.005, 1e-7, 1e21, 2 ** 50, 2 ** 53, NaN, Infinity, -Infinity, Number.MIN_VALUE, Number.MAX_VALUE];
    for (let i = 0; i < 20_000; i++) {
      const magnitude = 10 ** Math.floor(next() * 16 - 3);
      const raw = (next() - 0.3) * magnitude;
      // Rounded to 0–4 places as generators round, and unrounded.
      values.push(raw, Math.round(raw * 10 ** (i % 5)) / 10 ** (i % 5));
    }
    for (const value of values) expect(text(value), String(value)).toBe(String(value));
  });

  it('is String() for integers around the digit tables\' edges (999, 1000, 1001…) and past safe integers', () => {
    const text = numberText(undefined);
    const values = [-0, 7, 999, 1000, 1001, 10_000, 999_999, 1_000_000, 1_000_001, 100_200_300, -1000, -1_000_001, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER, 2 ** 53, 2 ** 60, 1e21];
    for (let value = 0; value < 2_100_000; value += 997) values.push(value);
    for (const value of values) expect(text(value), String(value)).toBe(String(value));
  });
});

describe('LOAD DATA encoders', () => {
  const columns: ColumnSpec[] = [
    { name: 'b', type: 'boolean', nullable: true },
    { name: 'i', type: 'integer', nullable: true, big: true },
    { name: 'n', type: 'number', nullable: true, precision: 2 },
    { name: 'dt', type: 'datetime', nullable: true },
    { name: 'd', type: 'date', nullable: true },
    { name: 't', type: 'time', nullable: true },
    { name: 'u', type: 'uuid', nullable: true },
    { name: 's', type: 'string', nullable: true },
    { name: 'e', type: 'enum', nullable: true, values: ['a'] },
    { name: 'j', type: 'json', nullable: true },
  ];
  const values: RowValue[] = [
    true,
    false,
    0,
    12.34,
    -7,
    9007199254740993n,
    'text',
    'tab\there',
    'back\\slash',
    '2024-01-31T12:34:56.789Z',
    '2024-01-31T12:34:56Z',
    '2024-01-31T14:34:56.789+02:00',
    '2024-01-31T12:34:56.78xZ',
    '2024-01-31\t12:34:56.789Z',
    '2024-01-31',
    '08:30:00',
    'a\0b',
    new Date(Date.UTC(2024, 0, 2, 3, 4, 5, 6)),
    { nested: ['x\ty'] },
  ];

  it('write every value as mysqlValue and escaping do', () => {
    for (const column of columns) {
      const encode = loadDataEncoder(column);
      for (const value of values) {
        const want = outcome(() => {
          const converted = mysqlValue(column, value);
          return typeof converted === 'number' ? String(converted) : escapeLoadDataText(converted);
        });
        expect(outcome(() => encode(value)), `${column.type} ${String(value)}`).toEqual(want);
      }
    }
  });
});

/** A value or the error it threw (a BigInt in a JSON column fails either way). */
function outcome(run: () => string): { value: string } | { error: string } {
  try {
    return { value: run() };
  } catch (error) {
    return { error: String(error) };
  }
}
