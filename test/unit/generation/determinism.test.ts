import { describe, expect, it } from 'vitest';
import type { Entity, SchemaConfig } from '../../../src/model/config-types.ts';
import { previewRows } from '../../../src/generation/preview.ts';
import { REFERENCE_DATE, config, entity, generate } from '../../helpers/generate-in-memory.ts';

function shop(): SchemaConfig {
  return config(
    entity('customers', 300, [
      { id: 'email', type: 'string', format: 'email' },
      { id: 'fullName', type: 'string' },
      { id: 'tier', type: 'enum', values: ['free', 'pro'], weights: [3, 1] },
      { id: 'createdAt', type: 'datetime' },
      { id: 'referrerId', type: 'integer', nullable: true, references: { entity: 'customers', field: 'id' }, generation: { emptyRate: 0.3 } },
      { id: 'handle', type: 'string', generation: { strategy: { kind: 'template', template: '{{fullName}}-{{faker.string.numeric}}' } } },
      { id: 'publicId', type: 'uuid' },
    ], { uniqueKeys: [['email'], ['publicId']] }),
    entity('orders', 700, [
      { id: 'customerId', type: 'integer', references: { entity: 'customers', field: 'id' } },
      { id: 'total', type: 'number', precision: 2 },
      { id: 'note', type: 'text', nullable: true, generation: { emptyRate: 0.5 } },
      { id: 'code', type: 'string', maxLength: 6 },
    ], { uniqueKeys: [['code']] }),
  );
}

describe('determinism', () => {
  it('gives identical rows for the same seed', () => {
    const a = generate(shop());
    const b = generate(shop());
    expect(b.rows).toEqual(a.rows);
  });

  it.each([1, 7, 1000])('gives identical rows whatever the batch size (%i)', (batchSize) => {
    expect(generate(shop(), {}, batchSize).rows).toEqual(generate(shop(), {}, 250).rows);
  });

  it('changes with the seed', () => {
    const a = generate(shop());
    const b = generate(shop(), { seed: 'other' });
    expect(b.column('customers', 'email')).not.toEqual(a.column('customers', 'email'));
    expect(b.column('orders', 'customerId')).not.toEqual(a.column('orders', 'customerId'));
    expect(b.column('customers', 'id')).toEqual(a.column('customers', 'id'));
  });

  it('keeps other fields’ values when a field is added', () => {
    const before = generate(shop());
    const wider = shop();
    wider.entities[0]!.fields.splice(2, 0, { id: 'nickname', type: 'string', generation: { strategy: { kind: 'faker', method: 'person.firstName' } } });
    wider.entities[1]!.fields.push({ id: 'shippedAt', type: 'date' });
    const after = generate(wider);
    for (const [entityId, fields] of [['customers', ['email', 'fullName', 'tier', 'createdAt', 'referrerId', 'handle', 'publicId']], ['orders', ['customerId', 'total', 'note', 'code']]] as const) {
      for (const field of fields) expect(after.column(entityId, field), `${entityId}.${field}`).toEqual(before.column(entityId, field));
    }
  });

  it('keeps other entities’ values when an entity is added', () => {
    const before = generate(shop());
    const bigger = shop();
    const reviews: Entity = entity('reviews', 50, [{ id: 'orderId', type: 'integer', references: { entity: 'orders', field: 'id' } }, { id: 'stars', type: 'integer', min: 1, max: 5 }]);
    bigger.entities.unshift(reviews);
    const after = generate(bigger);
    expect(after.rows.get('customers')).toEqual(before.rows.get('customers'));
    expect(after.rows.get('orders')).toEqual(before.rows.get('orders'));
  });

  it('produces any row range of counter-based fields independently: a longer run extends a shorter one', () => {
    const plain = (rows: number) =>
      config(entity('events', rows, [{ id: 'kind', type: 'enum', values: ['a', 'b', 'c'] }, { id: 'at', type: 'datetime' }, { id: 'city', type: 'string' }, { id: 'ref', type: 'uuid' }]));
    const short = generate(plain(100)).rows.get('events')!;
    const long = generate(plain(1000)).rows.get('events')!;
    expect(long.slice(0, 100)).toEqual(short);
  });

  it('shows in previews exactly the first rows a full generation produces', () => {
    const full = generate(shop());
    const preview = previewRows(shop(), 'orders', 5, { referenceDate: REFERENCE_DATE });
    expect(preview).toEqual(full.objects('orders').slice(0, 5));
    const customers = previewRows(shop(), 'customers', 20, { referenceDate: REFERENCE_DATE });
    expect(customers).toEqual(full.objects('customers').slice(0, 20));
    expect(customers.some((customer) => customer.referrerId !== null)).toBe(true);
    expect(previewRows(shop(), 'customers', 0)).toEqual([]);
  });

  it('previews both sides of a reference cycle', () => {
    const cycle = config(
      entity('teams', 10, [{ id: 'captainId', type: 'integer', nullable: true, references: { entity: 'players', field: 'id' } }]),
      entity('players', 40, [{ id: 'teamId', type: 'integer', references: { entity: 'teams', field: 'id' } }]),
    );
    const full = generate(cycle);
    expect(previewRows(cycle, 'teams', 3, { referenceDate: REFERENCE_DATE })).toEqual(full.objects('teams').slice(0, 3));
    expect(previewRows(cycle, 'players', 3, { referenceDate: REFERENCE_DATE })).toEqual(full.objects('players').slice(0, 3));
    expect(() => previewRows(cycle, 'nobody', 3)).toThrow('the config has no entity "nobody"');
  });
});
