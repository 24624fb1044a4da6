// Formulas: the parser's answers (errors with positions), exact values of every operator family
// over generated rows, fields of referenced rows, and the validator's errors (unknown names, type
// mismatches, cycles) with JSON pointers, all at once.
import { describe, expect, it } from 'vitest';
import type { Entity, Field, SchemaConfig } from '../../../src/model/config-types.ts';
import { parseFormula } from '../../../src/generation/formulas/parse-formula.ts';
import { validateConfig } from '../../../src/config/validate-config.ts';
import { DataGenerator } from '../../../src/generation/generator.ts';
import { planGeneration } from '../../../src/generation/plan.ts';
import { config, entity, generate, REFERENCE_DATE } from '../../helpers/generate-in-memory.ts';

const formula = (id: string, type: Field['type'], expression: string, extra: Partial<Field> = {}): Field =>
  ({ id, type, generation: { strategy: { kind: 'formula', expression } }, ...extra }) as Field;

function shop(lineFields: Field[] = []): SchemaConfig {
  return config(
    entity('products', 30, [
      { id: 'name', type: 'string', maxLength: 40, generation: { strategy: { kind: 'faker', method: 'commerce.productName' } } },
      { id: 'price', type: 'number', precision: 2, generation: { strategy: { kind: 'randomFloat', min: 1, max: 500, precision: 2 } } },
      { id: 'launchedOn', type: 'date', generation: { strategy: { kind: 'dateRange', from: '2020-01-01', to: '2024-12-31' } } },
    ]),
    entity('lines', 400, [
      { id: 'productId', type: 'integer', references: { entity: 'products', field: 'id' } },
      { id: 'quantity', type: 'integer', generation: { strategy: { kind: 'randomInt', min: 1, max: 9 } } },
      formula('unitPrice', 'number', 'product.price * 0.9', { precision: 2 }),
      formula('total', 'number', 'quantity * unitPrice', { precision: 2 }),
      { id: 'orderedAt', type: 'datetime', generation: { strategy: { kind: 'dateRange', from: '2025-01-01', to: '2025-06-01' } } },
      formula('dueAt', 'datetime', 'orderedAt + 30 days'),
      formula('dueOn', 'date', 'date(orderedAt) + 2 weeks'),
      ...lineFields,
    ]),
  );
}

// Decimal rounding half away from zero of the decimal product (806.4449999999999 is 896.05 × 0.9 = 806.445 → 806.45).
const round2 = (value: number) => Math.round(Number(`${Number(value.toPrecision(15))}e2`)) / 100;

describe('parseFormula', () => {
  const cases: [string, { given: string; want: string | RegExp }][] = [
    ['precedence and parentheses', { given: '(a + b) * c - d / 2', want: 'ok' }],
    ['members and calls', { given: 'round(product.price * 0.9, 2)', want: 'ok' }],
    ['durations after a number', { given: 'createdAt + 30 days - 1 hour', want: 'ok' }],
    ['ternaries and logic', { given: '!(a > 1 && b <= 2) || c == "x" ? 1 : 2', want: 'ok' }],
    ['an operator missing', { given: 'quantity unitPrice', want: 'unexpected "unitPrice" at character 10; join values with an operator' }],
    ['an unclosed string', { given: 'name + "x', want: 'the string starting at character 8 is not closed with "' }],
    ['an unknown character', { given: 'a # b', want: 'unexpected "#" at character 3' }],
    ['a dangling operator', { given: 'a +', want: 'the formula ends where a value is expected' }],
    ['a missing parenthesis', { given: 'round(a, 2', want: 'expected ")" but found the end of the formula' }],
    ['a member without a field', { given: 'product.', want: 'expected a field name after "product." but found the end of the formula' }],
  ];
  it.each(cases)('%s', (_name, { given, want }) => {
    const parsed = parseFormula(given);
    expect(parsed.ok ? 'ok' : parsed.message).toEqual(want);
  });
});

