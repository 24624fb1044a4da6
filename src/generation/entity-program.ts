// Compiles an entity into one closure per field, in dependency order: raw program → emptiness →
// uniqueness (pool drawn without replacement, joint key combinations, or retries) → the field's
// type and constraints. Also works out how many rows the entity can have when a unique pool, a
// one-to-one reference or a composite key has fewer values than planned rows.
import type { RowValue } from '../model/row-value.ts';
import type { CompositeReference, Field } from '../model/config-types.ts';
import type { EntityContext, FinitePool, ValueProgram } from './program.ts';
import type { DrawLedger, FieldOutput } from './uniqueness.ts';
import { singleFieldKeys } from '../model/composite-keys.ts';
import { fieldName } from './program.ts';
import { createProgram } from './strategies.ts';
import { referenceSpec } from './references.ts';
import { valueFinisher } from './coerce.ts';
import { DrawLedger as Ledgers, drawOrder, jointDraw, uniqueByRetries } from './uniqueness.ts';
import { streamKey } from './random.ts';
import { defaultNullShare } from './null-shares.ts';
import { compositePrograms, withPositionFanOut } from './composite-programs.ts';

export interface CompiledField {
  index: number;
  field: Field;
  generate(row: number, values: readonly RowValue[]): FieldOutput;
  /** The value depends on the row index alone: it can be recomputed instead of stored. */
  pure: boolean;
  /**
   * The value depends on earlier rows (uniqueness by retries remembers what it gave): the rows
   * must be made in order, from the first. Otherwise any range of rows can be made on its own.
   */
  sequential: boolean;
  /** Indexes of the fields of the row whose values this one reads. */
  deps: readonly number[];
  /**
   * Unique by retries (and otherwise range-safe): sequential, unless compiled with a ledger of its
   * draws (`Draws.replay`), which makes any row on its own.
   */
  retries?: boolean;
  /** Compiled with `Draws.record`: the ledger its rows in order fill. */
  ledger?: DrawLedger;
}

/**
 * Fields unique by retries: `record` their draws as rows are made in order (CompiledField.ledger),
 * or `replay` a ledger found so (by field index), which makes those fields range-safe.
 */
export interface Draws {
  record?: boolean;
  replay?: ReadonlyMap<number, DrawLedger>;
}

export interface CompiledEntity {
  /** Fields in the order they are computed (dependencies first); deferred columns are absent. */
  order: CompiledField[];
  /** Rows the entity can have (≤ planned). */
  rowLimit: number;
  warnings: { path: string; message: string }[];
}

/** A bound on the entity's rows: a pool of `size` values (or combinations), or a parent without rows. */
interface Limit {
  size: number;
  path: string;
  what: string;
  emptyParent?: boolean;
}

interface Compiling {
  index: number;
  field: Field;
  program: ValueProgram;
  unique: boolean;
  joint?: { draw: NonNullable<ReturnType<typeof jointDraw>>; position: number; pool: FinitePool };
  /** A field of a composite reference: its value comes with the parent row the reference picks. */
  composite?: boolean;
}

/** Compiles the fields of an entity (`only`: just these field ids, e.g. the deferred ones). */
export function compileEntity(context: EntityContext, skip: ReadonlySet<string>, only?: ReadonlySet<string>, draws: Draws = {}): CompiledEntity {
  const { entity } = context;
  const planned = context.plan.rowCount;
  const keys = singleFieldKeys(entity);
  const compiling: Compiling[] = [];
  const composite = compositePrograms(context, only ? new Set([...skip, ...entity.fields.map((field) => field.id).filter((id) => !only.has(id))]) : skip);
  entity.fields.forEach((field, index) => {
    if (skip.has(field.id) || (only && !only.has(field.id))) return;
    const member = composite.programs.get(field.id);
    const program = member ?? createProgram(context, withPositionFanOut(entity, field));
    if (!program) {
      const target = referenceSpec(field)!;
      throw new Error(`${fieldName(context, field)} needs the rows of "${target.entity}": generate that entity first (plan order)`);
    }
    // A field of a composite reference is unique only together with the others (see assignJointKeys).
    const unique = !member && (keys.has(field.id) || field.generation?.uniqueValues === true || field.references?.relation === 'one-to-one');
    compiling.push({ index, field, program, unique, composite: member !== undefined });
  });

  const limits: Limit[] = [...composite.limits];
  if (!only) assignJointKeys(context, compiling, skip, limits, composite.distinct);
  const notes: { path: string; message: string }[] = [];
  const order = compiling.map((item) => compileField(context, item, planned, limits, notes, draws));
  let rowLimit = planned;
  for (const limit of limits) rowLimit = Math.min(rowLimit, limit.size);
  const warnings = limits
    .filter((limit) => limit.size < planned)
    .map((limit) => ({
      path: limit.path,
      message: limit.emptyParent
        ? `${limit.what}, which has no rows; inserted 0 of ${planned} planned rows`
        : `pool of ${limit.size} ${limit.what} is exhausted after ${limit.size} rows; inserted ${rowLimit} of ${planned} planned rows`,
    }))
    .concat(notes);
  return { order: sortByDependencies(order, compiling), rowLimit: only ? planned : rowLimit, warnings: only ? [] : warnings };
}

