// The schedule of a plan: per entity, how its rows are made (in order or in ranges), whether the keys
// other entities draw from it are recomputed instead of made, and its deferred columns; and the one
// path every sink reads rows through, `ScheduledRows` (`rows(entity, from, to)`, and for loaders
// text chunks and batches, of an entity in order or of a range): files, previews, a database load
// and its worker threads, a seed into existing tables and a split job's tasks. DataGenerator is
// asked for rows here only; sinks read `made` to know which entities they may split.
import type { SchemaConfig } from '../model/config-types.ts';
import type { RowValue, RowValues } from '../model/row-value.ts';
import type { TextChunk } from '../dialects/dialect.ts';
import type { Issue } from '../model/config-issues.ts';
import { referenceTarget } from '../model/table-spec.ts';
import { ancestorsOf } from '../model/config-graph.ts';
import { DataGenerator, type EntityDraws } from './generator.ts';
import { rowBatches, textChunks as textChunksOf } from './row-batches.ts';
import type { EntityPlan, GenerationPlan } from './plan.ts';

export interface EntitySchedule {
  id: string;
  plan: EntityPlan;
  /**
   * `ranges`: any range of its rows can be made on its own, here or in another thread or process
   * (no field carries state from row to row, every entity it takes values from is recomputed, and
   * for deferred columns their targets too); `rowLimit` rows, known before any row is made. Unique
   * fields drawn by retries are made from their draws (`Schedule.draws`), found once, in order.
   * `order`: made from row 0 in turn, as a database load makes it.
   */
  made: 'ranges' | 'order';
  /**
   * The keys (and row-read columns) other entities draw from it are pure functions of the row index:
   * a generator declares them (DataGenerator.assumeGenerated) instead of making its rows. Every
   * `ranges` entity is recomputed; an `order` entity may be too.
   */
  recomputed: boolean;
  /** `ranges`: the rows it will have. */
  rowLimit?: number;
  /** `recomputed`: the rows a generation in plan order is assumed to make of it (all planned unless a unique pool runs out). */
  assumedRows?: number;
  /** Reference columns filled once every row exists (self references, cycles): the plan's. */
  deferredColumns: string[];
  /** `recomputed`: its compile warnings (exhausted pools), which a sink that makes none of its rows reports. */
  warnings: Issue[];
}

export interface Schedule {
  plan: GenerationPlan;
  /** Plan order: parents first. */
  entities: EntitySchedule[];
  /**
   * The draws of the `ranges` entities with unique fields drawn by retries (DataGenerator.draws):
   * every generator that makes their ranges is given them (ScheduledRows does, worker threads are sent them).
   */
  draws: ReadonlyMap<string, EntityDraws>;
}

/**
 * The schedule of `plan`, a pure function of the config and the plan: found in plan order on a
 * probe generator that makes no row.
 */
export function scheduleGeneration(config: SchemaConfig, plan: GenerationPlan): Schedule {
  const steps = scheduleSteps(config, plan);
  for (let step = steps.next(); ; step = steps.next()) if (step.done) return step.value;
}

/**
 * scheduleGeneration in steps: yields every few thousand rows of the pass that finds the draws of
 * unique fields drawn by retries (DataGenerator.drawSteps), so that a caller can let its event loop
 * turn (a job's lease and heartbeats) meanwhile.
 */
export function* scheduleSteps(config: SchemaConfig, plan: GenerationPlan): Generator<void, Schedule> {
  const probe = new DataGenerator(config, plan);
  const recomputed = new Set<string>();
  const ranges = new Set<string>();
  const rowLimits = new Map<string, number>();
  const warnings = new Map<string, Issue[]>();
  for (const entity of plan.entities) {
    if (!ancestorsOf(config, entity.id).every((id) => id === entity.id || recomputed.has(id))) continue;
    try {
      const safe = probe.rangeSafe(entity.id, false);
      // Unique fields drawn by retries: their draws found first (its rows, when one runs out, too).
      if (safe) yield* probe.drawSteps(entity.id);
      const before = probe.warnings.length;
      if (!probe.assumeGenerated(entity.id, true)) continue;
      warnings.set(entity.id, probe.warnings.slice(before));
      recomputed.add(entity.id);
      if (safe) {
        ranges.add(entity.id);
        rowLimits.set(entity.id, probe.rowLimit(entity.id));
      }
    } catch {
      // A parent's keys cannot be recomputed here: the entity is made in order.
    }
  }
  // Deferred columns point anywhere: their targets must be recomputed, and their programs range-safe.
  for (const entity of plan.entities.filter((candidate) => ranges.has(candidate.id) && candidate.deferredColumns.length > 0)) {
    const fields = config.entities.find((candidate) => candidate.id === entity.id)!.fields.filter((field) => entity.deferredColumns.includes(field.id));
    const targetsRecomputed = fields.every((field) => {
      const target = referenceTarget(field)?.entity;
      return target !== undefined && recomputed.has(target);
    });
    try {
      if (!targetsRecomputed || !probe.rangeSafe(entity.id, true)) ranges.delete(entity.id);
    } catch {
      ranges.delete(entity.id);
    }
  }
  const draws = new Map([...probe.foundDraws].filter(([entityId]) => ranges.has(entityId)));
  return {
    plan,
    draws,
    entities: plan.entities.map((entity) => ({
      id: entity.id,
      plan: entity,
      made: ranges.has(entity.id) ? 'ranges' : 'order',
      recomputed: recomputed.has(entity.id),
      ...(ranges.has(entity.id) ? { rowLimit: rowLimits.get(entity.id)! } : {}),
      ...(recomputed.has(entity.id) ? { assumedRows: probe.produced.get(entity.id)! } : {}),
      deferredColumns: entity.deferredColumns,
      warnings: warnings.get(entity.id) ?? [],
    })),
  };
}

