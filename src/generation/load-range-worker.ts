// A worker thread of a database load (load-ranges.ts): makes ranges of an entity's rows
// (ScheduledRows.rows) and encodes them as the engine's bulk-load text (COPY text, LOAD DATA
// text), one string per range, which the loading thread streams to the database. Every worker
// plans the same generation from the same inputs, so a row's text is the same whichever thread
// makes it.
import { parentPort } from 'node:worker_threads';
import type { SchemaConfig, SourceKind } from '../contract.ts';
import type { RowValues } from '../model/row-value.ts';
import { dialectOfKind } from '../dialects/index.ts';
import { serveRangeTasks } from './range-worker-loop.ts';
import { DataGenerator } from './generator.ts';
import { receiveSchedule, ScheduledRows, type SentSchedule } from './schedule.ts';
import { planGeneration, type GenerationOptions } from './plan.ts';
import type { AssumeMessage, RangeResult, RangeTask } from './range-workers.ts';

export interface LoadWorkerSetup {
  config: SchemaConfig;
  /** The plan's inputs, the reference date resolved: workers must plan exactly as the loading thread did. */
  options: GenerationOptions & { referenceDate: string };
  /** The engine whose bulk-load text to write (Dialect.bulkTextEncoder). */
  dialect: SourceKind;
  /** The schedule found by the loading thread (its draws of unique fields drawn by retries with it): rows are read through it. */
  schedule: SentSchedule;
}

function serve(setup: LoadWorkerSetup): (message: RangeTask | AssumeMessage) => void {
  const plan = planGeneration(setup.config, setup.options);
  const scheduled = new ScheduledRows(new DataGenerator(setup.config, plan, { draws: setup.schedule.draws }), () => receiveSchedule(setup.schedule, plan));
  const dialect = dialectOfKind(setup.dialect);
  const encoders = new Map<string, (row: RowValues) => string>();
  const encoderOf = (entity: string) => {
    let encoder = encoders.get(entity);
    if (!encoder) {
      const table = plan.entities.find((candidate) => candidate.id === entity)?.table;
      if (!table) throw new Error(`the plan has no entity "${entity}"`);
      encoders.set(entity, (encoder = dialect.bulkTextEncoder(table)));
    }
    return encoder;
  };
  return (message) => {
    if ('assume' in message) {
      scheduled.generator.assumeGenerated(message.assume, false, message.produced);
      return;
    }
    try {
      const encode = encoderOf(message.entity);
      let text = '';
      let rows = 0;
      for (const values of scheduled.rows(message.entity, message.from, message.to, { reuse: true })) {
        text += encode(values);
        rows++;
      }
      parentPort!.postMessage({ id: message.id, rows, text } satisfies RangeResult);
    } catch (error) {
      parentPort!.postMessage({ id: message.id, error: error instanceof Error ? error.message : String(error) } satisfies RangeResult);
    }
  };
}

serveRangeTasks(serve);
