// Typed runtime list queries (filters, sort, projection, populate) and their serialisation in the
// forms the runtime API documents: `filters[name][$eq]=x`, `filters[role][$in][0]=a`, `populate=a`.
import type { FieldType, FieldTypeOperators, FilterOperator } from './generated/filter-operators.js';

export type { FieldType, FieldTypeOperators, FilterOperator } from './generated/filter-operators.js';

/** Any runtime row: a JSON object whose shape follows the table's entity. */
export type Row = Record<string, unknown>;

/** The string keys of a row type. */
export type FieldName<R> = Extract<keyof R, string>;

/**
 * A value of a field whose type a plain TypeScript type cannot tell apart from others (a uuid, a
 * date, a datetime or a time is a `string`, a json value anything): `sds types` writes such fields
 * as `FieldValue<'uuid', string>`. It is still a plain `string` to read and write; the flavour only
 * tells `FieldFilter` which operators the server accepts on it (no `$contains` on a uuid).
 */
export type FieldValue<T extends FieldType, V> = V & { readonly __sdsFieldType?: T };

/** The flavour of a `FieldValue`, or never. */
type FlavourOf<V> = '__sdsFieldType' extends keyof V ? Exclude<V['__sdsFieldType' & keyof V], undefined> : never;

/**
 * The field type of a value type: its `FieldValue` flavour; otherwise strings (string, text and
 * enum fields) as `string`, numbers as `number`, booleans as `boolean`, anything else as `json`.
 */
export type FieldTypeOf<V> = [FlavourOf<NonNullable<V>>] extends [never]
  ? [NonNullable<V>] extends [string]
    ? 'string'
    : [NonNullable<V>] extends [number]
      ? 'number'
      : [NonNullable<V>] extends [boolean]
        ? 'boolean'
        : 'json'
  : Extract<FlavourOf<NonNullable<V>>, FieldType>;

/** Operators of every field type but json. */
export interface EqualityOperators<V> {
  /** Equal. */
  $eq?: V;
  /** Not equal; rows whose value is null are kept. */
  $ne?: V;
  /** One of the values (sent as indexed values, `[$in][0]=a&[$in][1]=b`). */
  $in?: readonly V[];
  /** None of the values; rows whose value is null are kept. */
  $notIn?: readonly V[];
  /** `true`: the value is null; `false`: it is not. */
  $null?: boolean;
}

/** Comparison operators, for every type but boolean and json. */
export interface OrderingOperators<V> {
  $gt?: V;
  $gte?: V;
  $lt?: V;
  $lte?: V;
}

/** Text operators, for string, text and enum fields; `%` and `_` match literally. */
export interface TextOperators {
  /** Contains the text. */
  $contains?: string;
  /** Contains the text, ignoring case. */
  $containsi?: string;
  $startsWith?: string;
  $endsWith?: string;
}

/** Every operator with the value it takes on a field whose values are `V`. */
interface AllOperators<V> extends EqualityOperators<V>, OrderingOperators<V>, TextOperators {}

/** Fails to compile while AllOperators and the server's operator table name different operators. */
type SameOperators = [Exclude<FilterOperator, keyof AllOperators<unknown>> | Exclude<keyof AllOperators<unknown>, FilterOperator>] extends [never] ? true : never;
const sameOperators: SameOperators = true;
void sameOperators;

/**
 * The filter of a field of type `T` whose values are `V`: exactly the operators the server accepts
 * on that type (its operator table, `FieldTypeOperators`).
 */
export type TypedFilter<T extends FieldType, V> = Pick<AllOperators<V>, FieldTypeOperators[T]>;

/** The filter of a string, text or enum field: every operator. */
export interface StringFilter<V extends string = string> extends TypedFilter<'string', V> {}
/** The filter of a number field: equality, comparison and set operators. */
export interface NumberFilter<V extends number = number> extends TypedFilter<'number', V> {}
/** The filter of a boolean field: `$eq`, `$ne`, `$in`, `$notIn`, `$null`. */
export interface BooleanFilter extends TypedFilter<'boolean', boolean> {}
/** The filter of a json field: `$null` only. */
export interface NullFilter extends TypedFilter<'json', never> {}
/** Every operator, for fields whose type is not known (`unknown`, as in untyped rows). */
export interface AnyFieldFilter extends EqualityOperators<string | number | boolean>, OrderingOperators<string | number>, TextOperators {}

