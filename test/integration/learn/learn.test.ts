// `sds init --learn` on both engines, on data this file makes: skewed prices with few distinct
// values, statuses, a nullable measure, dates, a lookup table and a heavy-tailed fan-out. The
// learned config's rows (made in memory) score ≥ 0.9 on column shapes and cardinality, row counts
// are kept, and the privacy rule holds: a value held by k − 1 rows, a person's name or email never
// appears in the config or the report, and the config names the database, never its URL.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { buildCli } from '../../../src/cli/main.ts';
import { learnDatabase } from '../../../src/learn/learn-database.ts';
import { cardinalityScore, columnShape, nullRateScore } from '../../../src/learn/fidelity.ts';
import { isoText } from '../../../src/learn/profile-sql.ts';
import { dialectTargets, openInspector, openTarget, uniqueNamespace, type DialectTarget, type Inspector } from '../../helpers/dialect-targets.ts';
import { generate } from '../../helpers/generate-in-memory.ts';

const targets = await dialectTargets();
const SLOW = 180_000;
const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups) await cleanup();
});

const GENRES = ['Rock', 'Jazz', 'Blues', 'Metal', 'Latin', 'Reggae', 'Classical', 'Soundtrack'];
const NAMES = ['Zebulon', 'Quintessa', 'Bartholomew', 'Ottoline', 'Peregrine', 'Wilhelmina'];

