// The runtime's filter operators, declared once: name, whether it takes a list, the field types it
// applies to, how its values are read and how it compiles. Parsing (parse-query.ts), planning
// (plan.ts), compiling (compile.ts), the runtime docs and the SDK's filter types (written into
// sdk/src/generated/ by `npm run generate`) all derive from this table.
import { FIELD_TYPES, type FieldType } from '../contract.ts';
import { FIELD_TYPE_DESCRIPTORS, type FieldTypeDescriptor, type FilterClass } from '../model/field-types/index.ts';
import type { ColumnSpec } from '../model/table-spec.ts';
import type { SqlHooks } from '../dialects/dialect.ts';
import type { RowValue } from '../model/row-value.ts';

/** Collects bind parameters of one statement and hands out their placeholders (compile.ts). */
export interface OperandParams {
  /** A value of `column`, typed as the column. */
  typed(column: ColumnSpec, value: RowValue): string;
  /** A plain value (LIKE pattern, limit, offset). */
  plain(value: unknown): string;
}

/** What an operator's compile hook gets: the quoted column, its spec, the planned values. */
export interface OperatorSite {
  dialect: SqlHooks;
  /** The quoted column name. */
  name: string;
  column: ColumnSpec;
  /** Cast values: one for scalar operators, one or more for list operators; `$null` holds true or false. */
  values: RowValue[];
  params: OperandParams;
}

export interface OperatorSpec {
  /** Takes a list: comma-separated, repeated or indexed values (`$in=a,b`, `[$in][0]=a`). */
  list: boolean;
  /** The field types it applies to; any other answers 400. */
  types: readonly FieldType[];
  /**
   * How its values are read: cast to the column's type, taken as text (the LIKE operators), or
   * `true`/`false` (`$null`).
   */
  operand: 'column' | 'text' | 'boolean';
  /** The condition it compiles to. */
  compile(site: OperatorSite): string;
}

/**
 * The field types of some filter classes (each type's descriptor names its class). A type of the
 * contract without a descriptor yet takes none, so that `npm run generate` (which loads this table)
 * still runs while the compiler lists the places a new type needs.
 */
const typesOf = (...classes: FilterClass[]): readonly FieldType[] =>
  FIELD_TYPES.filter((type) => {
    const descriptor: FieldTypeDescriptor | undefined = FIELD_TYPE_DESCRIPTORS[type];
    return descriptor !== undefined && classes.includes(descriptor.filters);
  });
/** Types whose values order meaningfully and the same on both databases. */
const ORDERED = typesOf('ordered', 'textual');
/** Types the text operators apply to. */
const TEXTUAL = typesOf('textual');
/** Types that compare for equality: all but those filtered by `$null` only. */
const COMPARABLE = typesOf('equality', 'ordered', 'textual');

const compare =
  (sign: string) =>
  ({ dialect, name, column, values, params }: OperatorSite) =>
    `${dialect.comparable(name, column)} ${sign} ${params.typed(column, values[0]!)}`;

const like =
  (pattern: (escaped: string) => string, caseInsensitive: boolean) =>
  ({ dialect, name, values, params }: OperatorSite) =>
    dialect.like(name, params.plain(pattern(escapeLike(String(values[0]), dialect.likeEscape))), caseInsensitive);

const list = ({ column, values, params }: OperatorSite) => values.map((value) => params.typed(column, value)).join(', ');

export const FILTER_OPERATORS = {
  $eq: { list: false, types: COMPARABLE, operand: 'column', compile: ({ name, column, values, params }) => `${name} = ${params.typed(column, values[0]!)}` },
  // Null-aware: rows whose value is null are kept.
  $ne: { list: false, types: COMPARABLE, operand: 'column', compile: ({ dialect, name, column, values, params }) => dialect.distinctFrom(name, params.typed(column, values[0]!)) },
  $gt: { list: false, types: ORDERED, operand: 'column', compile: compare('>') },
  $gte: { list: false, types: ORDERED, operand: 'column', compile: compare('>=') },
  $lt: { list: false, types: ORDERED, operand: 'column', compile: compare('<') },
  $lte: { list: false, types: ORDERED, operand: 'column', compile: compare('<=') },
  $in: { list: true, types: COMPARABLE, operand: 'column', compile: (site) => `${site.name} IN (${list(site)})` },
  // Null-aware like $ne: rows whose value is null are kept.
  $notIn: { list: true, types: COMPARABLE, operand: 'column', compile: (site) => `(${site.name} IS NULL OR ${site.name} NOT IN (${list(site)}))` },
  $contains: { list: false, types: TEXTUAL, operand: 'text', compile: like((text) => `%${text}%`, false) },
  $containsi: { list: false, types: TEXTUAL, operand: 'text', compile: like((text) => `%${text}%`, true) },
  $startsWith: { list: false, types: TEXTUAL, operand: 'text', compile: like((text) => `${text}%`, false) },
  $endsWith: { list: false, types: TEXTUAL, operand: 'text', compile: like((text) => `%${text}`, false) },
  $null: { list: false, types: FIELD_TYPES, operand: 'boolean', compile: ({ name, values }) => `${name} ${values[0] === true ? 'IS NULL' : 'IS NOT NULL'}` },
} as const satisfies Record<`$${string}`, OperatorSpec>;

export type FilterOperator = keyof typeof FILTER_OPERATORS;

/** Operator names in table order. */
export const OPERATOR_NAMES = Object.keys(FILTER_OPERATORS) as FilterOperator[];

export function isFilterOperator(name: string): name is FilterOperator {
  return Object.hasOwn(FILTER_OPERATORS, name);
}

export function operatorSpec(operator: FilterOperator): OperatorSpec {
  return FILTER_OPERATORS[operator];
}

/** Whether `operator` applies to fields of `type`. */
export function appliesTo(operator: FilterOperator, type: FieldType): boolean {
  return (FILTER_OPERATORS[operator].types as readonly FieldType[]).includes(type);
}

/** The operators that apply to fields of `type`, in table order. */
export function operatorsFor(type: FieldType): FilterOperator[] {
  return OPERATOR_NAMES.filter((operator) => appliesTo(operator, type));
}

/** Escapes %, _ and the escape character itself, so user text matches literally. */
export function escapeLike(text: string, escape: string): string {
  let escaped = '';
  for (const character of text) escaped += character === '%' || character === '_' || character === escape ? escape + character : character;
  return escaped;
}