describe('formula values', () => {
  it('products, rounding, fields of the referenced row and date arithmetic are exact', () => {
    const generated = generate(shop());
    const products = new Map(generated.objects('products').map((row) => [row.id, row]));
    const lines = generated.objects('lines');
    expect(lines).toHaveLength(400);
    for (const line of lines) {
      const product = products.get(line.productId)!;
      expect(line.unitPrice).toBe(round2((product.price as number) * 0.9));
      expect(line.total).toBe(round2((line.quantity as number) * (line.unitPrice as number)));
      expect(Date.parse(line.dueAt as string) - Date.parse(line.orderedAt as string)).toBe(30 * 86_400_000);
      const day = new Date(Date.parse((line.orderedAt as string).slice(0, 10)) + 14 * 86_400_000).toISOString().slice(0, 10);
      expect(line.dueOn).toBe(day);
    }
  });

  it('strings, conditions, functions and nulls', () => {
    const generated = generate(
      shop([
        formula('label', 'string', '"#" + id + ": " + upper(product.name) + (quantity > 4 ? " (bulk)" : "")', { maxLength: 200 }),
        formula('bulk', 'boolean', 'quantity >= 5 && total > 0'),
        formula('age', 'integer', 'floor(daysBetween(product.launchedOn, orderedAt))'),
        { id: 'note', type: 'string', nullable: true, generation: { emptyRate: 0.5, strategy: { kind: 'literal', value: 'n' } } },
        formula('noteLength', 'integer', 'length(note)', { nullable: true }),
        formula('noteOrZero', 'integer', 'length(note)'),
        formula('half', 'number', 'min(quantity, 4) / 2 + max(1, 2) % 2 + abs(-1) + ceil(0.2) + round(2.345, 2)', { precision: 3 }),
      ]),
    );
    const products = new Map(generated.objects('products').map((row) => [row.id, row]));
    for (const line of generated.objects('lines')) {
      const product = products.get(line.productId)!;
      const quantity = line.quantity as number;
      expect(line.label).toBe(`#${line.id}: ${String(product.name).toUpperCase()}${quantity > 4 ? ' (bulk)' : ''}`);
      expect(line.bulk).toBe(quantity >= 5);
      const days = (Date.parse(line.orderedAt as string) - Date.parse(product.launchedOn as string)) / 86_400_000;
      expect(line.age).toBe(Math.floor(days));
      expect(line.noteLength).toBe(line.note === null ? null : 1);
      expect(line.noteOrZero).toBe(line.note === null ? 0 : 1); // a required field's null becomes 0
      expect(line.half).toBe(Math.min(quantity, 4) / 2 + 0 + 1 + 1 + 2.35);
    }
  });

  it('rows made in any range equal the rows made in order (a pure function of the row)', () => {
    const schema = shop();
    const plan = planGeneration(schema, { referenceDate: REFERENCE_DATE });
    const ordered = generate(schema).rows.get('lines')!;
    const generator = new DataGenerator(schema, plan);
    expect(generator.assumeGenerated('products')).toBe(true);
    expect(generator.rangeSafe('lines')).toBe(true);
    expect([...generator.rangeRows('lines', 150, 160)]).toEqual(ordered.slice(150, 160));
  });

  it('a parent column that cannot be recomputed is kept by row, and children still read it exactly', () => {
    const schema = shop();
    // uniqueValues by retries makes price depend on earlier rows.
    (schema.entities[0]!.fields[2] as Field).generation!.uniqueValues = true;
    (schema.entities[0]!.fields[2] as Field).generation!.strategy = { kind: 'faker', method: 'commerce.price' };
    const generated = generate(schema);
    const prices = new Map(generated.objects('products').map((row) => [row.id, row.price as number]));
    for (const line of generated.objects('lines')) expect(line.unitPrice).toBe(round2(prices.get(line.productId)! * 0.9));
    const generator = new DataGenerator(schema, planGeneration(schema, { referenceDate: REFERENCE_DATE }));
    expect(generator.assumeGenerated('products')).toBe(false);
  });
});

