// enum: one of the field's `values` (PostgreSQL text with a CHECK; MySQL ENUM).
import { castJsonString, type FieldTypeDescriptor } from './field-type.ts';
import { readText } from './string.ts';

const castText: FieldTypeDescriptor['castText'] = (column, text) => (column.values?.includes(text) ? text : undefined);

export const enumType = {
  columnFacets: (field) => ({ values: [...(field.values ?? [])] }),
  castText,
  castJson: castJsonString(castText),
  expectation: (column) => `one of ${(column.values ?? []).map((value) => JSON.stringify(value)).join(', ')}`,
  reader: () => readText,
  filters: 'textual',
  lengthBounds: false,
  valueBounds: false,
  sortable: true,
  tsType: 'string',
  filterInput: 'text',
  family: 'enum',
} as const satisfies FieldTypeDescriptor;
