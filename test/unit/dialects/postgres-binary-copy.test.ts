// numeric's binary form from a decimal's text: base-10000 digits, the first one's weight, the sign
// and the display scale (PostgreSQL's numeric_send layout).
import { describe, expect, it } from 'vitest';
import { numericDigits } from '../../../src/dialects/postgres/postgres-binary-copy.ts';

describe('numericDigits', () => {
  it.each([
    ['0', { digits: [], weight: 0, sign: 0, scale: 0 }],
    ['-0.00', { digits: [], weight: 0, sign: 0, scale: 2 }],
    ['12.5', { digits: [12, 5000], weight: 0, sign: 0, scale: 1 }],
    ['-12345.678', { digits: [1, 2345, 6780], weight: 1, sign: 0x4000, scale: 3 }],
    ['10000', { digits: [1], weight: 1, sign: 0, scale: 0 }],
    ['0.0001', { digits: [1], weight: -1, sign: 0, scale: 4 }],
    ['0.00001', { digits: [1000], weight: -2, sign: 0, scale: 5 }],
    ['1e-7', { digits: [10], weight: -2, sign: 0, scale: 7 }],
    ['1e+21', { digits: [10], weight: 5, sign: 0, scale: 0 }],
    ['1.5e2', { digits: [150], weight: 0, sign: 0, scale: 0 }],
    ['NaN', { digits: [], weight: 0, sign: 0xc000, scale: 0 }],
  ] as const)('%s', (text, want) => expect(numericDigits(text)).toEqual(want));

  it.each(['', '.', 'abc', '1.2.3', 'Infinity', '1e99999', '12,5'])('%j is no decimal', (text) => expect(numericDigits(text)).toBeUndefined());
});
