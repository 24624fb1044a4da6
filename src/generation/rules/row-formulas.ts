// Arithmetic relations that common names state (generator version 4): a `total` is its row's
// subtotal plus tax and shipping less discount, and a line's `amount` is its quantity times its unit
// price, whenever the row has those fields. The rules of field-rules.ts make these fields from here,
// and the coherence report checks the same relation on the rows made (to the cent).
import type { Entity, Field } from '../../model/config-types.ts';
import type { RowValue } from '../../model/row-value.ts';
import type { RuleMaker } from './field-rule.ts';
import { normalizeId } from './field-rule.ts';

/** Names (normalised) of a row's parts of a total. */
const SUBTOTALS = ['subtotal', 'subtotalamount', 'netamount', 'nettotal', 'net', 'itemstotal', 'itemtotal'];
const TAXES = ['tax', 'taxamount', 'taxes', 'vat', 'vatamount', 'salestax', 'taxtotal', 'totaltax'];
const SHIPPING = ['shipping', 'shippingcost', 'shippingamount', 'shippingfee', 'shippingtotal', 'freight', 'handling', 'deliveryfee'];
const DISCOUNTS = ['discount', 'discountamount', 'discounttotal', 'totaldiscount'];
/** Names of a line's quantity and unit price. */
const QUANTITIES = ['quantity', 'qty', 'units', 'quantityordered', 'itemcount', 'count'];
const UNIT_PRICES = ['unitprice', 'price', 'priceeach', 'unitcost', 'listprice', 'saleprice', 'itemprice', 'rate'];

/** Names a sum of a row's subtotal, tax, shipping and discount goes into. */
const SUM_TOTALS = ['total', 'totalamount', 'grandtotal', 'amountdue', 'totaldue', 'amount', 'totalprice', 'totalcost'];
/** Names a line's quantity × unit price goes into. */
const LINE_TOTALS = ['linetotal', 'lineamount', 'extendedprice', 'extendedamount', 'amount', 'total', 'subtotal', 'totalprice', 'linesubtotal', 'lineprice'];

/** One term of a formula: a field of the row and its sign (products multiply their terms). */
export interface RowFormula {
  /** `rate`: the one term times one of TAX_RATES, drawn per row. */
  kind: 'sum' | 'product' | 'rate';
  /** What the formula reads, as the report names it: `subtotal+tax-discount`, `quantity*unit_price`. */
  text: string;
  terms: { index: number; sign: 1 | -1 }[];
}

const NUMERIC = new Set(['integer', 'number']);

/** The index of the row's numeric field (other than `field`) whose normalised id is one of `names`, that a formula may read. */
function input(entity: Entity, field: Field, names: readonly string[]): number {
  for (const name of names) {
    const index = entity.fields.findIndex(
      (other) =>
        other !== field &&
        NUMERIC.has(other.type) &&
        normalizeId(other.id) === name &&
        !other.references &&
        // A formula of the user's own could read the field this one makes: never a cycle.
        other.generation?.strategy?.kind !== 'formula' &&
        other.generation?.strategy?.kind !== 'reference',
    );
    if (index >= 0) return index;
  }
  return -1;
}

/** The sum a total field is in its row (a subtotal and at least a tax, shipping or discount), if any. */
export function sumFormula(entity: Entity, field: Field): RowFormula | undefined {
  const id = normalizeId(field.id);
  if (!SUM_TOTALS.includes(id) && !(id.endsWith('total') && !SUBTOTALS.includes(id))) return undefined;
  const subtotal = input(entity, field, SUBTOTALS);
  if (subtotal < 0) return undefined;
  const added = [input(entity, field, TAXES), input(entity, field, SHIPPING)].filter((index) => index >= 0);
  const discount = input(entity, field, DISCOUNTS);
  if (added.length === 0 && discount < 0) return undefined;
  const terms: RowFormula['terms'] = [subtotal, ...added].map((index) => ({ index, sign: 1 }));
  if (discount >= 0) terms.push({ index: discount, sign: -1 });
  const text = terms.map((term, i) => `${i === 0 ? '' : term.sign > 0 ? '+' : '-'}${entity.fields[term.index]!.id}`).join('');
  return { kind: 'sum', text, terms };
}

/** The product a line total is in its row (a quantity and a unit price), if any. */
export function productFormula(entity: Entity, field: Field): RowFormula | undefined {
  if (!LINE_TOTALS.includes(normalizeId(field.id)) && !normalizeId(field.id).endsWith('linetotal')) return undefined;
  const quantity = input(entity, field, QUANTITIES);
  const price = input(entity, field, UNIT_PRICES);
  if (quantity < 0 || price < 0) return undefined;
  return { kind: 'product', text: `${entity.fields[quantity]!.id}*${entity.fields[price]!.id}`, terms: [quantity, price].map((index) => ({ index, sign: 1 })) };
}

