// uuid: lower-case 8-4-4-4-12 hex (uuid / CHAR(36)); a lone uuid primary key is generated on create.
import { castJsonString, noFacets, nullable, type FieldTypeDescriptor } from './field-type.ts';

const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

const castText: FieldTypeDescriptor['castText'] = (_column, text) => (UUID.test(text) ? text.toLowerCase() : undefined);
const readUuid = nullable((raw) => String(raw).toLowerCase());

export const uuidType = {
  columnFacets: noFacets,
  castText,
  castJson: castJsonString(castText),
  expectation: () => 'a UUID',
  reader: () => readUuid,
  filters: 'ordered',
  generatedKey: 'random-uuid',
  lengthBounds: false,
  valueBounds: false,
  sortable: true,
  tsType: 'UuidString',
  filterInput: 'text',
  family: 'uuid',
} as const satisfies FieldTypeDescriptor;
