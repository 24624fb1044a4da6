// Row streams of a plan: `rows()` yields batches of each entity in plan order, keeping only compact
// key pools of referenced columns between entities; `deferredUpdates()` then fills the reference
// columns that had to wait for every row (self references, cycles). Values are pure functions of
// (seed, entity, field, row), so batch sizes never change the data.
import { batchLength, rowBatches, textChunks as textChunksOf } from './row-batches.ts';
import type { RowValues, RowValue } from '../model/row-value.ts';
import type { TextChunk } from '../dialects/dialect.ts';
import type { Entity, SchemaConfig } from '../model/config-types.ts';
import type { EntityPlan, GenerationOptions, GenerationPlan } from './plan.ts';
import type { EntityContext, KeyPool } from './program.ts';
import type { CompiledEntity } from './entity-program.ts';
import { compileEntity } from './entity-program.ts';
import { DrawLedger as DrawLedgers, EXHAUSTED, type DrawLedger } from './uniqueness.ts';
import { IndexedKeyPool, StoredKeyPool } from './key-pools.ts';
import { FakerPool } from './faker-pool.ts';
import { LocaleWords } from './values/words.ts';
import { RandomStream, streamKey } from './random.ts';
import { referenceTarget } from '../model/table-spec.ts';
import { compositeReferences } from '../model/composite-keys.ts';
import { hasFeature } from './versions.ts';
import { parentTimeLink } from './coherence/time.ts';
import { companyReads, lifecycleParents } from './rules/lifecycle-parents.ts';
import type { CoherenceAudit } from './coherence/report.ts';
import { parentReads } from './formulas/parent-reads.ts';
import { ParentLookups } from './parent-lookups.ts';
import { agreementReads, referenceAgreements } from './reference-agreement.ts';
import { ancestorsOf } from '../model/config-graph.ts';
import { lineInputs, lineWorth, linesSumOf, type LinesSum } from './rules/row-formulas.ts';
import { KeySums } from './key-sums.ts';
import { MadeAhead } from './made-ahead.ts';

type Issue = { path: string; message: string };

/** Rows of a pass finding draws between two steps (DataGenerator.drawSteps). */
const DRAW_STEP_ROWS = 20_000;

/**
 * The draws of an entity's unique fields drawn by retries, found by one pass in order over those
 * fields and the fields they read (DataGenerator.draws): with them, any range of its rows is made on
 * its own, exactly as a generation in order makes it. Plain data, posted to worker threads as it is.
 */
export interface EntityDraws {
  /** Rows the entity has: its row limit, or fewer when a unique field ran out of values. */
  rows: number;
  /** Each such field's ledger, by field index. */
  ledgers: Map<number, DrawLedger>;
  /** The warning a generation in order raises where a unique field ran out. */
  warning?: Issue;
}


export class DataGenerator {
  /** Rows actually produced per entity (fewer than planned when a unique pool ran out). */
  readonly produced = new Map<string, number>();
  /** Generation-time warnings (exhausted pools…); the plan's own warnings stay in `plan.warnings`. */
  readonly warnings: Issue[] = [];
  /** When set, sees every row as it is made (the coherence report). */
  audit: CoherenceAudit | undefined;
  readonly #entities = new Map<string, { entity: Entity; index: number; plan: EntityPlan }>();
  readonly #pools = new Map<string, KeyPool>();
  /** Columns whose values other entities (or deferred updates) need, by entity id. */
  readonly #needed = new Map<string, Set<string>>();
  /** Columns a composite reference reads by parent row: their pools keep nulls, so row i is at index i. */
  readonly #aligned = new Set<string>();
  readonly #fakers: FakerPool;
  readonly #compiledEntities = new Map<string, CompiledEntity>();
  readonly #referenceMs: number;
  readonly #version: GenerationPlan['version'];
  readonly #config: SchemaConfig;
  /** Columns of parents that children read by row (formulas, `after`), by entity id. */
  readonly #rowNeeded = new Map<string, Set<string>>();
  /** Those columns' values by row index, keyed `entity.field`. */
  readonly #rowPools = new Map<string, KeyPool>();
  /** Children's reads of those columns by key value. */
  readonly #parents = new ParentLookups(this.#rowPools);
  readonly #plan: GenerationPlan;
  /**
   * Which parents' lines sums are made: `all`, or in a generator that makes the lines for them only
   * those of the childrenSum strategy (a child's own sum over its children), not version 4's rules.
   */
  readonly #lineSums: 'all' | 'strategy';
  /** A version 4 lines sum was asked for here and not made (`strategy`): this generator's rows may differ from the generation's. */
  #refused = false;
  /** Lines sums made and child columns carried, shared with the generators that make lines for this one. */
  readonly #made: MadeAhead;
  /** Entities whose pools hold every row (made to their last row, or declared), which lines generators may borrow. */
  readonly #complete = new Set<string>();

