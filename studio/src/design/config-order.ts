// A config's keys in the order the JSON Schema declares them (formatVersion, metadata, …, entities;
// an entity's id before its fields; a field's id and type first). Stored versions come back from
// the database with their keys sorted; people read configs top-down. Unknown keys keep their place after.
import schema from '../../../schemas/schema-config.v1.json';

const order = (properties: object) => Object.keys(properties);
const ROOT = order(schema.properties);
const ENTITY = order(schema.$defs.entity.properties);
const FIELD = order(schema.$defs.field.properties);

function sorted(value: unknown, keys: string[]): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const entries = Object.entries(value);
  const rank = (key: string) => (keys.includes(key) ? keys.indexOf(key) : keys.length);
  return Object.fromEntries(entries.sort(([a], [b]) => rank(a) - rank(b)));
}

export function inSchemaOrder(config: unknown): unknown {
  const root = sorted(config, ROOT) as { entities?: unknown };
  if (!root || typeof root !== 'object' || !Array.isArray(root.entities)) return root;
  const entities = root.entities.map((entity) => {
    const ordered = sorted(entity, ENTITY) as { fields?: unknown };
    if (!ordered || typeof ordered !== 'object' || !Array.isArray(ordered.fields)) return ordered;
    return { ...ordered, fields: ordered.fields.map((field) => sorted(field, FIELD)) };
  });
  return { ...root, entities };
}

/** JSON text with every object's keys sorted: equal for two configs that differ only in key order. */
export function canonicalJson(value: unknown): string {
  const walk = (item: unknown): unknown =>
    item === null || typeof item !== 'object'
      ? item
      : Array.isArray(item)
        ? item.map(walk)
        : Object.fromEntries(
            Object.keys(item)
              .sort()
              .map((key) => [key, walk((item as Record<string, unknown>)[key])]),
          );
  return JSON.stringify(walk(value));
}
