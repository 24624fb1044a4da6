// Builders and a full in-memory run for the generation tests: configs from entity lists, every
// entity's rows in plan order with deferred updates applied, columns as objects.
import { expect } from 'vitest';
import type { RowValues, RowValue } from '../../src/model/row-value.ts';
import type { Entity, Field, SchemaConfig } from '../../src/model/config-types.ts';
import type { GenerationOptions, GenerationPlan } from '../../src/generation/plan.ts';
import { DataGenerator } from '../../src/generation/generator.ts';
import { planGeneration } from '../../src/generation/plan.ts';

export const REFERENCE_DATE = '2025-06-15';

export function config(...entities: Entity[]): SchemaConfig {
  return { formatVersion: 1, generationDefaults: { seed: 'test' }, entities };
}

/** An entity with an integer primary key `id` first, then `fields`. */
export function entity(id: string, rowCount: number, fields: Field[], extra: Partial<Entity> = {}): Entity {
  return { id, primaryKey: ['id'], fields: [{ id: 'id', type: 'integer' }, ...fields], generation: { rowCount }, ...extra };
}

export interface Generated {
  plan: GenerationPlan;
  generator: DataGenerator;
  /** Rows per entity (deferred updates applied), as arrays in column order. */
  rows: Map<string, RowValues[]>;
  warnings: { path: string; message: string }[];
  /** Values of one column. */
  column(entity: string, field: string): RowValue[];
  /** Rows as objects. */
  objects(entity: string): Record<string, RowValue>[];
}

export function generate(schema: SchemaConfig, options: GenerationOptions = {}, batchSize = 1000): Generated {
  const plan = planGeneration(schema, { referenceDate: REFERENCE_DATE, ...options });
  const generator = new DataGenerator(schema, plan);
  const rows = new Map<string, RowValues[]>();
  for (const entityPlan of plan.entities) {
    const all: RowValues[] = [];
    for (const batch of generator.rows(entityPlan.id, batchSize)) {
      expect(batch.length).toBeLessThanOrEqual(batchSize);
      all.push(...batch);
    }
    rows.set(entityPlan.id, all);
  }
  for (const entityPlan of plan.entities) {
    const { table } = entityPlan;
    const keyIndexes = table.primaryKey.map((key) => table.columns.findIndex((column) => column.name === key));
    const setIndexes = entityPlan.deferredColumns.map((name) => table.columns.findIndex((column) => column.name === name));
    const byKey = new Map(rows.get(entityPlan.id)!.map((row) => [JSON.stringify(keyIndexes.map((i) => row[i])), row]));
    for (const batch of generator.deferredUpdates(entityPlan.id, batchSize)) {
      for (const update of batch) {
        const row = byKey.get(JSON.stringify(update.slice(0, keyIndexes.length)));
        if (!row) throw new Error(`deferred update for a row that does not exist: ${JSON.stringify(update)}`);
        setIndexes.forEach((index, i) => (row[index] = update[keyIndexes.length + i]!));
      }
    }
  }
  const columnIndex = (entityId: string, field: string) => {
    const table = plan.entities.find((candidate) => candidate.id === entityId)!.table;
    const index = table.columns.findIndex((column) => column.name === field);
    if (index < 0) throw new Error(`no column ${entityId}.${field}`);
    return { table, index };
  };
  return {
    plan,
    generator,
    rows,
    warnings: [...plan.warnings, ...generator.warnings],
    column: (entityId, field) => {
      const { index } = columnIndex(entityId, field);
      return rows.get(entityId)!.map((row) => row[index]!);
    },
    objects: (entityId) => {
      const table = plan.entities.find((candidate) => candidate.id === entityId)!.table;
      return rows.get(entityId)!.map((row) => Object.fromEntries(table.columns.map((column, i) => [column.name, row[i]!])));
    },
  };
}

/** Values of one field of a one-entity config (`items`, integer id plus this field). */
export function values(field: Field, rowCount = 500, options: GenerationOptions = {}, extra: Partial<Entity> = {}): RowValue[] {
  return generate(config(entity('items', rowCount, [field], extra)), options).column('items', field.id);
}

/** Asserts `count` successes of `n` trials match probability `p` within 3 standard deviations (plus one). */
export function expectRate(count: number, n: number, p: number): void {
  const sigma = Math.sqrt(n * p * (1 - p));
  expect(Math.abs(count - n * p)).toBeLessThanOrEqual(3 * sigma + 1);
}
