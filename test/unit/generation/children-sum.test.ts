// The childrenSum strategy: a parent's value is the sum of its children's field (or of the product of
// two), for any names and every generator version, 0 without children; the validator names what is
// wrong with one.
import { describe, expect, it } from 'vitest';
import type { RowValue } from '../../../src/model/row-value.ts';
import type { Field, SchemaConfig } from '../../../src/model/config-types.ts';
import { config, entity, generate, REFERENCE_DATE } from '../../helpers/generate-in-memory.ts';
import { previewEntities, previewRows } from '../../../src/generation/preview.ts';
import { validateConfig } from '../../../src/config/validate-config.ts';
import { GENERATOR_VERSIONS, planGeneration } from '../../../src/generation/plan.ts';
import { DataGenerator } from '../../../src/generation/generator.ts';
import { MadeAhead } from '../../../src/generation/made-ahead.ts';

/** Names no version-4 rule knows: only the strategy relates them. */
const ledger = (charged: Partial<Field> = {}, tally: Partial<Field> = {}): SchemaConfig =>
  config(
    entity('bills', 40, [
      { id: 'charged', type: 'number', precision: 2, generation: { strategy: { kind: 'childrenSum', entity: 'bill_rows', fields: ['pieces', 'each'] } }, ...charged } as Field,
      { id: 'tally', type: 'integer', generation: { strategy: { kind: 'childrenSum', entity: 'bill_rows', reference: 'bill', fields: ['pieces'] } }, ...tally } as Field,
    ]),
    entity('bill_rows', 150, [
      { id: 'bill', type: 'integer', references: { entity: 'bills', field: 'id' } },
      { id: 'pieces', type: 'integer', min: 1, max: 9 },
      { id: 'each', type: 'number', precision: 2, min: 0, max: 50, nullable: true, generation: { emptyRate: 0.1 } },
    ]),
  );

const cents = (value: RowValue | undefined) => Math.round(Number(value ?? 0) * 100);

