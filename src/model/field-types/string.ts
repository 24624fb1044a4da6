// string: short text, varchar(maxLength) when the field sets one.
import { castJsonString, nullable, storableText, type FieldTypeDescriptor } from './field-type.ts';

/** Text as the drivers return it (both already give strings). */
export const readText = nullable((raw) => (typeof raw === 'string' ? raw : String(raw)));

export const stringType = {
  columnFacets: (field) => (field.maxLength !== undefined ? { maxLength: field.maxLength } : {}),
  castText: (_column, text) => storableText(text),
  castJson: castJsonString((_column, text) => storableText(text)),
  expectation: () => 'a string without NUL characters',
  reader: () => readText,
  filters: 'textual',
  lengthBounds: true,
  valueBounds: false,
  sortable: true,
  tsType: 'string',
  filterInput: 'text',
  family: 'text',
} as const satisfies FieldTypeDescriptor;
