// The field-type registry: one descriptor per type of the contract, and what is derived from it (the
// operators each type takes, generated keys, length bounds), as tables of examples.
import { describe, expect, it } from 'vitest';
import { FIELD_TYPES, type FieldType } from '../../../src/contract.ts';
import { FIELD_TYPE_DESCRIPTORS, fieldType, type FilterClass } from '../../../src/model/field-types/index.ts';
import { castText } from '../../../src/model/cast.ts';
import { valueRenderer } from '../../../src/model/render.ts';
import type { RuntimeColumn } from '../../../src/model/tables.ts';
import { operatorsFor } from '../../../src/runtime/operators.ts';
import { FIELD_TYPE_FILTERS } from '../../../sdk/src/index.ts';

const column = (type: FieldType, extra: Partial<RuntimeColumn> = {}): RuntimeColumn => ({ name: 'x', type, nullable: true, outputFormat: 'iso', ...extra });

describe('FIELD_TYPE_DESCRIPTORS', () => {
  it('has one descriptor per field type of the contract, in its order', () => {
    expect(Object.keys(FIELD_TYPE_DESCRIPTORS)).toEqual([...FIELD_TYPES]);
  });

  it('leaves only json out of sort', () => {
    expect(FIELD_TYPES.filter((type) => !fieldType(type).sortable)).toEqual(['json']);
  });

  it.each<[FieldType, { filters: FilterClass; generatedKey?: string; lengthBounds: boolean }]>([
    ['string', { filters: 'textual', lengthBounds: true }],
    ['text', { filters: 'textual', lengthBounds: true }],
    ['enum', { filters: 'textual', lengthBounds: false }],
    ['integer', { filters: 'ordered', generatedKey: 'next-integer', lengthBounds: false }],
    ['number', { filters: 'ordered', lengthBounds: false }],
    ['date', { filters: 'ordered', lengthBounds: false }],
    ['datetime', { filters: 'ordered', lengthBounds: false }],
    ['time', { filters: 'ordered', lengthBounds: false }],
    ['uuid', { filters: 'ordered', generatedKey: 'random-uuid', lengthBounds: false }],
    ['boolean', { filters: 'equality', lengthBounds: false }],
    ['json', { filters: 'none', lengthBounds: false }],
  ])('%s', (type, want) => {
    const { filters, generatedKey, lengthBounds } = fieldType(type);
    expect({ filters, generatedKey, lengthBounds }).toEqual({ ...want, generatedKey: want.generatedKey });
  });
});

describe('operators by filter class', () => {
  const RANGE = ['$gt', '$gte', '$lt', '$lte'];
  const TEXT = ['$contains', '$containsi', '$startsWith', '$endsWith'];
  const EQUALITY = ['$eq', '$ne', '$in', '$notIn'];
  it.each(FIELD_TYPES)('%s takes the operators of its class, and the SDK says the same', (type) => {
    const operators: string[] = operatorsFor(type);
    const filters = fieldType(type).filters;
    expect(operators).toContain('$null');
    expect(EQUALITY.every((name) => operators.includes(name))).toBe(filters !== 'none');
    expect(RANGE.every((name) => operators.includes(name))).toBe(filters === 'ordered' || filters === 'textual');
    expect(TEXT.some((name) => operators.includes(name))).toBe(filters === 'textual');
    expect(FIELD_TYPE_FILTERS[type]).toEqual({ operators, input: fieldType(type).filterInput });
  });
});

describe('cast then render', () => {
  it.each<[string, { type: FieldType; text: string; extra?: Partial<RuntimeColumn>; want: unknown }]>([
    ['a string as given', { type: 'string', text: 'Ada', want: 'Ada' }],
    ['an enum value of the column', { type: 'enum', text: 'b', extra: { values: ['a', 'b'] }, want: 'b' }],
    ['an integer beyond 2^53 as its digits', { type: 'integer', text: '9007199254740993', want: '9007199254740993' }],
    ['a number', { type: 'number', text: '2.50', want: 2.5 }],
    ['a boolean from 1', { type: 'boolean', text: '1', want: true }],
    ['a slash date in the iso format', { type: 'date', text: '01/31/2024', want: '2024-01-31' }],
    ['a date in its output format', { type: 'date', text: '2024-01-31', extra: { outputFormat: 'slash' }, want: '01/31/2024' }],
    ['a datetime with an offset in UTC', { type: 'datetime', text: '2024-01-31T12:00:00+01:00', want: '2024-01-31T11:00:00.000Z' }],
    ['a time with seconds added', { type: 'time', text: '09:30', want: '09:30:00' }],
    ['a uuid in lower case', { type: 'uuid', text: 'A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11', want: 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11' }],
  ])('%s', (_name, { type, text, extra, want }) => {
    const target = column(type, extra);
    const cast = castText(target, text);
    expect(cast).not.toBeUndefined();
    expect(valueRenderer(target)(cast!)).toEqual(want);
  });

  it.each<[FieldType, string]>([
    ['json', '{}'],
    ['integer', '1.5'],
    ['enum', 'c'],
    ['string', 'a\0b'],
  ])('%s refuses %j', (type, text) => {
    expect(castText(column(type, { values: ['a'] }), text)).toBeUndefined();
  });
});
