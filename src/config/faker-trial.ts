// The guarded trial of faker strategies at validation: each faker field's first values are made
// exactly as a generation makes them (the same faker call with the same arguments, then the same
// conversion to the field's type), so arguments faker refuses (`number.int({min: 10, max: 1})`,
// `helpers.arrayElement([])`) and values that cannot fit the field (`lorem.word` into an integer)
// are errors at validation, with a JSON pointer, instead of a failed job. Arguments are checked
// against the work limits first (work-limits.ts), so a trial is cheap; the server runs validation
// in a worker with a time limit besides.
import type { Entity, Field, SchemaConfig } from '../model/config-types.ts';
import type { Issue } from '../model/config-issues.ts';
import { ScheduledRows } from '../generation/schedule.ts';
import { planGeneration } from '../generation/plan.ts';

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
  const groups: TrialGroup[] = [...byEntity].map(([entityIndex, fieldIndexes]) => ({ entity: config.entities[entityIndex]!, entityIndex, fieldIndexes }));
  // One trial of every faker field together (one plan); only when it fails, one per entity, then per field, to say which.
  const ids = new Set(groups.map((group) => group.entity.id));
  if (groups.length === 0 || (ids.size === groups.length && trialError(config, groups) === undefined)) return issues;
  for (const group of groups) {
    if (trialError(config, [group]) === undefined) continue;
    for (const fieldIndex of group.fieldIndexes) {
      const message = trialError(config, [{ ...group, fieldIndexes: [fieldIndex] }]);
      if (message === undefined) continue;
      const { entity, entityIndex } = group;
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

interface TrialGroup {
  entity: Entity;
  entityIndex: number;
  fieldIndexes: readonly number[];
}

/** Why making the first rows of these entities' fields alone fails (undefined when it does not). */
function trialError(config: SchemaConfig, groups: readonly TrialGroup[]): string | undefined {
  const entities = groups.map(({ entity, fieldIndexes }) => ({
    id: entity.id,
    fields: fieldIndexes.map((index) => trialField(entity.fields[index]!)),
    generation: { ...entity.generation, rowCount: TRIAL_ROWS },
  }));
  const trial: SchemaConfig = { ...config, entities };
  try {
    const rows = ScheduledRows.of(trial, planGeneration(trial));
    for (const { id } of entities) rows.make(id);
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
