// date: 'YYYY-MM-DD', rendered in the field's outputFormat (iso, slash, sql); any of them is accepted.
import { castJsonString, noFacets, nullable, type FieldTypeDescriptor } from './field-type.ts';
import { parseDate, readDate, renderDate } from '../temporal.ts';

export const dateType = {
  columnFacets: noFacets,
  castText: (_column, text) => parseDate(text),
  castJson: castJsonString((_column, text) => parseDate(text)),
  expectation: () => 'a date (YYYY-MM-DD)',
  reader: (column) => {
    const format = column.outputFormat;
    return nullable((raw) => renderDate(readDate(raw), format));
  },
  filters: 'ordered',
  lengthBounds: false,
  valueBounds: false,
  sortable: true,
  tsType: 'DateString',
  filterInput: 'date',
  family: 'date',
} as const satisfies FieldTypeDescriptor;
