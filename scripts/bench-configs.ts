// Configs the benchmarks share: the 610k-row generation config (bench-generation.ts, bench-files.ts).
import type { Entity } from '../src/model/config-types.ts';
import type { SchemaConfig } from '../src/contract.ts';

/** Users 100k, products 10k, orders 500k (×scale): 9, 8 and 9 fields, strings from faker. */
export function generationBenchConfig(scale: number, seed: string): SchemaConfig {
  return {
    formatVersion: 1,
    metadata: { name: 'bench-generation' },
    generationDefaults: { seed, locale: 'en', timezone: 'UTC' },
    entities: [
      {
        id: 'users',
        primaryKey: ['id'],
        uniqueKeys: [['email']],
        generation: { rowCount: 100_000 * scale },
        fields: [
          { id: 'id', type: 'integer' },
          { id: 'firstName', type: 'string', maxLength: 60, generation: { strategy: { kind: 'faker', method: 'person.firstName' } } },
          { id: 'lastName', type: 'string', maxLength: 60, generation: { strategy: { kind: 'faker', method: 'person.lastName' } } },
          { id: 'email', type: 'string', format: 'email', maxLength: 120 },
          { id: 'company', type: 'string', maxLength: 120, generation: { strategy: { kind: 'faker', method: 'company.name' } } },
          { id: 'city', type: 'string', maxLength: 80, generation: { strategy: { kind: 'faker', method: 'location.city' } } },
          { id: 'status', type: 'enum', values: ['active', 'invited', 'suspended'], weights: [8, 1, 1] },
          { id: 'active', type: 'boolean', trueRate: 0.9 },
          { id: 'createdAt', type: 'datetime', generation: { strategy: { kind: 'dateRange', from: '-3y', to: 'now' } } },
        ],
      },
      {
        id: 'products',
        primaryKey: ['id'],
        indexes: [{ fields: ['category'] }],
        generation: { rowCount: 10_000 * scale },
        fields: [
          { id: 'id', type: 'integer' },
          { id: 'name', type: 'string', maxLength: 120, generation: { strategy: { kind: 'faker', method: 'commerce.productName' } } },
          { id: 'description', type: 'text', generation: { strategy: { kind: 'faker', method: 'commerce.productDescription' } } },
          { id: 'price', type: 'number', precision: 2, generation: { strategy: { kind: 'faker', method: 'commerce.price', args: [{ min: 1, max: 2000 }] } } },
          { id: 'category', type: 'enum', values: ['books', 'garden', 'games', 'health', 'home', 'music', 'outdoors', 'toys'] },
          { id: 'stock', type: 'integer', min: 0, max: 500 },
          { id: 'available', type: 'boolean', trueRate: 0.85 },
          { id: 'releasedOn', type: 'date', generation: { strategy: { kind: 'dateRange', from: '2015-01-01', to: 'now' } } },
        ],
      },
      {
        id: 'orders',
        primaryKey: ['id'],
        generation: { rowCount: 500_000 * scale },
        fields: [
          { id: 'id', type: 'integer' },
          { id: 'userId', type: 'integer', references: { entity: 'users', field: 'id', onDelete: 'cascade' } },
          { id: 'productId', type: 'integer', references: { entity: 'products', field: 'id' } },
          { id: 'quantity', type: 'integer', generation: { strategy: { kind: 'randomInt', min: 1, max: 5 } } },
          { id: 'unitPrice', type: 'number', precision: 2, generation: { strategy: { kind: 'randomFloat', min: 1, max: 2000, precision: 2 } } },
          {
            id: 'status',
            type: 'string',
            maxLength: 20,
            generation: {
              strategy: {
                kind: 'weightedChoice',
                choices: [
                  { value: 'placed', weight: 2 },
                  { value: 'paid', weight: 3 },
                  { value: 'shipped', weight: 10 },
                  { value: 'refunded', weight: 1 },
                ],
              },
            },
          },
          { id: 'orderedAt', type: 'datetime', generation: { strategy: { kind: 'dateRange', from: '-1y', to: 'now' } } },
          { id: 'shippedOn', type: 'date', nullable: true, weekdaysOnly: true, generation: { emptyRate: 0.3 } },
          { id: 'note', type: 'string', maxLength: 200, nullable: true, generation: { emptyRate: 0.8, strategy: { kind: 'faker', method: 'lorem.sentence' } } },
        ],
      },
    ],
  };
}

/**
 * Customers 100k, orders 500k (×scale) whose fields have no strategy, so generator version 2 makes
 * them coherent: the row's person (names, email, username, gender), its place (country to time zone,
 * phone), English-like text, ordered time pairs, orders after their customer's sign-up.
 */