  /** Most rows a lines sum may make ahead (previews: PreviewLimits.maxAncestorRows); past it, PreviewTooLargeError. */
  readonly #maxLineRows: number;
  /** Entities whose unique fields drawn by retries are made from their draws, by entity id. */
  readonly #draws = new Map<string, EntityDraws>();

  /**
   * `lineSums`: `strategy` in a generator that only makes a child's lines for a parent's sums;
   * `maxLineRows`: the most rows those lines (and the ancestors made for them) may take;
   * `madeAhead`: the sums and carried columns of the generation this generator makes lines for (a
   * budget of 0 carries none: every child row is made again).
   */
  constructor(config: SchemaConfig, plan: GenerationPlan, options: { lineSums?: 'all' | 'strategy'; maxLineRows?: number; draws?: ReadonlyMap<string, EntityDraws>; madeAhead?: MadeAhead } = {}) {
    this.#maxLineRows = options.maxLineRows ?? Infinity;
    for (const [entityId, draws] of options.draws ?? []) this.#draws.set(entityId, draws);
    this.#referenceMs = Date.parse(plan.referenceDate);
    this.#version = plan.version;
    this.#config = config;
    this.#plan = plan;
    this.#lineSums = options.lineSums ?? 'all';
    this.#made = options.madeAhead ?? new MadeAhead();
    this.#fakers = new FakerPool(this.#referenceMs);
    config.entities.forEach((entity, index) => {
      const entityPlan = plan.entities.find((candidate) => candidate.id === entity.id);
      if (entityPlan) this.#entities.set(entity.id, { entity, index, plan: entityPlan });
    });
    const need = (entity: string, field: string) => this.#needed.set(entity, (this.#needed.get(entity) ?? new Set()).add(field));
    for (const { entity, plan: entityPlan } of this.#entities.values()) {
      for (const field of entity.fields) {
        const target = referenceTarget(field);
        if (target) need(target.entity, target.field);
      }
      for (const reference of compositeReferences(entity)) {
        for (const field of reference.targetFields) {
          need(reference.entity, field);
          this.#aligned.add(`${reference.entity}.${field}`);
        }
      }
      if (entityPlan.deferredColumns.length > 0) for (const key of entityPlan.table.primaryKey) need(entity.id, key);
      // Version 2: a child time follows its parent's created-like time, read from the parent's rows.
      if (hasFeature(plan.version, 'childrenAfterParents')) {
        for (const field of entity.fields) {
          const link = parentTimeLink(entity, field, config.entities, entityPlan.deferredColumns);
          if (link) need(link.parent, link.parentTime);
        }
      }
      // Version 4: a time with no earlier stage in its row follows every parent's created-like time.
      for (const parent of lifecycleParents(entity, config.entities, entityPlan.deferredColumns, plan.version)) need(parent.parent, parent.parentTime);
      const rowNeed = (entity: string, field: string) => this.#rowNeeded.set(entity, (this.#rowNeeded.get(entity) ?? new Set()).add(field));
      for (const read of parentReads(entity, (id) => this.#entities.get(id)?.entity)) {
        rowNeed(read.reference.target.entity, read.reference.target.field);
        rowNeed(read.reference.target.entity, read.field);
      }
      // Version 5: a person's work email reads the name of the company their row references.
      for (const read of companyReads(entity, config.entities, entityPlan.deferredColumns, plan.version)) {
        rowNeed(read.parent, read.parentKey);
        rowNeed(read.parent, read.name.id);
      }
      // Version 4: agreeing references read their parents' references up to the shared ancestor.
      if (hasFeature(plan.version, 'agreeingReferences')) {
        for (const read of agreementReads(referenceAgreements(entity, config.entities, entityPlan.deferredColumns))) rowNeed(read.entity, read.field);
      }
    }
  }

  /** Batches of rows of an entity, values in `table.columns` order, deferred columns null. Parents first (plan order). */
  *rows(entityId: string, batchSize: number): Generator<RowValues[]> {
    yield* rowBatches(this.#rowValues(entityId, false), batchSize);
  }

  /**
   * The rows of `rows()` as bulk-load text, each encoded as soon as it is made into one reused
   * array: no batch of row arrays is kept for a loader, so less survives into the old generation.
   * A chunk closes with each batch, or sooner once its text reaches TEXT_CHUNK_CHARS.
   */
  *textChunks(entityId: string, batchSize: number, encodeRow: (row: RowValues) => string): Generator<TextChunk> {
    const maker = this.#rowMaker(entityId, true);
    try {
      // Published before the last chunk goes, as when the rows ran out.
      yield* textChunksOf(maker.next, encodeRow, batchSize, maker.close);
    } finally {
      maker.close();
    }
  }

  /**
   * Every row of an entity in turn. `reuse`: one array holds each row in turn (the caller must be
   * done with a row before asking for the next).
   */
  *#rowValues(entityId: string, reuse: boolean, only?: readonly number[]): Generator<RowValue[]> {
    const maker = this.#rowMaker(entityId, reuse, only);
    try {
      for (let values = maker.next(); values !== undefined; values = maker.next()) yield values;
    } finally {
      maker.close();
    }
  }

  /**
   * #rowValues as plain calls: `next()` makes the next row (undefined after the last, or once a
   * unique pool ran out, with its warning); `close()`, once, records the rows produced and publishes
   * the entity's pools, whether or not every row was asked for. `only`: the fields a caller reads
   * (the lines generator); those, the fields they read and the pools' fields are made, the others
   * left null, unless one left out carries state from row to row (it could end the rows early).
   * Columns carried ahead (#makeLineSums) are read, not made, where they hold the row. `carriable`:
   * the fields made that a later pass may read so (none carry state from row to row).
   */
  #rowMaker(entityId: string, reuse: boolean, only?: readonly number[]): { next(): RowValue[] | undefined; close(): void; carriable: number[]; rowLimit: number } {
    const { plan } = this.#entry(entityId);
    const compiled = compileEntity(this.#context(entityId), new Set(plan.deferredColumns));
    this.warnings.push(...compiled.warnings);
    const columns = plan.table.columns.length;
    const needed = this.#needed.get(entityId) ?? new Set<string>();
    const made = only ? this.#fieldsFor(compiled, only, needed, this.#rowNeeded.get(entityId)) : compiled.order;
    const order = this.#withCarried(entityId, made);
    const stored = compiled.order.filter((field) => needed.has(field.field.id) && !this.#indexable(field));
    const pools = new Map(stored.map((field) => [field.index, new StoredKeyPool(field.field.nullable === true && !this.#aligned.has(`${entityId}.${field.field.id}`))]));
    // Columns children read by row keep every row, nulls included, unless they can be recomputed.
    const rowNeeded = this.#rowNeeded.get(entityId) ?? new Set<string>();
    const rowStored = compiled.order.filter((field) => rowNeeded.has(field.field.id) && !field.pure);
    const rowPools = new Map(rowStored.map((field) => [field.index, new StoredKeyPool(false)]));
    const rowPoolIndexes = [...rowPools.keys()];
    const rowPoolList = [...rowPools.values()];
    const poolIndexes = [...pools.keys()];
    const poolList = [...pools.values()];
    const shared: RowValue[] = new Array<RowValue>(columns);
    const observe = this.audit?.observer(entityId);
    const rowLimit = compiled.rowLimit;
    let row = 0;
    // Row `row` was handed out: it counts as produced once the next one is asked for (as a generator
    // resumed past its yield counted it), so a consumer that stops early leaves it out, as before.
    let handed = false;
    let ended = false;
    let closed = false;
    const next = (): RowValue[] | undefined => {
      if (handed) {
        row++;
        handed = false;
      }
      if (ended || row >= rowLimit) {
        ended = true;
        return undefined;
      }
      const values = clearRow(reuse ? shared : new Array<RowValue>(columns));
      for (let f = 0; f < order.length; f++) {
        const field = order[f]!;
        const value = field.generate(row, values);
        if (value === EXHAUSTED) {
          this.warnings.push(this.#exhausted(entityId, field, row));
          ended = true;
          return undefined;
        }
        values[field.index] = value;
      }
      for (let i = 0; i < poolList.length; i++) poolList[i]!.push(values[poolIndexes[i]!]!);
      observe?.(values);
      for (let i = 0; i < rowPoolList.length; i++) rowPoolList[i]!.push(values[rowPoolIndexes[i]!]!);
      handed = true;
      return values;
    };
    const close = () => {
      if (closed) return;
      closed = true;
      this.produced.set(entityId, row);
      this.#publishPools(entityId, compiled, pools, row, rowPools);
      // A pass stopped early (a preview's first rows) published part of the pools only.
      if (ended) this.#complete.add(entityId);
      else this.#complete.delete(entityId);
      if (this.#lineSums === 'all') this.#made.release(entityId);
    };
    const carriable = made.filter((field) => !field.sequential && !field.retries).map((field) => field.index);
    return { next, close, carriable, rowLimit };
  }

  /**
   * `order` with the fields whose values a pass ahead carried (MadeAhead) read from there for the
   * rows it holds: the same values, made once. Not in a generator whose rows may differ from the
   * generation's (#refused), nor for fields that carry state from row to row.
   */
  #withCarried(entityId: string, order: CompiledEntity['order']): CompiledEntity['order'] {
    const carried = this.#refused ? undefined : this.#made.carried(entityId);
    if (!carried) return order;
    return order.map((field) => {
      const column = carried.get(field.index);
      if (!column || field.sequential || field.retries) return field;
      const { rows } = column;
      const generate = field.generate;
      return { ...field, generate: (row, values) => (row < rows ? column.at(row) : generate(row, values)) };
    });
  }

  /**
   * The fields of `compiled.order` that make `only` and the columns others read (`needed`,
   * `rowNeeded`), with every field they read, in order; every field when one left out is sequential.
   */
  #fieldsFor(compiled: CompiledEntity, only: readonly number[], needed: ReadonlySet<string>, rowNeeded: ReadonlySet<string> = new Set()): CompiledEntity['order'] {
    const byIndex = new Map(compiled.order.map((field) => [field.index, field]));
    const keep = new Set<number>();
    const visit = (index: number) => {
      const field = byIndex.get(index);
      if (!field || keep.has(index)) return;
      keep.add(index);
      for (const dep of field.deps) visit(dep);
    };
    for (const index of only) visit(index);
    for (const field of compiled.order) if (needed.has(field.field.id) || rowNeeded.has(field.field.id)) visit(field.index);
    if (compiled.order.some((field) => !keep.has(field.index) && field.sequential)) return compiled.order;
    return compiled.order.filter((field) => keep.has(field.index));
  }

  /** After every `rows()`: batches of `[...primaryKeyValues, ...deferredColumnValues]` (rows whose deferred values are all null are left out). */
  *deferredUpdates(entityId: string, batchSize: number): Generator<RowValues[]> {
    const { plan, index } = this.#entry(entityId);
    if (plan.deferredColumns.length === 0) return;
    const produced = this.produced.get(entityId);
    if (produced === undefined) throw new Error(`deferredUpdates("${entityId}") needs rows("${entityId}") first`);
    const keys = plan.table.primaryKey.map((key) => this.#pools.get(`${entityId}.${key}`));
    if (keys.length === 0 || keys.some((pool) => !pool)) {
      this.warnings.push({ path: `/entities/${index}`, message: `${entityId} has no primary key, so its reference columns ${plan.deferredColumns.join(', ')} stay null` });
      return;
    }
    const fill = this.#deferredFill(entityId);
    const deferred: RowValue[] = new Array<RowValue>(plan.deferredColumns.length);
    const size = batchLength(batchSize);
    let batch: RowValues[] = [];
    for (let row = 0; row < produced; row++) {
      if (fill(row, deferred).every((value) => value === null)) continue;
      batch.push([...keys.map((pool) => pool!.at(row)), ...deferred]);
      if (batch.length >= size) {
        yield batch;
        batch = [];
      }
    }
    if (batch.length > 0) yield batch;
  }

  /**
   * Every row of an entity with its deferred columns filled, as the database holds it once
   * `deferredUpdates` has run (files have no second pass): every entity its deferred columns
   * reference must have been generated first. `reuse` as in textChunks.
   */
  *completeRows(entityId: string, reuse = false): Generator<RowValue[]> {
    const fillInto = this.#deferredInto(entityId);
    let row = 0;
    for (const values of this.#rowValues(entityId, reuse)) {
      fillInto?.(row, values);
      row++;
      yield values;
    }
  }

  /** Deferred column values of the first `count` rows, when every target's keys exist (previews); else undefined. */
  deferredValues(entityId: string, count: number): RowValue[][] | undefined {
    const { plan } = this.#entry(entityId);
    let fill: DeferredFill;
    try {
      fill = this.#deferredFill(entityId);
    } catch {
      return undefined;
    }
    return Array.from({ length: count }, (_, row) => fill(row, new Array<RowValue>(plan.deferredColumns.length)));
  }

  /**
   * Declares an entity generated without producing its rows: its needed columns must be recomputable
   * (previews, and ranges made in other threads, told how many rows a real generation `produced`). `warn`: keep its compile-time warnings (exhausted pools), as
   * a real generation would.
   */
  assumeGenerated(entityId: string, warn = false, produced?: number): boolean {
    const compiled = compileEntity(this.#context(entityId), new Set(this.#entry(entityId).plan.deferredColumns));
    const needed = this.#needed.get(entityId) ?? new Set<string>();
    if (compiled.order.some((field) => needed.has(field.field.id) && !this.#indexable(field))) return false;
    const rowNeeded = this.#rowNeeded.get(entityId) ?? new Set<string>();
    if (compiled.order.some((field) => rowNeeded.has(field.field.id) && !field.pure)) return false;
    const draws = this.#draws.get(entityId);
    if (warn) this.warnings.push(...compiled.warnings, ...(draws?.warning ? [draws.warning] : []));
    // `produced`: the rows a real generation made (fewer than rowLimit when a unique field ran out,
    // as its draws know when they were found).
    const rows = produced ?? draws?.rows ?? compiled.rowLimit;
    this.produced.set(entityId, rows);
    this.#complete.add(entityId);
    this.#publishPools(entityId, compiled, new Map(), rows);
    return true;
  }

  /**
   * Whether any range of the entity's rows can be made on its own (`rangeRows`), here or in another
   * thread: no field carries state from row to row, deferred ones included, but unique fields drawn
   * by retries, once their draws are found (`draws`). Every entity it takes values from must be
   * generated or assumed first; the entities its deferred columns point to too, when `complete`.
   */
  rangeSafe(entityId: string, complete = true): boolean {
    const { plan } = this.#entry(entityId);
    const fields = compileEntity(this.#context(entityId), new Set(plan.deferredColumns)).order;
    const deferred = complete && plan.deferredColumns.length > 0 ? this.#deferredFields(entityId) : [];
    return fields.every((field) => !field.sequential || field.retries === true) && deferred.every((field) => !field.sequential);
  }

  /**
   * The draws of a range-safe entity's unique fields drawn by retries (undefined when it has none):
   * found once, by making those fields (and the fields they read) of every row in order, or given
   * (the constructor's `draws`, `adoptDraws`). From then on its row limit and ranges follow them.
   * Every entity it takes values from must be generated or assumed first.
   */
  draws(entityId: string): EntityDraws | undefined {
    const steps = this.drawSteps(entityId);
    for (let step = steps.next(); ; step = steps.next()) if (step.done) return step.value;
  }

  /**
   * `draws` in steps: yields every DRAW_STEP_ROWS rows of its pass, so that a caller can let its
   * event loop turn (lease and job heartbeats) while a large entity's draws are found.
   */
  *drawSteps(entityId: string): Generator<void, EntityDraws | undefined> {
    const found = this.#draws.get(entityId);
    if (found) return found;
    const { plan } = this.#entry(entityId);
    const compiled = compileEntity(this.#context(entityId), new Set(plan.deferredColumns), undefined, { record: true });
    if (!compiled.order.some((field) => field.retries)) return undefined;
    // The unique fields and every field they read, in the order a whole row makes them.
    const byIndex = new Map(compiled.order.map((field) => [field.index, field]));
    const keep = new Set<number>();
    const visit = (index: number) => {
      if (keep.has(index) || !byIndex.has(index)) return;
      keep.add(index);
      for (const dep of byIndex.get(index)!.deps) visit(dep);
    };
    for (const field of compiled.order) if (field.retries) visit(field.index);
    const fields = compiled.order.filter((field) => keep.has(field.index));
    const values: RowValue[] = new Array<RowValue>(plan.table.columns.length).fill(null);
    let rows = compiled.rowLimit;
    let warning: Issue | undefined;
    pass: for (let row = 0; row < rows; row++) {
      if (row % DRAW_STEP_ROWS === DRAW_STEP_ROWS - 1) yield;
      clearRow(values);
      for (let f = 0; f < fields.length; f++) {
        const field = fields[f]!;
        const value = field.generate(row, values);
        if (value === EXHAUSTED) {
          warning = this.#exhausted(entityId, field, row);
          rows = row;
          break pass;
        }
        values[field.index] = value;
      }
    }
    const ledgers = new Map(compiled.order.filter((field) => field.retries).map((field) => [field.index, DrawLedgers.trimmed(field.ledger!)]));
    const draws: EntityDraws = { rows, ledgers, ...(warning ? { warning } : {}) };
    this.adoptDraws(new Map([[entityId, draws]]));
    return draws;
  }

  /** Draws found elsewhere (a schedule's probe, another process), made from as if found here. */
  adoptDraws(draws: ReadonlyMap<string, EntityDraws>): void {
    for (const [entityId, entityDraws] of draws) {
      this.#draws.set(entityId, entityDraws);
      this.#compiledEntities.delete(entityId);
    }
  }

  /** The draws found or given so far, by entity id. */
  get foundDraws(): ReadonlyMap<string, EntityDraws> {
    return this.#draws;
  }

  /** Rows the entity will have: its planned rows, or fewer when a unique pool or a parent runs out (or a unique field drawn by retries, once its draws are found). */
  rowLimit(entityId: string): number {
    return this.#compiled(entityId).rowLimit;
  }

  /**
   * Rows `from` to `to` (exclusive) of a range-safe entity, complete (deferred columns filled) and
   * exactly as `completeRows` makes them; publishes nothing. `reuse` as in textChunks.
   */
  *rangeRows(entityId: string, from: number, to: number, reuse = false): Generator<RowValue[]> {
    const maker = this.rangeMaker(entityId, from, to, reuse);
    for (let values = maker(); values !== undefined; values = maker()) yield values;
  }

  /** rangeRows as plain calls: each call makes the next row, undefined after the last (text chunks are made this way, not by a generator resumed per row). */
  rangeMaker(entityId: string, from: number, to: number, reuse: boolean): () => RowValue[] | undefined {
    const { plan } = this.#entry(entityId);
    const compiled = this.#compiled(entityId);
    const fillInto = this.#deferredInto(entityId);
    const columns = plan.table.columns.length;
    const shared: RowValue[] = new Array<RowValue>(columns);
    const end = Math.min(to, compiled.rowLimit);
    const sequential = compiled.order.find((field) => field.sequential);
    if (sequential && end > from) throw new Error(`${entityId}.${sequential.field.id} is not range-safe: its rows must be made in order${sequential.retries ? ' (its draws were not found)' : ''}`);
    const order = this.#withCarried(entityId, compiled.order);
    // A whole pass gives its carried columns back at its end.
    const whole = from === 0 && end === compiled.rowLimit && this.#lineSums === 'all';
    let row = from;
    return () => {
      if (row >= end) {
        if (whole) this.#made.release(entityId);
        return undefined;
      }
      const values = clearRow(reuse ? shared : new Array<RowValue>(columns));
      for (const field of order) {
        const value = field.generate(row, values);
        if (value === EXHAUSTED) throw new Error(`${entityId}.${field.field.id} is not range-safe: it ran out of unique values`);
        values[field.index] = value;
      }
      fillInto?.(row, values);
      row++;
      return values;
    };
  }

  /** The entity compiled once (its deferred columns left out), for range generation: from its draws, when found. */
  #compiled(entityId: string): CompiledEntity {
    let compiled = this.#compiledEntities.get(entityId);
    if (!compiled) {
      const draws = this.#draws.get(entityId);
      compiled = compileEntity(this.#context(entityId), new Set(this.#entry(entityId).plan.deferredColumns), undefined, draws ? { replay: draws.ledgers } : {});
      if (draws) compiled = { ...compiled, rowLimit: Math.min(compiled.rowLimit, draws.rows) };
      this.#compiledEntities.set(entityId, compiled);
    }
    return compiled;
  }

  /** The warning of a unique field that ran out of values at `row` (rows stop there). */
  #exhausted(entityId: string, field: CompiledEntity['order'][number], row: number): Issue {
    const { index, plan } = this.#entry(entityId);
    return {
      path: `/entities/${index}/fields/${field.index}`,
      message: `no unique value left for ${entityId}.${field.field.id} after ${row} rows; inserted ${row} of ${plan.rowCount} planned rows`,
    };
  }

  /**
   * The one fill of deferred columns (updates after the load, complete rows of files, ranges,
   * previews): row `row`'s deferred values into `out`, in `deferredColumns` order, null where a pool
   * ran out. Deferred programs see no other value of the row. Throws while a target has no key pool.
   */
  #deferredFill(entityId: string, fields = this.#deferredFields(entityId)): DeferredFill {
    const { plan } = this.#entry(entityId);
    const none: RowValue[] = new Array<RowValue>(plan.table.columns.length).fill(null);
    return (row, out) => {
      for (let i = 0; i < fields.length; i++) {
        const value = fields[i]!.generate(row, none);
        out[i] = value === EXHAUSTED ? null : value;
      }
      return out;
    };
  }

  /** `#deferredFill` writing into a whole row at the deferred columns' places; undefined without deferred columns. */
  #deferredInto(entityId: string): ((row: number, values: RowValue[]) => void) | undefined {
    const { plan } = this.#entry(entityId);
    if (plan.deferredColumns.length === 0) return undefined;
    const fields = this.#deferredFields(entityId);
    const fill = this.#deferredFill(entityId, fields);
    const indexes = fields.map((field) => field.index);
    const deferred: RowValue[] = new Array<RowValue>(indexes.length);
    return (row, values) => {
      fill(row, deferred);
      for (let i = 0; i < indexes.length; i++) values[indexes[i]!] = deferred[i]!;
    };
  }

  /** The deferred columns' programs, in `deferredColumns` order; throws while a target has no key pool. */
  #deferredFields(entityId: string): CompiledEntity['order'] {
    const { plan } = this.#entry(entityId);
    const compiled = compileEntity(this.#context(entityId), new Set(), new Set(plan.deferredColumns));
    return plan.deferredColumns.map((id) => compiled.order.find((field) => field.field.id === id)!);
  }

  /**
   * A parent's lines sums (rules/row-formulas.ts linesSum, the childrenSum strategy: `strategy`):
   * every row of the child entity, made by a second generator exactly as this one will make them, is
   * summed by the parent key it references, once per generation (MadeAhead), when the parent's first
   * row asks. Undefined when the child's reference is filled after insert, or for a version 4 rule in
   * a generator that makes lines itself; a childrenSum there (a child's own sum over its children)
   * is made the same way, one generation further down.
   */
  #childLineSums(sum: LinesSum, strategy: boolean): ((key: RowValue) => number | undefined) | undefined {
    const child = this.#entities.get(sum.child);
    if (!child || child.plan.deferredColumns.includes(child.entity.fields[sum.reference]!.id)) return undefined;
    if (this.#lineSums === 'strategy' && !strategy) {
      this.#refused = true;
      return undefined;
    }
    const slot = `${sum.child}\u0000${sum.reference}\u0000${sum.text}`;
    let sums: KeySums | undefined;
    return (key) => {
      // Sums asked by a generator whose rows may differ from the generation's are kept apart.
      sums ??= this.#made.sums(this.#refused ? `${slot}\u0000refused` : slot, () => this.#makeLineSums(sum));
      return sums.get(key);
    };
  }

  /**
   * The lines generator makes the child's ancestors' pools (those this generator has already made
   * it borrows), then only the columns the sums read (reference, line total or quantity and price,
   * what they read, the child's own pools), not whole rows: the values are the same. Those columns
   * are carried (MadeAhead) for the pass that makes the child's rows, up to its budget.
   */
  #makeLineSums(sum: LinesSum): KeySums {
    // Keyed by the key itself when it is a number (a text key per line costs more than making the line).
    const sums = new KeySums();
    const lines = new DataGenerator(this.#config, this.#plan, { lineSums: 'strategy', maxLineRows: this.#maxLineRows, madeAhead: this.#made });
    const ancestors = new Set(ancestorsOf(this.#config, sum.child));
    let made = this.#entry(sum.child).plan.rowCount;
    try {
      for (const entity of this.#plan.entities) {
        if (made > this.#maxLineRows) throw new PreviewTooLargeError(sum.child, made, this.#maxLineRows);
        if (entity.id === sum.child) break;
        if (!ancestors.has(entity.id) || lines.#borrow(this, entity.id) || lines.assumeGenerated(entity.id)) continue;
        made += entity.rowCount;
        // Only the columns the lines' generation reads from it (their pools) are made.
        if (made <= this.#maxLineRows) lines.#makeAll(entity.id, []);
      }
      const worth = lineWorth(sum.line);
      const maker = lines.#rowMaker(sum.child, true, [sum.reference, ...lineInputs(sum.line)]);
      // Not from a generator whose rows may differ from the generation's (a version 4 sum refused).
      const carry = lines.#refused ? undefined : this.#made.recorder(sum.child, maker.carriable, maker.rowLimit);
      try {
        for (let values = maker.next(); values !== undefined; values = maker.next()) {
          carry?.(values);
          const key = values[sum.reference];
          if (key !== null && key !== undefined) sums.add(typeof key === 'number' ? key : String(key), worth(values));
        }
      } finally {
        maker.close();
      }
    } catch (error) {
      if (error instanceof PreviewTooLargeError) throw error;
      this.warnings.push({ path: `/entities/${this.#entry(sum.child).index}`, message: `the lines of ${sum.child} could not be summed for their parents: ${(error as Error).message}` });
    }
    return sums;
  }

  /**
   * Takes `from`'s pools of an entity it has made whole (or declared), as this generator would make
   * them; false when it has none. Rows made from a generator's pools that may differ from the
   * generation's may differ too (#refused).
   */
  #borrow(from: DataGenerator, entityId: string): boolean {
    const produced = from.produced.get(entityId);
    if (produced === undefined || !from.#complete.has(entityId)) return false;
    // Made here, a version 4 lines sum of the entity is refused (the next rule makes it): lines
    // generators made such an entity themselves before, and their sums are pinned so.
    const { entity } = this.#entry(entityId);
    if (entity.fields.some((field) => linesSumOf(entity, field, this.#config.entities))) return false;
    if (from.#refused) this.#refused = true;
    const lends = [
      [this.#pools, from.#pools, this.#needed],
      [this.#rowPools, from.#rowPools, this.#rowNeeded],
    ] as const;
    for (const [pools, lent, fields] of lends) {
      for (const field of fields.get(entityId) ?? []) {
        const pool = lent.get(`${entityId}.${field}`);
        if (pool) pools.set(`${entityId}.${field}`, pool);
      }
    }
    this.produced.set(entityId, produced);
    this.#complete.add(entityId);
    return true;
  }

  /** Every row of an entity made (only `only`'s fields, as #rowMaker), its pools published. */
  #makeAll(entityId: string, only: readonly number[]): void {
    const maker = this.#rowMaker(entityId, true, only);
    try {
      while (maker.next() !== undefined);
    } finally {
      maker.close();
    }
  }

  #indexable(field: CompiledEntity['order'][number]): boolean {
    return field.pure && !(field.field.nullable && (field.field.generation?.emptyRate ?? 0) > 0);
  }

  #publishPools(entityId: string, compiled: CompiledEntity, stored: Map<number, StoredKeyPool>, produced: number, rowStored = new Map<number, StoredKeyPool>()): void {
    const needed = this.#needed.get(entityId) ?? new Set<string>();
    const rowNeeded = this.#rowNeeded.get(entityId) ?? new Set<string>();
    const none: RowValue[] = [];
    for (const field of compiled.order) {
      const indexed = () => new IndexedKeyPool(produced, (row) => field.generate(row, none) as RowValue);
      if (needed.has(field.field.id)) this.#pools.set(`${entityId}.${field.field.id}`, stored.get(field.index) ?? indexed());
      if (rowNeeded.has(field.field.id)) this.#rowPools.set(`${entityId}.${field.field.id}`, rowStored.get(field.index) ?? indexed());
    }
  }

  #entry(entityId: string) {
    const entry = this.#entities.get(entityId);
    if (!entry) throw new Error(`the plan has no entity "${entityId}"`);
    return entry;
  }

  #context(entityId: string): EntityContext {
    const { entity, index, plan } = this.#entry(entityId);
    const streams = new Map<string, RandomStream>();
    return {
      entity,
      entityIndex: index,
      entities: this.#config.entities,
      plan,
      version: this.#version,
      referenceMs: this.#referenceMs,
      fakers: this.#fakers,
      words: LocaleWords.of(plan.locale),
      stream: (fieldId, purpose) => {
        const key = `${fieldId}\u0000${purpose}`;
        let stream = streams.get(key);
        if (!stream) streams.set(key, (stream = new RandomStream(streamKey(plan.seed, entity.id, fieldId, purpose))));
        return stream;
      },
      fieldIndex: (fieldId) => entity.fields.findIndex((field) => field.id === fieldId),
      keyPool: (parent, field) => this.#pools.get(`${parent}.${field}`),
      entityById: (id) => this.#entities.get(id)?.entity,
      parentValue: (reference, fieldId, convert) => this.#parents.lookup(reference, fieldId, convert),
      childLineSums: (sum, strategy = false) => this.#childLineSums(sum, strategy),
      pointer: (fieldIndex, ...tokens) => [`/entities/${index}/fields/${fieldIndex}`, ...tokens].join('/'),
    };
  }
}

/** A preview would have to produce more ancestor rows than it may (see PreviewLimits in preview.ts). */
export class PreviewTooLargeError extends Error {
  constructor(
    readonly entityId: string,
    readonly ancestorRows: number,
    readonly limit: number,
  ) {
    super(`previewing "${entityId}" needs at least ${ancestorRows} rows of the entities it references produced first, over the limit of ${limit}`);
  }
}

/**
 * Sets every value of a row to null and returns it: a plain loop, where `Array#fill` (a call into
 * the runtime) cost about twice as much per row of ten values, once per row made.
 */
function clearRow(values: RowValue[]): RowValue[] {
  for (let index = 0; index < values.length; index++) values[index] = null;
  return values;
}

/** Fills `out` with row `row`'s deferred column values and returns it (DataGenerator's one deferred fill). */
type DeferredFill = (row: number, out: RowValue[]) => RowValue[];
