// text: long text without a length type (text / TEXT), bounded by minLength and maxLength on writes.
import { noFacets, type FieldTypeDescriptor } from './field-type.ts';
import { stringType } from './string.ts';

// Its maxLength bounds values on writes only: the column stays text (no varchar).
export const textType = { ...stringType, columnFacets: noFacets } as const satisfies FieldTypeDescriptor;