/** A small deterministic generator (an LCG), so both engines hold the same rows. */
function random(seed: number): () => number {
  let state = seed;
  return () => (state = (state * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
}

interface Fixture {
  customers: unknown[][];
  products: unknown[][];
  orders: unknown[][];
}

function fixture(): Fixture {
  const next = random(42);
  const pick = <T>(weighted: [T, number][]) => {
    let u = next();
    for (const [value, weight] of weighted) if ((u -= weight) < 0) return value;
    return weighted.at(-1)![0];
  };
  // Dates with order rules draw from a stream of their own, so the other columns keep their values.
  const later = random(7);
  const stamp = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
  const customers = Array.from({ length: 300 }, (_, i) => {
    const name = NAMES[i % NAMES.length]!;
    // LU: 4 rows, one fewer than the default min count.
    const country = i < 4 ? 'LU' : pick([['DE', 0.5], ['FR', 0.3], ['US', 0.2]]);
    // Every customer joined before any order (2021–2022): orders follow their customer's joining.
    const joined = stamp(Date.UTC(2021, 0, 1) + Math.floor(later() * 700 * 86_400) * 1000);
    return [i + 1, name, `${name.toLowerCase()}.${i}@mail-${i % 7}.test`, country, joined];
  });
  const products = Array.from({ length: 400 }, (_, i) => {
    const price = i < 4 ? 4.49 : pick([[0.99, 0.65], [1.99, 0.25], [9.99, 0.1]]);
    const status = i >= 396 ? 'recalled' : pick([['active', 0.6], ['draft', 0.3], ['archived', 0.1]]);
    const normal = next() + next() + next() + next() - 2;
    const weight = next() < 0.2 ? null : Math.round(Math.exp(normal) * 100 * 1000) / 1000;
    const released = new Date(Date.UTC(2010, 0, 1) + Math.floor(next() ** 2 * 5000) * 86_400_000).toISOString().slice(0, 10);
    return [i + 1, 1 + Math.floor(next() * GENRES.length), price, weight, status, released];
  });
  const orders: unknown[][] = [];
  for (const [customer] of customers) {
    // A heavy tail: about half the customers have no order, a few have twenty.
    const count = Math.floor(0.5 / (next() + 0.02));
    for (let j = 0; j < count; j++) {
      const placedMs = Date.UTC(2023, 0, 1) + Math.floor(next() * 365 * 86_400) * 1000;
      // Shipped 2 hours to 6 days after it was placed, or not yet (null).
      const shipped = later() < 0.15 ? null : stamp(placedMs + Math.floor((2 + later() ** 2 * 142) * 3600) * 1000);
      // Derived money: subtotal = quantity × unit price, total = subtotal + shipping, to the cent.
      const quantity = pick([[1, 0.8], [2, 0.15], [3, 0.05]]);
      const unitPrice = [4.5, 12.99, 30][Math.floor(later() * 3)]!;
      const subtotal = Math.round(quantity * unitPrice * 100) / 100;
      const shipping = [0, 4.99, 9.99][Math.floor(later() * 3)]!;
      orders.push([orders.length + 1, customer, quantity, stamp(placedMs), shipped, unitPrice, subtotal, shipping, Math.round((subtotal + shipping) * 100) / 100]);
    }
  }
  // Derived across tables: what a customer spent is the sum of their orders' totals (0 without orders).
  const spent = new Map<unknown, number>();
  for (const order of orders) spent.set(order[1], (spent.get(order[1]) ?? 0) + Math.round(Number(order[8]) * 100));
  for (const customer of customers) customer.push((spent.get(customer[0]) ?? 0) / 100);
  return { customers, products, orders };
}

const literal = (value: unknown) => (value === null ? 'NULL' : typeof value === 'number' ? String(value) : `'${String(value)}'`);

async function insert(inspector: Inspector, table: string, rows: unknown[][]): Promise<void> {
  for (let i = 0; i < rows.length; i += 200) {
    await inspector.query(`INSERT INTO ${table} VALUES ${rows.slice(i, i + 200).map((row) => `(${row.map(literal).join(', ')})`).join(', ')}`);
  }
}

async function createShop(target: DialectTarget, data: Fixture): Promise<{ namespace: string; inspector: Inspector }> {
  const connection = await openTarget(target);
  const namespace = connection.track(uniqueNamespace('learn'));
  const inspector = await openInspector(target);
  await inspector.query(`CREATE ${target.name === 'postgres' ? 'SCHEMA' : 'DATABASE'} ${target.dialect.quoteIdentifier(namespace)}`);
  cleanups.push(async () => {
    await inspector.close();
    await connection.cleanup();
  });
  const q = (name: string) => `${target.dialect.quoteIdentifier(namespace)}.${target.dialect.quoteIdentifier(name)}`;
  const [double, timestamp] = target.name === 'postgres' ? ['DOUBLE PRECISION', 'TIMESTAMP'] : ['DOUBLE', 'DATETIME'];
  await inspector.query(`CREATE TABLE ${q('genres')} (id INTEGER PRIMARY KEY, name VARCHAR(40) NOT NULL)`);
  await inspector.query(`CREATE TABLE ${q('customers')} (id INTEGER PRIMARY KEY, first_name VARCHAR(40) NOT NULL, email VARCHAR(80) NOT NULL, country VARCHAR(2) NOT NULL, joined_at ${timestamp} NOT NULL, spent NUMERIC(10,2) NOT NULL)`);
  await inspector.query(
    `CREATE TABLE ${q('products')} (id INTEGER PRIMARY KEY, genre_id INTEGER NOT NULL REFERENCES ${q('genres')} (id), price NUMERIC(8,2) NOT NULL, ` +
      `weight ${double} NULL, status VARCHAR(20) NOT NULL, released DATE NOT NULL)`,
  );
  await inspector.query(`CREATE TABLE ${q('orders')} (id INTEGER PRIMARY KEY, customer_id INTEGER NOT NULL REFERENCES ${q('customers')} (id), quantity INTEGER NOT NULL, placed_at ${timestamp} NOT NULL, shipped_at ${timestamp} NULL, ` +
      `unit_price NUMERIC(8,2) NOT NULL, subtotal NUMERIC(10,2) NOT NULL, shipping NUMERIC(8,2) NOT NULL, total NUMERIC(10,2) NOT NULL)`);
  await insert(inspector, q('genres'), GENRES.map((name, i) => [i + 1, name]));
  await insert(inspector, q('customers'), data.customers);
  await insert(inspector, q('products'), data.products);
  await insert(inspector, q('orders'), data.orders);
  if (target.name === 'postgres') await inspector.query(`ANALYZE ${q('orders')}`);
  return { namespace, inspector };
}

for (const target of targets) {
  describe(`learning a database on ${target.name}`, () => {
    it('learns a config whose rows score ≥ 0.9 on column shapes and cardinality, and copies no rare value, name or email', async () => {
      const data = fixture();
      const { namespace, inspector } = await createShop(target, data);
      const learned = await learnDatabase(target.url, { namespace, now: new Date('2026-11-27T10:00:00Z') });
      const { config, report } = learned;
      const text = JSON.stringify(config) + JSON.stringify(report);

      // The record: the database's name and the time, never the URL or a credential.
      const database = target.name === 'postgres' ? `${new URL(target.url).pathname.slice(1)}.${namespace}` : namespace;
      expect(config.learned).toEqual({ database, engine: target.name, learnedAt: '2026-11-27T10:00:00.000Z', minCount: 5, scale: 1 });
      expect(text).not.toContain('://');
      expect(text).not.toContain('127.0.0.1');

      // Privacy: values held by 4 rows (k − 1) and people's names and emails stay in the database.
      for (const rare of ['4.49', 'recalled', '"LU"', ...NAMES, ...NAMES.map((name) => `${name.toLowerCase()}.`)]) expect(text).not.toContain(rare);
      const column = (table: string, name: string) => report.columns.find((entry) => entry.table === table && entry.column === name);
      expect(column('customers', 'first_name')).toMatchObject({ rule: 'never-copied' });
      // The email's style: its domains (each held by about 43 rows, at least k), never a local part.
      expect(column('customers', 'email')).toMatchObject({ rule: 'never-copied', copied: expect.arrayContaining(['mail-0.test', 'mail-6.test']) });
      const email = config.entities.find((entity) => entity.id === 'customers')!.fields.find((field) => field.id === 'email')!.generation?.strategy;
      expect(email).toMatchObject({ kind: 'styledText', email: { formats: [{ value: 'firstDotLast', weight: 300 }], digits: 1 } });
      expect(column('products', 'status')).toMatchObject({ rule: 'min-count', dropped: 1 });
      expect(column('products', 'price')).toMatchObject({ rule: 'min-count', dropped: 1 });
      expect(column('genres', 'name')).toMatchObject({ rule: 'lookup', copied: expect.arrayContaining(GENRES) });

      // Rows made from the config, beside the real ones.
      const run = generate(config);
      const real = async (table: string, columnName: string) =>
        (await inspector.query(`SELECT ${target.dialect.quoteIdentifier(columnName)} AS v FROM ${target.dialect.quoteIdentifier(namespace)}.${target.dialect.quoteIdentifier(table)}`)).map((row) => row.v);
      for (const [table, rows] of [['genres', 8], ['customers', 300], ['products', 400], ['orders', data.orders.length]] as const) {
        expect(run.column(table, 'id'), table).toHaveLength(rows);
      }
      const asNumbers = (values: unknown[]) => values.map((value) => (value === null ? null : Number(value)));
      const asInstants = (values: unknown[]) => values.map((value) => isoText(value, 'datetime'));
      const scores: Record<string, number> = {
        price: columnShape('categorical', asNumbers(await real('products', 'price')), run.column('products', 'price')),
        status: columnShape('categorical', await real('products', 'status'), run.column('products', 'status')),
        country: columnShape('categorical', await real('customers', 'country'), run.column('customers', 'country')),
        quantity: columnShape('categorical', asNumbers(await real('orders', 'quantity')), run.column('orders', 'quantity')),
        weight: columnShape('numeric', asNumbers(await real('products', 'weight')), run.column('products', 'weight')),
        weightNulls: nullRateScore(await real('products', 'weight'), run.column('products', 'weight')),
        released: columnShape('numeric', (await real('products', 'released')).map((value) => isoText(value, 'date')), run.column('products', 'released')),
        placedAt: columnShape('numeric', asInstants(await real('orders', 'placed_at')), run.column('orders', 'placed_at')),
        genres: columnShape('categorical', await real('genres', 'name'), run.column('genres', 'name')),
        cardinality: cardinalityScore(
          { parents: asNumbers(await real('customers', 'id')), children: asNumbers(await real('orders', 'customer_id')) },
          { parents: run.column('customers', 'id'), children: run.column('orders', 'customer_id') },
        ),
      };
      // Order rules: shipped never before placed (inside the row), an order never before its customer joined (after the parent).
      const orderRules = report.tables.find((entry) => entry.table === 'orders')?.orderRules;
      expect(orderRules).toEqual(expect.arrayContaining([{ column: 'shipped_at', after: 'placed_at', rows: data.orders.filter((row) => row[4] !== null).length, gap: true }, { column: 'placed_at', after: 'customer_id.joined_at', rows: data.orders.length, gap: false }]));
      const madeOrders = run.objects('orders');
      // Derived columns: the formulas every real row keeps, kept by every generated row.
      expect(report.tables.find((entry) => entry.table === 'orders')?.formulas).toEqual([
        { column: 'subtotal', expression: 'quantity * unit_price', rows: data.orders.length },
        { column: 'total', expression: 'subtotal + shipping', rows: data.orders.length },
      ]);
      const cents = (value: unknown) => Math.round(Number(value) * 100);
      // Across tables: a customer's spending is the sum of their orders' totals, in the real rows and the generated ones.
      expect(report.tables.find((entry) => entry.table === 'customers')?.childrenSums).toEqual([{ column: 'spent', entity: 'orders', reference: 'customer_id', fields: ['total'], rows: 300 }]);
      const madeSpent = new Map<unknown, number>();
      for (const order of madeOrders) madeSpent.set(order.customer_id, (madeSpent.get(order.customer_id) ?? 0) + cents(order.total));
      const madeCustomers = run.objects('customers');
      expect(madeCustomers.filter((row) => cents(row.spent) !== (madeSpent.get(row.id) ?? 0))).toEqual([]);
      expect(madeCustomers.filter((row) => cents(row.spent) > 0).length).toBeGreaterThan(100);
      expect(madeOrders.filter((row) => cents(row.total) !== cents(row.subtotal) + cents(row.shipping) || cents(row.subtotal) !== Math.round(Number(row.quantity) * cents(row.unit_price)))).toEqual([]);
      const joinedOf = new Map(run.objects('customers').map((row) => [row.id, row.joined_at as string]));
      expect(madeOrders.filter((row) => row.shipped_at !== null && (row.shipped_at as string) < (row.placed_at as string))).toEqual([]);
      expect(madeOrders.filter((row) => (row.placed_at as string) < joinedOf.get(row.customer_id)!)).toEqual([]);
      const gaps = (rows: { placed: unknown; shipped: unknown }[]) => rows.filter((row) => row.shipped !== null).map((row) => Date.parse(isoText(row.shipped, 'datetime')) - Date.parse(isoText(row.placed, 'datetime')));
      const realOrders = await inspector.query(`SELECT placed_at AS placed, shipped_at AS shipped FROM ${target.dialect.quoteIdentifier(namespace)}.${target.dialect.quoteIdentifier('orders')}`);
      Object.assign(scores, {
        shippedAt: columnShape('numeric', asInstants(await real('orders', 'shipped_at')), run.column('orders', 'shipped_at')),
        shippedNulls: nullRateScore(await real('orders', 'shipped_at'), run.column('orders', 'shipped_at')),
        shippingGap: columnShape('numeric', gaps(realOrders as { placed: unknown; shipped: unknown }[]), gaps(madeOrders.map((row) => ({ placed: row.placed_at, shipped: row.shipped_at })))),
        joinedAt: columnShape('numeric', asInstants(await real('customers', 'joined_at')), run.column('customers', 'joined_at')),
      });
      for (const [name, score] of Object.entries(scores)) expect(score, name).toBeGreaterThanOrEqual(0.9);
      expect(scores.genres).toBe(1);
      // The generated rows copy no rare value either.
      expect(run.column('products', 'price')).not.toContain(4.49);
      expect(run.column('customers', 'first_name').filter((name) => NAMES.includes(String(name)))).toEqual([]);
      console.log(`${target.name} fidelity`, JSON.stringify(scores));

      // The same through `sds init --learn`, with a min count of 2: the values of 4 rows are copied now, names never.
      const out = path.resolve(`.tmp/learn-${process.pid}-${target.name}.json`);
      fs.mkdirSync(path.dirname(out), { recursive: true });
      cleanups.push(async () => fs.rmSync(out, { force: true }));
      const flag = target.name === 'postgres' ? '--schema' : '--database';
      const json = await sds(['init', '--from-database', target.url, flag, namespace, '--learn', '--min-count', '2', '--scale', '0.5', '--out', out, '--json']);
      const answer = JSON.parse(json.stdout) as { schema: typeof config; privacyReport: typeof report };
      expect(answer.schema).toEqual(JSON.parse(fs.readFileSync(out, 'utf8')));
      expect(answer.privacyReport.minCount).toBe(2);
      expect(answer.schema.entities.find((entity) => entity.id === 'products')?.generation?.rowCount).toBe(200);
      expect(json.stdout).toContain('recalled');
      for (const name of NAMES) expect(json.stdout).not.toContain(name);
      const plain = await sds(['init', '--from-database', target.url, flag, namespace, '--learn', '--no-lookups', '--out', out]);
      expect(plain.stderr).toContain('learned products: 400 rows → 400');
      expect(plain.stderr).toMatch(/^learned products\.status: categories: 3 with their frequencies \[min-count\]; copied \(min-count\): "active", "draft", "archived"; 1 value held by fewer than 5 rows left out$/m);
      expect(plain.stderr).toContain('learned customers.email: contact: sds’s generator in the observed style (emails: 7 domains held by 5+ rows, formats firstDotLast) [never-copied]');
      expect(plain.stderr).not.toContain('Soundtrack');
      // sds fidelity scores the learned config against the same tables.
      fs.writeFileSync(out, JSON.stringify(config));
      const fidelity = await sds(['fidelity', out, '--database-url', target.url, flag, namespace, '--json']);
      expect(fidelity.code, fidelity.stderr).toBe(0);
      const scored = JSON.parse(fidelity.stdout) as { overall: number; columnShapes: number; pairTrends: number; nullRates: number; pairs: unknown[]; orderRules: unknown[]; cardinality: number; columns: { table: string; column: string; score: number }[]; privacy: { column: string; realValuesReproduced: number }[] };
      expect(scored.columnShapes).toBeGreaterThanOrEqual(0.9);
      // Pair trends: shipped moves with placed (rank correlation near 1), and the learned gap keeps it.
      expect(scored.pairs).toContainEqual(expect.objectContaining({ table: 'orders', columns: ['placed_at', 'shipped_at'] }));
      expect(scored.pairTrends).toBeGreaterThanOrEqual(0.9);
      expect(scored.nullRates).toBeGreaterThanOrEqual(0.95);
      expect(scored.orderRules).toContainEqual({ table: 'orders', column: 'shipped_at', after: 'placed_at', generatedShare: 1 });
      expect(scored.cardinality).toBeGreaterThanOrEqual(0.9);
      expect(scored.columns.map((entry) => `${entry.table}.${entry.column}`)).toEqual(expect.arrayContaining(['products.price', 'products.status', 'products.weight', 'orders.customer_id', 'orders.placed_at']));
      expect(scored.privacy).toContainEqual({ table: 'customers', column: 'first_name', realValuesReproduced: 0 });
      const fidelityText = await sds(['fidelity', out, '--database-url', target.url, flag, namespace]);
      expect(fidelityText.stdout).toMatch(/^fidelity of .*: overall 0\.9\d\d \(column shapes 0\.9\d\d, pair trends (0\.9\d\d|1\.000), cardinality (0\.9\d\d|1\.000); null shares 0\.9\d\d\)$/m);
      expect(fidelityText.stdout).toMatch(/^ {2}orders\.shipped_at never before placed_at in the real rows: 100\.0% of generated rows keep it$/m);
      // Tables over the sample size are profiled on a sample (TABLESAMPLE / a seeded RAND()); their counts stay exact.
      const sampled = await learnDatabase(target.url, { namespace, sampleRows: 150 });
      const products = sampled.report.tables.find((table) => table.table === 'products')!;
      expect(products).toMatchObject({ rows: 400, rowCount: 400 });
      expect(products.sampled).toBeGreaterThan(0);
      expect(products.sampled).toBeLessThan(400);
      expect(JSON.stringify(sampled.config)).not.toContain('recalled');
      // A sampled child's dates are compared with its parent's on another session, over the same sample read again.
      const sampledOrders = sampled.report.tables.find((table) => table.table === 'orders')!;
      expect(sampledOrders.sampled).toBeGreaterThan(0);
      expect(sampledOrders.orderRules).toContainEqual(expect.objectContaining({ column: 'placed_at', after: 'customer_id.joined_at' }));

      // Before: the config of plain init scores well below.
      const plainOut = out.replace(/\.json$/, '-plain.json');
      cleanups.push(async () => fs.rmSync(plainOut, { force: true }));
      expect((await sds(['init', '--from-database', target.url, flag, namespace, '--out', plainOut])).code).toBe(0);
      const before = JSON.parse((await sds(['fidelity', plainOut, '--database-url', target.url, flag, namespace, '--json'])).stdout) as typeof scored;
      expect(before.columnShapes).toBeLessThan(scored.columnShapes - 0.2);
      console.log(`${target.name} sds fidelity`, JSON.stringify({ before: [before.overall, before.columnShapes, before.pairTrends, before.cardinality], after: [scored.overall, scored.columnShapes, scored.pairTrends, scored.cardinality] }));
      await expect(sds(['init', '--from-database', target.url, flag, namespace, '--scale', '2'])).resolves.toMatchObject({ code: 1, stderr: 'sds: --scale, --min-count and --no-lookups go with --learn\n' });
    }, SLOW);

    it('a statement time limit (as over HTTP) cuts a long profiling statement short with a clear error', async () => {
      const connection = await openTarget(target);
      const namespace = connection.track(uniqueNamespace('learnlimit'));
      const inspector = await openInspector(target);
      cleanups.push(async () => {
        await inspector.close();
        await connection.cleanup();
      });
      const q = (name: string) => target.dialect.quoteIdentifier(name);
      await inspector.query(`CREATE ${target.name === 'postgres' ? 'SCHEMA' : 'DATABASE'} ${q(namespace)}`);
      const numbers = target.name === 'postgres' ? 'SELECT g AS id, g % 97 AS v FROM generate_series(1, 300000) g' : 'SELECT seq AS id, seq % 97 AS v FROM seq_1_to_300000';
      await inspector.query(`CREATE TABLE ${q(namespace)}.${q('readings')} AS ${numbers}`);
      await expect(learnDatabase(target.url, { namespace, statementTimeoutMs: 1 })).rejects.toMatchObject({
        kind: 'invalid',
        message: 'A profiling statement ran longer than 0.001 s, the limit of learning here; learn fewer tables (tables), or run sds init --learn, which has no limit',
      });
      // Without the limit the same table is learned.
      expect((await learnDatabase(target.url, { namespace })).report.tables).toMatchObject([{ table: 'readings', rows: 300_000 }]);
    }, SLOW);
  });
}

/** Runs the sds command in this process: its output and exit code. */
async function sds(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const spies = [
    vi.spyOn(console, 'log').mockImplementation((...line: unknown[]) => void out.push(`${line.join(' ')}\n`)),
    vi.spyOn(console, 'error').mockImplementation((...line: unknown[]) => void err.push(`${line.join(' ')}\n`)),
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => out.push(String(chunk)) > 0),
  ];
  const exitCode = process.exitCode;
  let code = 0;
  try {
    await buildCli().parseAsync(args, { from: 'user' });
    code = Number(process.exitCode ?? 0);
  } catch (error) {
    err.push(`sds: ${error instanceof Error ? error.message : String(error)}\n`);
    code = 1;
  } finally {
    for (const spy of spies) spy.mockRestore();
    process.exitCode = exitCode;
  }
  return { code, stdout: out.join(''), stderr: err.join('') };
}
