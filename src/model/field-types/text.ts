// text: long text without a length type (text / TEXT), bounded by minLength and maxLength on writes.
import type { FieldTypeDescriptor } from './field-type.ts';
import { stringType } from './string.ts';

export const textType = { ...stringType } as const satisfies FieldTypeDescriptor;