describe('formula validation', () => {
  it('reports unknown fields and references, type mismatches, unknown functions and cycles with pointers, all at once', () => {
    const schema = shop([
      formula('a', 'number', 'b + 1'),
      formula('b', 'number', 'a * 2'),
      formula('c', 'number', 'quantity * unitPrise'),
      formula('d', 'string', 'produkt.name'),
      formula('e', 'integer', 'orderedAt + 1'),
      formula('f', 'date', 'orderedAt + 1 day'),
      formula('g', 'number', 'sqrt(quantity)'),
      formula('h', 'number', 'quantity +'),
      formula('i', 'number', 'i + 1'),
      formula('j', 'number', 'product.cost'),
    ]);
    const lines = (schema.entities[1] as Entity).fields;
    const at = (id: string) => `/entities/1/fields/${lines.findIndex((field) => field.id === id)}/generation/strategy/expression`;
    const result = validateConfig(schema);
    expect(result.valid).toBe(false);
    expect(result.errors).toEqual([
      { path: at('c'), message: 'formula of lines.c: "unitPrise" is not a field of entity "lines" (did you mean "unitPrice"?) (character 12); use one of: id, productId, quantity, unitPrice, total, orderedAt, dueAt, dueOn, a, b, d, e, f, g, h, i, j' },
      { path: at('d'), message: 'formula of lines.d: "produkt" names no reference of entity "lines" (did you mean "product"?); use one of: productId, product, products (character 1)' },
      { path: at('e'), message: 'formula of lines.e: "+" cannot combine a datetime and a number (character 11)' },
      { path: at('f'), message: 'formula of lines.f: the formula gives a datetime but lines.f is a date field, which takes a date' },
      { path: at('g'), message: 'formula of lines.g: unknown function "sqrt" (character 1); functions: round, floor, ceil, abs, min, max, lower, upper, length, daysBetween, date' },
      { path: at('h'), message: 'formula of lines.h is not valid: the formula ends where a value is expected' },
      { path: at('i'), message: 'formula of lines.i: the formula of lines.i uses its own value (character 1)' },
      { path: at('j'), message: 'formula of lines.j: "cost" is not a field of entity "products" (character 1); use one of: id, name, price, launchedOn' },
      { path: at('a'), message: 'formulas and templates of entity "lines" need each other\'s values (a → b → a); break the cycle by removing one of these names' },
    ]);
  });

  it('accepts the shop formulas', () => {
    expect(validateConfig(shop()).errors).toEqual([]);
  });
});

describe('formulas beside defaults', () => {
  it('a formula createdAt that reads updatedAt is no cycle: the default updatedAt then does not follow it', () => {
    const schema = config(
      entity('items', 50, [
        { id: 'updatedAt', type: 'datetime' },
        formula('createdAt', 'datetime', 'updatedAt - 1 day'),
      ]),
    );
    expect(validateConfig(schema).errors).toEqual([]);
    for (const row of generate(schema).objects('items')) expect(Date.parse(row.updatedAt as string) - Date.parse(row.createdAt as string)).toBe(86_400_000);
  });
});

describe('unique formulas', () => {
  it('warn that repeated values are changed to stay unique', () => {
    const schema = config(entity('items', 20, [{ id: 'n', type: 'integer', generation: { strategy: { kind: 'randomInt', min: 1, max: 3 } } }, formula('code', 'integer', 'n * 2', { generation: { uniqueValues: true, strategy: { kind: 'formula', expression: 'n * 2' } } })]));
    expect(validateConfig(schema).warnings).toContainEqual({
      path: '/entities/0/fields/2/generation/strategy/expression',
      message:
        'items.code must be unique, but a formula gives the same value whenever its inputs repeat; repeated values are then made unique ' +
        '(a "-<row>" tag on text, a step on numbers and dates) and no longer equal the formula. Make the formula read a unique field (e.g. id) or drop the uniqueness',
    });
    const codes = generate(schema).column('items', 'code');
    expect(new Set(codes).size).toBe(codes.length);
  });
});

