// number: finite decimals (double precision, or numeric(digits or 18 + precision, precision)).
import { nullable, type FieldTypeDescriptor } from './field-type.ts';

const NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

const castText: FieldTypeDescriptor['castText'] = (_column, text) => {
  if (!NUMBER.test(text)) return undefined;
  const value = Number(text);
  return Number.isFinite(value) ? value : undefined;
};

const readNumber = nullable((raw) => (typeof raw === 'number' ? raw : Number(raw)));

export const numberType = {
  columnFacets: (field) =>
    field.precision === undefined
      ? {}
      : { precision: field.precision, ...(field.digits !== undefined && field.digits >= field.precision ? { digits: field.digits } : {}) },
  castText,
  castJson: (column, value) => {
    if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
    return typeof value === 'string' ? castText(column, value) : undefined;
  },
  expectation: () => 'a finite number',
  reader: () => readNumber,
  filters: 'ordered',
  lengthBounds: false,
  valueBounds: true,
  sortable: true,
  tsType: 'number',
  filterInput: 'number',
  family: 'number',
} as const satisfies FieldTypeDescriptor;
