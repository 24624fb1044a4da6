// Agreeing references (generator version 4): when a row references two parents that lead up to the
// same ancestor through references of the same name (an invoice's `owner_id`, and its visit's pet's
// `owner_id`; a visit's `clinic_id`, and its vet's `clinic_id`), the two choices agree. The reference
// with the longer way up (the anchor) is picked as before; the other is then picked among the
// parents under the anchor's ancestor (the ancestor itself when it references the ancestor). A
// row whose anchor leads to no such parent keeps its own pick, and the report counts it.
import type { Entity, Field } from '../model/config-types.ts';
import type { RowValue } from '../model/row-value.ts';
import type { EntityContext, KeyPool, ValueProgram } from './program.ts';
import type { RowReference } from './row-references.ts';
import { referenceTarget } from '../model/table-spec.ts';
import { referenceSpec } from './references.ts';
import { idWords, normalizeId } from './rules/field-rule.ts';

/** Longest way up from a referenced entity to an ancestor that is looked at (references followed). */
const MAX_DEPTH = 4;

/** One step up: from a row of `entity` found by its key `key`, the value of its reference `field`. */
export interface AncestorStep {
  entity: string;
  key: string;
  /** The reference field read (its value is the next step's key). */
  field: Field;
}

/** Two reference fields of an entity whose parents must share an ancestor row. */
export interface ReferenceAgreement {
  /** Field index of the reference picked freely. */
  anchor: number;
  /** From the anchor's parent up to the ancestor's key. */
  anchorPath: AncestorStep[];
  /** Field index of the reference picked under the anchor's ancestor. */
  constrained: number;
  /** From the constrained reference's parent up to the ancestor's key (empty: it references the ancestor). */
  constrainedPath: AncestorStep[];
  /** The shared ancestor entity. */
  ancestor: string;
}

const id = (field: Field) => normalizeId(field.id);

/** Every ancestor reachable from `start` (itself included, by an empty path), by its shortest path. */
function ancestorPaths(start: { entity: string; field: string }, entityById: (id: string) => Entity | undefined): Map<string, { key: string; path: AncestorStep[] }> {
  const found = new Map<string, { key: string; path: AncestorStep[] }>([[start.entity, { key: start.field, path: [] }]]);
  let frontier = [{ entity: start.entity, key: start.field, path: [] as AncestorStep[] }];
  for (let depth = 0; depth < MAX_DEPTH && frontier.length > 0; depth++) {
    const next: typeof frontier = [];
    for (const at of frontier) {
      for (const field of entityById(at.entity)?.fields ?? []) {
        const target = referenceTarget(field);
        if (!target || target.entity === at.entity || found.has(target.entity)) continue;
        const path = [...at.path, { entity: at.entity, key: at.key, field }];
        found.set(target.entity, { key: target.field, path });
        next.push({ entity: target.entity, key: target.field, path });
      }
    }
    frontier = next;
  }
  return found;
}

/**
 * Entities whose rows are one party's acts on another's things (a comment on a post, a like, a
 * review): their `user_id` is rarely the post's `user_id`, so their references are left alone.
 */
const INTERACTIONS = new Set([
  'comment', 'like', 'review', 'vote', 'upvote', 'rating', 'follow', 'follower', 'following', 'message', 'reaction', 'favorite', 'favourite',
  'bookmark', 'share', 'view', 'reply', 'answer', 'mention', 'flag', 'click', 'impression', 'invitation', 'invite',
]);

/** Whether an entity's id names interactions (`comments`, `post_likes`, `ProductReview`): its last word, singular. */
export function isInteraction(entity: Entity): boolean {
  const words = idWords(entity.id);
  const last = words[words.length - 1] ?? '';
  const singular = last.endsWith('ies') ? `${last.slice(0, -3)}y` : last.endsWith('s') ? last.slice(0, -1) : last;
  return INTERACTIONS.has(singular);
}

/** Whether a reference may be picked under another's ancestor: a plain random many-to-one pick, not part of a key. */
function constrainable(entity: Entity, field: Field): boolean {
  const spec = referenceSpec(field);
  if (!spec || spec.relation !== 'many-to-one' || spec.pick !== 'random' || (spec.fanOut && spec.fanOut.kind !== 'uniform')) return false;
  if (field.generation?.uniqueValues || spec.entity === entity.id) return false;
  const keys = [entity.primaryKey ?? [], ...(entity.uniqueKeys ?? []), ...(entity.indexes ?? []).filter((index) => index.unique).map((index) => index.fields)];
  return !keys.some((key) => key.includes(field.id));
}

/**
 * The agreements of an entity's references (`deferred`: its columns filled after every row, which
 * take part in none). Each reference is constrained at most once, and never by a reference it anchors.
 */
