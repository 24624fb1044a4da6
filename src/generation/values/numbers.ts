// Numeric programs: uniform integers, floats rounded to a precision (drawn as integers of
// 10^-precision so bounds and decimals always hold), sequences; and the clamp/round applied to
// numbers from other sources (faker, literals, choices).
import type { Field } from '../../model/config-types.ts';
import type { FinitePool, ValueProgram } from '../program.ts';
import type { RandomStream } from '../random.ts';

/** Uniform integers in [min, max]; its pool is the whole range. */
export function randomIntProgram(stream: RandomStream, min: number, max: number): ValueProgram {
  const low = Math.ceil(Math.min(min, max));
  const high = Math.floor(Math.max(min, max));
  if (high < low) return constantProgram(Math.round(min));
  return {
    at: (row, _values, attempt) => stream.int(row, attempt, low, high),
    pool: { size: high - low + 1, at: (index) => low + index },
    typed: true,
  };
}

/** Uniform numbers in [min, max] with `precision` decimals; its pool is every such number. */
export function randomFloatProgram(stream: RandomStream, min: number, max: number, precision: number): ValueProgram {
  const scale = 10 ** precision;
  const low = Math.ceil(Math.min(min, max) * scale - 1e-9);
  const high = Math.floor(Math.max(min, max) * scale + 1e-9);
  if (high < low) return constantProgram(roundTo(min, precision));
  if (high - low > Number.MAX_SAFE_INTEGER / 2) {
    // Too many steps to count: draw a double and round it.
    return { at: (row, _values, attempt) => clampRound(min + stream.float53(row, attempt) * (max - min), min, max, precision), typed: true };
  }
  // An integer divided by a power of ten is the double nearest the decimal, so no rounding is needed.
  const value = (step: number) => step / scale;
  return {
    at: (row, _values, attempt) => value(stream.int(row, attempt, low, high)),
    pool: { size: high - low + 1, at: (index) => value(low + index) },
    typed: true,
  };
}

/**
 * start, start + step, start + 2·step… (row i gets start + i·step). With bounds, `limit` counts the
 * rows before the sequence leaves [min, max]: a unique field stops there rather than repeat.
 */
export function sequenceProgram(start: number, step: number, min = Number.NEGATIVE_INFINITY, max = Number.POSITIVE_INFINITY): ValueProgram {
  const exact = Number.isInteger(start) && Number.isInteger(step);
  const program: ValueProgram = {
    at: exact ? (row) => start + row * step : (row) => roundTo(start + row * step, 10),
    typed: true,
    distinct: step !== 0,
  };
  if (start < min || start > max) program.limit = 0;
  else if (step > 0 && max !== Number.POSITIVE_INFINITY) program.limit = Math.floor((max - start) / step + 1e-9) + 1;
  else if (step < 0 && min !== Number.NEGATIVE_INFINITY) program.limit = Math.floor((start - min) / -step + 1e-9) + 1;
  return program;
}

export function constantProgram(value: unknown): ValueProgram {
  const pool: FinitePool = { size: 1, at: () => value };
  return { at: () => value, pool };
}

/** Rounds half away from zero to `precision` decimals, without binary drift (1.005 → 1.01). */
export function roundTo(value: number, precision: number): number {
  if (!Number.isFinite(value)) return value;
  if (precision === 0) return value < 0 ? -Math.round(-value) : Math.round(value);
  const rounded = Number(`${Math.round(Number(`${Math.abs(value)}e${precision}`))}e-${precision}`);
  return value < 0 ? -rounded : rounded;
}

function clampRound(value: number, min: number, max: number, precision: number | undefined): number {
  let result = precision === undefined ? value : roundTo(value, precision);
  if (result < min) result = precision === undefined ? min : Math.ceil(min * 10 ** precision - 1e-9) / 10 ** precision;
  if (result > max) result = precision === undefined ? max : Math.floor(max * 10 ** precision + 1e-9) / 10 ** precision;
  return result;
}

/**
 * The field's bounds: min and max (infinite when absent), narrowed by its `digits` to what
 * numeric(digits, precision) holds: |value| ≤ 10^(digits − precision) − 10^−precision.
 */
export function fieldBounds(field: Field): [number, number] {
  let min = field.min ?? Number.NEGATIVE_INFINITY;
  let max = field.max ?? Number.POSITIVE_INFINITY;
  if (field.digits !== undefined) {
    const scale = field.type === 'integer' ? 0 : (field.precision ?? 0);
    const largest = Number(((10 ** Math.max(field.digits - scale, 0)) - 10 ** -scale).toFixed(scale));
    min = Math.max(min, -largest);
    max = Math.min(max, largest);
  }
  return [min, max];
}

/**
 * A generator's range [low, high] narrowed to what a field with `digits` holds, so its values
 * spread over the column instead of piling at its bound (a price, 1–1000, into decimal(3,2) is
 * 1–9.99); a range wholly outside the column becomes the column's non-negative part. Fields
 * without digits keep the range as given.
 */
export function rangeWithinDigits(field: Field, low: number, high: number): [number, number] {
  if (field.digits === undefined) return [low, high];
  const [min, max] = fieldBounds(field);
  const narrowed: [number, number] = [Math.max(low, min), Math.min(high, max)];
  return narrowed[0] <= narrowed[1] ? narrowed : [Math.max(min, Math.min(0, max)), max];
}

/**
 * Converts a value from an untyped source (faker, literal, choice, template) to an integer or
 * number of the field: parsed, rounded to its precision (integers: 0), kept within min and max.
 * Values that are not numbers become `fallback`.
 */
export function numberFinisher(field: Field): (value: unknown, fallback: number) => number {
  const integer = field.type === 'integer';
  const precision = integer ? 0 : field.precision;
  const [min, max] = fieldBounds(field);
  return (value, fallback) => {
    const number = typeof value === 'number' ? value : typeof value === 'bigint' ? Number(value) : Number(value);
    if (!Number.isFinite(number)) return clampRound(fallback, min, max, precision);
    return clampRound(number, min, max, precision);
  };
}

/**
 * The double nearest the decimal result: 15 significant digits drop binary drift, so
 * 3 × 19.95 × 0.9 gives 53.865 (not 53.864999999999995) and rounds as SQL's exact decimals do.
 */
export function decimal(value: number): number {
  if (Number.isInteger(value) || !Number.isFinite(value)) return value;
  const magnitude = Math.abs(value);
  const digits = 14 - Math.floor(Math.log10(magnitude));
  // An integer divided by an exact power of ten is the double nearest that decimal (fast path).
  if (digits >= 0 && digits <= 22) return Math.round(value * POW10[digits]!) / POW10[digits]!;
  return Number(value.toPrecision(15));
}

const POW10 = Array.from({ length: 23 }, (_, i) => 10 ** i);

/** Rounds half away from zero to `precision` decimals (0–15) of the value's decimal form. */
export function roundDecimal(value: number, precision: number): number {
  const scale = POW10[precision]!;
  const scaled = decimal(Math.abs(value) * scale);
  if (!(scaled < Number.MAX_SAFE_INTEGER)) return value;
  const rounded = Math.round(scaled) / scale;
  return value < 0 ? -rounded : rounded;
}