/** Sales tax and VAT rates a row's tax is drawn from. */
export const TAX_RATES = [0.05, 0.06, 0.07, 0.075, 0.08, 0.0825, 0.1, 0.2];

/** The rate a tax field is of its row's subtotal, if the row has one. */
export function taxFormula(entity: Entity, field: Field): RowFormula | undefined {
  if (!TAXES.includes(normalizeId(field.id))) return undefined;
  const subtotal = input(entity, field, SUBTOTALS);
  if (subtotal < 0) return undefined;
  return { kind: 'rate', text: `${entity.fields[subtotal]!.id}*rate`, terms: [{ index: subtotal, sign: 1 }] };
}

/** The formula a field of version 4 is made by (the sum first: a total with a subtotal is no line total), if any. */
export function rowFormulaOf(entity: Entity, field: Field): RowFormula | undefined {
  return sumFormula(entity, field) ?? productFormula(entity, field) ?? taxFormula(entity, field);
}

/** Whether a row's field holds its formula, to the cent (a rate: one of TAX_RATES); undefined when a side is missing. */
export function rowFormulaHolds(formula: RowFormula, value: RowValue, values: readonly RowValue[]): boolean | undefined {
  if (typeof value !== 'number') return undefined;
  if (formula.kind === 'rate') {
    const base = values[formula.terms[0]!.index];
    if (typeof base !== 'number') return undefined;
    return TAX_RATES.some((rate) => Math.round(toCents(base) * rate) === toCents(value));
  }
  const expected = evaluateRowFormula(formula, values);
  return expected === null ? undefined : toCents(value) === toCents(expected);
}

/** Whole cents of a number: sums and products of cents are exact in them. */
const toCents = (value: number) => Math.round(value * 100);

/** The formula's value on a row, to the cent; null when an input is missing (a missing discount, tax or shipping counts 0). */
export function evaluateRowFormula(formula: RowFormula, values: readonly RowValue[]): number | null {
  const numbers = formula.terms.map((term) => {
    const value = values[term.index];
    return typeof value === 'number' ? value : typeof value === 'bigint' ? Number(value) : null;
  });
  if (formula.kind === 'rate') return null;
  if (formula.kind === 'product') {
    const [quantity, price] = numbers;
    if (quantity === null || quantity === undefined || price === null || price === undefined) return null;
    return Math.round(quantity * toCents(price)) / 100;
  }
  if (numbers[0] === null) return null;
  let cents = 0;
  formula.terms.forEach((term, i) => (cents += term.sign * toCents(numbers[i] ?? 0)));
  return cents / 100;
}

const maker =
  (formulaOf: (entity: Entity, field: Field) => RowFormula | undefined): RuleMaker =>
  (context, field) => {
    const formula = formulaOf(context.entity, field);
    if (!formula) return undefined;
    // A required field gets a value even where an input was left empty: the missing parts count 0.
    const missing = field.nullable ? null : 0;
    // Whole cents over 100 are already the stored value of a decimal field with 2 or more places and no bounds.
    const typed = field.type === 'number' && (field.precision === undefined || field.precision >= 2) && field.min === undefined && field.max === undefined;
    return { at: (_row, values) => evaluateRowFormula(formula, values) ?? missing, deps: formula.terms.map((term) => term.index), typed };
  };

/** A total: subtotal + tax + shipping − discount of its row. */
export const sumTotal: RuleMaker = maker(sumFormula);
/** A line total: quantity × unit price of its row. */
export const lineTotal: RuleMaker = maker(productFormula);

/** A tax: its row's subtotal times a rate of TAX_RATES (one per row), to the cent. */
export const taxOfSubtotal: RuleMaker = (context, field, stream) => {
  const formula = taxFormula(context.entity, field);
  if (!formula) return undefined;
  const subtotal = formula.terms[0]!.index;
  const missing = field.nullable ? null : 0;
  const typed = field.type === 'number' && (field.precision === undefined || field.precision >= 2) && field.min === undefined && field.max === undefined;
  return {
    at: (row, values) => {
      const base = values[subtotal];
      if (typeof base !== 'number') return missing;
      return Math.round(toCents(base) * TAX_RATES[stream.int(row, 0, 0, TAX_RATES.length - 1)]!) / 100;
    },
    deps: [subtotal],
    typed,
  };
};

/**
 * A parent's total as the sum of its children's lines (an invoice's total, the lines of
 * `invoice_lines`): the child entity, its reference to the parent's key, and what a line is worth
 * (its line total field, else its quantity × unit price).
 */
