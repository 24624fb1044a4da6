// Generator version 4's first meaning rules, loaded into each database and checked in SQL: the
// columns' own types hold the values (char(1) flags, char(2)/char(3) country codes, decimal prices)
// and the sizes, codes and time orders hold on every row.
import { describe, expect, it } from 'vitest';
import type { SchemaConfig } from '../../../src/model/config-types.ts';
import { type GenerationSummary } from '../../../src/generation/run.ts';
import { dialectTargets, uniqueNamespace } from '../../helpers/dialect-targets.ts';
import { generateBeforeAll } from '../../helpers/generated-namespace.ts';
import { Catalog } from '../../helpers/catalog.ts';

const DIALECTS = await dialectTargets();
const ROWS = 400;
const REFERENCE_DATE = '2025-06-15';

const schema = (): SchemaConfig => ({
  formatVersion: 1,
  generationDefaults: { seed: 'meaning' },
  entities: [
    {
      id: 'invoice_lines',
      primaryKey: ['id'],
      generation: { rowCount: ROWS },
      fields: [
        { id: 'id', type: 'integer' },
        { id: 'unit_price', type: 'number', precision: 2 },
        { id: 'quantity', type: 'integer' },
        { id: 'total', type: 'number', precision: 2 },
        { id: 'salary', type: 'integer' },
        { id: 'is_active', type: 'integer' },
        { id: 'active', type: 'string', maxLength: 1 },
        { id: 'milliseconds', type: 'integer' },
        { id: 'rental_days', type: 'integer' },
        { id: 'country', type: 'string', maxLength: 2 },
        { id: 'country_iso3', type: 'string', maxLength: 3 },
        { id: 'currency', type: 'string', maxLength: 3 },
        { id: 'state', type: 'string', maxLength: 2 },
        { id: 'city', type: 'string', maxLength: 80 },
        { id: 'started_at', type: 'datetime' },
        { id: 'ended_at', type: 'datetime' },
      ],
    },
  ],
});

for (const target of DIALECTS) {
  describe(`${target.name}: generator version 4 columns mean what their names say`, () => {
    const namespace = uniqueNamespace('mean');
    let catalog: Catalog;
    let summary: GenerationSummary;
    generateBeforeAll(target, namespace, schema, { referenceDate: REFERENCE_DATE, generatorVersion: 4 }, (generated) => ({ catalog, summary } = generated), 120_000);

    const all = (where: string) => catalog.count(`SELECT count(*) FROM ${catalog.t('invoice_lines')} WHERE ${where}`);

    it('loads every row under generator version 4', async () => {
      expect(summary.generatorVersion).toBe('4.0.0+faker-10.6.0');
      expect(await all('1 = 1')).toBe(ROWS);
    });

    it('prices, totals and salaries have plausible sizes; quantities are mostly 1', async () => {
      const { q } = catalog;
      expect(await all(`${q('unit_price')} > 0 AND ${q('unit_price')} < 250`)).toBe(ROWS);
      expect(await all(`${q('unit_price')} < 50`)).toBeGreaterThan(ROWS / 2);
      // `total` beside a quantity and a unit price is their product (formula.line-total).
      expect(await all(`${q('total')} = ${q('quantity')} * ${q('unit_price')}`)).toBe(ROWS);
      expect(await all(`${q('salary')} BETWEEN 25000 AND 200000 AND MOD(${q('salary')}, 500) = 0`)).toBe(ROWS);
      expect(await all(`${q('quantity')} BETWEEN 1 AND 50`)).toBe(ROWS);
      expect(await all(`${q('quantity')} = 1`)).toBeGreaterThan(ROWS / 2);
    });

    it('flags are 0/1 and Y/N; durations are in the unit of their name', async () => {
      const { q } = catalog;
      expect(await all(`${q('is_active')} IN (0, 1)`)).toBe(ROWS);
      expect(await all(`${q('is_active')} = 1`)).toBeGreaterThan(ROWS * 0.7);
      expect(await all(`${q('active')} IN ('Y', 'N')`)).toBe(ROWS);
      expect(await all(`${q('milliseconds')} BETWEEN 2000 AND 900000`)).toBe(ROWS);
      expect(await all(`${q('rental_days')} BETWEEN 1 AND 30`)).toBe(ROWS);
    });

    it('country and currency columns hold ISO codes that fill them', async () => {
      const { q } = catalog;
      expect(await all(`${q('country')} = 'US' AND ${q('country_iso3')} = 'USA' AND ${q('currency')} = 'USD'`)).toBe(ROWS);
      expect(await all(`CHAR_LENGTH(${q('state')}) = 2 AND UPPER(${q('state')}) = ${q('state')}`)).toBe(ROWS);
      expect(await catalog.count(`SELECT count(DISTINCT ${q('state')}) FROM ${catalog.t('invoice_lines')}`)).toBeGreaterThan(20);
    });

    it('a past-tense end follows its start and never passes the reference date', async () => {
      const { q } = catalog;
      const now = catalog.postgres ? `TIMESTAMP '${REFERENCE_DATE} 00:00:00'` : `TIMESTAMP('${REFERENCE_DATE} 00:00:00')`;
      expect(await all(`${q('ended_at')} >= ${q('started_at')}`)).toBe(ROWS);
      expect(await all(`${q('started_at')} <= ${now} AND ${q('ended_at')} > ${now}`)).toBe(0);
    });

    it('the report counts the pair and the place tuple by the rules that made them', () => {
      expect(summary.coherence).toContainEqual(
        expect.objectContaining({ rule: 'place-in-reference', ruleId: 'code.country-alpha2+code.state+place.city', field: 'country+state+city', rows: ROWS, holding: ROWS }),
      );
      expect(summary.coherence).toContainEqual(expect.objectContaining({ rule: 'time-pair-ordered', ruleId: 'time.stage-order', field: 'ended_at', rows: ROWS, holding: ROWS }));
      expect(summary.coherence).toContainEqual(expect.objectContaining({ rule: 'not-in-future', ruleId: 'time.stage-order', field: 'ended_at', rows: ROWS, holding: ROWS }));
    });
  });
}