describe('childrenSum', () => {
  it.each(GENERATOR_VERSIONS)('version %i: every parent holds the sum of its children (null parts count 0), childless parents 0', (version) => {
    const generated = generate(ledger(), { generatorVersion: version });
    const charged = new Map<RowValue, number>();
    const tally = new Map<RowValue, number>();
    for (const row of generated.objects('bill_rows')) {
      charged.set(row.bill!, (charged.get(row.bill!) ?? 0) + Math.round(Number(row.pieces) * cents(row.each)));
      tally.set(row.bill!, (tally.get(row.bill!) ?? 0) + Number(row.pieces));
    }
    const bills = generated.objects('bills');
    for (const bill of bills) {
      expect(cents(bill.charged)).toBe(charged.get(bill.id!) ?? 0);
      expect(bill.tally).toBe(tally.get(bill.id!) ?? 0);
    }
    expect(bills.filter((bill) => Number(bill.charged) > 0).length).toBeGreaterThan(30);
    expect(generated.warnings).toEqual([]);
  });

  it('holds in a preview of the parent alone', () => {
    const generated = generate(ledger(), { generatorVersion: 4 });
    const preview = previewRows(ledger(), 'bills', 8, { referenceDate: REFERENCE_DATE, generatorVersion: 4 });
    expect(preview.map((bill) => [bill.charged, bill.tally])).toEqual(generated.objects('bills').slice(0, 8).map((bill) => [bill.charged, bill.tally]));
  });

  it('validates: an unknown child, a child that does not reference the row, a text field, a fillAfterInsert reference', () => {
    expect(validateConfig(ledger()).errors).toEqual([]);
    const errors = (schema: SchemaConfig) => validateConfig(schema).errors.map((issue) => `${issue.path} ${issue.message}`);
    expect(errors(ledger({ generation: { strategy: { kind: 'childrenSum', entity: 'bill_lines', fields: ['pieces'] } } }))).toEqual([
      expect.stringMatching(/^\/entities\/0\/fields\/1\/generation\/strategy\/entity childrenSum of bills.charged: names no entity "bill_lines".*\(bill_rows\)/),
    ]);
    expect(errors(ledger({ generation: { strategy: { kind: 'childrenSum', entity: 'bill_rows', reference: 'pieces', fields: ['pieces'] } } }))).toEqual([
      expect.stringMatching(/strategy\/reference childrenSum of bills.charged: bill_rows.pieces does not reference bills; name one that does \(bill\)/),
    ]);
    expect(errors(ledger({ generation: { strategy: { kind: 'childrenSum', entity: 'bill_rows', fields: ['nope', 'each'] } } }))).toEqual([expect.stringMatching(/strategy\/fields\/0 childrenSum of bills.charged: names no field "nope" of bill_rows/)]);
    expect(errors(ledger({ type: 'string' }))[0]).toMatch(/charged/);
    const deferred = ledger();
    deferred.entities[1]!.fields[1]!.references!.fillAfterInsert = true;
    deferred.entities[1]!.fields[1]!.nullable = true;
    expect(errors(deferred).some((error) => /fillAfterInsert/.test(error) && error.startsWith('/entities/0/fields/1/generation/strategy '))).toBe(true);
  });

  it('the children made ahead for the sums are carried to their own rows: the same rows as made twice, whole or in part', () => {
    const big = ledger();
    big.entities[0]!.generation!.rowCount = 300;
    big.entities[1]!.generation!.rowCount = 3000;
    const plan = planGeneration(big, { referenceDate: REFERENCE_DATE, generatorVersion: 4 });
    const rowsOf = (madeAhead: MadeAhead, check?: (entity: string) => void) => {
      const generator = new DataGenerator(big, plan, { madeAhead });
      return plan.entities.map((entity) => {
        check?.(entity.id);
        return [...generator.rows(entity.id, 500)].flat();
      });
    };
    const twice = rowsOf(new MadeAhead(0));
    const carriedBefore: (number | undefined)[] = [];
    // Whole columns, and a budget that carries only the first rows (the rest made again).
    for (const budget of [undefined, 6_000]) {
      const madeAhead = new MadeAhead(budget);
      const once = rowsOf(madeAhead, (entity) => entity === 'bill_rows' && carriedBefore.push(Math.max(...[...(madeAhead.carried(entity)?.values() ?? [])].map((column) => column.rows))));
      expect(once).toEqual(twice);
      expect(madeAhead.carried('bill_rows')).toBeUndefined();
    }
    // Three columns made ahead (bill, pieces, each): 6,000 values hold 2,000 rows of each.
    expect(carriedBefore).toEqual([3000, 2000]);
  });

  /** regions ← shops ← tills ← sales: each parent's sum is over its children's sums, the last over sales' pieces × each. */
  const nested = (): SchemaConfig =>
    config(
      entity('regions', 4, [{ id: 'takings', type: 'number', precision: 2, generation: { strategy: { kind: 'childrenSum', entity: 'shops', fields: ['takings'] } } } as Field]),
      entity('shops', 12, [
        { id: 'region', type: 'integer', references: { entity: 'regions', field: 'id' } },
        { id: 'takings', type: 'number', precision: 2, generation: { strategy: { kind: 'childrenSum', entity: 'tills', fields: ['takings'] } } } as Field,
      ]),
      entity('tills', 40, [
        { id: 'shop', type: 'integer', references: { entity: 'shops', field: 'id' } },
        { id: 'takings', type: 'number', precision: 2, generation: { strategy: { kind: 'childrenSum', entity: 'sales', fields: ['pieces', 'each'] } } } as Field,
      ]),
      entity('sales', 200, [
        { id: 'till', type: 'integer', references: { entity: 'tills', field: 'id' } },
        { id: 'pieces', type: 'integer', min: 1, max: 5 },
        { id: 'each', type: 'number', precision: 2, min: 0, max: 20 },
      ]),
    );

  it.each([1, 4] as const)('version %i: sums over children whose field is itself a sum, three levels down', (version) => {
    const generated = generate(nested(), { generatorVersion: version });
    const sumsOf = (child: string, reference: string, worth: (row: Record<string, RowValue>) => number) => {
      const sums = new Map<RowValue, number>();
      for (const row of generated.objects(child)) sums.set(row[reference]!, (sums.get(row[reference]!) ?? 0) + worth(row));
      return sums;
    };
    for (const [parent, child, reference, worth] of [
      ['tills', 'sales', 'till', (row) => Math.round(Number(row.pieces) * cents(row.each))],
      ['shops', 'tills', 'shop', (row) => cents(row.takings)],
      ['regions', 'shops', 'region', (row) => cents(row.takings)],
    ] as const satisfies readonly [string, string, string, (row: Record<string, RowValue>) => number][]) {
      const sums = sumsOf(child, reference, worth);
      const parents = generated.objects(parent);
      expect(parents.map((row) => cents(row.takings))).toEqual(parents.map((row) => sums.get(row.id!) ?? 0));
    }
    expect(generated.objects('regions').filter((region) => Number(region.takings) > 0).length).toBeGreaterThanOrEqual(3);
    expect(generated.warnings).toEqual([]);
    const preview = previewRows(nested(), 'regions', 4, { referenceDate: REFERENCE_DATE, generatorVersion: version });
    expect(preview.map((region) => region.takings)).toEqual(generated.column('regions', 'takings'));
  });

  it('validates sums over sums: down the generations they are valid, back to an entity on the way they are not', () => {
    expect(validateConfig(nested()).errors).toEqual([]);
    const sum = (entity: string, fields: [string]) => ({ kind: 'childrenSum', entity, fields }) as const;
    const cycle = config(
      entity('a', 10, [
        { id: 'b', type: 'integer', nullable: true, references: { entity: 'b', field: 'id' } },
        { id: 'x', type: 'number', generation: { strategy: sum('b', ['y']) } } as Field,
      ]),
      entity('b', 10, [
        { id: 'a', type: 'integer', references: { entity: 'a', field: 'id' } },
        { id: 'y', type: 'number', generation: { strategy: sum('a', ['x']) } } as Field,
      ]),
    );
    const errors = validateConfig(cycle).errors.map((issue) => `${issue.path} ${issue.message}`);
    expect(errors).toEqual([
      expect.stringMatching(/^\/entities\/0\/fields\/2\/generation\/strategy\/entity childrenSum of a\.x: sums over sums come back to a \(a → b → a\)/),
      expect.stringMatching(/^\/entities\/1\/fields\/2\/generation\/strategy\/entity childrenSum of b\.y: sums over sums come back to b \(b → a → b\)/),
    ]);
  });

  it("a preview of several entities sums the same children as a preview of the parent alone (an entity shown in part is made whole for the sums)", () => {
    // kinds is shown first, its first 3 rows only; bill_rows' each reads its kind's price.
    const priced = config(
      entity('kinds', 30, [{ id: 'price', type: 'number', precision: 2, min: 1, max: 9 }]),
      entity('bills', 20, [{ id: 'charged', type: 'number', precision: 2, generation: { strategy: { kind: 'childrenSum', entity: 'bill_rows', fields: ['each'] } } } as Field]),
      entity('bill_rows', 200, [
        { id: 'billId', type: 'integer', references: { entity: 'bills', field: 'id' } },
        { id: 'kindId', type: 'integer', references: { entity: 'kinds', field: 'id' } },
        { id: 'each', type: 'number', precision: 2, generation: { strategy: { kind: 'formula', expression: 'kind.price' } } } as Field,
      ]),
    );
    const options = { referenceDate: REFERENCE_DATE, generatorVersion: 4 } as const;
    const together = previewEntities(priced, ['kinds', 'bills'], 3, options);
    expect(together.get('bills')).toEqual(previewRows(priced, 'bills', 3, options));
    expect(together.get('bills')!.map((bill) => bill.charged)).toEqual(generate(priced, options).objects('bills').slice(0, 3).map((bill) => bill.charged));
  });
});
