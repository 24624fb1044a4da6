// A worker thread that makes ranges of an entity's rows (ScheduledRows.rows) and encodes
// them: text formats as the bytes the file holds (UTF-8 chunks whose buffers are transferred, not
// copied), other formats as the rows' values for the main thread to encode. Every worker builds the
// same plan from the same inputs, so a row's values are the same whichever thread makes it. A
// worker loads its modules as soon as it starts and plans once told the setup (SetupMessage), so
// it can be started before the config is read (range-workers.ts, RangeWorkers.spawn).
import { parentPort } from 'node:worker_threads';
import type { SchemaConfig, SourceKind } from '../contract.ts';
import { serveRangeTasks } from '../generation/range-worker-loop.ts';
import { DataGenerator } from '../generation/generator.ts';
import { receiveSchedule, ScheduledRows, type SentSchedule } from '../generation/schedule.ts';
import { planGeneration, plannedRowCounts, type GenerationOptions } from '../generation/plan.ts';
import { buildRuntimeTables } from '../model/tables.ts';
import { BufferPool } from './byte-chunks.ts';
import { FILE_FORMATS, type FileFormat } from './formats.ts';
import { tableEncoder, type TableEncoder } from './table-encoders.ts';
import { encodeTextRows } from './table-writer.ts';
import type { AssumeMessage, RangeResult, RangeTask, SetupMessage } from '../generation/range-workers.ts';

export interface RangeWorkerSetup {
  config: SchemaConfig;
  /** The plan's inputs, the reference date resolved: workers must plan exactly as the main thread did. */
  options: GenerationOptions & { referenceDate: string };
  format: FileFormat;
  dialect: SourceKind;
  namespace: string;
  /** The schedule found by the main thread (its draws of unique fields drawn by retries with it): rows are read through it. */
  schedule: SentSchedule;
}

/** Plans the generation; resolves to the handler of the messages after the setup. */
async function serve(setup: RangeWorkerSetup): Promise<(message: RangeTask | AssumeMessage) => void> {
  const plan = planGeneration(setup.config, setup.options);
  const scheduled = new ScheduledRows(new DataGenerator(setup.config, plan, { draws: setup.schedule.draws }), () => receiveSchedule(setup.schedule, plan));
  const tables = buildRuntimeTables(setup.config, plannedRowCounts(setup.config));
  // Only SQL scripts need a dialect: the drivers the dialects import are not loaded otherwise.
  const dialect = setup.format === 'sql' ? (await import('../dialects/index.ts')).dialectOfKind(setup.dialect) : undefined;
  const encoders = new Map<string, TableEncoder>();
  const encoderOf = (entity: string) => {
    let encoder = encoders.get(entity);
    if (!encoder) encoders.set(entity, (encoder = tableEncoder(setup.format, tables.get(entity), { dialect, namespace: setup.namespace })));
    return encoder;
  };
  // Formats whose rows are text get their bytes; the others the rows' values.
  const text = FILE_FORMATS[setup.format].rowText;
  // Chunks leave with their buffers (transferred), so the pool only ever allocates.
  const pool = new BufferPool();

  return (message) => {
    if ('assume' in message) {
      scheduled.generator.assumeGenerated(message.assume, false, message.produced);
      return;
    }

    const task = message;
    try {
      if (text) {
        const made = encodeTextRows(encoderOf(task.entity), scheduled.rows(task.entity, task.from, task.to, { reuse: true }), task.at, pool);
        parentPort!.postMessage({ id: task.id, ...made } satisfies RangeResult, made.chunks.map((chunk) => chunk.buffer as ArrayBuffer));
      } else {
        const values = [...scheduled.rows(task.entity, task.from, task.to)];
        parentPort!.postMessage({ id: task.id, rows: values.length, values } satisfies RangeResult);
      }
    } catch (error) {
      parentPort!.postMessage({ id: task.id, error: error instanceof Error ? error.message : String(error) } satisfies RangeResult);
    }
  };
}

serveRangeTasks(serve);
