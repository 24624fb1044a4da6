// The three stages of a generation split into tasks, on the target: the staging namespace prepared
// (tables with primary keys only, and a marker table of finished tasks), a task's rows written, then
// the marker dropped, keys, indexes and foreign keys built and the namespace swapped in.
//
// A task writes in one transaction that first inserts its marker row: if its worker dies, the
// database rolls the transaction back and the task's rows vanish with it; if two workers ever run
// the same task (a lease that ran out under a slow but living worker), the second waits on the
// marker's primary key and then finds the task done. So a retried task never writes a row twice.
import type { SchemaConfig } from '../../contract.ts';
import type { LoadTransaction, TargetConnection } from '../../dialects/dialect.ts';
import { DataGenerator } from '../generator.ts';
import { ScheduledRows } from '../schedule.ts';
import { abortable } from '../row-batches.ts';
import { DEFAULT_BATCH_SIZE, fillDeferred, loadEntity, type HoldJob } from '../run.ts';
import type { TaskPlan, TaskSpec } from './plan-tasks.ts';

/** What a task wrote: rows per entity, and the warnings its generator raised (exhausted pools). */
export interface TaskResult {
  rows: Record<string, number>;
  warnings: { path: string; message: string }[];
}

/** The marker table's name: one no entity of the plan has (entity ids are the config's). */
export function markerTable(plan: TaskPlan['plan']): string {
  const names = new Set(plan.entities.map((entity) => entity.table.name.toLowerCase()));
  let name = 'sds__tasks';
  while (names.has(name)) name += '_';
  return name;
}

/** Creates the staging namespace empty with the plan's tables and the marker table. */
export async function prepareStaging(connection: TargetConnection, staging: string, tasks: TaskPlan): Promise<void> {
  const q = (name: string) => connection.dialect.quoteIdentifier(name);
  await connection.recreateNamespace(staging);
  await connection.createTables(staging, tasks.plan.entities.map((entity) => entity.table));
  await connection.query(`CREATE TABLE ${q(staging)}.${q(markerTable(tasks.plan))} (task integer PRIMARY KEY, result text NOT NULL)`, []);
}

/**
 * Once every task is done: the marker goes, keys and foreign keys are built, and the namespace swaps
 * in, through `hold` (RunOptions.hold: it runs the swap while the job is still this worker's, or throws).
 */
export async function finishStaging(connection: TargetConnection, staging: string, live: string, tasks: TaskPlan, hold: HoldJob): Promise<void> {
  const q = (name: string) => connection.dialect.quoteIdentifier(name);
  await connection.query(`DROP TABLE ${q(staging)}.${q(markerTable(tasks.plan))}`, []);
  // The namespace was created empty and filled only by this generator's tasks, which draw every
  // reference from rows the plan makes: the orphan check can be skipped, as runGeneration does.
  await connection.finalizeTables(staging, tasks.plan.entities.map((entity) => entity.table), { trustedReferences: true });
  await hold(() => connection.swapNamespaces(staging, live));
}

export interface RunTaskOptions {
  batchSize?: number;
  signal?: AbortSignal;
  /** Rows written so far by the task (all its entities together). */
  onRows?: (written: number) => void;
}

/**
 * Writes task `seq` (`task`) of `tasks` into `staging`; resolves to what it wrote, or to what an
 * earlier run of the same task recorded when that one had committed already.
 */
export async function runTask(
  connection: TargetConnection,
  staging: string,
  config: SchemaConfig,
  tasks: TaskPlan,
  seq: number,
  task: TaskSpec,
  options: RunTaskOptions = {},
): Promise<TaskResult> {
  if (!Number.isSafeInteger(seq) || seq < 0) throw new Error(`task number ${seq} is not a task's`);
  const dialect = connection.dialect;
  const marker = `${dialect.quoteIdentifier(staging)}.${dialect.quoteIdentifier(markerTable(tasks.plan))}`;
  const done = async (): Promise<TaskResult | undefined> => {
    const rows = await connection.query<{ result: string }>(`SELECT result FROM ${marker} WHERE task = ${seq}`, []);
    return rows[0] ? (JSON.parse(rows[0].result) as TaskResult) : undefined;
  };
  const earlier = await done();
  if (earlier) return earlier;
  try {
    return await connection.loadTransaction(async (tx) => {
      // The marker first: a second run of this task waits here until the first one ends.
      await tx.query(`INSERT INTO ${marker} (task, result) VALUES (${seq}, '')`, []);
      const result = await writeTask(tx, staging, config, tasks, task, options);
      await tx.query(`UPDATE ${marker} SET result = ${dialect.placeholder(1)} WHERE task = ${seq}`, [JSON.stringify(result)]);
      return result;
    });
  } catch (error) {
    if (dialect.mapError(error).kind === 'unique_violation') {
      const result = await done();
      if (result) return result;
    }
    throw error;
  }
}

async function writeTask(tx: LoadTransaction, staging: string, config: SchemaConfig, tasks: TaskPlan, task: TaskSpec, options: RunTaskOptions): Promise<TaskResult> {
  const { plan, ranged, schedule } = tasks;
  const scheduled = new ScheduledRows(new DataGenerator(config, plan), () => schedule);
  const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
  const rows: Record<string, number> = {};
  let before = 0;
  const report = (written: number) => options.onRows?.(before + written);
  if (task.kind === 'range') {
    // The entities it takes values from are recomputed from their row index, as every other task does.
    for (const entity of schedule.entities) {
      if (entity.id === task.entity) break;
      if (entity.recomputed) scheduled.declareMade(entity.id);
    }
    const entity = plan.entities.find((candidate) => candidate.id === task.entity)!;
    const range = { from: task.from, to: task.to };
    const loader = tx.textLoader;
    let written: number | undefined;
    if (loader) written = await loader.load(staging, entity.table, abortable(scheduled.textChunks(entity.id, batchSize, loader.encoder(entity.table), range), options.signal), report);
    written ??= await tx.loadRows(staging, entity.table, abortable(scheduled.batches(entity.id, batchSize, range), options.signal), report);
    rows[entity.id] = written;
    return { rows, warnings: [] };
  }
  const inOrder = new Set(task.entities);
  for (const entity of plan.entities) {
    if (!inOrder.has(entity.id)) {
      // Made by range tasks (every entity they take values from is recomputed, so it is too).
      if (ranged.has(entity.id)) scheduled.declareMade(entity.id);
      continue;
    }
    const written = await loadEntity(tx, staging, entity, scheduled, batchSize, options.signal, report);
    rows[entity.id] = written;
    before += written;
  }
  await fillDeferred(tx, staging, plan.entities.filter((entity) => inOrder.has(entity.id)), scheduled, batchSize, options.signal);
  return { rows, warnings: [...scheduled.generator.warnings] };
}
