// Column types of the catalog model → field types of the schema config, one entry per kind.
// Widths and time zones collapse into the config's type (the type class is kept); what has no
// config type at all maps to its nearest type, or is left out, and says so.
import type { CatalogType } from '../dialects/catalog.ts';
import type { FieldType } from '../model/config-types.ts';

/** The type-specific part of a field that a column's type decides. */
export interface FieldShape {
  type: FieldType;
  maxLength?: number;
  precision?: number;
  digits?: number;
  values?: string[];
}

type Supported = Exclude<CatalogType, { kind: 'unsupported' }>;
type ShapeOf<K extends Supported['kind']> = (type: Extract<Supported, { kind: K }>) => FieldShape;

/** maxLength's largest value in the config. */
const MAX_LENGTH = 1_073_741_823;
/** Integers the generator can count in exactly. */
const SAFE_DIGITS = 15;
/** digits' largest value in the config (PostgreSQL's numeric allows 1000). */
const MAX_DIGITS = 1000;

const SHAPES: { [K in Supported['kind']]: ShapeOf<K> } = {
  integer: () => ({ type: 'integer' }),
  // numeric(p, 0) holds whole numbers: an integer field (a number field needs precision ≥ 1).
  // The total digits go along, so generated values stay within the column (|value| < 10^(p − s)).
  decimal: (type) => {
    const digits = type.precision !== undefined && type.precision >= 1 && type.precision <= MAX_DIGITS ? { digits: type.precision } : {};
    return type.scale === 0 && type.precision !== undefined && type.precision <= SAFE_DIGITS
      ? { type: 'integer', ...digits }
      : { type: 'number', ...(type.scale !== undefined && type.scale > 0 ? { precision: type.scale } : {}), ...digits };
  },
  float: () => ({ type: 'number' }),
  boolean: () => ({ type: 'boolean' }),
  string: (type) => ({ type: 'string', ...(type.length !== undefined && type.length >= 1 && type.length <= MAX_LENGTH ? { maxLength: type.length } : {}) }),
  text: () => ({ type: 'text' }),
  date: () => ({ type: 'date' }),
  datetime: () => ({ type: 'datetime' }),
  time: () => ({ type: 'time' }),
  uuid: () => ({ type: 'uuid' }),
  json: () => ({ type: 'json' }),
  enum: (type) => ({ type: 'enum', values: [...type.values] }),
};

/** The field shape of a supported column type. */
export function shapeOf(type: Supported): FieldShape {
  return (SHAPES[type.kind] as (type: Supported) => FieldShape)(type);
}

/**
 * What a column becomes: its shape, plus a note when that loses something the database says
 * (a type without a config type, a time zone, a large numeric); `shape` is undefined when the column
 * is left out.
 */
export function mapColumnType(type: CatalogType, declared: string): { shape?: FieldShape; note?: string } {
  if (type.kind === 'unsupported') {
    if (!type.nearest) return { note: `${type.what} has no schema-config type; left out` };
    const shape = shapeOf(type.nearest);
    return { shape, note: `${type.what} has no schema-config type; generated as ${describeShape(shape)}, the nearest` };
  }
  const shape = shapeOf(type);
  if (type.kind === 'time' && type.timeZone) return { shape, note: `${declared}: generated as time, without the zone` };
  if (type.kind === 'decimal' && type.scale === 0 && shape.type === 'number') {
    return { shape, note: `${declared} has more digits than sds generates exactly; generated as a floating-point number` };
  }
  if (type.kind === 'enum' && type.values.length === 0) return { note: `${declared} is an enum type without values; left out` };
  return { shape };
}

export function describeShape(shape: FieldShape): string {
  if (shape.maxLength !== undefined) return `${shape.type}(${shape.maxLength})`;
  return shape.precision !== undefined ? `${shape.type} with precision ${shape.precision}` : shape.type;
}