/** A schedule as another thread is sent it (structured clone): without its plan, which the thread makes again from the same inputs. */
export interface SentSchedule {
  entities: Omit<EntitySchedule, 'plan'>[];
  draws: ReadonlyMap<string, EntityDraws>;
}

export function sendSchedule(schedule: Schedule): SentSchedule {
  return { entities: schedule.entities.map(({ plan: _plan, ...entity }) => entity), draws: schedule.draws };
}

/** A schedule sent by `sendSchedule`, given the plan the thread made. */
export function receiveSchedule(sent: SentSchedule, plan: GenerationPlan): Schedule {
  return {
    plan,
    draws: sent.draws,
    entities: sent.entities.map((entity) => {
      const entityPlan = plan.entities.find((candidate) => candidate.id === entity.id);
      if (!entityPlan) throw new Error(`the plan has no entity "${entity.id}" of the schedule sent`);
      return { ...entity, plan: entityPlan };
    }),
  };
}

/**
 * What a sink that writes each row once, complete (files, previews of whole rows), does in turn:
 * in plan order, `declare` a `ranges` entity (its keys recomputed) and `write` it unless it has
 * deferred columns; `make` an `order` entity with deferred columns (its keys published, its rows
 * dropped) and `write` every other; then `write` the entities with deferred columns, every entity
 * they point to being there. A sink with a second pass (a database load) writes every entity in
 * plan order with deferred columns null and fills them after (DataGenerator.deferredUpdates).
 */
export type ScheduleStep = { step: 'declare' | 'make' | 'write'; entity: EntitySchedule };

export function completeRowSteps(schedule: Schedule): ScheduleStep[] {
  const steps: ScheduleStep[] = [];
  for (const entity of schedule.entities) {
    const deferred = entity.deferredColumns.length > 0;
    if (entity.made === 'ranges') steps.push({ step: 'declare', entity });
    else if (deferred) steps.push({ step: 'make', entity });
    if (!deferred) steps.push({ step: 'write', entity });
  }
  for (const entity of schedule.entities) if (entity.deferredColumns.length > 0) steps.push({ step: 'write', entity });
  return steps;
}

/** Rows `from` … `to` (exclusive) of an entity. */
export interface RowRange {
  from: number;
  to: number;
}

/**
 * The generator a sink reads its rows from, following a schedule (one per generation). The schedule
 * is found when first asked for: rows with deferred columns left null (previews) never need it.
 */
export class ScheduledRows {
  #schedule: Schedule | undefined;
  #byId: Map<string, EntitySchedule> | undefined;

  constructor(
    readonly generator: DataGenerator,
    private readonly find: () => Schedule,
  ) {}

  /** A generation's rows, its schedule found from the same config and plan when first asked for. */
  static of(config: SchemaConfig, plan: GenerationPlan): ScheduledRows {
    return new ScheduledRows(new DataGenerator(config, plan), () => scheduleGeneration(config, plan));
  }

