// Foreign keys → field references (single-column keys to a single-field key of an introspected
// table), with their ON DELETE/ON UPDATE actions; one-to-one where the referencing column is
// unique. Then reference cycles: sds fills a cycle through one of its nullable fields after insert,
// so a cycle of NOT NULL keys gets one field made nullable (a DEFERRABLE one first), and says so.
import type { Catalog, CatalogAction, CatalogForeignKey } from '../dialects/catalog.ts';
import type { CompositeReference, Field, Reference, SchemaConfig } from '../model/config-types.ts';
import { isKeySet, keyGroups, singleFieldKeys } from '../model/composite-keys.ts';
import { sameTypeFamily } from '../model/field-types/index.ts';
import { unbreakableCycles } from '../model/config-graph.ts';
import type { MappedTable } from './map-config.ts';
import type { Warnings } from './warnings.ts';

type Action = NonNullable<Reference['onDelete']>;

/** NO ACTION checks at the end of the statement, RESTRICT at once: for generated data they are the same. */
const ACTIONS: Record<CatalogAction, Action | undefined> = {
  'no-action': 'restrict',
  restrict: 'restrict',
  cascade: 'cascade',
  'set-null': 'set-null',
  'set-default': undefined,
};

export function mapReferences(catalog: Catalog, mapped: MappedTable[], warnings: Warnings): void {
  const byTable = new Map(mapped.map((table) => [table.table.name, table]));
  const deferrable = new Set<Field>();
  for (const child of mapped) {
    for (const foreignKey of child.table.foreignKeys) {
      const field = mapForeignKey(catalog, child, foreignKey, byTable, warnings);
      if (field && foreignKey.deferrable) deferrable.add(field);
    }
  }
  breakCycles({ formatVersion: 1, entities: mapped.map((table) => table.entity) }, mapped, deferrable, warnings);
}

function mapForeignKey(catalog: Catalog, child: MappedTable, foreignKey: CatalogForeignKey, byTable: Map<string, MappedTable>, warnings: Warnings): Field | undefined {
  const { table } = child;
  const target = foreignKey.references;
  const label = `foreign key ${foreignKey.name} (${foreignKey.columns.join(', ')}) → ${target.table}(${target.columns.join(', ')})`;
  const column = foreignKey.columns.length === 1 ? foreignKey.columns[0] : undefined;
  const plain = 'its columns stay plain fields, not references';
  if (target.namespace !== undefined && target.namespace !== catalog.namespace) {
    warnings.add(table.name, column, `${label} points into ${target.namespace}, outside the introspected namespace; ${plain}`);
    return undefined;
  }
  if (column === undefined) {
    mapCompositeForeignKey(child, foreignKey, byTable, label, warnings);
    return undefined;
  }
  const field = child.fields.get(column);
  const parent = byTable.get(target.table);
  const targetField = parent?.fields.get(target.columns[0]!);
  if (!field) return undefined; // the column is left out, with its own warning
  if (!parent || !targetField) {
    warnings.add(table.name, column, `${label}: the referenced ${parent ? 'column' : 'table'} is not introspected; the field stays a plain ${field.type}`);
    return undefined;
  }
  if (field.references) {
    warnings.add(table.name, column, `${label}: the column already references ${field.references.entity}.${field.references.field} (one reference per field); left out`);
    return undefined;
  }
  if (!singleFieldKeys(parent.entity).has(targetField.id)) {
    warnings.add(table.name, column, `${label}: the referenced column is not a one-column primary or unique key in the config; the field stays a plain ${field.type}`);
    return undefined;
  }
  if (!sameTypeFamily(field.type, targetField.type)) {
    warnings.add(table.name, column, `${label}: ${field.type} cannot reference ${targetField.type}; the field stays a plain ${field.type}`);
    return undefined;
  }
  const reference: Reference = { entity: parent.entity.id, field: targetField.id };
  if (singleFieldKeys(child.entity).has(field.id)) reference.relation = 'one-to-one';
  for (const [property, action] of [['onDelete', foreignKey.onDelete], ['onUpdate', foreignKey.onUpdate]] as const) {
    let mapped = ACTIONS[action];
    if (mapped === undefined) warnings.add(table.name, column, `${property} SET DEFAULT cannot be expressed; restrict instead`);
    if (mapped === 'set-null' && !field.nullable) {
      warnings.add(table.name, column, `${property} SET NULL on a NOT NULL column cannot be expressed; restrict instead`);
      mapped = undefined;
    }
    if (mapped !== undefined && mapped !== 'restrict') reference[property] = mapped;
  }
  // Only the fields sds needs for the reference: a strategy or choices of a CHECK would fight it.
  delete field.generation;
  field.references = reference;
  return field;
}

/**
 * A foreign key of several columns → a composite reference of the entity, when every column is
 * kept, the referenced columns are a key of an introspected table (listed in the key's order) and
 * the types match; else a warning says why the columns stay plain fields.
 */
