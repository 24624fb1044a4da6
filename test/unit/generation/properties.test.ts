import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Entity, Field, SchemaConfig } from '../../../src/model/config-types.ts';
import { validateConfig } from '../../../src/config/validate-config.ts';
import { generate } from '../../helpers/generate-in-memory.ts';

const lengthBounds = fc.option(fc.tuple(fc.integer({ min: 0, max: 6 }), fc.integer({ min: 1, max: 40 })), { nil: undefined });
const affix = fc.option(fc.constantFrom('#', 'ID-', '!'), { nil: undefined });
const range = fc.option(fc.tuple(fc.integer({ min: -1000, max: 1000 }), fc.integer({ min: 0, max: 500 })), { nil: undefined });

/** A field of any type with random constraints that suit it. */
function fieldArbitrary(id: string): fc.Arbitrary<Field> {
  const common = {
    nullable: fc.boolean(),
    emptyRate: fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: undefined }),
  };
  const withGeneration = (field: Field, emptyRate: number | undefined, extra: object = {}): Field => {
    const generation = { ...(emptyRate === undefined ? {} : { emptyRate }), ...extra };
    return Object.keys(generation).length > 0 ? { ...field, generation } : field;
  };
  return fc.oneof(
    fc.record({ ...common, format: fc.constantFrom(undefined, 'plain', 'email', 'url', 'slug', 'phone'), lengths: lengthBounds, prefix: affix, suffix: affix, text: fc.boolean() }).map(
      ({ nullable, emptyRate, format, lengths, prefix, suffix, text }) => {
        const field: Field = { id, type: text ? 'text' : 'string', nullable };
        if (format && !text) field.format = format as Field['format'];
        if (lengths) [field.minLength, field.maxLength] = [Math.min(...lengths), Math.max(lengths[1], (prefix?.length ?? 0) + (suffix?.length ?? 0) + 1, lengths[0])];
        if (prefix) field.prefix = prefix;
        if (suffix) field.suffix = suffix;
        return withGeneration(field, emptyRate);
      },
    ),
    fc.record({ ...common, bounds: range, strategy: fc.constantFrom('none', 'randomInt', 'sequence', 'faker'), unique: fc.boolean() }).map(({ nullable, emptyRate, bounds, strategy, unique }) => {
      const field: Field = { id, type: 'integer', nullable };
      if (bounds) [field.min, field.max] = [bounds[0], bounds[0] + bounds[1]];
      const kind =
        strategy === 'randomInt' ? { kind: 'randomInt' } : strategy === 'sequence' ? { kind: 'sequence', start: 5, step: 3 } : strategy === 'faker' ? { kind: 'faker', method: 'number.int', args: [{ min: -5, max: 50 }] } : undefined;
      return withGeneration(field, emptyRate, { ...(kind ? { strategy: kind } : {}), ...(unique && strategy !== 'sequence' ? { uniqueValues: true } : {}) });
    }),
    fc.record({ ...common, bounds: range, precision: fc.option(fc.integer({ min: 1, max: 4 }), { nil: undefined }) }).map(({ nullable, emptyRate, bounds, precision }) => {
      const field: Field = { id, type: 'number', nullable };
      if (bounds) [field.min, field.max] = [bounds[0] / 10, (bounds[0] + bounds[1]) / 10];
      if (precision) field.precision = precision;
      return withGeneration(field, emptyRate);
    }),
    fc.record({ ...common, trueRate: fc.double({ min: 0, max: 1, noNaN: true }) }).map(({ nullable, emptyRate, trueRate }) => withGeneration({ id, type: 'boolean', nullable, trueRate }, emptyRate)),
    fc.record({ ...common, type: fc.constantFrom('date', 'datetime'), weekdaysOnly: fc.boolean(), ranged: fc.boolean() }).map(({ nullable, emptyRate, type, weekdaysOnly, ranged }) =>
      withGeneration({ id, type: type as Field['type'], nullable, weekdaysOnly }, emptyRate, ranged ? { strategy: { kind: 'dateRange', from: '-60d', to: '+2w' } } : {}),
    ),
    fc.record({ ...common, type: fc.constantFrom('time', 'uuid', 'json') }).map(({ nullable, emptyRate, type }) => withGeneration({ id, type: type as Field['type'], nullable }, emptyRate)),
    fc.record({ ...common, values: fc.uniqueArray(fc.stringMatching(/^[a-z]{1,6}$/), { minLength: 1, maxLength: 4 }), weighted: fc.boolean(), unique: fc.boolean() }).map(
      ({ nullable, emptyRate, values, weighted, unique }) =>
        withGeneration({ id, type: 'enum', nullable, values, ...(weighted ? { weights: values.map((_, i) => i + 1) } : {}) }, emptyRate, unique ? { uniqueValues: true } : {}),
    ),
  );
}

