// integer: 64-bit whole numbers (integer, or bigint when values may leave 32 bits); JSON numbers
// when exact, else their digits as a string.
import type { JsonValue } from '../render.ts';
import { noFacets, nullable, type FieldTypeDescriptor } from './field-type.ts';

const INTEGER = /^[+-]?\d{1,20}$/;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** A 64-bit integer: a number when exact in a double, else a bigint. */
export function castInteger(text: string): number | bigint | undefined {
  if (!INTEGER.test(text)) return undefined;
  const value = BigInt(text);
  if (value < INT64_MIN || value > INT64_MAX) return undefined;
  const number = Number(value);
  return Number.isSafeInteger(number) ? number : value;
}

/** A number when exact, else the digits as a string (JSON numbers lose integers beyond 2^53). */
export function readInteger(raw: unknown): JsonValue {
  if (typeof raw === 'number') return raw;
  const text = String(raw);
  const number = Number(text);
  return Number.isSafeInteger(number) ? number : text;
}

const readNullableInteger = nullable(readInteger);

export const integerType = {
  columnFacets: noFacets,
  castText: (_column, text) => castInteger(text),
  // Integers beyond 2^53 must come as strings: a JSON number has lost them.
  castJson: (_column, value) => {
    if (typeof value === 'number') return Number.isSafeInteger(value) ? value : undefined;
    return typeof value === 'string' ? castInteger(value) : undefined;
  },
  expectation: () => 'an integer (64-bit; beyond 2^53 as a string)',
  reader: () => readNullableInteger,
  filters: 'ordered',
  generatedKey: 'next-integer',
  lengthBounds: false,
  valueBounds: true,
  sortable: true,
  tsType: 'number',
  filterInput: 'number',
  family: 'integer',
} as const satisfies FieldTypeDescriptor;
