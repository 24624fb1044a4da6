// A field's database default (`default` in the config): a literal of its type, cast once to the
// canonical value the dialects write into DDL, or one of a few functions the database evaluates.
// Also the bounds every stored value keeps (min/max, lengths), shared by defaults and runtime writes.
import type { Field, FieldType } from './config-types.ts';
import { fieldType } from './field-types/index.ts';
import type { RowValue } from './row-value.ts';
import type { ColumnSpec } from './table-spec.ts';

export type DefaultFunction = 'now' | 'current_date' | 'uuid';

/** The type each default function fits: now → datetime, current_date → date, uuid → uuid. */
export const DEFAULT_FUNCTION_TYPES = {
  now: 'datetime',
  current_date: 'date',
  uuid: 'uuid',
} as const satisfies Record<DefaultFunction, FieldType>;

/** A column's default as the DDL writes it: a cast literal, or a function. */
export type ColumnDefault = { value: Exclude<RowValue, null> } | { function: DefaultFunction };

/** The bounds of a column's values: lengths in characters for strings, inclusive min and max for numbers. */
export interface ValueBounds {
  type: FieldType;
  minLength?: number;
  maxLength?: number;
  min?: number;
  max?: number;
}

/** Why a cast value breaks its bounds ("must be at most 500"), or undefined when it keeps them. */
export function boundsProblem(bounds: ValueBounds, value: RowValue): string | undefined {
  const descriptor = fieldType(bounds.type);
  if (typeof value === 'string' && descriptor.lengthBounds) {
    // Lengths in characters (code points), as varchar(n) counts them on both databases.
    const length = [...value].length;
    if (bounds.maxLength !== undefined && length > bounds.maxLength) return `must be at most ${bounds.maxLength} characters long`;
    if (bounds.minLength !== undefined && length < bounds.minLength) return `must be at least ${bounds.minLength} characters long`;
  }
  if ((typeof value === 'number' || typeof value === 'bigint') && descriptor.valueBounds) {
    if (bounds.min !== undefined && value < bounds.min) return `must be at least ${bounds.min}`;
    if (bounds.max !== undefined && value > bounds.max) return `must be at most ${bounds.max}`;
  }
  return undefined;
}

/**
 * A field's default, cast; or the problem with it (a pointer below the field, a message naming the
 * field as `name`) when it does not fit the field.
 */
export function castFieldDefault(field: Field, name = field.id): { default: ColumnDefault } | { at: string; problem: string } | undefined {
  const declared = field.default;
  if (declared === undefined) return undefined;
  if ('function' in declared) {
    const fits = DEFAULT_FUNCTION_TYPES[declared.function];
    if (fits !== field.type) return { at: '/default/function', problem: `default function "${declared.function}" of ${name} gives ${fits} values, but ${name} is ${field.type}; use ${functionFor(field.type)}` };
    return { default: { function: declared.function } };
  }
  const column: ColumnSpec = { name: field.id, type: field.type, nullable: false, ...fieldType(field.type).columnFacets(field) };
  const value = declared.value as unknown;
  const cast = value === null ? undefined : fieldType(field.type).castJson(column, value);
  if (cast === undefined || cast === null) return { at: '/default/value', problem: `default ${JSON.stringify(value)} of ${name} is not ${fieldType(field.type).expectation(column)}; give a value the field accepts` };
  const problem = boundsProblem(field, cast);
  if (problem) return { at: '/default/value', problem: `default ${JSON.stringify(value)} of ${name} ${problem}; give a value the field accepts` };
  return { default: { value: cast } };
}

/** The advice for a field type without a fitting function. */
function functionFor(type: FieldType): string {
  const fitting = Object.entries(DEFAULT_FUNCTION_TYPES).find(([, fits]) => fits === type)?.[0];
  return fitting ? `"${fitting}"` : 'a literal "value" instead';
}
