// Foreign keys → field references (single-column keys to a single-field key of an introspected
// table), with their ON DELETE/ON UPDATE actions; one-to-one where the referencing column is
// unique. Then reference cycles: sds fills a cycle through one of its nullable fields after insert,
// so a cycle of NOT NULL keys gets one field made nullable (a DEFERRABLE one first), and says so.
import type { Catalog, CatalogAction, CatalogForeignKey } from '../dialects/catalog.ts';
import type { Field, Reference, SchemaConfig } from '../model/config-types.ts';
import { sameTypeFamily, singleFieldKeys } from '../generation/config-check-context.ts';
import { unbreakableCycles } from '../generation/config-graph.ts';
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
    warnings.add(table.name, undefined, `${label} spans several columns, which a reference cannot; ${plain}`);
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
    const open = candidates.filter((candidate) => !candidate.primary);
    const chosen = open.find((candidate) => deferrable.has(candidate.field)) ?? open.at(-1);
    if (chosen) {
      chosen.field.references = { ...chosen.field.references!, fillAfterInsert: true };
      continue;
    }
    const dropped = candidates.at(-1)!;
    delete dropped.field.references;
    warnings.add(dropped.table.table.name, dropped.column, `closes the reference cycle ${path} through primary-key columns only; the reference is left out`);
  }
}
