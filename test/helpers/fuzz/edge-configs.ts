// Schema configs at the edges of what the format allows: very many entities and fields, deep
// reference chains, cycles with and without a nullable field, empty entities, zero rows, the
// longest identifiers, huge lengths and pools, every field type at once.
import type { Entity, Field, FieldType, SchemaConfig, StrategyOf } from '../../../src/model/config-types.ts';

export function configOf(entities: Entity[], rowCount = 1): SchemaConfig {
  return { formatVersion: 1, generationDefaults: { rowCount, seed: 'edge', locale: 'en', timezone: 'UTC' }, entities };
}

const entity = (id: string, fields: Field[], extra: Partial<Entity> = {}): Entity => ({ id, primaryKey: ['id'], fields: [{ id: 'id', type: 'integer' }, ...fields], ...extra });
const pad = (n: number) => String(n).padStart(3, '0');

const TYPES: FieldType[] = ['string', 'text', 'integer', 'number', 'boolean', 'date', 'datetime', 'time', 'uuid', 'json', 'enum'];

/** A field of `type` with the properties that type takes, not relying on id-based defaults. */
export function fieldOf(id: string, type: FieldType, extra: Partial<Field> = {}): Field {
  const typed: Partial<Field> =
    type === 'enum'
      ? { values: ['a', 'b', 'c'] }
      : type === 'string'
        ? { maxLength: 40 }
        : type === 'number'
          ? { min: -1000, max: 1000, precision: 3 }
          : type === 'integer'
            ? { min: -1000, max: 1000 }
            : {};
  return { id, type, ...typed, ...extra } as Field;
}

/** `count` independent entities, half of them referencing the first. */
export function manyEntities(count: number): SchemaConfig {
  return configOf(
    Array.from({ length: count }, (_, i) =>
      entity(`e${pad(i)}`, [fieldOf('label', 'string'), ...(i % 2 === 1 ? [{ id: 'rootId', type: 'integer', references: { entity: 'e000', field: 'id' } } as Field] : [])]),
    ),
  );
}

/** One entity with `count` fields (the key included), cycling through every type. */
export function manyFields(count: number): SchemaConfig {
  return configOf([entity('wide', Array.from({ length: count - 1 }, (_, i) => fieldOf(`f${pad(i)}`, TYPES[i % TYPES.length]!)))]);
}

/** c000 ← c001 ← … : each entity references the one before through a required field. */
export function referenceChain(depth: number): SchemaConfig {
  return configOf(
    Array.from({ length: depth }, (_, i) => entity(`c${pad(i)}`, i === 0 ? [fieldOf('label', 'string')] : [{ id: 'parentId', type: 'integer', references: { entity: `c${pad(i - 1)}`, field: 'id' } }])),
  );
}

/** r000 → r001 → … → r000; with `nullable`, the last link may be null, which breaks the cycle. */
export function referenceRing(length: number, nullable: boolean): SchemaConfig {
  return configOf(
    Array.from({ length }, (_, i) =>
      entity(`r${pad(i)}`, [{ id: 'nextId', type: 'integer', nullable: nullable && i === length - 1, references: { entity: `r${pad((i + 1) % length)}`, field: 'id' } }]),
    ),
    3,
  );
}

export function selfReference(nullable: boolean): SchemaConfig {
  return configOf([entity('node', [{ id: 'parentId', type: 'integer', nullable, references: { entity: 'node', field: 'id' } }])], 5);
}

export function emptyEntity(): SchemaConfig {
  return configOf([{ id: 'nothing', fields: [] }]);
}

/** Parents with zero rows under children whose reference is required. */
export function zeroParents(nullable: boolean): SchemaConfig {
  return configOf([
    entity('parent', [fieldOf('label', 'string')], { generation: { rowCount: 0 } }),
    entity('child', [{ id: 'parentId', type: 'integer', nullable, references: { entity: 'parent', field: 'id' } }], { generation: { rowCount: 5 } }),
  ]);
}

const long = (stem: string) => stem.padEnd(63, 'x');

/**
 * 63-character entity, field and index ids whose first 50 characters agree, so names derived from
 * them (constraints, indexes) collide once the database cuts them to 63 bytes.
 */
