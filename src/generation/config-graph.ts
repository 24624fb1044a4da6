// The entity graph of a config: which field takes its values from which entity, the order in which
// entities are generated (parents first), reference cycles, and planned row counts.
import type { Entity, GenerationConfig, SchemaConfig } from './config-types.ts';
import { pointer } from './config-issues.ts';

/** Rows generated for an entity when neither it nor `generationDefaults` sets `rowCount`. */
export const DEFAULT_ROW_COUNT = 100;

/** Inclusive bounds of an entity's row count; equal when the config gives a single number. */
export interface RowCountBounds {
  min: number;
  max: number;
}

/** An entity's row count: its own `generation.rowCount`, else the defaults', else `DEFAULT_ROW_COUNT`. */
export function resolveRowCount(entity: Entity, defaults?: GenerationConfig): RowCountBounds {
  const rowCount = entity.generation?.rowCount ?? defaults?.rowCount ?? DEFAULT_ROW_COUNT;
  return typeof rowCount === 'number' ? { min: rowCount, max: rowCount } : { min: rowCount.min, max: rowCount.max };
}

/** A field whose values come from another (or its own) entity, through `references` or a reference strategy. */
export interface ReferenceEdge {
  /** Child entity id and its index in `config.entities`. */
  entity: string;
  entityIndex: number;
  /** Child field id and its index in the entity's `fields`. */
  field: string;
  fieldIndex: number;
  /** JSON pointer to the child field. */
  path: string;
  /** Parent entity and field. */
  target: { entity: string; field: string };
  /** Nullable fields can be filled after insert, so they never force an order. */
  nullable: boolean;
  via: 'references' | 'strategy';
}

/** Every reference of the config whose target entity exists (one edge per field; `references` wins). */
export function referenceEdges(config: SchemaConfig): ReferenceEdge[] {
  const ids = new Set(config.entities.map((entity) => entity.id));
  const edges: ReferenceEdge[] = [];
  config.entities.forEach((entity, entityIndex) => {
    entity.fields.forEach((field, fieldIndex) => {
      const strategy = field.generation?.strategy;
      const target = field.references ?? (strategy?.kind === 'reference' ? strategy : undefined);
      if (!target || !ids.has(target.entity)) return;
      edges.push({
        entity: entity.id,
        entityIndex,
        field: field.id,
        fieldIndex,
        path: pointer('entities', entityIndex, 'fields', fieldIndex),
        target: { entity: target.entity, field: target.field },
        nullable: field.nullable === true,
        via: field.references ? 'references' : 'strategy',
      });
    });
  });
  return edges;
}

/**
 * Entity ids in generation order: every entity after the parents its non-nullable references need;
 * parents of nullable references also come first where a cycle does not prevent it; otherwise
 * config order. Entities in an unbreakable cycle (an invalid config) come last, in config order.
 */
export function entityOrder(config: SchemaConfig): string[] {
  const edges = referenceEdges(config).filter((edge) => edge.entity !== edge.target.entity);
  const placed = new Set<string>();
  const order: string[] = [];
  const parents = (id: string, required: boolean) =>
    edges.filter((edge) => edge.entity === id && (!required || !edge.nullable)).map((edge) => edge.target.entity);
  const waiting = config.entities.map((entity) => entity.id);
  while (waiting.length > 0) {
    const ready = waiting.filter((id) => parents(id, true).every((parent) => placed.has(parent)));
    const next = ready.find((id) => parents(id, false).every((parent) => placed.has(parent))) ?? ready[0];
    if (next === undefined) break;
    placed.add(next);
    order.push(next);
    waiting.splice(waiting.indexOf(next), 1);
  }
  return [...order, ...waiting];
}

/** A cycle of non-nullable references: entity ids (first repeated at the end) and the fields that form it. */
export interface ReferenceCycle {
  entities: string[];
  edges: ReferenceEdge[];
}

/**
 * Cycles that no nullable field breaks: one per group of entities that need each other's rows
 * first (a strongly connected component), plus every non-nullable self reference.
 */
export function unbreakableCycles(config: SchemaConfig): ReferenceCycle[] {
  const required = referenceEdges(config).filter((edge) => !edge.nullable);
  const cycles: ReferenceCycle[] = required
    .filter((edge) => edge.entity === edge.target.entity)
    .map((edge) => ({ entities: [edge.entity, edge.entity], edges: [edge] }));
  const between = required.filter((edge) => edge.entity !== edge.target.entity);
  const ids = config.entities.map((entity) => entity.id);
  for (const component of stronglyConnected(ids, between)) {
    if (component.length < 2) continue;
    const start = ids.find((id) => component.includes(id))!;
    const cycle = shortestCycle(start, between.filter((e) => component.includes(e.entity) && component.includes(e.target.entity)));
    if (cycle) cycles.push(cycle);
  }
  return cycles;
}

function shortestCycle(start: string, edges: ReferenceEdge[]): ReferenceCycle | undefined {
  const via = new Map<string, ReferenceEdge>();
  const queue = [start];
  for (let i = 0; i < queue.length; i++) {
    const at = queue[i]!;
    for (const edge of edges.filter((e) => e.entity === at)) {
      const next = edge.target.entity;
      if (next === start) {
        const path = [edge];
        for (let back = at; back !== start; back = via.get(back)!.entity) path.unshift(via.get(back)!);
        return { entities: [...path.map((e) => e.entity), start], edges: path };
      }
      if (!via.has(next)) {
        via.set(next, edge);
        queue.push(next);
      }
    }
  }
  return undefined;
}

// Tarjan's algorithm; the graphs are small (tens of entities), so recursion depth is no concern.
function stronglyConnected(ids: string[], edges: ReferenceEdge[]): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (id: string) => {
    index.set(id, index.size);
    low.set(id, index.get(id)!);
    stack.push(id);
    onStack.add(id);
    for (const edge of edges.filter((e) => e.entity === id)) {
      const next = edge.target.entity;
      if (!index.has(next)) {
        visit(next);
        low.set(id, Math.min(low.get(id)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(id, Math.min(low.get(id)!, index.get(next)!));
      }
    }
    if (low.get(id) === index.get(id)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== id);
      components.push(component);
    }
  };
  for (const id of ids) if (!index.has(id)) visit(id);
  return components;
}
