// time: a time of day, 'HH:mm:ss'.
import { castJsonString, noFacets, nullable, type FieldTypeDescriptor } from './field-type.ts';
import { parseTime, readTime } from '../temporal.ts';

const readNullableTime = nullable(readTime);

export const timeType = {
  columnFacets: noFacets,
  castText: (_column, text) => parseTime(text),
  castJson: castJsonString((_column, text) => parseTime(text)),
  expectation: () => 'a time (HH:mm:ss)',
  reader: () => readNullableTime,
  filters: 'ordered',
  lengthBounds: false,
  valueBounds: false,
  sortable: true,
  tsType: 'TimeString',
  filterInput: 'time',
  family: 'time',
} as const satisfies FieldTypeDescriptor;
