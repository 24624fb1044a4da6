// The issue-14 strategy options checked in SQL on each database, on schemas/examples/shop.json (in
// UTC, so both engines judge days and hours alike) plus a larger entity for statistics: formulas
// exact, children after their parents, bounded fan-out within min..max, skewed parents owning their
// expected share within 5%, normal mean and standard deviation and weekday/hour weights within 5%.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SchemaConfig } from '../../../src/contract.ts';
import type { StrategyOf } from '../../../src/model/config-types.ts';
import { runGeneration, stagingNamespace } from '../../../src/generation/run.ts';
import { ZipfSampler } from '../../../src/generation/values/distributions.ts';
import { Catalog } from '../../helpers/catalog.ts';
import { dialectTargets, openInspector, openTarget, uniqueNamespace, type Inspector } from '../../helpers/dialect-targets.ts';

const DIALECTS = await dialectTargets();
type DateRange = StrategyOf<'dateRange'>;
const WEEKDAYS = [3, 3, 3, 3, 3, 1, 1] as NonNullable<DateRange['weekdayWeights']>;
const HOURS = Array.from({ length: 24 }, (_, hour) => (hour >= 8 && hour <= 17 ? 1 : 0)) as NonNullable<DateRange['hourWeights']>;

function optionsConfig(): SchemaConfig {
  const shop = JSON.parse(fs.readFileSync(new URL('../../../schemas/examples/shop.json', import.meta.url), 'utf8')) as SchemaConfig;
  shop.generationDefaults!.timezone = 'UTC';
  // Fewer customers, so each has enough orders (25 on average) that the busiest 10% are the same by count as by law.
  shop.entities.find((entity) => entity.id === 'customers')!.generation!.rowCount = 400;
  shop.entities.find((entity) => entity.id === 'addresses')!.generation!.rowCount = 800;
  shop.entities.push({
    id: 'visits',
    primaryKey: ['id'],
    generation: { rowCount: 60_000 },
    fields: [
      { id: 'id', type: 'integer' },
      { id: 'score', type: 'number', precision: 2, generation: { strategy: { kind: 'randomFloat', min: 0, max: 1000, precision: 2, distribution: { kind: 'normal', mean: 100, stddev: 15 } } } },
      // 52 whole weeks from a Monday: every weekday has as many days.
      { id: 'at', type: 'datetime', generation: { strategy: { kind: 'dateRange', from: '2024-01-01', to: '2024-12-29', weekdayWeights: WEEKDAYS, hourWeights: HOURS } } },
    ],
  });
  return shop;
}

const within = (actual: number, expected: number, label: string) => expect(Math.abs(actual - expected), `${label}: ${actual} vs ${expected}`).toBeLessThanOrEqual(Math.abs(expected) * 0.05);