  get schedule(): Schedule {
    if (!this.#schedule) {
      this.#schedule = this.find();
      this.generator.adoptDraws(this.#schedule.draws);
    }
    return this.#schedule;
  }

  entity(entityId: string): EntitySchedule {
    this.#byId ??= new Map(this.schedule.entities.map((entity) => [entity.id, entity]));
    const entity = this.#byId.get(entityId);
    if (!entity) throw new Error(`the schedule has no entity "${entityId}"`);
    return entity;
  }

  /**
   * A `declare` or `make` step: a `ranges` entity's keys declared (its compile warnings kept, as a
   * generation in order reports them), an `order` entity's rows made and dropped so that its keys
   * exist. `signal` is checked between batches.
   */
  prepare(entityId: string, signal?: AbortSignal): void {
    if (this.entity(entityId).made === 'ranges') {
      this.generator.assumeGenerated(entityId, true);
      return;
    }
    this.make(entityId, signal);
  }

  /**
   * Makes every row of an entity in order and drops them, so that its keys exist for the entities
   * after it (a `make` step; previews, which need no schedule, make an ancestor so).
   */
  make(entityId: string, signal?: AbortSignal): void {
    for (const batch of this.generator.rows(entityId, 1_000)) {
      void batch;
      signal?.throwIfAborted();
    }
  }

  /**
   * Declares an entity's keys before any of its rows is made (a seed's cycle of NOT NULL references,
   * loaded complete): false when they are made row by row and cannot be computed ahead. Its compile
   * warnings are kept once: here for a `ranges` entity (whose `rows()` reports none), by `rows()`
   * for an `order` one.
   */
  declareAhead(entityId: string): boolean {
    return this.generator.assumeGenerated(entityId, this.entity(entityId).made === 'ranges');
  }

  /** Rows an entity has once made: its `rowLimit` in ranges, else what its compiled fields allow. */
  rowLimit(entityId: string): number {
    return this.generator.rowLimit(entityId);
  }

  /**
   * Rows `from` … `to` (exclusive) of an entity, values in `table.columns` order, complete (deferred
   * columns filled, so every entity they point to must be declared or made first). Made in ranges:
   * only those rows are made, nothing published. Made in order: every row is made (later rows and
   * entities depend on them, and its keys are published), those in the range yielded. `reuse`: one
   * array holds each row in turn (the caller is done with a row before asking for the next).
   * `deferred: 'null'`: the rows as a load with a second pass inserts them (deferred columns null),
   * made in order up to `to` only (previews; the database load's `DataGenerator.rows`).
   */
  *rows(entityId: string, from = 0, to = Infinity, options: { reuse?: boolean; signal?: AbortSignal; deferred?: 'filled' | 'null' } = {}): Generator<RowValue[]> {
    if (options.deferred === 'null') {
      yield* this.#rowsInOrder(entityId, from, to);
      return;
    }
    const reuse = options.reuse ?? false;
    // A coherence audit sees rows as they are made in order (completeRows); ranges are not observed,
    // so an entity the audit watches is made in order.
    if (this.entity(entityId).made === 'ranges' && !this.generator.audit?.observes(entityId)) {
      yield* this.generator.rangeRows(entityId, from, to, reuse);
      return;
    }
    let index = 0;
    for (const row of this.generator.completeRows(entityId, reuse)) {
      if (index >= from && index < to) yield row;
      else if (index % 10_000 === 0) options.signal?.throwIfAborted();
      index++;
    }
  }

  /**
   * Declares a `recomputed` entity made elsewhere (another thread's or task's rows) as a generation in
   * plan order made it, `assumedRows` rows: its keys recomputed for the entities that follow.
   */
  declareMade(entityId: string): void {
    const entity = this.entity(entityId);
    if (!entity.recomputed || !this.generator.assumeGenerated(entityId, false, entity.assumedRows)) throw new Error(`the schedule does not recompute "${entityId}"`);
  }

  /**
   * Bulk-load text, each row encoded as soon as it is made into one reused array (a loader keeps no
   * batch of row arrays): chunks close with each `batchSize` rows, or sooner once their text is long.
   * Without `range`: every row of `rows(entity, 0, ∞, { deferred: 'null' })`, made in order. With
   * `range`: rows `from` … `to` of an entity made in ranges, complete, nothing published.
   */
  textChunks(entityId: string, batchSize: number, encodeRow: (row: RowValues) => string, range?: RowRange): Generator<TextChunk> {
    if (!range) return this.generator.textChunks(entityId, batchSize, encodeRow);
    this.#madeInRanges(entityId);
    return textChunksOf(this.generator.rangeMaker(entityId, range.from, range.to, true), encodeRow, batchSize);
  }

  /** The rows of `textChunks` as batches of `batchSize` row arrays (targets that take no bulk-load text). */
  batches(entityId: string, batchSize: number, range?: RowRange): Generator<RowValues[]> {
    return range ? rowBatches(this.#range(entityId, range, false), batchSize) : this.generator.rows(entityId, batchSize);
  }

  #range(entityId: string, { from, to }: RowRange, reuse: boolean): Generator<RowValue[]> {
    this.#madeInRanges(entityId);
    return this.generator.rangeRows(entityId, from, to, reuse);
  }

  #madeInRanges(entityId: string): void {
    if (this.entity(entityId).made !== 'ranges') throw new Error(`the schedule makes "${entityId}" in order, not in ranges`);
  }

  /**
   * The second pass of a load that wrote an entity with deferred columns null: batches of
   * `[...primaryKeyValues, ...deferredColumnValues]` for the rows written, once every entity exists.
   */
  deferredUpdates(entityId: string, batchSize: number): Generator<RowValues[]> {
    return this.generator.deferredUpdates(entityId, batchSize);
  }

  /** Rows with deferred columns null, made from row 0 in batches no larger than `to` and no further than the batch holding row `to - 1`. */
  *#rowsInOrder(entityId: string, from: number, to: number): Generator<RowValue[]> {
    if (to <= 0) return;
    let index = 0;
    for (const batch of this.generator.rows(entityId, Math.min(to, 10_000))) {
      for (const row of batch) {
        if (index >= to) return;
        if (index >= from) yield row;
        index++;
      }
      if (index >= to) return;
    }
  }
}