export interface LinesSum {
  /** The child entity (`invoice_lines`). */
  child: string;
  /** The child's field referencing the parent (`invoice_id`), by index in the child. */
  reference: number;
  /** The parent's field the reference points at (its key), by index in the parent. */
  key: number;
  /** The child's line total field, or its quantity and unit price, by index in the child. */
  line: { total: number } | { quantity: number; price: number };
  /** What the report names it by: `invoice_lines.line_total`, `order_items.quantity*unit_price`. */
  text: string;
}

/** Child entity names that are an entity's lines (`invoice_lines`, `order_items`, `OrderDetails`). */
const LINE_ENTITY = /(line|item|detail|entr(y|ies))s?$/i;

/** How a row of `entity` is worth as a line: its line total field, else quantity × unit price; undefined when it is no line. */
function lineOf(entity: Entity): LinesSum['line'] | undefined {
  const total = entity.fields.findIndex((field) => NUMERIC.has(field.type) && productFormula(entity, field) !== undefined);
  if (total >= 0) return { total };
  const none = { id: '\u0000', type: 'integer' } as Field;
  const quantity = input(entity, none, QUANTITIES);
  const price = input(entity, none, UNIT_PRICES);
  return quantity >= 0 && price >= 0 ? { quantity, price } : undefined;
}

/**
 * The sum of lines a parent's field is (version 4): the field is the parent's subtotal, or its total
 * when it has no subtotal (and no row formula of its own), and a child whose rows are lines (a line
 * total, or a quantity and a unit price) references the parent's key by one plain field. Of several
 * such children, the first named like lines (`*_lines`, `*_items`, `*_details`).
 */
export function linesSumOf(entity: Entity, field: Field, entities: readonly Entity[]): LinesSum | undefined {
  if (!NUMERIC.has(field.type) || field.references) return undefined;
  const id = normalizeId(field.id);
  const subtotal = input(entity, { id: '\u0000', type: 'integer' } as Field, SUBTOTALS);
  if (subtotal >= 0 ? entity.fields[subtotal] !== field : !(SUM_TOTALS.includes(id) || (id.endsWith('total') && !SUBTOTALS.includes(id)))) return undefined;
  if (subtotal < 0 && rowFormulaOf(entity, field)) return undefined;
  // A row that is itself a line (it has a quantity and a price) is not a parent of lines.
  if (lineOf(entity)) return undefined;
  const found: LinesSum[] = [];
  for (const child of entities) {
    if (child === entity || child.id === entity.id) continue;
    const line = lineOf(child);
    if (!line) continue;
    const reference = child.fields.findIndex((candidate) => candidate.references?.entity === entity.id && candidate.references.relation !== 'one-to-one');
    if (reference < 0) continue;
    const key = entity.fields.findIndex((candidate) => candidate.id === child.fields[reference]!.references!.field);
    if (key < 0) continue;
    const text = 'total' in line ? `${child.id}.${child.fields[line.total]!.id}` : `${child.id}.${child.fields[line.quantity]!.id}*${child.fields[line.price]!.id}`;
    found.push({ child: child.id, reference, key, line, text });
  }
  return found.find((sum) => LINE_ENTITY.test(sum.child)) ?? found[0];
}

const numberOf = (value: RowValue | undefined): number => (typeof value === 'number' ? value : typeof value === 'bigint' ? Number(value) : 0);

/** Cents a line row is worth (0 where a part is null). */
export function lineCents(line: LinesSum['line'], values: readonly RowValue[]): number {
  return lineWorth(line)(values);
}

/** lineCents for one line, made once: summing every line of a child costs no more than making it. */
export function lineWorth(line: LinesSum['line']): (values: readonly RowValue[]) => number {
  if ('total' in line) {
    const total = line.total;
    return (values) => toCents(numberOf(values[total]));
  }
  const { quantity, price } = line;
  return (values) => Math.round(numberOf(values[quantity]) * toCents(numberOf(values[price])));
}

/** The child fields a lines sum reads: they are never left null by default either. */
export function lineInputs(line: LinesSum['line']): number[] {
  return 'total' in line ? [line.total] : [line.quantity, line.price];
}

/** A parent's subtotal or total: the sum of its children's lines, to the cent (undefined where the lines cannot be summed: the next rule makes it). */
export const linesSum: RuleMaker = (context, field) => {
  const sum = linesSumOf(context.entity, field, context.entities);
  const sums = sum && context.childLineSums?.(sum);
  if (!sum || !sums) return undefined;
  const typed = field.type === 'number' && (field.precision === undefined || field.precision >= 2) && field.min === undefined && field.max === undefined;
  return { at: (_row, values) => (sums(values[sum.key]!) ?? 0) / 100, deps: [sum.key], typed };
};