for (const target of DIALECTS) {
  describe(`${target.name}: distributions, fan-out, after, time-series shape and formulas in SQL`, () => {
    const config = optionsConfig();
    const namespace = uniqueNamespace('opts');
    let connection: Awaited<ReturnType<typeof openTarget>>;
    let inspector: Inspector;
    let catalog: Catalog;
    const pg = target.name === 'postgres';

    beforeAll(async () => {
      connection = await openTarget(target);
      inspector = await openInspector(target);
      catalog = new Catalog(target, inspector, namespace);
      connection.track(namespace);
      connection.track(stagingNamespace(namespace));
      await runGeneration(connection, namespace, config, { referenceDate: '2025-06-15' });
    }, 120_000);

    afterAll(async () => {
      await inspector?.close();
      await connection?.cleanup();
    });

    it('loads every planned row, every reference pointing at an existing parent', async () => {
      const { q, t } = catalog;
      for (const entity of config.entities) expect(await catalog.count(`SELECT COUNT(*) FROM ${t(entity.id)}`), entity.id).toBe(entity.generation!.rowCount);
      const orphans = (child: string, key: string, parent: string) =>
        catalog.count(`SELECT COUNT(*) FROM ${t(child)} c LEFT JOIN ${t(parent)} p ON p.id = c.${q(key)} WHERE p.id IS NULL`);
      expect(await orphans('addresses', 'customerId', 'customers')).toBe(0);
      expect(await orphans('orders', 'customerId', 'customers')).toBe(0);
      expect(await orphans('orderLines', 'orderId', 'orders')).toBe(0);
      expect(await orphans('orderLines', 'productId', 'products')).toBe(0);
    });

    it('formulas are exact: prices from the product, rounded line totals, ship-by dates, emails', async () => {
      const { q, t } = catalog;
      expect(await catalog.count(`SELECT COUNT(*) FROM ${t('orderLines')} l JOIN ${t('products')} p ON p.id = l.${q('productId')} WHERE l.${q('unitPrice')} <> p.price`)).toBe(0);
      expect(await catalog.count(`SELECT COUNT(*) FROM ${t('orderLines')} WHERE ${q('lineTotal')} <> ROUND(quantity * ${q('unitPrice')} * (1 - discount), 2)`)).toBe(0);
      expect(await catalog.count(`SELECT COUNT(*) FROM ${t('orderLines')} WHERE discount > 0`)).toBeGreaterThan(1000);
      const shipBy = pg ? `(${q('orderedAt')} AT TIME ZONE 'UTC')::date + 3` : `DATE_ADD(DATE(${q('orderedAt')}), INTERVAL 3 DAY)`;
      expect(await catalog.count(`SELECT COUNT(*) FROM ${t('orders')} WHERE ${q('shipBy')} <> ${shipBy}`)).toBe(0);
      const email = pg
        ? `LOWER(${q('firstName')} || '.' || ${q('lastName')} || id) || '@example.com'`
        : `CONCAT(LOWER(CONCAT(${q('firstName')}, '.', ${q('lastName')}, id)), '@example.com')`;
      expect(await catalog.count(`SELECT COUNT(*) FROM ${t('customers')} WHERE email <> ${email}`)).toBe(0);
    });

    it('100% of orders come after their customer signed up', async () => {
      const { q, t } = catalog;
      expect(await catalog.count(`SELECT COUNT(*) FROM ${t('orders')} o JOIN ${t('customers')} c ON c.id = o.${q('customerId')} WHERE o.${q('orderedAt')} < c.${q('createdAt')}`)).toBe(0);
      expect(await catalog.count(`SELECT COUNT(*) FROM ${t('orders')} o JOIN ${t('customers')} c ON c.id = o.${q('customerId')} WHERE o.${q('orderedAt')} > c.${q('createdAt')}`)).toBe(10_000);
    });

    it('bounded fan-out: every customer has 1 to 3 addresses, every order 1 to 6 lines', async () => {
      const { q, t } = catalog;
      const range = async (parent: string, child: string, key: string) => {
        const [row] = await catalog.query(
          `SELECT MIN(n) AS low, MAX(n) AS high FROM (SELECT p.id, COUNT(c.id) AS n FROM ${t(parent)} p LEFT JOIN ${t(child)} c ON c.${q(key)} = p.id GROUP BY p.id) counts`,
        );
        return [Number(row!.low), Number(row!.high)];
      };
      expect(await range('customers', 'addresses', 'customerId')).toEqual([1, 3]);
      expect(await range('orders', 'orderLines', 'orderId')).toEqual([1, 6]);
    });

    it('skewed fan-out: the top 10% of customers (pareto) and products (zipf) own their expected share within 5%', async () => {
      const { q, t } = catalog;
      const topShare = async (child: string, key: string, parents: number) => {
        const rows = await catalog.query(`SELECT COUNT(*) AS n FROM ${t(child)} GROUP BY ${q(key)} ORDER BY n DESC`);
        const counts = rows.map((row) => Number(row.n));
        const total = counts.reduce((sum, n) => sum + n, 0);
        return counts.slice(0, parents / 10).reduce((sum, n) => sum + n, 0) / total;
      };
      within(await topShare('orders', 'customerId', 400), 0.1 ** (1 - 1 / 2), 'pareto customers');
      within(await topShare('orderLines', 'productId', 300), ZipfSampler.share(300, 0.8, 30), 'zipf products');
    });

    it('normal distribution: mean and standard deviation within 5%', async () => {
      const [row] = await catalog.query(`SELECT AVG(score) AS mean, STDDEV_SAMP(score) AS sd, MIN(score) AS low FROM ${catalog.t('visits')}`);
      within(Number(row!.mean), 100, 'mean');
      within(Number(row!.sd), 15, 'stddev');
      expect(Number(row!.low)).toBeGreaterThanOrEqual(0);
    });

    it('weekday and hour-of-day weights: each share within 5% of its weight share, weight 0 never', async () => {
      const { t } = catalog;
      const weekday = pg ? 'EXTRACT(ISODOW FROM "at") - 1' : 'WEEKDAY(`at`)';
      const hour = pg ? 'EXTRACT(HOUR FROM "at")' : 'HOUR(`at`)';
      const shares = async (expression: string, size: number) => {
        const rows = await catalog.query(`SELECT ${expression} AS k, COUNT(*) AS n FROM ${t('visits')} GROUP BY ${expression}`);
        const shares = new Array<number>(size).fill(0);
        for (const row of rows) shares[Number(row.k)] = Number(row.n) / 60_000;
        return shares;
      };
      const days = await shares(weekday, 7);
      WEEKDAYS.forEach((weight, day) => within(days[day]!, weight / 17, `weekday ${day}`));
      const hours = await shares(hour, 24);
      HOURS.forEach((weight, h) => (weight === 0 ? expect(hours[h], `hour ${h}`).toBe(0) : within(hours[h]!, 0.1, `hour ${h}`)));
    });
  });
}