export function coherentBenchConfig(scale: number, seed: string): SchemaConfig {
  return {
    formatVersion: 1,
    metadata: { name: 'bench-coherent' },
    generationDefaults: { seed, locale: 'en', timezone: 'UTC' },
    entities: [
      {
        id: 'customers',
        primaryKey: ['id'],
        uniqueKeys: [['email']],
        generation: { rowCount: 100_000 * scale },
        fields: [
          { id: 'id', type: 'integer' },
          { id: 'firstName', type: 'string', maxLength: 60 },
          { id: 'lastName', type: 'string', maxLength: 60 },
          { id: 'email', type: 'string', format: 'email', maxLength: 160 },
          { id: 'username', type: 'string', maxLength: 80 },
          { id: 'gender', type: 'enum', values: ['female', 'male'] },
          { id: 'city', type: 'string', maxLength: 80 },
          { id: 'state', type: 'string', maxLength: 80 },
          { id: 'postalCode', type: 'string', maxLength: 10 },
          { id: 'country', type: 'string', maxLength: 80 },
          { id: 'phone', type: 'string', maxLength: 30 },
          { id: 'timeZone', type: 'string', maxLength: 40 },
          { id: 'createdAt', type: 'datetime' },
        ],
      },
      {
        id: 'orders',
        primaryKey: ['id'],
        generation: { rowCount: 500_000 * scale },
        fields: [
          { id: 'id', type: 'integer' },
          { id: 'customerId', type: 'integer', references: { entity: 'customers', field: 'id', onDelete: 'cascade' } },
          { id: 'orderedAt', type: 'datetime' },
          { id: 'startDate', type: 'date' },
          { id: 'endDate', type: 'date' },
          { id: 'total', type: 'number', precision: 2 },
          { id: 'notes', type: 'string', maxLength: 200, nullable: true, generation: { emptyRate: 0.5 } },
        ],
      },
    ],
  };
}

/**
 * The generation benchmark's entities and sizes with issue 14's options on: skewed fan-out (Pareto
 * users, Zipf products), distributions (lognormal prices, normal stock, Zipf quantities), formulas
 * reading the row and the referenced product, and order times shaped by weekday and hour weights
 * after the user's sign-up.
 */
export function optionsBenchConfig(scale: number, seed: string): SchemaConfig {
  const config = generationBenchConfig(scale, seed);
  config.metadata = { name: 'bench-generation-options' };
  const [users, products, orders] = config.entities as [Entity, Entity, Entity];
  const field = (entity: Entity, id: string) => entity.fields.find((candidate) => candidate.id === id)!;
  field(users, 'createdAt').generation = { strategy: { kind: 'dateRange', from: '-3y', to: 'now', trend: 2 } };
  field(products, 'price').generation = { strategy: { kind: 'randomFloat', min: 1, max: 2000, precision: 2, distribution: { kind: 'lognormal', median: 25, sigma: 0.8 } } };
  field(products, 'stock').generation = { strategy: { kind: 'randomInt', min: 0, max: 500, distribution: { kind: 'normal', mean: 120, stddev: 30 } } };
  field(orders, 'userId').references!.fanOut = { kind: 'pareto', alpha: 2 };
  field(orders, 'productId').references!.fanOut = { kind: 'zipf', exponent: 1 };
  field(orders, 'quantity').generation = { strategy: { kind: 'randomInt', min: 1, max: 10, distribution: { kind: 'zipf', exponent: 2 } } };
  field(orders, 'unitPrice').generation = { strategy: { kind: 'formula', expression: 'round(product.price * 0.95, 2)' } };
  const index = orders.fields.findIndex((candidate) => candidate.id === 'unitPrice');
  orders.fields.splice(index + 1, 0, { id: 'total', type: 'number', precision: 2, generation: { strategy: { kind: 'formula', expression: 'quantity * unitPrice' } } });
  field(orders, 'orderedAt').generation = {
    strategy: {
      kind: 'dateRange',
      from: '-3y',
      to: 'now',
      after: 'user.createdAt',
      trend: 1,
      weekdayWeights: [5, 5, 5, 5, 6, 3, 1],
      hourWeights: [0, 0, 0, 0, 0, 0, 1, 2, 4, 6, 7, 7, 8, 7, 6, 6, 6, 6, 7, 8, 8, 6, 3, 1],
    },
  };
  field(orders, 'shippedOn').generation = { emptyRate: 0.3, strategy: { kind: 'formula', expression: 'date(orderedAt) + 2 days' } };
  return config;
}
