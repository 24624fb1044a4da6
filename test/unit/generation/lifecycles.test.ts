// Generator version 4's lifecycle rules (rules/lifecycle-rules.ts) on rows made in memory: a test
// per rule (stage order within a row, status implies its timestamp and back, every parent before
// its children, birth and founding windows, activity over recent years and never in the future),
// the vocabulary they read names with, and the report counting each rule by its id.
import { describe, expect, it } from 'vitest';
import type { Entity, Field } from '../../../src/model/config-types.ts';
import type { RowValue } from '../../../src/model/row-value.ts';
import { CHAINS, STAGES, lifecycleOf, stageBefore, stageOf } from '../../../src/generation/rules/lifecycles.ts';
import { ruleOf } from '../../../src/generation/rules/choose-rule.ts';
import { CoherenceAudit } from '../../../src/generation/coherence/report.ts';
import { LIFECYCLE_RULES } from '../../../src/generation/rules/lifecycle-rules.ts';
import { config, entity, generate, REFERENCE_DATE } from '../../helpers/generate-in-memory.ts';
import { LIFECYCLE_ROWS, lifecycleSchema } from '../../fixtures/lifecycle-schemas.ts';

const NOW = Date.parse(REFERENCE_DATE);
const YEAR = 365.25 * 86_400_000;
const ms = (value: RowValue | undefined) => (typeof value === 'string' ? Date.parse(value.length === 10 ? `${value}T00:00:00Z` : value) : Number.NaN);
const day = (value: unknown) => String(value).slice(0, 10);

describe('the stage vocabulary', () => {
  // [name, stage]: snake and camel case, nouns, verbs and participles, the last stage word winning.
  const cases: [string, string | undefined][] = [
    ['rental_date', 'rented'],
    ['returnDate', 'returned'],
    ['hire_date', 'hired'],
    ['terminatedAt', 'terminated'],
    ['date_of_birth', 'born'],
    ['dob', 'born'],
    ['payment_due_date', 'due'],
    ['payment_date', 'paid'],
    ['valid_from', 'started'],
    ['validTo', 'ended'],
    ['create_date', 'created'],
    ['last_update', 'updated'],
    ['shippedOn', 'shipped'],
    ['delivery_date', 'delivered'],
    ['issued_on', 'issued'],
    ['founded_on', 'founded'],
    ['closed_at', 'ended'],
    ['last_login_at', undefined],
    ['status', undefined],
  ];
  it.each(cases)('%s → %s', (name, want) => expect(stageOf(name)?.id).toBe(want));

  it('lists every chain in the order of the stages, so the rows of any config are ordered without cycles', () => {
    const rank = (id: string) => STAGES.findIndex((stage) => stage.id === id);
    for (const chain of CHAINS) {
      for (const id of chain) expect(rank(id), id).toBeGreaterThanOrEqual(0);
      for (let i = 1; i < chain.length; i++) expect(rank(chain[i]!), chain.join(' < ')).toBeGreaterThan(rank(chain[i - 1]!));
    }
    expect(stageBefore('ordered', 'shipped')).toBe(true);
    expect(stageBefore('shipped', 'ordered')).toBe(false);
    expect(stageBefore('hired', 'paid')).toBe(false);
    expect(stageBefore('born', 'hired')).toBe(true);
    expect(stageBefore('hired', 'updated')).toBe(true);
    // Through another stage: paid < delivered < ended.
    expect(stageBefore('paid', 'ended')).toBe(true);
    expect(stageBefore('shipped', 'cancelled')).toBe(false);
  });

  it('reads a column’s earlier stages, its status, its parents and its window from the config', () => {
    const schema = lifecycleSchema();
    const byId = (id: string) => schema.entities.find((candidate) => candidate.id === id)!;
    const life = (entityId: string, fieldId: string) => {
      const owner = byId(entityId);
      return lifecycleOf(owner, owner.fields.find((field) => field.id === fieldId)!, schema.entities, [], 4);
    };
    const invoices = byId('invoices');
    const index = (owner: Entity, id: string) => owner.fields.findIndex((field) => field.id === id);
    expect(life('invoices', 'paid_at')).toMatchObject({ earlier: [index(invoices, 'issued_on')], status: { index: index(invoices, 'status') }, past: true });
    // A fact never follows a plan: due_on may lie ahead.
    expect(life('invoices', 'paid_at')!.earlier).not.toContain(index(invoices, 'due_on'));
    expect(life('invoices', 'due_on')).toMatchObject({ window: 'future', past: false, parents: [] });
    expect(life('invoices', 'issued_on')!.parents).toEqual([{ reference: index(invoices, 'company_id'), parent: 'companies', parentKey: 'id', parentTime: 'created_at' }]);
    expect(life('payments', 'payment_date')!.parents.map((parent) => `${parent.parent}.${parent.parentTime}`)).toEqual(['customers.create_date', 'rentals.rental_date']);
    expect(life('employees', 'birthDate')).toMatchObject({ window: 'birth', earlier: [] });
    // A status column with no value of the stage links nothing; a NOT NULL time is left to its window.
    expect(life('rentals', 'due_date')!.status).toBeUndefined();
    const notNull: Field = { id: 'paid_at', type: 'datetime' };
    expect(lifecycleOf({ ...invoices, fields: [...invoices.fields.filter((field) => field.id !== 'paid_at'), notNull] }, notNull, schema.entities, [], 4)!.status).toBeUndefined();
    // A plan is not a fact: an active licence has an expiry date too.
    const expires: Field = { id: 'expires_on', type: 'date', nullable: true };
    const licences = entity('licences', 1, [{ id: 'status', type: 'enum', values: ['active', 'expired'] }, { id: 'issued_on', type: 'date' }, expires]);
    expect(lifecycleOf(licences, expires, [licences], [], 4)).toMatchObject({ earlier: [2], past: false });
    expect(lifecycleOf(licences, expires, [licences], [], 4)!.status).toBeUndefined();
  });
});

