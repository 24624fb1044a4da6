// What the database decides about a field, compared once: type class, enum values, nullability,
// length, precision, default and reference. `sds diff` reports these changes and `init --merge`
// applies exactly them, so the two cannot disagree.
import type { Field } from '../model/config-types.ts';
import { sameTypeFamily } from '../model/field-types/index.ts';
import { castFieldDefault } from '../model/field-default.ts';

export type StructureKind = 'type' | 'enum-values' | 'nullable' | 'length' | 'precision' | 'default' | 'reference';

export interface StructureChange {
  kind: StructureKind;
  /** The config's side (a type, values, a flag, a number, a default, a reference; null when it has none). */
  config: unknown;
  /** The database's side, in the same terms. */
  database: unknown;
}

/** The structural differences of one field, in a fixed order: type or enum values, nullability, length, precision, default, reference. */
export function compareFieldStructure(config: Field, database: Field): StructureChange[] {
  const changes: StructureChange[] = [];
  // Type classes: string and text are one class (text of some length), like a reference's type family.
  if (!sameTypeFamily(config.type, database.type)) changes.push({ kind: 'type', config: config.type, database: database.type });
  else if (config.type === 'enum' && database.type === 'enum' && sortedValues(config) !== sortedValues(database)) {
    changes.push({ kind: 'enum-values', config: config.values, database: database.values });
  }
  if ((config.nullable === true) !== (database.nullable === true)) changes.push({ kind: 'nullable', config: config.nullable === true, database: database.nullable === true });
  const sameClass = sameTypeFamily(config.type, database.type);
  if (sameClass && (config.type === 'string' || config.type === 'text') && config.maxLength !== database.maxLength) {
    changes.push({ kind: 'length', config: config.maxLength ?? null, database: database.maxLength ?? null });
  }
  // Total digits count when both sides have them: configs from before digits do not drift, and an
  // integer column (int, bigint) has none to compare.
  const digitsDiffer = config.digits !== undefined && database.digits !== undefined && config.digits !== database.digits;
  if (sameClass && config.type === 'number' && (config.precision !== database.precision || digitsDiffer)) {
    changes.push({ kind: 'precision', config: numericPrecision(config), database: numericPrecision(database) });
  } else if (sameClass && config.type === 'integer' && database.type === 'integer' && digitsDiffer) {
    changes.push({ kind: 'precision', config: numericPrecision(config), database: numericPrecision(database) });
  }
  if (sameClass && defaultKey(config) !== defaultKey(database)) {
    changes.push({ kind: 'default', config: config.default ?? null, database: database.default ?? null });
  }
  if (describeReference(config) !== describeReference(database)) changes.push({ kind: 'reference', config: config.references ?? null, database: database.references ?? null });
  return changes;
}

/**
 * A number's precision in the config's terms: its decimals (a number, null for a double), or
 * `decimal(7,2)` once the total digits are known.
 */
function numericPrecision(field: Field): number | string | null {
  if (field.digits !== undefined) return `decimal(${field.digits},${field.type === 'integer' ? 0 : (field.precision ?? 0)})`;
  return field.precision ?? null;
}

/** `references users.id (on delete cascade, on update restrict)`, or undefined without a reference. */
export function describeReference(field: Field): string | undefined {
  const reference = field.references;
  if (!reference) return undefined;
  return `references ${reference.entity}.${reference.field} (on delete ${reference.onDelete ?? 'restrict'}, on update ${reference.onUpdate ?? 'restrict'})`;
}

/** A default as text: `"draft"`, `now()`, or none. */
export function describeDefault(value: unknown): string {
  if (value === null || value === undefined) return 'none';
  const declared = value as { value?: unknown; function?: string };
  return declared.function !== undefined ? `${declared.function}()` : JSON.stringify(declared.value);
}

/** A default in canonical form (a datetime literal in UTC, a number as a number), so spellings of one value compare equal. */
function defaultKey(field: Field): string {
  const cast = castFieldDefault(field);
  const declared = cast && 'default' in cast ? cast.default : field.default;
  return JSON.stringify(declared ?? null, (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value));
}

function sortedValues(field: Field): string {
  return [...(field.values ?? [])].sort().join('\u0000');
}