function mapCompositeForeignKey(child: MappedTable, foreignKey: CatalogForeignKey, byTable: Map<string, MappedTable>, label: string, warnings: Warnings): void {
  const { table, entity } = child;
  const plain = 'its columns stay plain fields';
  const parent = byTable.get(foreignKey.references.table);
  if (!parent) return warnings.add(table.name, undefined, `${label}: the referenced table is not introspected; ${plain}`);
  const fields = foreignKey.columns.map((column) => child.fields.get(column));
  const targets = foreignKey.references.columns.map((column) => parent.fields.get(column));
  if (fields.some((field) => !field) || targets.some((field) => !field)) return warnings.add(table.name, undefined, `${label} has a column that is left out; ${plain}`);
  // A composite self reference is filled once every row exists, which needs its columns nullable.
  if (parent === child && fields.some((field) => field!.nullable !== true)) {
    return warnings.add(table.name, undefined, `${label} references its own table through a NOT NULL column, which a composite reference cannot fill after insert; ${plain}`);
  }
  // Pairs in the order of the referenced key (PostgreSQL accepts any order; the config wants the key's).
  let pairs = fields.map((field, i) => ({ field: field!, target: targets[i]! }));
  const key = keyGroups(parent.entity).find((group) => group.length === pairs.length && pairs.every((pair) => group.includes(pair.target.id)));
  if (!key) return warnings.add(table.name, undefined, `${label}: the referenced columns are not a primary or unique key in the config; ${plain}`);
  pairs = key.map((id) => pairs.find((pair) => pair.target.id === id)!);
  const mismatch = pairs.find((pair) => !sameTypeFamily(pair.field.type, pair.target.type));
  if (mismatch) return warnings.add(table.name, undefined, `${label}: ${mismatch.field.type} cannot reference ${mismatch.target.type}; ${plain}`);
  const taken = pairs.find((pair) => entity.references?.some((other) => other.fields.includes(pair.field.id)));
  if (taken) return warnings.add(table.name, undefined, `${label}: column of ${taken.field.id} already takes its values from another composite foreign key; ${plain}`);
  const reference: CompositeReference = {
    fields: pairs.map((pair) => pair.field.id) as CompositeReference['fields'],
    entity: parent.entity.id,
    targetFields: pairs.map((pair) => pair.target.id) as CompositeReference['targetFields'],
  };
  if (isKeySet(entity, reference.fields)) reference.relation = 'one-to-one';
  for (const [property, action] of [['onDelete', foreignKey.onDelete], ['onUpdate', foreignKey.onUpdate]] as const) {
    if (action === 'cascade') reference[property] = 'cascade';
    else if (action === 'set-null' && pairs.every((pair) => pair.field.nullable === true)) reference[property] = 'set-null';
    else if (action === 'set-null' || action === 'set-default') {
      const why = action === 'set-null' ? ' when a column of it is NOT NULL' : '';
      warnings.add(table.name, undefined, `${label}: ${property} ${action === 'set-null' ? 'SET NULL' : 'SET DEFAULT'} cannot be expressed on a composite reference${why}; restrict instead`);
    }
  }
  // The fields take their values from the parent row: a strategy (from a CHECK) would be ignored.
  for (const pair of pairs) if (!pair.field.references) delete pair.field.generation;
  (entity.references ??= []).push(reference);
}

/**
 * Numbers a child within its parent: a key (parent reference…, position) whose last member is an
 * integer that nothing else fills becomes a sequence counted within the reference's fields, so
 * each parent's children get 1…n (line numbers within an order), within the column's CHECK bounds.
 */
export function mapPositions(mapped: MappedTable[]): void {
  for (const { entity } of mapped) {
    for (const key of keyGroups(entity)) {
      if (key.length < 2) continue;
      const position = entity.fields.find((field) => field.id === key.at(-1));
      const rest = key.slice(0, -1);
      if (!position || position.type !== 'integer' || position.references || position.generation?.strategy) continue;
      if (entity.references?.some((reference) => reference.fields.includes(position.id))) continue;
      const single = rest.length === 1 && entity.fields.find((field) => field.id === rest[0])?.references !== undefined;
      const composite = entity.references?.some((reference) => reference.fields.length === rest.length && rest.every((id) => reference.fields.includes(id)));
      if (!single && !composite) continue;
      position.generation = { ...position.generation, strategy: { kind: 'sequence', start: Math.max(Math.ceil(position.min ?? 1), 1), within: rest as [string, ...string[]] } };
    }
  }
}

/**
 * Makes each cycle of non-nullable references breakable: one of its references is filled after
 * insert (`fillAfterInsert`: the column stays NOT NULL, as in the database). A primary-key field
 * cannot be filled after insert; a cycle made only of those loses one reference instead.
 */
function breakCycles(config: SchemaConfig, mapped: MappedTable[], deferrable: Set<Field>, warnings: Warnings): void {
  const tableOf = new Map(mapped.map((table) => [table.entity.id, table]));
  for (let cycles = unbreakableCycles(config); cycles.length > 0; cycles = unbreakableCycles(config)) {
    const cycle = cycles[0]!;
    const candidates = cycle.edges.map((edge) => {
      const table = tableOf.get(edge.entity)!;
      const field = table.entity.fields[edge.fieldIndex]!;
      const column = [...table.fields].find(([, candidate]) => candidate === field)![0];
      return { table, field, column, primary: table.entity.primaryKey?.includes(field.id) === true };
    });
    const path = cycle.entities.join(' → ');
    // A composite reference is made with its row, never filled afterwards: it cannot break a cycle.
    const open = candidates.filter((candidate, i) => !candidate.primary && cycle.edges[i]!.via !== 'composite');
    const chosen = open.find((candidate) => deferrable.has(candidate.field)) ?? open.at(-1);
    if (chosen) {
      chosen.field.references = { ...chosen.field.references!, fillAfterInsert: true };
      continue;
    }
    const dropped = candidates.at(-1)!;
    const lastEdge = cycle.edges.at(-1)!;
    if (lastEdge.via === 'composite') {
      const entity = dropped.table.entity;
      entity.references = entity.references?.filter((reference) => !reference.fields.includes(dropped.field.id));
      if (entity.references?.length === 0) delete entity.references;
      warnings.add(dropped.table.table.name, undefined, `the composite foreign key through ${dropped.column} closes the reference cycle ${path}; the reference is left out`);
      continue;
    }
    delete dropped.field.references;
    warnings.add(dropped.table.table.name, dropped.column, `closes the reference cycle ${path} through primary-key columns only; the reference is left out`);
  }
}
