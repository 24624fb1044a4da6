// The guarded trial of faker strategies at validation: each faker field's first values are made
// exactly as a generation makes them (the same faker call with the same arguments, then the same
// conversion to the field's type), so arguments faker refuses (`number.int({min: 10, max: 1})`,
// `helpers.arrayElement([])`) and values that cannot fit the field (`lorem.word` into an integer)
// are errors at validation, with a JSON pointer, instead of a failed job. Arguments are checked
// against the work limits first (work-limits.ts), so a trial is cheap; the server runs validation
// in a worker with a time limit besides.
import type { Entity, Field, SchemaConfig } from './config-types.ts';
import type { Issue } from './config-issues.ts';
import { DataGenerator } from './generator.ts';
import { planGeneration } from './plan.ts';

/** Rows of each faker field tried: faker's own checks of its arguments run on every call. */
const TRIAL_ROWS = 3;

/** A faker field to try, with where its strategy is in the config. */
export interface FakerTrialSite {
  entityIndex: number;
  fieldIndex: number;
}

/**
 * Issues of the faker fields `sites` names (fields whose strategy passed every other check): for each
 * field whose trial throws, one at its strategy's `args` (or `method`, without arguments).
 */
export function fakerTrialIssues(config: SchemaConfig, sites: readonly FakerTrialSite[]): Issue[] {
  const issues: Issue[] = [];
  const byEntity = new Map<number, number[]>();
  for (const site of sites) byEntity.set(site.entityIndex, [...(byEntity.get(site.entityIndex) ?? []), site.fieldIndex]);
  for (const [entityIndex, fieldIndexes] of byEntity) {
    const entity = config.entities[entityIndex]!;
    // One trial of the entity's faker fields together; only when it fails, one per field to say which.
    if (trialError(config, entity, fieldIndexes) === undefined) continue;
    for (const fieldIndex of fieldIndexes) {
      const message = trialError(config, entity, [fieldIndex]);
      if (message === undefined) continue;
      const field = entity.fields[fieldIndex]!;
      const strategy = field.generation!.strategy as { method: string; args?: unknown[] };
      const hasArgs = (strategy.args ?? []).length > 0;
      const call = hasArgs ? `${strategy.method}(${JSON.stringify(strategy.args).slice(1, -1)})` : `${strategy.method}()`;
      issues.push({
        path: `/entities/${entityIndex}/fields/${fieldIndex}/generation/strategy/${hasArgs ? 'args' : 'method'}`,
        message: `faker ${call} fails for ${field.type} field ${entity.id}.${field.id}: ${message}; ${hasArgs ? 'fix the arguments' : 'use a faker method whose values fit the field type'}`,
      });
    }
  }
  return issues;
}

/** Why making the first rows of these fields alone fails (undefined when it does not). */
function trialError(config: SchemaConfig, entity: Entity, fieldIndexes: readonly number[]): string | undefined {
  const fields = fieldIndexes.map((index) => trialField(entity.fields[index]!));
  const trial: SchemaConfig = {
    ...config,
    entities: [{ id: entity.id, fields, ...(entity.generation ? { generation: { ...entity.generation, rowCount: TRIAL_ROWS } } : { generation: { rowCount: TRIAL_ROWS } }) }],
  };
  try {
    const generator = new DataGenerator(trial, planGeneration(trial));
    for (const batch of generator.rows(entity.id, TRIAL_ROWS)) void batch;
    return undefined;
  } catch (error) {
    return (error instanceof Error ? error.message : String(error)).replace(/\.$/, '');
  }
}

/** The field as generation makes it, without what ties it to other rows (keys, uniqueness). */
function trialField(field: Field): Field {
  const { unique: _unique, ...rest } = field as Field & { unique?: boolean };
  return rest as Field;
}
