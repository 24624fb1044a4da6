// Generator version 2's coherence rules, checked in SQL on each database: emails and usernames built
// from the row's names, full names from first and last, names that follow the gender, place tuples
// present in the reference data (loaded into a table beside the data), ordered time pairs, children
// after their parents; and the run's coherence report counts the same rows.
import { describe, expect, it } from 'vitest';
import { allLocales } from '@faker-js/faker';
import { placesOf } from '../../../src/generation/coherence/places.ts';
import { type GenerationSummary } from '../../../src/generation/run.ts';
import { dialectTargets, uniqueNamespace } from '../../helpers/dialect-targets.ts';
import { generateBeforeAll } from '../../helpers/generated-namespace.ts';
import { Catalog } from '../../helpers/catalog.ts';
import { COHERENT_ROWS, coherentConfig } from '../../fixtures/coherent-config.ts';

const DIALECTS = await dialectTargets();

for (const target of DIALECTS) {
  describe(`${target.name}: generator version 2 rows hold together`, () => {
    const namespace = uniqueNamespace('coh');
    let catalog: Catalog;
    let summary: GenerationSummary;
    generateBeforeAll(target, namespace, coherentConfig, { referenceDate: '2025-06-15', generatorVersion: 2 }, async (generated) => {
      ({ catalog, summary } = generated);
      // The reference data, beside the generated tables.
      const { q, t } = catalog;
      await catalog.query(
        `CREATE TABLE ${t('ref_places')} (${['country', 'country_code', 'state', 'city', 'postal_code', 'phone_prefix', 'currency', 'time_zone'].map((column) => `${q(column)} VARCHAR(100)`).join(', ')})`,
      );
      const places = placesOf('US');
      for (let from = 0; from < places.length; from += 2000) {
        const chunk = places.slice(from, from + 2000);
        const params = chunk.flatMap((place) => [place.country, place.countryCode, place.state, place.city, place.postalCode ?? null, place.phonePrefix, place.currency, place.timeZone]);
        const rows = chunk.map((_place, i) => `(${Array.from({ length: 8 }, (_, j) => catalog.p(i * 8 + j + 1)).join(', ')})`).join(', ');
        await catalog.query(`INSERT INTO ${t('ref_places')} VALUES ${rows}`, params);
      }
    }, 120_000);

    it('loads every planned row under generator version 2', async () => {
      expect(summary.generatorVersion).toBe('2.0.0+faker-10.6.0');
      for (const [entity, rows] of Object.entries(COHERENT_ROWS)) expect(await catalog.count(`SELECT count(*) FROM ${catalog.t(entity)}`), entity).toBe(rows);
    });

    it('builds 100% of emails and usernames from the row’s names, and full names from first and last', async () => {
      const { q, t } = catalog;
      const derived = (column: string) =>
        `LOWER(${q(column)}) LIKE CONCAT(LOWER(SUBSTR(${q('firstName')}, 1, 1)), '%', LOWER(${q('lastName')}), '%')`;
      expect(await catalog.count(`SELECT count(*) FROM ${t('customers')} WHERE ${derived('email')} AND ${q('email')} LIKE '%@%'`)).toBe(COHERENT_ROWS.customers);
      expect(await catalog.count(`SELECT count(*) FROM ${t('customers')} WHERE ${derived('username')}`)).toBe(COHERENT_ROWS.customers);
      expect(await catalog.count(`SELECT count(*) FROM ${t('customers')} WHERE ${q('fullName')} = CONCAT(${q('firstName')}, ' ', ${q('lastName')})`)).toBe(COHERENT_ROWS.customers);
      // Not one name for everybody: the rule is not met by accident.
      expect(await catalog.count(`SELECT count(DISTINCT ${q('lastName')}) FROM ${t('customers')}`)).toBeGreaterThan(100);
    });

    it('gives first names of the row’s gender', async () => {
      const rows = await catalog.query(`SELECT ${catalog.q('firstName')} AS first, ${catalog.q('gender')} AS gender FROM ${catalog.t('customers')}`);
      const names = (allLocales.en.person!.first_name as { female: string[]; male: string[] });
      const genders = new Set(rows.map((row) => row.gender));
      expect(genders).toEqual(new Set(['female', 'male']));
      for (const row of rows) expect(names[row.gender as 'female' | 'male'], String(row.first)).toContain(row.first);
    });

    it('takes 100% of country, code, state, city, postal code, phone prefix, currency and time zone tuples from the reference data', async () => {
      const { q, t } = catalog;
      const sql = `SELECT count(*) FROM ${t('customers')} c WHERE EXISTS (SELECT 1 FROM ${t('ref_places')} r
        WHERE r.${q('country')} = c.${q('country')} AND r.${q('country_code')} = c.${q('countryCode')} AND r.${q('state')} = c.${q('state')}
          AND r.${q('city')} = c.${q('city')} AND r.${q('postal_code')} = c.${q('postalCode')} AND c.${q('phone')} LIKE CONCAT('+', r.${q('phone_prefix')}, ' %')
          AND r.${q('currency')} = c.${q('currency')} AND r.${q('time_zone')} = c.${q('timeZone')})`;
      expect(await catalog.count(sql)).toBe(COHERENT_ROWS.customers);
      expect(await catalog.count(`SELECT count(DISTINCT ${q('state')}) FROM ${t('customers')}`)).toBeGreaterThan(20);
    });

    it('orders 100% of start/end pairs within a row', async () => {
      const { q, t } = catalog;
      expect(await catalog.count(`SELECT count(*) FROM ${t('subscriptions')} WHERE ${q('endDate')} >= ${q('startDate')}`)).toBe(COHERENT_ROWS.subscriptions);
      expect(await catalog.count(`SELECT count(*) FROM ${t('subscriptions')} WHERE ${q('validTo')} >= ${q('validFrom')}`)).toBe(COHERENT_ROWS.subscriptions);
      // The ends are not all equal to their starts.
      expect(await catalog.count(`SELECT count(*) FROM ${t('subscriptions')} WHERE ${q('endDate')} > ${q('startDate')}`)).toBeGreaterThan(COHERENT_ROWS.subscriptions * 0.9);
    });

    it('puts 100% of children after their parent’s sign-up', async () => {
      const { q, t } = catalog;
      const after = (child: string, time: string) =>
        `SELECT count(*) FROM ${t(child)} x JOIN ${t('customers')} c ON c.${q('id')} = x.${q('customerId')} WHERE x.${q(time)} >= c.${q('createdAt')}`;
      expect(await catalog.count(after('orders', 'orderedAt'))).toBe(COHERENT_ROWS.orders);
      expect(await catalog.count(after('subscriptions', 'createdAt'))).toBe(COHERENT_ROWS.subscriptions);
    });

    it('reports per rule the rows that hold it: all of them', () => {
      const rules = summary.coherence!.map(({ rule, entity, field, rows, holding }) => ({ rule, entity, field, rows, holding }));
      expect(rules).toEqual(
        expect.arrayContaining([
          { rule: 'names-in-email', entity: 'customers', field: 'email', rows: COHERENT_ROWS.customers, holding: COHERENT_ROWS.customers },
          { rule: 'names-in-email', entity: 'customers', field: 'username', rows: COHERENT_ROWS.customers, holding: COHERENT_ROWS.customers },
          { rule: 'place-in-reference', entity: 'customers', field: 'country+countryCode+state+city+postalCode+phone', rows: COHERENT_ROWS.customers, holding: COHERENT_ROWS.customers },
          { rule: 'time-pair-ordered', entity: 'subscriptions', field: 'endDate', rows: COHERENT_ROWS.subscriptions, holding: COHERENT_ROWS.subscriptions },
          { rule: 'child-after-parent', entity: 'subscriptions', field: 'createdAt', rows: COHERENT_ROWS.subscriptions, holding: COHERENT_ROWS.subscriptions },
          { rule: 'child-after-parent', entity: 'orders', field: 'orderedAt', rows: COHERENT_ROWS.orders, holding: COHERENT_ROWS.orders },
        ]),
      );
      const pair = summary.coherence!.find((count) => count.field === 'validTo')!;
      expect(pair.holding).toBe(pair.rows);
      expect(pair.rows).toBeGreaterThan(0);
    });
  });
}