/** The filter of a field of value type `V` whose field type is `T`. */
type FilterOfType<T extends FieldType, V> = T extends 'string'
  ? StringFilter<Extract<V, string>>
  : T extends 'number'
    ? NumberFilter<Extract<V, number>>
    : T extends 'boolean'
      ? BooleanFilter
      : T extends 'json'
        ? NullFilter
        : TypedFilter<T, V>;

/**
 * The operators allowed on a field of value type `V`, as the server's operator table says
 * (`FieldTypeOperators`): string, text and enum fields take every operator; uuid, date, datetime
 * and time fields (`FieldValue` flavours, as `sds types` writes them) and numbers the comparison and
 * set operators; booleans `$eq`/`$ne`/`$in`/`$notIn`; json fields `$null` only; every field `$null`.
 * A field typed `unknown` (untyped rows) takes every operator.
 */
export type FieldFilter<V> = unknown extends V ? AnyFieldFilter : [NonNullable<V>] extends [never] ? NullFilter : FilterOfType<FieldTypeOf<V>, NonNullable<V>>;

/** Filters on the fields of a row type; several filters combine with AND. */
export type Filters<R = Row> = { [K in FieldName<R>]?: FieldFilter<R[K]> };

/** `field`, `field:asc` or `field:desc`. */
export type SortTerm<R = Row> = FieldName<R> | `${FieldName<R>}:asc` | `${FieldName<R>}:desc`;

/** One sort term or several, applied in order. */
export type Sort<R = Row> = SortTerm<R> | readonly SortTerm<R>[];

/** A projection: the fields to return. */
export type Fields<R = Row> = readonly FieldName<R>[];

/**
 * The row type each reference field of a row points to, e.g. `{ authorId: UsersRow }`. A client
 * given `SourceReferences` (`sds types` writes it) works these out per table; without them every
 * populated reference is a `PopulatedRow`.
 */
export type ReferencedRows = Record<string, Row>;

/**
 * Reference fields to populate (replace by the referenced row): a list of field names, or an
 * object that can also project each populated row: `{ authorId: { fields: ['id', 'name'] } }`.
 * With known `Targets`, only reference fields may be named, and only fields of the referenced table projected.
 */
export type Populate<R = Row, Targets = {}> =
  | readonly ([keyof Targets] extends [never] ? FieldName<R> : Extract<keyof Targets, FieldName<R>>)[]
  | {
      readonly [K in [keyof Targets] extends [never] ? FieldName<R> : Extract<keyof Targets, FieldName<R>>]?:
        | true
        | { readonly fields?: readonly (K extends keyof Targets ? FieldName<Targets[K]> : string)[] };
    };

/** Any populate value; the client's methods check it against the table (`Populate`). */
export type AnyPopulate = readonly string[] | { readonly [field: string]: true | { readonly fields?: readonly string[] } | undefined };

/** Query of a runtime list. */
export interface ListQuery<R = Row, F extends Fields<R> | undefined = Fields<R> | undefined, P extends AnyPopulate | undefined = Populate<R> | undefined> {
  filters?: Filters<R>;
  sort?: Sort<R>;
  /** Projection: only these fields are returned. */
  fields?: F;
  populate?: P;
  /** Page size (default 25, at most 1000; `0` returns only the pagination metadata). */
  limit?: number;
  /** Rows to skip. */
  offset?: number;
}

/** Query of a single row read. */
export interface ReadQuery<R = Row, F extends Fields<R> | undefined = Fields<R> | undefined, P extends AnyPopulate | undefined = Populate<R> | undefined> {
  fields?: F;
  populate?: P;
}

type PopulatedKeys<P> = P extends readonly (infer K)[] ? K : P extends object ? keyof P : never;

/** The value of a populated reference field whose table is unknown: the referenced row, or null. */
export type PopulatedRow = Row | null;

/** `populate.<K>.fields` of a populate query, or undefined when it does not project `K`. */
type PopulateProjection<P, K> = P extends readonly unknown[] ? undefined : K extends keyof P ? (P[K] extends { readonly fields?: infer S } ? S : undefined) : undefined;

/** A row narrowed to the fields `S` names, or whole when `S` names none. */
type Projected<T, S> = S extends readonly (infer N)[] ? { [Q in N & keyof T]: T[Q] } : T;

/** The value of a populated field `K`: its table's row (projected as asked), or null. */
type PopulatedValue<K, P, Targets> = K extends keyof Targets ? Projected<Targets[K], PopulateProjection<P, K>> | null : PopulatedRow;

