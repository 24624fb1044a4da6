// A generation split into tasks that any worker instance can run (issue 30), following the
// generation's schedule (schedule.ts): entities it makes in ranges (rows pure functions of their
// index, keys recomputable, unique values drawn by retry from their draws found once) and that have
// no deferred columns are cut into row ranges; the others (deferred fills that need every row,
// children of entities made in order) stay together in one `ordered` task, made in plan order
// exactly as runGeneration makes them. The plan is a pure function of the config and options, so
// every worker computes the same one.
import type { SchemaConfig } from '../../contract.ts';
import type { EntityDraws } from '../generator.ts';
import { planGeneration, type GenerationOptions, type GenerationPlan } from '../plan.ts';
import { scheduleSteps, type Schedule } from '../schedule.ts';

/** Rows of one range task unless told otherwise: a few seconds of work, so a lost task costs little. */
export const DEFAULT_TASK_ROWS = 50_000;

export type TaskSpec =
  /** Rows `from` … `to` (exclusive) of a range-safe entity, complete. */
  | { kind: 'range'; entity: string; from: number; to: number }
  /** Every row of these entities (plan order), then their deferred columns. */
  | { kind: 'ordered'; entities: string[] };

export interface TaskPlan {
  plan: GenerationPlan;
  /** The generation's schedule: every task reads its rows through it (ScheduledRows). */
  schedule: Schedule;
  /** Entities cut into ranges: every entity they take values from is one too. */
  ranged: ReadonlySet<string>;
  /** Ordered task first (it is the longest), then the ranges in plan order. */
  tasks: TaskSpec[];
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
  const schedule = yield* scheduleSteps(config, plan);
  const inRanges = schedule.entities.filter((entity) => entity.made === 'ranges' && entity.deferredColumns.length === 0);
  const ranged = new Set(inRanges.map((entity) => entity.id));
  const size = Math.max(1, Math.floor(rowsPerTask));
  const tasks: TaskSpec[] = [];
  const ordered = plan.entities.filter((entity) => !ranged.has(entity.id)).map((entity) => entity.id);
  if (ordered.length > 0) tasks.push({ kind: 'ordered', entities: ordered });
  for (const entity of inRanges) {
    const limit = entity.rowLimit!;
    for (let from = 0; from < limit; from += size) tasks.push({ kind: 'range', entity: entity.id, from, to: Math.min(limit, from + size) });
  }
  const draws = new Map([...schedule.draws].filter(([entityId]) => ranged.has(entityId)));
  return { plan, schedule, ranged, tasks, warnings: inRanges.flatMap((entity) => entity.warnings), draws };
}

/** Rows a task will write, as planned (an ordered task's unique pools may still run out sooner). */
export function taskRowsPlanned(task: TaskSpec, plan: GenerationPlan): number {
  if (task.kind === 'range') return task.to - task.from;
  return plan.entities.filter((entity) => task.entities.includes(entity.id)).reduce((sum, entity) => sum + entity.rowCount, 0);
}