export function referenceAgreements(entity: Entity, entities: readonly Entity[], deferred: readonly string[]): ReferenceAgreement[] {
  if (isInteraction(entity)) return [];
  const byId = new Map(entities.map((candidate) => [candidate.id, candidate]));
  const references = entity.fields.flatMap((field, index) => {
    const target = referenceTarget(field);
    if (!target || target.entity === entity.id || deferred.includes(field.id)) return [];
    return [{ field, index, ancestors: ancestorPaths(target, (entityId) => byId.get(entityId)) }];
  });
  const agreements: ReferenceAgreement[] = [];
  const taken = new Set<number>();
  for (const constrained of references) {
    if (!constrainable(entity, constrained.field)) continue;
    let best: ReferenceAgreement | undefined;
    for (const anchor of references) {
      if (anchor === constrained || referenceTarget(anchor.field)!.entity === referenceTarget(constrained.field)!.entity) continue;
      if (agreements.some((agreement) => agreement.constrained === anchor.index)) continue;
      for (const [ancestor, up] of anchor.ancestors) {
        const down = constrained.ancestors.get(ancestor);
        // The anchor has the longer way up (the first field of the two on a tie).
        if (!down || up.key !== down.key || up.path.length < down.path.length || (up.path.length === down.path.length && anchor.index > constrained.index)) continue;
        // The last steps up are references of one name (`owner_id` and the pet's `owner_id`).
        const last = (path: AncestorStep[], own: Field) => id(path.length === 0 ? own : path[path.length - 1]!.field);
        if (last(up.path, anchor.field) !== last(down.path, constrained.field)) continue;
        const candidate = { anchor: anchor.index, anchorPath: up.path, constrained: constrained.index, constrainedPath: down.path, ancestor };
        if (!best || candidate.anchorPath.length + candidate.constrainedPath.length < best.anchorPath.length + best.constrainedPath.length) best = candidate;
      }
    }
    if (best && !taken.has(best.anchor)) {
      agreements.push(best);
      taken.add(best.constrained);
    }
  }
  return agreements;
}

/** The parent columns the agreements read by key (the generator keeps them by row): `entity.key` and `entity.field` of every step. */
export function agreementReads(agreements: readonly ReferenceAgreement[]): { entity: string; field: string }[] {
  return agreements.flatMap((agreement) =>
    [...agreement.anchorPath, ...agreement.constrainedPath].flatMap((step) => [
      { entity: step.entity, field: step.key },
      { entity: step.entity, field: step.field.id },
    ]),
  );
}

/** The ancestor key a parent key leads to along `path`, by look-ups; undefined while a parent column is not readable. */
export function ancestorReader(path: readonly AncestorStep[], read: (reference: RowReference, fieldId: string) => ((key: RowValue) => RowValue | undefined) | undefined): ((key: RowValue) => RowValue | undefined) | undefined {
  const lookups: ((key: RowValue) => RowValue | undefined)[] = [];
  for (const step of path) {
    const lookup = read({ field: step.field, target: { entity: step.entity, field: step.key } }, step.field.id);
    if (!lookup) return undefined;
    lookups.push(lookup);
  }
  return (key) => {
    let value: RowValue | undefined = key;
    for (const lookup of lookups) {
      if (value === null || value === undefined) return undefined;
      value = lookup(value);
    }
    return value ?? undefined;
  };
}

/**
 * The constrained reference's program: `base` (its own pick) where the row's anchor is null or
 * leads to no parent under its ancestor, else a parent under the anchor's ancestor, drawn per row.
 */
export function agreementProgram(context: EntityContext, agreement: ReferenceAgreement, base: ValueProgram, parents: KeyPool): ValueProgram {
  const read = (reference: RowReference, fieldId: string) => context.parentValue(reference, fieldId);
  const anchorUp = ancestorReader(agreement.anchorPath, read);
  const constrainedUp = ancestorReader(agreement.constrainedPath, read);
  if (!anchorUp || !constrainedUp) return base;
  const field = context.entity.fields[agreement.constrained]!;
  const stream = context.stream(field.id, 'agree');
  const anchor = agreement.anchor;
  let pick: (ancestor: RowValue, row: number, attempt: number) => RowValue | undefined;
  if (agreement.constrainedPath.length === 0) {
    pick = (ancestor) => ancestor;
  } else {
    // Parents by their ancestor's key, built once (row indexes of the parent's key pool).
    const groups = new Map<RowValue, number[]>();
    for (let index = 0; index < parents.size; index++) {
      const up = constrainedUp(parents.at(index));
      if (up === undefined || up === null) continue;
      const group = groups.get(up);
      if (group) group.push(index);
      else groups.set(up, [index]);
    }
    pick = (ancestor, row, attempt) => {
      const group = groups.get(ancestor);
      return group === undefined ? undefined : parents.at(group[stream.int(row, attempt, 0, group.length - 1)]!);
    };
  }
  return {
    ...base,
    at: (row, values, attempt) => {
      const key = values[anchor];
      const ancestor = key === null || key === undefined ? undefined : anchorUp(key);
      const agreeing = ancestor === undefined || ancestor === null ? undefined : pick(ancestor, row, attempt);
      return agreeing ?? base.at(row, values, attempt);
    },
    deps: [...(base.deps ?? []), anchor],
  };
}

const memo = new WeakMap<Entity, { deferred: readonly string[]; agreements: ReferenceAgreement[] }>();

/** The agreement that constrains a field of the context's entity, if any (worked out once per entity). */
export function agreementOf(context: EntityContext, fieldIndex: number): ReferenceAgreement | undefined {
  let known = memo.get(context.entity);
  if (!known || known.deferred !== context.plan.deferredColumns) {
    known = { deferred: context.plan.deferredColumns, agreements: referenceAgreements(context.entity, context.entities, context.plan.deferredColumns) };
    memo.set(context.entity, known);
  }
  return known.agreements.find((agreement) => agreement.constrained === fieldIndex);
}