/** Up to three entities, each possibly referencing an earlier one and itself. */
const configArbitrary: fc.Arbitrary<SchemaConfig> = fc
  .array(
    fc.record({
      rows: fc.integer({ min: 0, max: 25 }),
      fields: fc.array(fc.nat(), { minLength: 1, maxLength: 5 }).chain((ids) => fc.tuple(...ids.map((_, i) => fieldArbitrary(`f${i}`)))),
      parent: fc.option(fc.record({ relation: fc.constantFrom('many-to-one', 'one-to-one'), pick: fc.constantFrom('random', 'sequential'), nullable: fc.boolean() }), { nil: undefined }),
      self: fc.boolean(),
      seed: fc.option(fc.integer(), { nil: undefined }),
      keys: fc.array(fc.uniqueArray(fc.nat({ max: 4 }), { minLength: 1, maxLength: 2 }), { maxLength: 2 }),
    }),
    { minLength: 1, maxLength: 3 },
  )
  .map((entities) => ({
    formatVersion: 1 as const,
    entities: entities.map(({ rows, fields, parent, self, seed, keys }, i): Entity => {
      const all: Field[] = [{ id: 'id', type: 'integer' }, ...fields];
      if (parent && i > 0) all.push({ id: 'parentId', type: 'integer', nullable: parent.nullable, references: { entity: `e${i - 1}`, field: 'id', relation: parent.relation as 'many-to-one', pick: parent.pick as 'random' } });
      if (self) all.push({ id: 'selfId', type: 'integer', nullable: true, references: { entity: `e${i}`, field: 'id' } });
      const uniqueKeys = [...new Set(keys.map((key) => JSON.stringify([...new Set(key.map((n) => all[1 + (n % fields.length)]!.id))])))].map((key) => JSON.parse(key) as string[]);
      return { id: `e${i}`, primaryKey: ['id'], fields: all, ...(uniqueKeys.length ? { uniqueKeys } : {}), generation: { rowCount: rows, ...(seed === undefined ? {} : { seed }) } };
    }),
  }));

const SHAPES: Partial<Record<Field['type'], RegExp>> = {
  date: /^\d{4}-\d{2}-\d{2}$/,
  datetime: /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/,
  time: /^\d{2}:\d{2}:\d{2}$/,
  uuid: /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
};

function problems(field: Field, value: unknown): string | undefined {
  if (value === null) return field.nullable ? undefined : 'null in a required field';
  switch (field.type) {
    case 'string':
    case 'text': {
      if (typeof value !== 'string') return 'not a string';
      if (field.maxLength !== undefined && value.length > field.maxLength) return 'too long';
      if (value === '') return field.generation?.emptyRate && !field.minLength && (field.format ?? 'plain') === 'plain' ? undefined : 'empty';
      if (field.minLength !== undefined && value.length < field.minLength) return 'too short';
      if (field.prefix && !value.startsWith(field.prefix)) return 'no prefix';
      if (field.suffix && !value.endsWith(field.suffix)) return 'no suffix';
      return undefined;
    }
    case 'integer':
    case 'number': {
      if (typeof value !== 'number' || !Number.isFinite(value)) return 'not a number';
      if (field.type === 'integer' && !Number.isInteger(value)) return 'not an integer';
      if (field.min !== undefined && value < field.min) return 'below min';
      if (field.max !== undefined && value > field.max) return 'above max';
      const decimals = String(value).split('.')[1]?.length ?? 0;
      return field.type === 'number' && decimals > (field.precision ?? 2) ? 'too many decimals' : undefined;
    }
    case 'boolean':
      return typeof value === 'boolean' ? undefined : 'not a boolean';
    case 'enum':
      return field.values!.includes(value as string) ? undefined : 'not an enum value';
    case 'json':
      return typeof value === 'object' ? undefined : 'not JSON';
    default: {
      if (typeof value !== 'string' || !SHAPES[field.type]!.test(value)) return `not a ${field.type}`;
      if (field.weekdaysOnly && field.type === 'date' && [0, 6].includes(new Date(`${value}T00:00:00Z`).getUTCDay())) return 'weekend';
      return undefined;
    }
  }
}

describe('generation properties', () => {
  it('rows of any valid config respect types, bounds, nullability, references and uniqueness, and repeat exactly', () => {
    fc.assert(
      fc.property(configArbitrary, (schema) => {
        fc.pre(validateConfig(schema).valid);
        const run = generate(schema);
        for (const entity of schema.entities) {
          const rows = run.objects(entity.id);
          expect(rows.length).toBeLessThanOrEqual(run.plan.entities.find((plan) => plan.id === entity.id)!.rowCount);
          for (const field of entity.fields) {
            const column = rows.map((row) => row[field.id]);
            const parent = field.references ? new Set<unknown>(run.column(field.references.entity, 'id')) : undefined;
            for (const value of column) {
              if (parent) expect(value === null ? field.nullable : parent.has(value), `${entity.id}.${field.id} = ${value}`).toBe(true);
              else expect(problems(field, value), `${entity.id}.${field.id} = ${JSON.stringify(value)}`).toBeUndefined();
            }
            if (field.generation?.uniqueValues || field.references?.relation === 'one-to-one' || field.id === 'id') {
              const present = column.filter((value) => value !== null);
              expect(new Set(present).size, `${entity.id}.${field.id} unique`).toBe(present.length);
            }
          }
          for (const key of entity.uniqueKeys ?? []) {
            const tuples = rows.filter((row) => key.every((id) => row[id] !== null)).map((row) => JSON.stringify(key.map((id) => row[id])));
            expect(new Set(tuples).size, `${entity.id} unique (${key.join(', ')})`).toBe(tuples.length);
          }
        }
        expect(generate(schema, {}, 3).rows).toEqual(run.rows);
      }),
      { numRuns: 60 },
    );
  });
});
