// What value programs are and what they may use. A program computes the raw value of one field at a
// row from counter-based random streams; the entity compiler wraps it with emptiness, uniqueness and
// the field's constraints.
import type { RowValue } from '../model/row-value.ts';
import type { Entity, Field } from '../model/config-types.ts';
import type { EntityPlan, GeneratorVersion } from './plan.ts';
import type { FakerPool } from './faker-pool.ts';
import type { LocaleWords } from './values/words.ts';
import type { RandomStream } from './random.ts';
import type { RowReference } from './row-references.ts';
import type { LinesSum } from './rules/row-formulas.ts';
import { RandomCursor } from './random.ts';

/** A countable set of values, drawn from without replacement when a field must be unique. */
export interface FinitePool {
  size: number;
  at(index: number): unknown;
  /** Relative weight of each value (unique draws then favour heavy values first). */
  weights?: readonly number[];
  /** Draw in order (index = row) instead of in a keyed random order: sequential reference picks. */
  ordered?: boolean;
}

export interface ValueProgram {
  /**
   * The raw value of the field at `row`. `values` holds the row's fields computed so far (by field
   * index); `attempt` > 0 asks for another candidate when a unique value was already taken.
   */
  at(row: number, values: readonly RowValue[], attempt: number): unknown;
  /** The values it can take, when countable: uniqueness by construction draws from it. */
  pool?: FinitePool;
  /** Output already has the field's type and bounds (strings still get prefix, suffix and lengths). */
  typed?: boolean;
  /** Distinct rows give distinct values by construction (sequences, uuids). */
  distinct?: boolean;
  /** Rows a distinct program can give before it leaves the field's bounds (a sequence under `max`). */
  limit?: number;
  /** Field indexes of the same row that `at` reads. */
  deps?: number[];
  /** A reference: values are parent keys, stored as they are (no prefix, suffix or length changes). */
  reference?: boolean;
  /** Rows the program has values for (a bounded fan-out: parents × max children): the entity stops there. */
  rows?: number;
  /** A shortfall to warn about (a bounded fan-out with too few rows for every parent's min). */
  shortfall?: string;
  /** Values depend on earlier rows (a count per group): rows must be made in order, from the first, once each. */
  sequential?: boolean;
}

/** A set of key values of generated rows (a referenced column, or a primary key for deferred updates). */
export interface KeyPool {
  readonly size: number;
  at(index: number): RowValue;
}

/** Everything a program of one entity may use. */
export interface EntityContext {
  entity: Entity;
  entityIndex: number;
  /** Every entity of the config (coherent defaults look at a referenced parent's fields). */
  entities: readonly Entity[];
  plan: EntityPlan;
  /** Generator version of the run: defaults of version 2 and later are coherent within a row. */
  version: GeneratorVersion;
  /** Instant of `now` (the plan's reference date), in milliseconds. */
  referenceMs: number;
  fakers: FakerPool;
  words: LocaleWords;
  /** The random stream of a field and purpose, keyed by ids (never by positions). */
  stream(fieldId: string, purpose: string): RandomStream;
  fieldIndex(fieldId: string): number;
  /** Completed key pool of a parent column; undefined while that entity is not generated yet. */
  keyPool(entityId: string, fieldId: string): KeyPool | undefined;
  /** An entity of the config by id. */
  entityById(entityId: string): Entity | undefined;
  /**
   * The value of a field of the referenced row, given the reference's key value (undefined when
   * the key names no row), passed through `convert` (applied once per parent row where the column is
   * cached); the function is undefined while the parent is not generated yet.
   */
  parentValue<T = RowValue>(reference: RowReference, fieldId: string, convert?: (value: RowValue) => T): ((key: RowValue) => T | undefined) | undefined;
  /**
   * The cents of a lines sum per parent key value (undefined: the key has no lines), from every row
   * its child entity will have, made ahead of the parent; undefined when they cannot be (the child's
   * reference is filled after insert, or a version 4 rule's sum asked in a generator that is itself
   * making lines). `strategy`: asked by the childrenSum strategy, which is made there too.
   */
  childLineSums?(sum: LinesSum, strategy?: boolean): ((key: RowValue) => number | undefined) | undefined;
  /** JSON pointer to a field of this entity, plus further tokens. */
  pointer(fieldIndex: number, ...tokens: (string | number)[]): string;
}

/** `entity.field`, as messages name a field. */
export function fieldName(context: EntityContext, field: Field): string {
  return `${context.entity.id}.${field.id}`;
}

/** Draw numbers set aside per uniqueness attempt of cursor and faker programs. */
export const DRAWS_PER_ATTEMPT = 65_536;

/** A program drawing from a cursor reset to (row, attempt) for each value. */
export function cursorProgram(stream: RandomStream, make: (cursor: RandomCursor) => unknown, typed = false): ValueProgram {
  const cursor = new RandomCursor(stream);
  return { at: (row, _values, attempt) => make(cursor.reset(row, attempt * DRAWS_PER_ATTEMPT)), typed };
}

/**
 * Faker methods that only pick from locale data or fill its patterns. Called without arguments,
 * they run as compiled patterns of the same data (values read the same; several times faster).
 */
const PATTERN_METHODS = new Set([
  'person.firstName',
  'person.lastName',
  'person.middleName',
  'person.fullName',
  'person.prefix',
  'person.suffix',
  'person.jobTitle',
  'person.jobDescriptor',
  'person.jobArea',
  'person.jobType',
  'location.city',
  'location.street',
  'location.streetAddress',
  'location.buildingNumber',
  'location.state',
  'location.country',
  'company.name',
  'phone.number',
  'lorem.word',
  'color.human',
]);

/** A program calling `faker.<module>.<method>(...args)` of the entity's locale. */
export function fakerProgram(context: EntityContext, method: string, args: readonly unknown[], stream: RandomStream): ValueProgram {
  const composer = args.length === 0 && PATTERN_METHODS.has(method) ? context.words.composer(method) : undefined;
  if (composer) return cursorProgram(stream, composer);
  const fn = context.fakers.method(context.plan.locale, method);
  const fakers = context.fakers;
  return { at: (row, _values, attempt) => fakers.call(fn, args, stream, row, attempt * DRAWS_PER_ATTEMPT) };
}

/** The locale's compiled pattern for a faker method when there is one (fast), else faker itself. */
export function composerProgram(context: EntityContext, method: string, stream: RandomStream): ValueProgram {
  const composer = context.words.composer(method);
  return composer ? cursorProgram(stream, composer) : fakerProgram(context, method, [], stream);
}
