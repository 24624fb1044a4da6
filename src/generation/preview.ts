// Previews: the first rows of entities exactly as a full generation makes them (`sds preview`, the
// schema preview endpoint), read through the schedule's rows path with deferred columns left null,
// then filled for display when their targets' keys can be recomputed.
import type { RowValues } from '../model/row-value.ts';
import type { Entity, SchemaConfig } from '../model/config-types.ts';
import { ancestorsOf } from '../model/config-graph.ts';
import { DataGenerator, PreviewTooLargeError } from './generator.ts';
import { planGeneration, type GenerationOptions } from './plan.ts';
import { scheduleGeneration, ScheduledRows } from './schedule.ts';

export { PreviewTooLargeError };

export interface PreviewLimits {
  /**
   * Most rows of referenced entities a preview may produce before its own (those whose referenced
   * keys cannot be computed row by row); past it, PreviewTooLargeError. Default: no limit (the CLI).
   */
  maxAncestorRows?: number;
}

/**
 * The first `count` rows of an entity as objects (what `sds preview` shows), exactly as a full
 * generation produces them. Its ancestors are generated first, or only declared when their keys
 * can be recomputed; deferred references are shown filled when their targets' keys can be.
 */
export function previewRows(config: SchemaConfig, entityId: string, count: number, options: GenerationOptions = {}, limits: PreviewLimits = {}): Record<string, unknown>[] {
  return previewEntities(config, [entityId], count, options, limits).get(entityId)!;
}

/**
 * previewRows of several entities at once, each row exactly as previewRows makes it alone; every
 * ancestor is generated (or declared) once for all of them, in plan order, instead of once per
 * entity that needs it (a chain of n entities costs n entities' rows, not n²/2). The ancestor-row
 * limit still counts per previewed entity, as previewRows alone would.
 */
export function previewEntities(
  config: SchemaConfig,
  entityIds: readonly string[],
  count: number,
  options: GenerationOptions = {},
  limits: PreviewLimits = {},
): Map<string, Record<string, unknown>[]> {
  const plan = planGeneration(config, options);
  const wanted = Math.max(0, Math.floor(count));
  const byId = new Map<string, Entity>();
  for (const entity of config.entities) if (!byId.has(entity.id)) byId.set(entity.id, entity);
  const targets = entityIds.map((entityId) => {
    const target = plan.entities.find((entity) => entity.id === entityId);
    if (!target) throw new Error(`the config has no entity "${entityId}"`);
    return { target, position: plan.entities.indexOf(target), ancestors: new Set(ancestorsOf(config, entityId, byId)), ancestorRows: 0 };
  });
  // A parent's lines sum makes its children's rows ahead: within the same limit as ancestors.
  const generator = new DataGenerator(config, plan, { maxLineRows: limits.maxAncestorRows });
  // Previews show rows as a load inserts them before its second pass: they need no schedule.
  const scheduled = new ScheduledRows(generator, () => scheduleGeneration(config, plan));
  const shown = new Map<string, RowValues[]>();
  plan.entities.forEach((entity, position) => {
    if (targets.some(({ target }) => target === entity)) {
      // First, as previewRows alone: only the entities this one needs are produced or declared yet.
      shown.set(entity.id, [...scheduled.rows(entity.id, 0, wanted, { deferred: 'null' })]);
    }
    const needing = targets.filter(({ ancestors, position: at }) => at > position && ancestors.has(entity.id));
    if (needing.length === 0 || generator.assumeGenerated(entity.id)) return;
    // Checked before each entity is produced: a refused preview has done at most the limit's work.
    for (const target of needing) {
      target.ancestorRows += entity.rowCount;
      if (target.ancestorRows > (limits.maxAncestorRows ?? Infinity)) throw new PreviewTooLargeError(target.target.id, target.ancestorRows, limits.maxAncestorRows!);
    }
    scheduled.make(entity.id);
  });
  const answer = new Map<string, Record<string, unknown>[]>();
  for (const { target, ancestors } of targets) {
    const rows = shown.get(target.id)!;
    const deferred = target.deferredColumns.map((id) => target.table.columns.findIndex((column) => column.name === id));
    if (deferred.length > 0) {
      const filler = new DataGenerator(config, plan);
      const assumed = (id: string) => {
        try {
          return filler.assumeGenerated(id);
        } catch {
          return false; // a parent's keys are missing: leave the deferred columns null
        }
      };
      if (plan.entities.every((entity) => !ancestors.has(entity.id) || assumed(entity.id))) {
        const values = filler.deferredValues(target.id, rows.length);
        values?.forEach((update, row) => deferred.forEach((column, i) => (rows[row]![column] = update[i]!)));
      }
    }
    answer.set(target.id, rows.map((row) => Object.fromEntries(target.table.columns.map((column, i) => [column.name, row[i]]))));
  }
  return answer;
}

