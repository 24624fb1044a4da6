// Configs shown in the editor keep the JSON Schema's order of keys, whatever order they came in.
import { describe, expect, it } from 'vitest';
import { canonicalJson, inSchemaOrder } from '../src/design/config-order.ts';

describe('inSchemaOrder', () => {
  it('orders the root, entities and fields as the schema declares them, unknown keys last, values untouched', () => {
    const stored = {
      entities: [{ fields: [{ type: 'integer', nullable: false, id: 'id', extra: 1 }], id: 'users', generation: { rowCount: 5 } }],
      generationDefaults: { seed: 'x', rowCount: 2 },
      formatVersion: 1,
      metadata: { tags: ['b'], name: 'Blog' },
    };
    const shown = inSchemaOrder(stored) as typeof stored;
    expect(Object.keys(shown)).toEqual(['formatVersion', 'metadata', 'generationDefaults', 'entities']);
    expect(Object.keys(shown.entities[0]!)).toEqual(['id', 'fields', 'generation']);
    expect(Object.keys(shown.entities[0]!.fields[0]!)).toEqual(['id', 'type', 'nullable', 'extra']);
    expect(shown).toEqual(stored);
  });

  it.each([null, 3, 'text', [1, 2], { entities: 'not a list' }, { entities: [null, { fields: 'no' }] }])('leaves %j as it is', (value) => {
    expect(inSchemaOrder(value)).toEqual(value);
  });
});

describe('canonicalJson', () => {
  it('is the same for configs that differ only in key order, and differs when a value or an array order does', () => {
    const a = { formatVersion: 1, entities: [{ id: 'users', fields: [{ id: 'id', type: 'integer' }] }] };
    const b = { entities: [{ fields: [{ type: 'integer', id: 'id' }], id: 'users' }], formatVersion: 1 };
    expect(canonicalJson(a)).toBe(canonicalJson(b));
    expect(canonicalJson(a)).not.toBe(canonicalJson({ ...a, formatVersion: 2 }));
    expect(canonicalJson([1, 2])).not.toBe(canonicalJson([2, 1]));
  });
});
