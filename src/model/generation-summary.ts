// A generation's summary, built one way for a run on one worker (generation/run.ts) and for a job
// split into tasks (management/task-worker.ts). It lives below the engine: the worker module loads
// the engine lazily (it brings faker and the locales) and builds its summary without it.

/** What every generation reports: generation/run.ts's GenerationSummary adds the coherence counts. */
export interface GenerationTotals {
  namespace: string;
  seed: string;
  referenceDate: string;
  generatorVersion: string;
  entities: { id: string; rowsPlanned: number; rowsInserted: number }[];
  rowsPlanned: number;
  rowsInserted: number;
  warnings: { path: string; message: string }[];
  durationMs: number;
}

/**
 * The summary of a generation of `plan` into `namespace`, started at `started` (performance.now()):
 * totals summed over `entities`, the plan's warnings first, then `warnings` (the generators', in the
 * order they raised them).
 */
export function generationTotals(
  namespace: string,
  plan: Pick<GenerationTotals, 'seed' | 'referenceDate' | 'generatorVersion' | 'warnings'>,
  entities: GenerationTotals['entities'],
  warnings: GenerationTotals['warnings'],
  started: number,
): GenerationTotals {
  return {
    namespace,
    seed: plan.seed,
    referenceDate: plan.referenceDate,
    generatorVersion: plan.generatorVersion,
    entities,
    rowsPlanned: entities.reduce((sum, entity) => sum + entity.rowsPlanned, 0),
    rowsInserted: entities.reduce((sum, entity) => sum + entity.rowsInserted, 0),
    warnings: [...plan.warnings, ...warnings],
    durationMs: Math.round(performance.now() - started),
  };
}
