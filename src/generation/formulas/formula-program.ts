// Stage 3 of formulas: typed tree → value program. Each node becomes a closure over the row's
// values (and look-ups of referenced rows' fields), specialised by its static type: dates and
// datetimes compute as milliseconds, durations too. A formula is a pure function of the row's other
// values, so the entity stays range-safe whenever those fields are.
import type { RowValue } from '../../model/row-value.ts';
import type { Field } from '../../model/config-types.ts';
import type { EntityContext, ValueProgram } from '../program.ts';
import type { FormulaNode } from './parse-formula.ts';
import type { ValueType } from './check-formula.ts';
import { checkFormula, FIELD_VALUE_TYPES } from './check-formula.ts';
import { parseFormula } from './parse-formula.ts';
import { decimal, roundDecimal } from '../values/numbers.ts';
import { DAY_MS, formatDay, formatInstant, localDay, parseDay, parseIsoInstant } from '../values/dates.ts';

type Internal = number | string | boolean | null;
type Evaluate = (values: readonly RowValue[]) => Internal;

/** A formula's value program; the validator has already refused formulas that do not check. */
export function formulaProgram(context: EntityContext, field: Field, expression: string): ValueProgram {
  const parsed = parseFormula(expression);
  if (!parsed.ok) throw new Error(`formula of ${context.entity.id}.${field.id}: ${parsed.message}`);
  const checked = checkFormula(parsed.node, { entity: context.entity, field, entityById: context.entityById });
  if (checked.errors.length > 0) throw new Error(`formula of ${context.entity.id}.${field.id}: ${checked.errors.join('; ')}`);
  const types = checked.types;
  const zone = context.plan.timezone;

  const compile = (node: FormulaNode): Evaluate => {
    const type = types.get(node)!;
    switch (node.type) {
      case 'number':
      case 'string':
      case 'boolean': {
        const value = node.value;
        return () => value;
      }
      case 'duration': {
        const ms = node.ms;
        return () => ms;
      }
      case 'null':
        return () => null;
      case 'name': {
        const index = context.fieldIndex(node.name);
        const read = reader(type);
        return (values) => read(values[index] ?? null);
      }
      case 'member': {
        const resolved = checked.uses.members.get(node)!;
        const keyIndex = context.fieldIndex(resolved.reference.field.id);
        // Converted once per parent row where the parent's column is cached.
        const lookup = context.parentValue(resolved.reference, resolved.field.id, reader(type));
        if (!lookup) return () => null;
        return (values) => {
          const key = values[keyIndex];
          return key === null || key === undefined ? null : (lookup(key) ?? null);
        };
      }
      case 'unary': {
        const arg = compile(node.arg);
        if (node.op === '!') return (values) => nullOr(arg(values), (value) => !value);
        return (values) => nullOr(arg(values), (value) => -(value as number));
      }
      case 'binary':
        return binary(node.op, compile(node.left), compile(node.right), types.get(node.left)!, types.get(node.right)!, type);
      case 'conditional': {
        const test = compile(node.test);
        const then = compile(node.then);
        const otherwise = compile(node.otherwise);
        return (values) => {
          const condition = test(values);
          return condition === null ? null : condition ? then(values) : otherwise(values);
        };
      }
      case 'call':
        return call(node.name, node.args.map(compile), node.args.map((arg) => types.get(arg)!), zone);
    }
  };

  const evaluate = compile(parsed.node);
  const write = writer(checked.type, field, context.referenceMs, zone);
  const deps = [...checked.uses.fields].map((id) => context.fieldIndex(id));
  // Numbers come out rounded and bounded (see writer); other types go through the field's finisher.
  return { at: (_row, values) => write(evaluate(values)), deps, typed: checked.type === 'number' };
}

/** Reads a stored value as the formula's internal value of each type (one function each: caches key on them). */
const READERS: Record<ValueType, (value: RowValue) => Internal> = {
  number: (value) => (value === null ? null : typeof value === 'number' ? value : Number(value)),
  date: (value) => (typeof value === 'string' ? parseDay(value) * DAY_MS : null),
  datetime: (value) => (typeof value === 'string' ? parseIsoInstant(value) : null),
  boolean: (value) => (value === null ? null : value === true),
  string: (value) => (value === null ? null : String(value)),
  duration: () => null,
  null: () => null,
};

function reader(type: ValueType): (value: RowValue) => Internal {
  return READERS[type];
}

/** Turns the internal result into the field's raw value (the field's finisher rounds and bounds it). */
function writer(type: ValueType, field: Field, referenceMs: number, zone: string): (value: Internal) => unknown {
  const fallback = field.nullable ? null : zeroValue(field, referenceMs, zone);
  switch (type) {
    case 'number': {
      // Rounded to the field's precision (integers: 0) and kept within its min and max here, as
      // numberFinisher would, with decimal arithmetic instead of string round trips.
      const precision = field.type === 'integer' ? 0 : field.precision;
      const min = field.min === undefined ? Number.NEGATIVE_INFINITY : field.type === 'integer' ? Math.ceil(field.min) : field.min;
      const max = field.max === undefined ? Number.POSITIVE_INFINITY : field.type === 'integer' ? Math.floor(field.max) : field.max;
      const round = precision === undefined ? decimal : (value: number) => roundDecimal(value, Math.min(15, precision));
      const bounded = fallback === null ? null : Math.min(max, Math.max(min, 0));
      return (value) => {
        if (typeof value !== 'number' || !Number.isFinite(value)) return bounded;
        const rounded = round(value);
        return rounded < min ? min : rounded > max ? max : rounded;
      };
    }
    case 'date':
      return (value) => (typeof value === 'number' && Number.isFinite(value) ? formatDay(Math.floor(value / DAY_MS)) : fallback);
    case 'datetime':
      return (value) => (typeof value === 'number' && Number.isFinite(value) ? formatInstant(value) : fallback);
    default:
      return (value) => (value === null ? fallback : value);
  }
}

