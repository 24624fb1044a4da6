// What a field type is, declared once per type (one file each in this folder, gathered in index.ts):
// how client values are cast to it, how its values render as JSON, which filter operators apply, how
// a lone primary key of it is generated, and what the studio and `sds types` call it. Per-engine DDL
// and driver encodings live beside each dialect, in tables typed `Record<FieldType, …>` as well.
import type { JsonValue } from '../render.ts';
import type { RowValue } from '../row-value.ts';
import type { Field } from '../config-types.ts';
import type { ColumnSpec } from '../table-spec.ts';
import type { RuntimeColumn } from '../tables.ts';

/** Reads one driver value (or a cast value, see RowValue) into its JSON rendering. */
export type Reader = (raw: unknown) => JsonValue;

/**
 * The filter operators a type takes (src/runtime/operators.ts): `textual` every operator, the LIKE
 * ones included; `ordered` equality and ranges; `equality` equality and lists; `none` only `$null`.
 */
export type FilterClass = 'textual' | 'ordered' | 'equality' | 'none';

/** What a column spec takes from its field beyond name, type and nullability (an integer's width is buildTableSpecs'). */
export type ColumnFacets = Pick<ColumnSpec, 'maxLength' | 'precision' | 'values'>;

export interface FieldTypeDescriptor {
  /** The column facets of a field of this type (string: maxLength; number: precision; enum: values). */
  columnFacets(field: Field): ColumnFacets;
  /** Casts a query-string or path text (filters, row ids) to the canonical RowValue; undefined when it does not fit. */
  castText(column: ColumnSpec, text: string): RowValue | undefined;
  /** Casts a JSON body value; undefined when it does not fit. */
  castJson(column: ColumnSpec, value: unknown): RowValue | undefined;
  /** What a value must be, for messages: "an integer", "a date (YYYY-MM-DD)". */
  expectation(column: ColumnSpec): string;
  /** The reader of a column's driver values, null included (built once per column). */
  reader(column: RuntimeColumn): Reader;
  filters: FilterClass;
  /**
   * How create fills a lone primary key of this type that the body leaves out: the table's max plus
   * one, or a random uuid; absent when the body must give it.
   */
  generatedKey?: 'next-integer' | 'random-uuid';
  /** The field's minLength and maxLength bound its values (in characters), checked on writes. */
  lengthBounds: boolean;
  /** The field's min and max bound its values, checked on writes. */
  valueBounds: boolean;
  /** Values order the same on every database, so `sort` takes the field and pages without a primary key break ties by it. */
  sortable: boolean;
  /** The TypeScript type of its values in `sds types` output (flavoured names are declared there). */
  tsType: string;
  /** The studio's input for a filter value of this type: an HTML input type, a true/false choice, or `text` with suggestions. */
  filterInput: 'number' | 'date' | 'time' | 'boolean' | 'text';
  /**
   * Its column type family: a reference takes the family of its target, and introspection sees no type
   * change within a family (string and text are `text`; every other type is a family of its own).
   */
  family: string;
}

/** Facets of a type whose column needs none beyond its type. */
export const noFacets = (): ColumnFacets => ({});

/** A reader that answers null for a null (or absent) value and reads anything else with `read`. */
export const nullable =
  (read: Reader): Reader =>
  (raw) =>
    raw === null || raw === undefined ? null : read(raw);

/** Text as PostgreSQL can store it: no NUL characters (MySQL could, so both refuse them). */
export function storableText(text: string): string | undefined {
  return text.includes('\0') ? undefined : text;
}

/** A JSON body value of a type cast from text: strings only, cast as a query text would be. */
export const castJsonString =
  (castText: FieldTypeDescriptor['castText']): FieldTypeDescriptor['castJson'] =>
  (column, value) =>
    typeof value === 'string' ? castText(column, value) : undefined;
