// The preview answer names, per field a rule of the generator version made, that rule's id: what the
// studio shows under each column of the preview.
import { describe, expect, it } from 'vitest';
import { computePreview } from '../../../src/management/schema-preview.ts';
import type { SchemaConfig } from '../../../src/model/config-types.ts';

const schema: SchemaConfig = {
  formatVersion: 1,
  entities: [
    {
      id: 'orders',
      primaryKey: ['id'],
      generation: { rowCount: 5 },
      fields: [
        { id: 'id', type: 'integer' },
        { id: 'email', type: 'string', maxLength: 120 },
        { id: 'status', type: 'string', maxLength: 20 },
        { id: 'unit_price', type: 'number', precision: 2 },
        { id: 'note', type: 'string', maxLength: 40, generation: { strategy: { kind: 'literal', value: 'x' } } },
      ],
    },
  ],
};

describe('preview: the rule of each field', () => {
  it("names version 4's rules by id, leaves out strategies and keys, and follows the version", () => {
    const v4 = computePreview({ schema, generatorVersion: 4, rows: 2 });
    expect(v4.generatorVersion).toMatch(/^4\./);
    expect(v4.entities[0]!.fieldRules).toEqual({ email: 'person.email', status: 'status.by-table', unit_price: 'money.unit-price' });
    const v3 = computePreview({ schema, generatorVersion: 3, rows: 2 });
    expect(v3.entities[0]!.fieldRules?.status).toBe('misc.status');
  });
});