/** What a required field gets when its formula gives null (a null operand, a division by zero). */
function zeroValue(field: Field, referenceMs: number, zone: string): unknown {
  switch (FIELD_VALUE_TYPES[field.type]) {
    case 'number':
      return 0;
    case 'boolean':
      return false;
    case 'date':
      return formatDay(localDay(referenceMs, zone));
    case 'datetime':
      return formatInstant(referenceMs);
    default:
      return '';
  }
}

function nullOr(value: Internal, then: (value: Internal) => Internal): Internal {
  return value === null ? null : then(value);
}

function text(value: Internal, type: ValueType): string {
  if (type === 'date') return formatDay(Math.floor((value as number) / DAY_MS));
  if (type === 'datetime') return formatInstant(value as number);
  return String(value);
}

function binary(op: string, left: Evaluate, right: Evaluate, leftType: ValueType, rightType: ValueType, type: ValueType): Evaluate {
  const both = (combine: (a: Internal, b: Internal) => Internal): Evaluate => (values) => {
    const a = left(values);
    if (a === null) return null;
    const b = right(values);
    return b === null ? null : combine(a, b);
  };
  const finite = (value: number) => (Number.isFinite(value) ? value : null);
  switch (op) {
    case '+':
      if (type === 'string') return both((a, b) => text(a, leftType) + text(b, rightType));
      if (type === 'date') return both((a, b) => Math.floor(((a as number) + (b as number)) / DAY_MS) * DAY_MS);
      return both((a, b) => decimal((a as number) + (b as number)));
    case '-':
      if (type === 'date') return both((a, b) => Math.floor(((a as number) - (b as number)) / DAY_MS) * DAY_MS);
      return both((a, b) => decimal((a as number) - (b as number)));
    case '*':
      return both((a, b) => decimal((a as number) * (b as number)));
    case '/':
      return both((a, b) => finite(decimal((a as number) / (b as number))));
    case '%':
      return both((a, b) => finite((a as number) % (b as number)));
    case '<':
      return both((a, b) => (a as number) < (b as number));
    case '<=':
      return both((a, b) => (a as number) <= (b as number));
    case '>':
      return both((a, b) => (a as number) > (b as number));
    case '>=':
      return both((a, b) => (a as number) >= (b as number));
    case '==':
      return both((a, b) => a === b);
    case '!=':
      return both((a, b) => a !== b);
    case '&&':
      return both((a, b) => (a as boolean) && (b as boolean));
    case '||':
      return both((a, b) => (a as boolean) || (b as boolean));
  }
  throw new Error(`formula operator "${op}" has no implementation`);
}

function call(name: string, args: Evaluate[], types: ValueType[], zone: string): Evaluate {
  const [first, second] = args;
  // One and two arguments (most calls) are read without an array per row.
  const all = (compute: (values: Internal[]) => Internal): Evaluate => {
    if (args.length === 1) {
      const values: Internal[] = [null];
      return (row) => {
        const a = first!(row);
        if (a === null) return null;
        values[0] = a;
        return compute(values);
      };
    }
    if (args.length === 2) {
      const values: Internal[] = [null, null];
      return (row) => {
        const a = first!(row);
        if (a === null) return null;
        const b = second!(row);
        if (b === null) return null;
        values[0] = a;
        values[1] = b;
        return compute(values);
      };
    }
    return (row) => {
      const values = args.map((arg) => arg(row));
      return values.includes(null) ? null : compute(values);
    };
  };
  const n = (value: Internal | undefined) => value as number;
  switch (name) {
    case 'round':
      return all(([value, digits]) => roundDecimal(n(value), Math.max(0, Math.min(15, Math.trunc(n(digits ?? 0))))));
    case 'floor':
      return all(([value]) => Math.floor(n(value)));
    case 'ceil':
      return all(([value]) => Math.ceil(n(value)));
    case 'abs':
      return all(([value]) => Math.abs(n(value)));
    case 'min':
      return all((values) => Math.min(...values.map(n)));
    case 'max':
      return all((values) => Math.max(...values.map(n)));
    case 'lower':
      return all(([value]) => String(value).toLowerCase());
    case 'upper':
      return all(([value]) => String(value).toUpperCase());
    case 'length':
      return all(([value]) => String(value).length);
    case 'daysBetween':
      return all(([a, b]) => (n(b) - n(a)) / DAY_MS);
    case 'date':
      // A datetime's local day in the entity's time zone.
      return all(([value]) => (types[0] === 'datetime' ? localDay(n(value), zone) * DAY_MS : n(value)));
  }
  throw new Error(`formula function "${name}" has no implementation`);
}