export function longestIdentifiers(): SchemaConfig {
  const parent = long('parent_entity_');
  const child = long('child_entity_');
  const column = (suffix: string) => `${long('reference_to_the_parent_entity_')}`.slice(0, 61) + suffix;
  return configOf(
    [
      entity(parent, [fieldOf(long('label_'), 'string')], { uniqueKeys: [[long('label_')]] }),
      entity(child, [
        { id: column('_1'), type: 'integer', references: { entity: parent, field: 'id' } },
        { id: column('_2'), type: 'integer', references: { entity: parent, field: 'id' } },
      ], {
        uniqueKeys: [[column('_1')], [column('_2')]],
        indexes: [{ id: long('index_'), fields: [column('_1'), column('_2')] }, { fields: [column('_2'), column('_1')] }],
      }),
    ],
    4,
  );
}

/** Lengths at and beyond what the databases store in a varchar. */
export function hugeLengths(maxLength: number): SchemaConfig {
  return configOf([entity('lengths', [fieldOf('short', 'string', { maxLength }), fieldOf('body', 'text', { maxLength, minLength: 0 })])], 3);
}

/** Every field type, with formats, constraints and strategies. */
export function everyType(): SchemaConfig {
  const fields: Field[] = [
    ...TYPES.map((type) => fieldOf(`plain_${type}`, type)),
    ...TYPES.map((type) => fieldOf(`nullable_${type}`, type, { nullable: true, generation: { emptyRate: 0.5 } })),
    ...(['plain', 'email', 'url', 'slug', 'phone'] as const).map((format) => fieldOf(`format_${format}`, 'string', { format, maxLength: 200 })),
    fieldOf('prefixed', 'string', { prefix: 'pre-', suffix: '-post', maxLength: 60 }),
    fieldOf('weekday', 'date', { weekdaysOnly: true, outputFormat: 'slash' }),
    fieldOf('sqlTime', 'datetime', { outputFormat: 'sql' }),
    fieldOf('rate', 'boolean', { trueRate: 1 }),
    fieldOf('tiny', 'number', { min: 0, max: 0.001, precision: 6 }),
    fieldOf('weighted', 'enum', { values: ['x', 'y'], weights: [1e-9, 1e9] }),
    fieldOf('counter', 'integer', { generation: { strategy: { kind: 'sequence', start: -5, step: -7 } } }),
    fieldOf('literal', 'json', { generation: { strategy: { kind: 'literal', value: { a: [1, { b: null }], '': '\u00e9' } } } }),
  ];
  return configOf([entity('everything', fields)], 7);
}

/** An enum of `count` values and a weightedChoice of as many choices, both unique. */
export function hugePools(count: number): SchemaConfig {
  const values = Array.from({ length: count }, (_, i) => `v${i}`);
  return configOf(
    [
      entity('pools', [
        fieldOf('kind', 'enum', { values, weights: values.map((_, i) => i + 1), generation: { uniqueValues: true } }),
        fieldOf('choice', 'string', { generation: { uniqueValues: true, strategy: { kind: 'weightedChoice', choices: values.map((value, i) => ({ value, weight: i + 1 })) as StrategyOf<'weightedChoice'>['choices'] } } }),
      ]),
    ],
    5,
  );
}

/** An enum of `count` weighted values. */
export function hugeEnum(count: number): SchemaConfig {
  const values = Array.from({ length: count }, (_, i) => `v${i}`);
  return configOf([entity('choices', [fieldOf('kind', 'enum', { values, weights: values.map((_, i) => (i % 9) + 1) })])], 5);
}

/** A json literal nested `depth` levels. */
export function deepLiteral(depth: number): SchemaConfig {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = { a: [value] };
  return configOf([entity('deep', [fieldOf('payload', 'json', { generation: { strategy: { kind: 'literal', value: value as never } } })])], 2);
}

export function enormousRowCount(): SchemaConfig {
  return configOf([entity('huge', [fieldOf('label', 'string')], { generation: { rowCount: { min: 1e15, max: 9e15 } } })]);
}
