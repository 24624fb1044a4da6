// The entity graph of a config: which field takes its values from which entity, the order in which
// entities are generated (parents first), reference cycles, and planned row counts.
import type { Entity, GenerationConfig, SchemaConfig } from './config-types.ts';
import { referenceTarget } from './table-spec.ts';
import { compositeReferences } from './composite-keys.ts';
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
  /**
   * Nullable fields (and NOT NULL ones marked `fillAfterInsert`) can be filled after insert, so they
   * never force an order.
   */
  nullable: boolean;
  /** `composite`: a member of an entity-level reference of several fields (made with the row, never deferred). */
  via: 'references' | 'strategy' | 'composite';
}

/**
 * Every reference of the config whose target entity exists: one edge per field (`references` wins
 * over a reference strategy), plus one per field of each composite reference.
 */
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
        nullable: field.nullable === true || field.references?.fillAfterInsert === true,
        via: field.references ? 'references' : 'strategy',
      });
    });
    // Every field of a composite reference comes from one parent row, made before the child's rows;
    // a composite self reference (its fields all nullable: validation refuses others) once every row exists.
    entity.references?.forEach((reference, referenceIndex) => {
      if (!ids.has(reference.entity)) return;
      const self = reference.entity === entity.id;
      const nullable = self && reference.fields.every((id) => entity.fields.find((field) => field.id === id)?.nullable === true);
      // One with a NOT NULL field is refused by validation (src/config/composite-checks.ts), not as a cycle.
      if (self && !nullable) return;
      reference.fields.forEach((fieldId, position) => {
        const fieldIndex = entity.fields.findIndex((field) => field.id === fieldId);
        const targetField = reference.targetFields[position];
        if (fieldIndex < 0 || targetField === undefined) return;
        edges.push({
          entity: entity.id,
          entityIndex,
          field: fieldId,
          fieldIndex,
          path: pointer('entities', entityIndex, 'references', referenceIndex),
          target: { entity: reference.entity, field: targetField },
          nullable,
          via: 'composite',
        });
      });
    });
  });
  return edges;
}

/**
 * The entity and every entity it takes values from, directly or through others: the entity first,
 * then its ancestors nearest first. `byId` (every entity by id) saves a search per step.
 */
export function ancestorsOf(config: SchemaConfig, entityId: string, byId?: ReadonlyMap<string, Entity>): string[] {
  const found = new Set<string>([entityId]);
  const queue = [entityId];
  while (queue.length > 0) {
    const id = queue.shift()!;
    const entity = byId ? byId.get(id) : config.entities.find((candidate) => candidate.id === id);
    const parents = [...(entity?.fields ?? []).map((field) => referenceTarget(field)?.entity), ...compositeReferences(entity).map((reference) => reference.entity)];
    for (const parent of parents) {
      if (parent !== undefined && !found.has(parent)) {
        found.add(parent);
        queue.push(parent);
      }
    }
  }
  return [...found];
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
  // Each entity's edges, found once: looking them up per entity and step made this cubic in the entities.
  const edgesOf = new Map<string, ReferenceEdge[]>();
  for (const edge of edges) edgesOf.set(edge.entity, [...(edgesOf.get(edge.entity) ?? []), edge]);
  const parents = (id: string, required: boolean) =>
    (edgesOf.get(id) ?? []).filter((edge) => !required || !edge.nullable).map((edge) => edge.target.entity);
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
  const between = outgoing(required.filter((edge) => edge.entity !== edge.target.entity));
  const ids = config.entities.map((entity) => entity.id);
  for (const component of stronglyConnected(ids, (id) => (between.get(id) ?? []).map((edge) => edge.target.entity))) {
    if (component.length < 2) continue;
    const members = new Set(component);
    const start = ids.find((id) => members.has(id))!;
    const cycle = shortestCycle(start, (id) => (between.get(id) ?? []).filter((edge) => members.has(edge.target.entity)));
    if (cycle) cycles.push(cycle);
  }
  return cycles;
}

/** Edges by child entity, in config order. */
function outgoing(edges: ReferenceEdge[]): Map<string, ReferenceEdge[]> {
  const byEntity = new Map<string, ReferenceEdge[]>();
  for (const edge of edges) {
    const list = byEntity.get(edge.entity);
    if (list) list.push(edge);
    else byEntity.set(edge.entity, [edge]);
  }
  return byEntity;
}

function shortestCycle(start: string, edgesFrom: (id: string) => ReferenceEdge[]): ReferenceCycle | undefined {
  const via = new Map<string, ReferenceEdge>();
  const queue = [start];
  for (let i = 0; i < queue.length; i++) {
    const at = queue[i]!;
    for (const edge of edgesFrom(at)) {
      const next = edge.target.entity;
      if (next === start) {
        const path = [edge];
        for (let back = at; back !== start; back = via.get(back)!.entity) path.push(via.get(back)!);
        path.reverse();
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

/**
 * Tarjan's strongly connected components of a graph, each as its nodes, in the order Tarjan's walk
 * closes them (`edges(node)` in its order). An explicit stack: a 1 MB config can chain thousands of
 * entities, deeper than the call stack goes (a recursive walk overflowed at ~6,000 and answered 500).
 */
export function stronglyConnected(nodes: readonly string[], edges: (node: string) => readonly string[]): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  // Each frame: a node, the nodes it leads to, and how many of them the walk has followed.
  const frames: { id: string; targets: readonly string[]; next: number }[] = [];
  const enter = (id: string) => {
    index.set(id, index.size);
    low.set(id, index.get(id)!);
    stack.push(id);
    onStack.add(id);
    frames.push({ id, targets: edges(id), next: 0 });
  };
  for (const root of nodes) {
    if (index.has(root)) continue;
    enter(root);
    while (frames.length > 0) {
      const frame = frames.at(-1)!;
      if (frame.next < frame.targets.length) {
        const next = frame.targets[frame.next++]!;
        if (!index.has(next)) enter(next);
        else if (onStack.has(next)) low.set(frame.id, Math.min(low.get(frame.id)!, index.get(next)!));
        continue;
      }
      frames.pop();
      const parent = frames.at(-1);
      if (parent) low.set(parent.id, Math.min(low.get(parent.id)!, low.get(frame.id)!));
      if (low.get(frame.id) === index.get(frame.id)) {
        const component: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          component.push(member);
        } while (member !== frame.id);
        components.push(component);
      }
    }
  }
  return components;
}
