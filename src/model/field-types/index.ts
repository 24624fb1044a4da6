// The field-type registry: one descriptor per field type of the contract (FIELD_TYPES). A type added
// to the schema config's enum fails to compile here until it has a descriptor, and then in every
// `Record<FieldType, …>` table beside the dialects and file formats.
import type { FieldType } from '../../contract.ts';
import { booleanType } from './boolean.ts';
import { dateType } from './date.ts';
import { datetimeType } from './datetime.ts';
import { enumType } from './enum.ts';
import type { FieldTypeDescriptor } from './field-type.ts';
import { integerType } from './integer.ts';
import { jsonType } from './json.ts';
import { numberType } from './number.ts';
import { stringType } from './string.ts';
import { textType } from './text.ts';
import { timeType } from './time.ts';
import { uuidType } from './uuid.ts';

export type { FieldTypeDescriptor, FilterClass, Reader } from './field-type.ts';

export const FIELD_TYPE_DESCRIPTORS = {
  string: stringType,
  text: textType,
  integer: integerType,
  number: numberType,
  boolean: booleanType,
  date: dateType,
  datetime: datetimeType,
  time: timeType,
  uuid: uuidType,
  json: jsonType,
  enum: enumType,
} as const satisfies Record<FieldType, FieldTypeDescriptor>;

/** The descriptor of a field type. */
export function fieldType(type: FieldType): FieldTypeDescriptor {
  return FIELD_TYPE_DESCRIPTORS[type];
}

/** Whether two field types are of one column type family (string and text), see FieldTypeDescriptor.family. */
export function sameTypeFamily(a: FieldType, b: FieldType): boolean {
  return FIELD_TYPE_DESCRIPTORS[a].family === FIELD_TYPE_DESCRIPTORS[b].family;
}
