// Generation quotas per job and per team, checked when a source is created, updated or regenerated
// (before anything is queued): the rows a job may plan (summed over entities, each at its row-count
// override or at the top of its config range), the entities it may have, and the jobs a team may
// have queued or running at once. Errors name the limit and the setting that sets it.
import type { SchemaConfig } from '../contract.ts';
import { AppError, type ErrorDetail } from '../errors.ts';
import { resolveRowCount } from '../model/config-graph.ts';
import type { Queryable } from '../store/db.ts';
import type { JobStore } from '../store/jobs.ts';
import type { GeneratorConfig } from '../store/sources.ts';

export interface GenerationQuotaLimits {
  /** Rows one job may plan, summed over entities; 0: no limit. */
  maxRowsPerJob: number;
  /** Entities one source's schema version may have; 0: no limit. */
  maxEntitiesPerJob: number;
  /** Jobs of one team queued or running at once; 0: no limit. */
  maxJobsPerTeam: number;
}

/** Seconds a team at its job limit is told to wait. */
const RETRY_AFTER_SECONDS = 10;

const count = (value: number) => value.toLocaleString('en-US');

export const quotaErrors = {
  tooManyRows: (rows: number, limit: number, details: ErrorDetail[]) =>
    new AppError(400, `Generation of ${count(rows)} rows exceeds this server's limit of ${count(limit)} rows per job (SDS_MAX_ROWS_PER_JOB)`, { details }),
  tooManyEntities: (entities: number, limit: number) =>
    new AppError(400, `The schema version has ${count(entities)} entities, more than this server's limit of ${count(limit)} per source (SDS_MAX_ENTITIES_PER_JOB)`, {
      details: [{ path: '/entities', message: `${count(entities)} entities; at most ${count(limit)}` }],
    }),
  tooManyJobs: (limit: number) =>
    new AppError(429, `This team already has ${count(limit)} generation job${limit === 1 ? '' : 's'} queued or running (SDS_MAX_JOBS_PER_TEAM); try again when one finishes`, {
      headers: { 'Retry-After': String(RETRY_AFTER_SECONDS) },
    }),
};

/** The most rows a generation of `config` with `generatorConfig` can plan, and the entity that plans the most. */
export function plannedRowsAtMost(config: SchemaConfig, generatorConfig: GeneratorConfig | undefined): { rows: number; largest?: { id: string; rows: number; path: string } } {
  let rows = 0;
  let largest: { id: string; rows: number; path: string } | undefined;
  config.entities.forEach((entity, index) => {
    const override = generatorConfig?.rowCounts?.[entity.id];
    // The generator uses an override only when it is a whole number of 0 or more (plan.ts).
    const overridden = override !== undefined && Number.isSafeInteger(override) && override >= 0;
    const entityRows = overridden ? override : resolveRowCount(entity, config.generationDefaults).max;
    rows += entityRows;
    if (!largest || entityRows > largest.rows) {
      const path = overridden ? `/body/generatorConfig/rowCounts/${entity.id}` : `/entities/${index}/generation/rowCount`;
      largest = { id: entity.id, rows: entityRows, path };
    }
  });
  return { rows, largest };
}

export class GenerationQuotas {
  constructor(
    private readonly limits: GenerationQuotaLimits,
    private readonly jobs: JobStore,
  ) {}

  /** 400 naming the limit when a job of `config` with `generatorConfig` would be larger than this server allows. */
  checkSize(config: SchemaConfig, generatorConfig: GeneratorConfig | undefined): void {
    const { maxEntitiesPerJob, maxRowsPerJob } = this.limits;
    if (maxEntitiesPerJob > 0 && config.entities.length > maxEntitiesPerJob) throw quotaErrors.tooManyEntities(config.entities.length, maxEntitiesPerJob);
    if (maxRowsPerJob === 0) return;
    const { rows, largest } = plannedRowsAtMost(config, generatorConfig);
    if (rows > maxRowsPerJob) {
      const details = largest ? [{ path: largest.path, message: `${count(largest.rows)} rows of ${largest.id}, of ${count(rows)} in all` }] : [];
      throw quotaErrors.tooManyRows(rows, maxRowsPerJob, details);
    }
  }

  /**
   * 429 when the team of `projectId` already has its most jobs queued or running. Given a client in
   * a transaction, admissions of one team are serialised until it ends (the job is queued in it), so
   * concurrent requests cannot overshoot; without one it is a check ahead of other changes.
   */
  async admitJob(projectId: string, client?: Queryable): Promise<void> {
    const limit = this.limits.maxJobsPerTeam;
    if (limit === 0) return;
    if ((await this.jobs.activeJobsOfTeam(projectId, client)) >= limit) throw quotaErrors.tooManyJobs(limit);
  }
}