/**
 * The row type a query returns: projected by `fields` (plus the fields it populates), with
 * populated reference fields replaced by the referenced rows.
 */
export type Selected<R, F = undefined, P = undefined, Targets = {}> = {
  [K in (F extends readonly (infer S)[] ? S & keyof R : keyof R) | (PopulatedKeys<P> & keyof R)]: K extends PopulatedKeys<P>
    ? PopulatedValue<K, P, Targets>
    : R[K];
};

/** Identity helper that type-checks filters against a row type outside a call. */
export function filters<R = Row>(value: Filters<R>): Filters<R> {
  return value;
}

/** Percent-encoding that keeps `$` and `:` (allowed in a query string) readable: `[$eq]`, `id:desc`. */
const encode = (value: string) => encodeURIComponent(value).replace(/%24/g, '$').replace(/%3A/gi, ':');

function scalar(value: unknown, where: string): string {
  if (value instanceof Date) return value.toISOString();
  switch (typeof value) {
    case 'string':
      return value;
    case 'number':
    case 'bigint':
    case 'boolean':
      return String(value);
    default:
      throw new TypeError(`${where}: cannot send ${value === null ? 'null' : typeof value} in a query string`);
  }
}

/** `key[a][b]=v` pairs of a nested object; arrays become indexed keys (`key[$in][0]=v`). */
function appendDeep(parts: string[], key: string, value: unknown, where: string): void {
  if (value === undefined) return;
  if (Array.isArray(value)) {
    if (value.length === 0) throw new RangeError(`${where} needs at least one value`);
    value.forEach((item, index) => appendDeep(parts, `${key}[${index}]`, item, `${where}[${index}]`));
  } else if (typeof value === 'object' && value !== null && !(value instanceof Date)) {
    for (const [name, inner] of Object.entries(value)) appendDeep(parts, `${key}[${encode(name)}]`, inner, `${where}.${name}`);
  } else {
    parts.push(`${key}=${encode(scalar(value, where))}`);
  }
}

const list = (value: unknown, where: string) =>
  (Array.isArray(value) ? value : [value]).map((item) => encode(scalar(item, where))).join(',');

function appendPopulate(parts: string[], value: unknown): void {
  if (typeof value === 'string' || Array.isArray(value)) {
    if (Array.isArray(value) && value.length === 0) return;
    parts.push(`populate=${list(value, 'populate')}`);
    return;
  }
  if (typeof value !== 'object' || value === null) throw new TypeError('populate: expected field names or an object');
  const entries = Object.entries(value).filter(([, spec]) => spec !== undefined && spec !== false);
  if (entries.length === 0) return;
  parts.push(`populate=${entries.map(([name]) => encode(name)).join(',')}`);
  for (const [name, spec] of entries) {
    const projection = typeof spec === 'object' && spec !== null ? (spec as { fields?: unknown }).fields : undefined;
    // The documented dot form: `populate` itself stays a plain string for qs-style parsers,
    // which would turn `populate=a&populate[a][fields]=x` into an array of a string and an object.
    if (projection !== undefined) parts.push(`populate.${encode(name)}.fields=${list(projection, `populate.${name}.fields`)}`);
  }
}

/**
 * Serialises a query object in the runtime API's bracket form, and is the SDK's openapi-fetch
 * `querySerializer`:
 * - `filters` → `filters[field][$op]=value`, arrays as indexed values (`filters[role][$in][0]=a`);
 * - `fields`, `sort` → comma-separated (`sort=createdAt:desc,id`);
 * - `populate` → `populate=a,b`, plus `populate.a.fields=x,y` (the documented dot form) for projected populated rows;
 * - other objects → bracket form; other arrays → repeated (`key=a&key=b`); `undefined` is left out.
 * An empty `$in`/`$notIn` list throws a `RangeError` (sending nothing would match every row).
 */
export function serializeQuery(query: Record<string, unknown> | undefined): string {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value === undefined || value === null) continue;
    if (key === 'populate') appendPopulate(parts, value);
    else if (key === 'fields' || key === 'sort') {
      if (!Array.isArray(value) || value.length > 0) parts.push(`${encode(key)}=${list(value, key)}`);
    } else if (Array.isArray(value)) for (const item of value) parts.push(`${encode(key)}=${encode(scalar(item, key))}`);
    else appendDeep(parts, encode(key), value, key);
  }
  return parts.join('&');
}
