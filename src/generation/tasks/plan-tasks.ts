// A generation split into tasks that any worker instance can run (issue 30): entities whose rows are
// pure functions of their index (DataGenerator.rangeSafe, keys recomputable, every parent likewise,
// no deferred columns) are cut into row ranges; unique values drawn by retry too, from their draws
// found once by a pass in order over those fields (DataGenerator.draws). The others (deferred fills
// that need every row, children of such entities) stay together in one `ordered` task, made in plan
// order exactly as runGeneration makes them. The plan is a pure function of the config and options,
// so every worker computes the same one.
import type { SchemaConfig } from '../../contract.ts';
import { ancestorsOf } from '../../model/config-graph.ts';
import { DataGenerator, type EntityDraws } from '../generator.ts';
import { planGeneration, type GenerationOptions, type GenerationPlan } from '../plan.ts';

/** Rows of one range task unless told otherwise: a few seconds of work, so a lost task costs little. */
export const DEFAULT_TASK_ROWS = 50_000;

export type TaskSpec =
  /** Rows `from` … `to` (exclusive) of a range-safe entity, complete. */
  | { kind: 'range'; entity: string; from: number; to: number }
  /** Every row of these entities (plan order), then their deferred columns. */
  | { kind: 'ordered'; entities: string[] };

export interface TaskPlan {
  plan: GenerationPlan;
  /** Entities cut into ranges: every entity they take values from is one too. */
  ranged: ReadonlySet<string>;
  /** Ordered task first (it is the longest), then the ranges in plan order. */
  tasks: TaskSpec[];
  /** Rows each ranged entity will have (its row limit). */
  rowLimits: ReadonlyMap<string, number>;
  /** Warnings of compiling the ranged entities (the ordered task reports its own). */
  warnings: { path: string; message: string }[];
  /** The draws of ranged entities' unique fields drawn by retries: every range task's generator is given them. */
  draws: ReadonlyMap<string, EntityDraws>;
}

export function planTasks(config: SchemaConfig, options: GenerationOptions, rowsPerTask = DEFAULT_TASK_ROWS): TaskPlan {
  const steps = planSteps(config, options, rowsPerTask);
  for (let step = steps.next(); ; step = steps.next()) if (step.done) return step.value;
}

/**
 * planTasks letting the event loop turn between steps of finding draws (a pass over every row of
 * an entity with unique values drawn by retry): a worker's lease and job heartbeats go on meanwhile.
 */
export async function planTasksAsync(config: SchemaConfig, options: GenerationOptions, rowsPerTask = DEFAULT_TASK_ROWS): Promise<TaskPlan> {
  const steps = planSteps(config, options, rowsPerTask);
  for (let step = steps.next(); ; step = steps.next()) {
    if (step.done) return step.value;
    await new Promise((resolve) => setImmediate(resolve));
  }
}

function* planSteps(config: SchemaConfig, options: GenerationOptions, rowsPerTask: number): Generator<void, TaskPlan> {
  const plan = planGeneration(config, options);
  const probe = new DataGenerator(config, plan);
  const ranged = new Set<string>();
  const rowLimits = new Map<string, number>();
  for (const entity of plan.entities) {
    if (entity.deferredColumns.length > 0) continue;
    if (!ancestorsOf(config, entity.id).every((id) => id === entity.id || ranged.has(id))) continue;
    try {
      if (!probe.rangeSafe(entity.id, false)) continue;
      // Unique fields drawn by retries: their draws first (and the rows, when one runs out).
      yield* probe.drawSteps(entity.id);
      if (!probe.assumeGenerated(entity.id, true)) continue;
      ranged.add(entity.id);
      rowLimits.set(entity.id, probe.rowLimit(entity.id));
    } catch {
      // A parent's keys cannot be recomputed: the entity is made in order.
    }
  }
  const size = Math.max(1, Math.floor(rowsPerTask));
  const tasks: TaskSpec[] = [];
  const ordered = plan.entities.filter((entity) => !ranged.has(entity.id)).map((entity) => entity.id);
  if (ordered.length > 0) tasks.push({ kind: 'ordered', entities: ordered });
  for (const entity of plan.entities.filter((candidate) => ranged.has(candidate.id))) {
    const limit = rowLimits.get(entity.id)!;
    for (let from = 0; from < limit; from += size) tasks.push({ kind: 'range', entity: entity.id, from, to: Math.min(limit, from + size) });
  }
  const draws = new Map([...probe.foundDraws].filter(([entityId]) => ranged.has(entityId)));
  return { plan, ranged, tasks, rowLimits, warnings: [...probe.warnings], draws };
}

/** Rows a task will write, as planned (an ordered task's unique pools may still run out sooner). */
export function taskRowsPlanned(task: TaskSpec, plan: GenerationPlan): number {
  if (task.kind === 'range') return task.to - task.from;
  return plan.entities.filter((entity) => task.entities.includes(entity.id)).reduce((sum, entity) => sum + entity.rowCount, 0);
}