describe('generator version 4: lifecycles that make sense', () => {
  const schema = lifecycleSchema();
  const run = generate(schema, { generatorVersion: 4 });
  const rows = (id: string) => run.objects(id);
  const rule = (entityId: string, fieldId: string) => {
    const owner = schema.entities.find((candidate) => candidate.id === entityId)!;
    return ruleOf({ entity: owner, entities: schema.entities, deferred: [], version: 4 }, owner.fields.find((field) => field.id === fieldId)!)?.id;
  };

  it('time.stage-order: later stages of a row follow earlier ones (rented < returned, issued < due, born + 16 years ≤ hired < terminated, created ≤ updated)', () => {
    expect([rule('rentals', 'due_date'), rule('invoices', 'due_on'), rule('employees', 'hireDate'), rule('customers', 'last_update')]).toEqual(Array(4).fill('time.stage-order'));
    for (const row of rows('rentals')) {
      if (row.return_date !== null) expect(ms(row.return_date)).toBeGreaterThanOrEqual(ms(row.rental_date));
      expect(day(row.due_date) >= day(row.rental_date)).toBe(true);
    }
    for (const row of rows('invoices')) {
      expect(day(row.due_on) >= day(row.issued_on)).toBe(true);
      for (const field of ['paid_at', 'voided_at']) if (row[field] !== null) expect(day(row[field]) >= day(row.issued_on), field).toBe(true);
    }
    for (const row of rows('employees')) {
      const born = String(row.birthDate);
      expect(String(row.hireDate) >= `${Number(born.slice(0, 4)) + 16}${born.slice(4)}`).toBe(true);
      if (row.terminatedAt !== null) expect(day(row.terminatedAt) >= String(row.hireDate)).toBe(true);
      expect(ms(row.updatedAt)).toBeGreaterThanOrEqual(ms(row.hireDate));
    }
    for (const row of rows('customers')) expect(ms(row.last_update)).toBeGreaterThanOrEqual(ms(row.create_date));
    for (const row of rows('subscriptions')) expect(day(row.validTo) >= day(row.validFrom)).toBe(true);
    // Close stages follow by days, not years: a due date 3–45 days after its rental.
    const gaps = rows('rentals').map((row) => (ms(row.due_date) - ms(day(row.rental_date))) / 86_400_000);
    expect(Math.max(...gaps)).toBeLessThanOrEqual(45);
  });

  it('time.status-implied: a nullable time is set exactly on the rows whose status names its stage (and a weighted choice’s), null elsewhere', () => {
    expect([rule('rentals', 'return_date'), rule('employees', 'terminatedAt'), rule('invoices', 'paid_at'), rule('subscriptions', 'cancelledAt')]).toEqual(Array(4).fill('time.status-implied'));
    const exact = (entityId: string, field: string, status: string, values: string[]) => {
      const all = rows(entityId);
      for (const row of all) expect(row[field] !== null, `${entityId} ${row[status]} ${row[field]}`).toBe(values.includes(String(row[status])));
      // Both kinds of rows exist: the rule is not met by leaving every row empty.
      expect(all.some((row) => row[field] === null) && all.some((row) => row[field] !== null)).toBe(true);
    };
    exact('rentals', 'return_date', 'status', ['returned']);
    exact('employees', 'terminatedAt', 'status', ['terminated']);
    exact('invoices', 'paid_at', 'status', ['paid']);
    exact('invoices', 'voided_at', 'status', ['void']);
    exact('subscriptions', 'cancelledAt', 'state', ['cancelled']);
  });

  it('time.status-implied: a later stage of the chain implies the earlier ones (delivered and completed have a shipped time, cancelled has neither)', () => {
    const orders = entity('orders', 300, [
      { id: 'status', type: 'enum', values: ['pending', 'paid', 'shipped', 'delivered', 'completed', 'cancelled'] },
      { id: 'ordered_at', type: 'datetime' },
      { id: 'paid_at', type: 'datetime', nullable: true },
      { id: 'shipped_at', type: 'datetime', nullable: true },
      { id: 'delivered_at', type: 'datetime', nullable: true },
      { id: 'cancelled_at', type: 'datetime', nullable: true },
    ]);
    const made = generate(config(orders), { generatorVersion: 4 }).objects('orders');
    const want: Record<string, string[]> = {
      pending: [],
      paid: ['paid_at'],
      shipped: ['paid_at', 'shipped_at'],
      delivered: ['paid_at', 'shipped_at', 'delivered_at'],
      completed: ['paid_at', 'shipped_at', 'delivered_at'],
      cancelled: ['cancelled_at'],
    };
    for (const row of made) {
      const set = ['paid_at', 'shipped_at', 'delivered_at', 'cancelled_at'].filter((field) => row[field] !== null);
      expect(set, String(row.status)).toEqual(want[String(row.status)]);
      const times = ['ordered_at', ...set.filter((field) => field !== 'cancelled_at')].map((field) => ms(row[field]));
      expect(times).toEqual([...times].sort((a, b) => a - b));
      // Shipping follows payment by days.
      if (row.shipped_at !== null) expect(ms(row.shipped_at) - ms(row.paid_at)).toBeLessThanOrEqual(5 * 86_400_000);
    }
  });

  it('time.after-every-parent: a row’s first time follows the created time of the parent of every reference', () => {
    expect([rule('rentals', 'rental_date'), rule('payments', 'payment_date'), rule('invoices', 'issued_on')]).toEqual(Array(3).fill('time.after-every-parent'));
    const byKey = (id: string, key: string) => new Map(rows(id).map((row) => [row[key], row]));
    const customers = byKey('customers', 'customer_id');
    const rentals = byKey('rentals', 'rental_id');
    for (const row of rows('rentals')) expect(ms(row.rental_date)).toBeGreaterThanOrEqual(ms(customers.get(row.customer_id)!.create_date));
    for (const row of rows('payments')) {
      expect(ms(row.payment_date)).toBeGreaterThanOrEqual(ms(customers.get(row.customer_id)!.create_date));
      expect(ms(row.payment_date)).toBeGreaterThanOrEqual(ms(rentals.get(row.rental_id)!.rental_date));
    }
    const companies = byKey('companies', 'id');
    for (const row of rows('invoices')) expect(String(row.issued_on) >= day(companies.get(row.company_id)!.created_at)).toBe(true);
  });

  it('time.birth-window: people are born 18–90 years back, other rows’ births (pets) within 20 years', () => {
    expect(rule('employees', 'birthDate')).toBe('time.birth-window');
    for (const value of [...rows('employees').map((row) => row.birthDate), ...rows('customers').map((row) => row.birth_date)]) {
      expect((NOW - ms(value)) / YEAR).toBeGreaterThanOrEqual(18 - 1 / 365);
      expect((NOW - ms(value)) / YEAR).toBeLessThanOrEqual(90 + 1 / 365);
    }
    const pets = generate(config(entity('pets', 200, [{ id: 'born_on', type: 'date' }, { id: 'created_at', type: 'datetime' }])), { generatorVersion: 4 }).objects('pets');
    for (const pet of pets) {
      expect((NOW - ms(pet.born_on)) / YEAR).toBeLessThanOrEqual(20 + 1 / 365);
      expect(day(pet.created_at) >= String(pet.born_on)).toBe(true);
    }
  });

  it('time.founded-window: companies were founded decades back, not this year', () => {
    expect(rule('companies', 'founded_on')).toBe('time.founded-window');
    const ages = rows('companies').map((row) => (NOW - ms(row.founded_on)) / YEAR);
    expect(Math.min(...ages)).toBeGreaterThanOrEqual(4 - 1 / 365);
    expect(Math.max(...ages)).toBeLessThanOrEqual(100 + 1 / 365);
    expect([...ages].sort((a, b) => a - b)[Math.floor(ages.length / 2)]).toBeGreaterThan(10);
  });

  it('time.past-activity: activity spreads over recent years, more of it recent, and no fact lies after the reference date', () => {
    expect(rule('departments', 'createdAt')).toBe('time.past-activity');
    const created = generate(config(entity('accounts', 1000, [{ id: 'created_at', type: 'datetime' }, { id: 'last_login_on', type: 'date' }])), { generatorVersion: 4 }).objects('accounts');
    for (const field of ['created_at', 'last_login_on']) {
      const ages = created.map((row) => (NOW - ms(row[field])) / YEAR);
      expect(Math.min(...ages), field).toBeGreaterThanOrEqual(-1 / 365);
      const lastYear = ages.filter((age) => age <= 1).length / ages.length;
      expect(lastYear, field).toBeGreaterThan(0.25);
      expect(lastYear, field).toBeLessThan(0.6);
      expect(ages.filter((age) => age > 2).length / ages.length, field).toBeGreaterThan(0.25);
    }
    // Every fact of the three domains, whichever rule made it.
    for (const [entityId, fields] of Object.entries({
      customers: ['birth_date', 'create_date', 'last_update'],
      rentals: ['rental_date', 'return_date'],
      payments: ['payment_date'],
      employees: ['birthDate', 'hireDate', 'terminatedAt', 'updatedAt'],
      companies: ['founded_on', 'created_at'],
      invoices: ['issued_on', 'paid_at', 'voided_at'],
      subscriptions: ['startedAt', 'cancelledAt', 'validFrom'],
    })) {
      for (const row of rows(entityId)) for (const field of fields) if (row[field] !== null) expect(ms(row[field]), `${entityId}.${field}`).toBeLessThanOrEqual(NOW);
    }
  });

  it('time.stage-order: the end of a datetime named a time of day follows its start by hours, not months', () => {
    const visits = generate(config(entity('appointments', 300, [{ id: 'start_time', type: 'datetime' }, { id: 'end_time', type: 'datetime' }])), { generatorVersion: 4 }).objects('appointments');
    for (const row of visits) {
      const hours = (ms(row.end_time) - ms(row.start_time)) / 3_600_000;
      expect(hours).toBeGreaterThanOrEqual(0.25 - 1e-9);
      expect(hours).toBeLessThanOrEqual(8);
    }
  });

  it('follows columns with a strategy of their own where they read no other column, and never makes a cycle with a formula', () => {
    const made = generate(
      config(
        entity('owners', 50, [{ id: 'createdAt', type: 'datetime', generation: { strategy: { kind: 'dateRange', from: '-10y', to: '-8y' } } }]),
        entity('pets', 200, [
          { id: 'ownerId', type: 'integer', references: { entity: 'owners', field: 'id' } },
          { id: 'adopted_at', type: 'datetime', generation: { strategy: { kind: 'dateRange', from: '-6y', to: '-5y' } } },
          { id: 'returned_at', type: 'datetime' },
          { id: 'registered_on', type: 'date' },
          // An earlier stage that reads a later one: the later one does not follow it back.
          { id: 'delivered_at', type: 'datetime' },
          { id: 'booked_on', type: 'date', generation: { strategy: { kind: 'formula', expression: 'date(delivered_at) + 1 days' } } },
        ]),
      ),
      { generatorVersion: 4 },
    );
    const owners = new Map(made.objects('owners').map((row) => [row.id, row]));
    for (const pet of made.objects('pets')) {
      // registered_on follows its owner's created time, which a strategy made.
      expect(String(pet.registered_on) >= day(owners.get(pet.ownerId)!.createdAt)).toBe(true);
      // booked_on is its formula's value, a day after delivered_at.
      expect(String(pet.booked_on) > day(pet.delivered_at)).toBe(true);
    }
  });

  it('leaves versions 1–3 and columns with a strategy or weekdaysOnly to their own values', () => {
    const owner = schema.entities.find((candidate) => candidate.id === 'invoices')!;
    const paid = owner.fields.find((field) => field.id === 'paid_at')!;
    for (const version of [1, 2, 3] as const) expect(LIFECYCLE_RULES.map((candidate) => candidate.id)).not.toContain(ruleOf({ entity: owner, entities: schema.entities, deferred: [], version }, paid)?.id);
    const weekdays: Field = { ...paid, weekdaysOnly: true };
    expect(LIFECYCLE_RULES.map((candidate) => candidate.id)).not.toContain(ruleOf({ entity: owner, entities: schema.entities, deferred: [], version: 4 }, weekdays)?.id);
  });

  it('the report counts every lifecycle rule by its id, and every row holds it', () => {
    const audit = new CoherenceAudit(schema, run.plan);
    for (const entityPlan of run.plan.entities) {
      const observe = audit.observer(entityPlan.id);
      if (observe) for (const row of run.rows.get(entityPlan.id)!) observe(row);
    }
    const counts = audit.report();
    for (const id of LIFECYCLE_RULES.map((candidate) => candidate.id)) expect(counts.some((count) => count.ruleId === id), id).toBe(true);
    for (const count of counts) expect(count.holding, `${count.rule} ${count.entity}.${count.field} against ${count.against}`).toBe(count.rows);
    expect(counts).toContainEqual(
      expect.objectContaining({ rule: 'status-implies-time', ruleId: 'time.status-implied', entity: 'invoices', field: 'paid_at', against: 'status', rows: LIFECYCLE_ROWS.invoices }),
    );
    expect(counts).toContainEqual(expect.objectContaining({ rule: 'child-after-parent', ruleId: 'time.after-every-parent', entity: 'payments', field: 'payment_date', against: 'rentals.rental_date' }));
    expect(counts).toContainEqual(expect.objectContaining({ rule: 'time-pair-ordered', ruleId: 'time.stage-order', entity: 'employees', field: 'hireDate', against: 'birthDate + 16 years' }));
    expect(counts).toContainEqual(expect.objectContaining({ rule: 'in-window', ruleId: 'time.birth-window', entity: 'employees', field: 'birthDate' }));
    expect(counts).toContainEqual(expect.objectContaining({ rule: 'not-in-future', ruleId: 'time.past-activity', entity: 'departments', field: 'createdAt' }));
  });
});