describe('formulas and after through a reference cycle', () => {
  it('warn that a reference filled after insert gives null to formulas and no order to after', () => {
    const schema = config(
      entity('teams', 5, [
        { id: 'leadId', type: 'integer', nullable: true, references: { entity: 'people', field: 'id' } },
        formula('leadName', 'string', 'lead.name', { nullable: true }),
        { id: 'formedAt', type: 'datetime', generation: { strategy: { kind: 'dateRange', after: 'lead.joinedAt' } } },
      ]),
      entity('people', 10, [
        { id: 'teamId', type: 'integer', references: { entity: 'teams', field: 'id' } },
        { id: 'name', type: 'string', maxLength: 40 },
        { id: 'joinedAt', type: 'datetime' },
      ]),
    );
    const result = validateConfig(schema);
    expect(result.errors).toEqual([]);
    expect(result.warnings).toEqual([
      { path: '/entities/0/fields/2/generation/strategy/expression', message: 'formula of teams.leadName reads teams.leadId, a reference that closes a cycle and is filled after every row is inserted: the formula sees null there' },
      {
        path: '/entities/0/fields/3/generation/strategy/after',
        message: 'after "lead.joinedAt" of teams.formedAt goes through teams.leadId, a reference that closes a cycle and is filled after every row is inserted: the dates cannot follow it and come from the range alone',
      },
    ]);
    const teams = generate(schema).objects('teams');
    expect(teams.every((team) => team.leadName === null && typeof team.formedAt === 'string')).toBe(true);
  });
});

describe('referenced rows by any key', () => {
  it('reads the parent through uuid keys and through integer keys that do not step evenly', () => {
    const schema = config(
      {
        id: 'products',
        primaryKey: ['sku'],
        generation: { rowCount: 40 },
        fields: [
          { id: 'sku', type: 'uuid' },
          { id: 'price', type: 'number', precision: 2, generation: { strategy: { kind: 'randomFloat', min: 1, max: 50 } } },
        ],
      },
      {
        id: 'shelves',
        primaryKey: ['id'],
        generation: { rowCount: 30 },
        fields: [
          { id: 'id', type: 'integer', generation: { strategy: { kind: 'sequence', start: 1, step: 1 } } },
          { id: 'code', type: 'integer', generation: { uniqueValues: true, strategy: { kind: 'randomInt', min: 1, max: 1000 } } },
          { id: 'openedAt', type: 'datetime' },
        ],
        uniqueKeys: [['code']],
      },
      {
        id: 'lines',
        primaryKey: ['id'],
        generation: { rowCount: 300 },
        fields: [
          { id: 'id', type: 'integer' },
          { id: 'productSku', type: 'uuid', references: { entity: 'products', field: 'sku' } },
          { id: 'shelfCode', type: 'integer', references: { entity: 'shelves', field: 'code' } },
          formula('price', 'number', 'products.price * 2', { precision: 2 }),
          { id: 'placedAt', type: 'datetime', generation: { strategy: { kind: 'dateRange', from: '2000-01-01', to: '2030-01-01', after: 'shelves.openedAt' } } },
        ],
      },
    );
    expect(validateConfig(schema).errors).toEqual([]);
    const run = generate(schema);
    const prices = new Map(run.objects('products').map((row) => [row.sku, row.price as number]));
    const opened = new Map(run.objects('shelves').map((row) => [row.code, row.openedAt as string]));
    for (const line of run.objects('lines')) {
      expect(line.price).toBe(round2(prices.get(line.productSku)! * 2));
      expect(Date.parse(line.placedAt as string)).toBeGreaterThanOrEqual(Date.parse(opened.get(line.shelfCode)!));
    }
  });
});
