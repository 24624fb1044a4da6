// datetime: an instant, 'YYYY-MM-DDTHH:mm:ss.sssZ' in UTC (timestamptz / DATETIME(3)).
import { castJsonString, noFacets, nullable, type FieldTypeDescriptor } from './field-type.ts';
import { parseDatetime, readDatetime } from '../temporal.ts';

const readNullableDatetime = nullable(readDatetime);

export const datetimeType = {
  columnFacets: noFacets,
  castText: (_column, text) => parseDatetime(text),
  castJson: castJsonString((_column, text) => parseDatetime(text)),
  expectation: () => 'an ISO 8601 datetime (e.g. 2024-01-31T12:00:00Z)',
  reader: () => readNullableDatetime,
  filters: 'ordered',
  lengthBounds: false,
  valueBounds: false,
  sortable: true,
  tsType: 'DatetimeString',
  filterInput: 'text',
  family: 'datetime',
} as const satisfies FieldTypeDescriptor;
