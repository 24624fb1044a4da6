// Generator version 4's lifecycles on rental, HR and billing schemas (test/fixtures/lifecycle-schemas.ts),
// loaded into each database and checked in SQL: stages of a row in order, status columns that
// imply their timestamps and back, every parent's created time before its children's, birth and
// founding windows, activity spread over recent years and no fact after the reference date. Every
// rule is exact here (0 rows break it), and the run's report counts each rule by its id.
import { describe, expect, it } from 'vitest';
import { type GenerationSummary } from '../../../src/generation/run.ts';
import { LIFECYCLE_RULES } from '../../../src/generation/rules/lifecycle-rules.ts';
import { dialectTargets, uniqueNamespace } from '../../helpers/dialect-targets.ts';
import { generateBeforeAll } from '../../helpers/generated-namespace.ts';
import { Catalog } from '../../helpers/catalog.ts';
import { LIFECYCLE_ROWS, lifecycleSchema } from '../../fixtures/lifecycle-schemas.ts';

const DIALECTS = await dialectTargets();
const REFERENCE_DATE = '2025-06-15';

for (const target of DIALECTS) {
  describe(`${target.name}: generator version 4 lifecycles hold in the database`, () => {
    const namespace = uniqueNamespace('life');
    let catalog: Catalog;
    let summary: GenerationSummary;
    generateBeforeAll(target, namespace, lifecycleSchema, { referenceDate: REFERENCE_DATE, generatorVersion: 4 }, (generated) => ({ catalog, summary } = generated), 180_000);

    // SQL of each engine: a datetime's UTC calendar day, the reference instant and day, years before a date.
    const day = (column: string) => (catalog.postgres ? `(${column} AT TIME ZONE 'UTC')::date` : `DATE(${column})`);
    const now = () => (catalog.postgres ? `TIMESTAMPTZ '${REFERENCE_DATE} 00:00:00+00'` : `TIMESTAMP('${REFERENCE_DATE} 00:00:00')`);
    const today = () => (catalog.postgres ? `DATE '${REFERENCE_DATE}'` : `DATE('${REFERENCE_DATE}')`);
    const plusYears = (date: string, years: number) => (catalog.postgres ? `(${date} + INTERVAL '${years} years')::date` : `DATE_ADD(${date}, INTERVAL ${years} YEAR)`);
    /** Rows of a table (aliased `x`, optionally joined) where `where` holds. */
    const rows = (table: string, where: string, join = '') => catalog.count(`SELECT count(*) FROM ${catalog.t(table)} x ${join} WHERE ${where}`);
    const c = (name: string) => `x.${catalog.q(name)}`;
    const joined = (table: string, alias: string, on: string) => `JOIN ${catalog.t(table)} ${alias} ON ${on}`;

    it('loads every row', async () => {
      expect(summary.generatorVersion).toBe('4.0.0+faker-10.6.0');
      for (const [table, count] of Object.entries(LIFECYCLE_ROWS)) expect(await rows(table, '1 = 1'), table).toBe(count);
    });

    it('stages of a row follow each other: rented < returned, rented < due, issued < due and paid, born + 16 years ≤ hired < terminated, created ≤ updated, from ≤ to', async () => {
      expect(await rows('rentals', `${c('return_date')} < ${c('rental_date')}`)).toBe(0);
      expect(await rows('rentals', `${c('due_date')} < ${day(c('rental_date'))}`)).toBe(0);
      expect(await rows('invoices', `${c('due_on')} < ${c('issued_on')} OR ${day(c('paid_at'))} < ${c('issued_on')} OR ${day(c('voided_at'))} < ${c('issued_on')}`)).toBe(0);
      expect(await rows('employees', `${c('hireDate')} < ${plusYears(c('birthDate'), 16)}`)).toBe(0);
      expect(await rows('employees', `${day(c('terminatedAt'))} < ${c('hireDate')} OR ${day(c('updatedAt'))} < ${c('hireDate')}`)).toBe(0);
      expect(await rows('customers', `${c('last_update')} < ${c('create_date')}`)).toBe(0);
      expect(await rows('subscriptions', `${c('validTo')} < ${c('validFrom')} OR ${c('cancelledAt')} < ${c('startedAt')}`)).toBe(0);
      // Non-trivially: the later columns are set on many rows.
      expect(await rows('rentals', `${c('return_date')} IS NOT NULL`)).toBeGreaterThan(LIFECYCLE_ROWS.rentals / 5);
      expect(await rows('invoices', `${c('paid_at')} IS NOT NULL`)).toBeGreaterThan(LIFECYCLE_ROWS.invoices / 10);
    });

    it('status columns imply their timestamps and the other way round (exact)', async () => {
      const implies = (table: string, time: string, status: string, value: string) =>
        rows(table, `(${c(status)} = '${value}' AND ${c(time)} IS NULL) OR (${c(status)} <> '${value}' AND ${c(time)} IS NOT NULL)`);
      expect(await implies('rentals', 'return_date', 'status', 'returned')).toBe(0);
      expect(await implies('employees', 'terminatedAt', 'status', 'terminated')).toBe(0);
      expect(await implies('invoices', 'paid_at', 'status', 'paid')).toBe(0);
      expect(await implies('invoices', 'voided_at', 'status', 'void')).toBe(0);
      expect(await implies('subscriptions', 'cancelledAt', 'state', 'cancelled')).toBe(0);
      expect(await rows('employees', `${c('status')} = 'active' AND ${c('terminatedAt')} IS NOT NULL`)).toBe(0);
    });

    it('children follow the created time of the parent of every reference', async () => {
      const { q } = catalog;
      expect(await rows('rentals', `${c('rental_date')} < p.${q('create_date')}`, joined('customers', 'p', `p.${q('customer_id')} = ${c('customer_id')}`))).toBe(0);
      expect(await rows('payments', `${c('payment_date')} < p.${q('create_date')}`, joined('customers', 'p', `p.${q('customer_id')} = ${c('customer_id')}`))).toBe(0);
      expect(await rows('payments', `${c('payment_date')} < p.${q('rental_date')}`, joined('rentals', 'p', `p.${q('rental_id')} = ${c('rental_id')}`))).toBe(0);
      expect(await rows('invoices', `${c('issued_on')} < ${day(`p.${q('created_at')}`)}`, joined('companies', 'p', `p.${q('id')} = ${c('company_id')}`))).toBe(0);
      expect(await rows('subscriptions', `${c('startedAt')} < p.${q('created_at')}`, joined('companies', 'p', `p.${q('id')} = ${c('companyId')}`))).toBe(0);
    });

    it('no fact lies after the reference date', async () => {
      const facts: Record<string, string[]> = {
        customers: ['birth_date', 'create_date', 'last_update'],
        rentals: ['rental_date', 'return_date'],
        payments: ['payment_date'],
        departments: ['createdAt'],
        employees: ['birthDate', 'hireDate', 'terminatedAt', 'updatedAt'],
        companies: ['founded_on', 'created_at'],
        invoices: ['issued_on', 'paid_at', 'voided_at'],
        subscriptions: ['startedAt', 'cancelledAt', 'validFrom'],
      };
      const dates = new Set(['birth_date', 'birthDate', 'hireDate', 'founded_on', 'issued_on', 'validFrom']);
      for (const [table, columns] of Object.entries(facts)) {
        for (const column of columns) expect(await rows(table, `${c(column)} > ${dates.has(column) ? today() : now()}`), `${table}.${column}`).toBe(0);
      }
    });

    it('births 18–90 years back, foundings decades back, activity over recent years rather than the last twelve months', async () => {
      expect(await rows('employees', `${c('birthDate')} > ${plusYears(today(), -18)} OR ${c('birthDate')} < ${plusYears(today(), -90)}`)).toBe(0);
      expect(await rows('customers', `${c('birth_date')} > ${plusYears(today(), -18)} OR ${c('birth_date')} < ${plusYears(today(), -90)}`)).toBe(0);
      expect(await rows('companies', `${c('founded_on')} > ${plusYears(today(), -4)} OR ${c('founded_on')} < ${plusYears(today(), -101)}`)).toBe(0);
      expect(await rows('companies', `${c('founded_on')} < ${plusYears(today(), -10)}`)).toBeGreaterThan(LIFECYCLE_ROWS.companies / 2);
      const lastYear = await rows('customers', `${day(c('create_date'))} > ${plusYears(today(), -1)}`);
      expect(lastYear).toBeLessThan(LIFECYCLE_ROWS.customers * 0.6);
      expect(await rows('customers', `${day(c('create_date'))} < ${plusYears(today(), -2)}`)).toBeGreaterThan(LIFECYCLE_ROWS.customers * 0.2);
    });

    it("the run's report counts every lifecycle rule by its id, every row holding it", () => {
      const counts = summary.coherence ?? [];
      for (const id of LIFECYCLE_RULES.map((rule) => rule.id)) expect(counts.some((count) => count.ruleId === id), id).toBe(true);
      for (const count of counts) expect(count.holding, `${count.rule} ${count.entity}.${count.field}`).toBe(count.rows);
      expect(counts).toContainEqual(expect.objectContaining({ rule: 'status-implies-time', ruleId: 'time.status-implied', entity: 'rentals', field: 'return_date', rows: LIFECYCLE_ROWS.rentals }));
    });
  });
}