function compileField(context: EntityContext, item: Compiling, planned: number, limits: Limit[], notes: { path: string; message: string }[], draws: Draws): CompiledField {
  const { field, program, index } = item;
  const name = fieldName(context, field);
  const finish = valueFinisher(field, program, context.stream(field.id, 'pad'), context.plan.timezone, name, item.unique || item.joint !== undefined);
  const reference = referenceSpec(field);
  let core: (row: number, values: readonly RowValue[]) => FieldOutput;
  let pure = !program.deps?.length;
  let sequential = program.sequential === true;
  let retries: { ledger?: DrawLedger } | undefined;

  if (program.rows !== undefined || program.shortfall !== undefined) {
    const path = context.pointer(index, ...(field.references ? ['references'] : ['generation', 'strategy']), 'fanOut');
    if (program.rows !== undefined) limits.push({ size: program.rows, path, what: `children for ${name} (every parent has at most its fanOut max)` });
    if (program.shortfall !== undefined) notes.push({ path, message: `${name}: ${program.shortfall}` });
  }
  if (reference && !field.nullable && program.pool?.size === 0) {
    const path = context.pointer(index, ...(field.references ? ['references'] : ['generation', 'strategy']));
    limits.push({ size: 0, path, what: `${name} references ${reference.entity}.${reference.field}`, emptyParent: true });
  }
  if (item.joint) {
    const { draw, position, pool } = item.joint;
    core = (row) => finishRaw(pool.at(draw.indexes(row)[position]!), row, finish);
  } else if (item.unique && program.pool && !program.distinct) {
    const pool = program.pool;
    const order = drawOrder(pool, streamKey(context.plan.seed, context.entity.id, field.id, 'unique'));
    const size = pool.size;
    core = (row) => (row < size ? finishRaw(pool.at(order(row)), row, finish) : null);
    const path = field.generation?.uniqueValues
      ? context.pointer(index, 'generation', 'uniqueValues')
      : field.references?.relation === 'one-to-one'
        ? context.pointer(index, 'references', 'relation')
        : context.pointer(index);
    limits.push({ size, path, what: `values for ${name}` });
  } else if (item.unique && !program.distinct) {
    const replay = draws.replay?.get(index);
    const ledger = draws.record ? Ledgers.empty() : undefined;
    const unique = uniqueByRetries(program, finish, field, planned, ledger);
    core = replay ? unique.replay(replay) : unique.inOrder;
    pure = false;
    // Sequential in order; made from the ledger, any row on its own (unless its program itself is sequential).
    sequential = !replay || program.sequential === true;
    if (program.sequential !== true) retries = ledger ? { ledger } : {};
  } else {
    if (item.unique && program.limit !== undefined) {
      const path = field.generation?.uniqueValues ? context.pointer(index, 'generation', 'uniqueValues') : context.pointer(index);
      limits.push({ size: program.limit, path, what: `values for ${name} within its min and max` });
    }
    core = (row, values) => finishRaw(program.at(row, values, 0), row, finish);
  }

  // emptyRate empties nullable fields only (null); a required field always gets a generated value.
  // Version 4 gives nullable fields made by default a share of nulls by meaning (null-shares.ts).
  const emptyRate = field.generation?.emptyRate ?? defaultNullShare(context.version, context.entity, context.entities, field);
  const deps = program.deps ?? [];
  const marks = retries ? { retries: true, ...retries } : {};
  if (emptyRate <= 0 || !field.nullable) return { index, field, generate: core, pure, sequential, deps, ...marks };
  const empty = context.stream(field.id, 'empty');
  return { index, field, pure, sequential, deps, ...marks, generate: (row, values) => (empty.float(row) < emptyRate ? null : core(row, values)) };
}

