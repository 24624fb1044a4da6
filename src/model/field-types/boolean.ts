// boolean: true or false (MySQL stores 1/0).
import { noFacets, nullable, type FieldTypeDescriptor } from './field-type.ts';

const readBoolean = nullable((raw) => raw === true || raw === 1 || raw === '1' || raw === 't' || raw === 'true');

export const booleanType = {
  columnFacets: noFacets,
  // Query texts: true/false/1/0, in any case.
  castText: (_column, text) => {
    const lower = text.toLowerCase();
    return lower === 'true' || lower === '1' ? true : lower === 'false' || lower === '0' ? false : undefined;
  },
  castJson: (_column, value) => (typeof value === 'boolean' ? value : undefined),
  expectation: () => 'true or false',
  reader: () => readBoolean,
  filters: 'equality',
  lengthBounds: false,
  valueBounds: false,
  sortable: true,
  tsType: 'boolean',
  filterInput: 'boolean',
  family: 'boolean',
} as const satisfies FieldTypeDescriptor;