function finishRaw(raw: unknown, row: number, finish: (raw: unknown, row: number, tag: string) => RowValue): RowValue {
  return raw === null || raw === undefined ? null : finish(raw, row, '');
}

/**
 * Composite keys (primary key, uniqueKeys, unique indexes of 2+ fields) stay unique by
 * construction: when every member has a countable pool, rows draw combinations without
 * replacement; otherwise one open-ended member is made unique on its own.
 */
function assignJointKeys(context: EntityContext, compiling: Compiling[], skip: ReadonlySet<string>, limits: Limit[], distinctReferences: CompositeReference[] = []): void {
  const { entity } = context;
  const groups: { fields: string[]; path: string }[] = [];
  const at = (...tokens: (string | number)[]) => `/entities/${context.entityIndex}/${tokens.join('/')}`;
  if ((entity.primaryKey?.length ?? 0) > 1) groups.push({ fields: entity.primaryKey!, path: at('primaryKey') });
  entity.uniqueKeys?.forEach((fields, i) => groups.push({ fields, path: at('uniqueKeys', i) }));
  entity.indexes?.forEach((index, i) => index.unique && groups.push({ fields: index.fields, path: at('indexes', i) }));
  const byId = new Map(compiling.map((item) => [item.field.id, item]));
  for (const group of groups) {
    const ids = [...new Set(group.fields)];
    if (ids.length < 2 || ids.some((id) => skip.has(id) || !byId.has(id))) continue;
    if (uniqueByConstruction(ids, compiling, distinctReferences)) continue;
    // Fields of a composite reference come with their parent row: never drawn on their own.
    const members = ids.map((id) => byId.get(id)!).filter((member) => !member.composite);
    if (members.length === 0) continue;
    if (members.some((member) => member.unique)) continue;
    const distinct = members.find((member) => member.program.distinct);
    if (distinct) {
      distinct.unique = true; // its values must then stay distinct (and within bounds, or stop)
      continue;
    }
    // The open-ended member with the most room takes the uniqueness tags.
    const room = (member: Compiling) => (member.field.maxLength ?? Number.POSITIVE_INFINITY) - (member.field.prefix?.length ?? 0) - (member.field.suffix?.length ?? 0);
    const open = members.filter((member) => !member.program.pool).sort((a, b) => room(b) - room(a))[0];
    if (open || members.some((member) => member.joint)) {
      const loner = open ?? members.find((member) => !member.joint);
      if (loner) loner.unique = true;
      continue;
    }
    const pools = members.map((member) => member.program.pool!);
    const draw = jointDraw(pools, streamKey(context.plan.seed, entity.id, '$key', ids.join(',')));
    if (!draw) continue; // more combinations than safe integers: collisions are practically impossible
    members.forEach((member, position) => (member.joint = { draw, position, pool: pools[position]! }));
    limits.push({ size: draw.size, path: group.path, what: `combinations for ${entity.id}.(${ids.join(', ')})` });
  }
}

/**
 * Whether a key group is unique whatever its members' values: it holds every field of a composite
 * reference drawn without replacement, or a sequence counted within fields the group also holds.
 */
function uniqueByConstruction(ids: readonly string[], compiling: Compiling[], distinctReferences: CompositeReference[]): boolean {
  const group = new Set(ids);
  if (distinctReferences.some((reference) => reference.fields.every((id) => group.has(id)))) return true;
  return compiling.some((item) => {
    const strategy = item.field.generation?.strategy;
    return group.has(item.field.id) && strategy?.kind === 'sequence' && strategy.within !== undefined && strategy.within.every((id) => group.has(id));
  });
}

function sortByDependencies(fields: CompiledField[], compiling: Compiling[]): CompiledField[] {
  const byIndex = new Map(fields.map((field) => [field.index, field]));
  const deps = new Map(compiling.map((item) => [item.index, (item.program.deps ?? []).filter((dep) => byIndex.has(dep))]));
  const done = new Set<number>();
  const order: CompiledField[] = [];
  const visit = (index: number, trail: number[]) => {
    if (done.has(index)) return;
    if (trail.includes(index)) throw new Error(`fields of an entity need each other's values: ${trail.join(' → ')}`);
    for (const dep of deps.get(index) ?? []) visit(dep, [...trail, index]);
    done.add(index);
    order.push(byIndex.get(index)!);
  };
  for (const field of fields) visit(field.index, []);
  return order;
}
