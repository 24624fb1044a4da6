// `sds init` and `sds diff` on both engines: a config from a live database that `sds validate`
// accepts, drift found and gone, a hand-tuned config merged after a migration, DDL run on the
// embedded PostgreSQL, and errors that never print the connection string. A few runs are child
// processes, as a user runs them; the rest run the same commands in process (a spawned CLI costs
// seconds).
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { buildCli } from '../../../src/cli/main.ts';
import type { SchemaConfig } from '../../../src/model/config-types.ts';
import { childEnv, runCli } from '../../helpers/processes.ts';
import { dialectTargets, openInspector, openTarget, type DialectTarget } from '../../helpers/dialect-targets.ts';
import { loadSchema, schemaFile } from './schemas.ts';

const targets = await dialectTargets();
const env = childEnv({});
const SLOW = 180_000;
const dir = path.resolve(`.tmp/introspection-cli-${process.pid}`);
fs.mkdirSync(dir, { recursive: true });
const namespaces: Array<[DialectTarget, string]> = [];

afterAll(async () => {
  for (const target of targets) {
    const connection = await openTarget(target);
    for (const [owner, namespace] of namespaces) if (owner === target) connection.track(namespace);
    await connection.cleanup();
  }
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Runs the sds command in this process: its output, and the exit code main.ts would give. */
async function sds(args: string[], environment: Record<string, string | undefined> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const saved = Object.fromEntries(Object.keys(environment).map((name) => [name, process.env[name]]));
  const restore = (values: Record<string, string | undefined>) => {
    for (const [name, value] of Object.entries(values)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  };
  restore(environment);
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
    restore(saved);
  }
  return { code, stdout: out.join(''), stderr: err.join('') };
}

const file = (name: string) => path.join(dir, `${name}-${randomBytes(3).toString('hex')}.json`);
const readConfig = (name: string) => JSON.parse(fs.readFileSync(name, 'utf8')) as SchemaConfig;
const namespaceFlag = (target: DialectTarget) => (target.name === 'postgres' ? '--schema' : '--database');

async function sql(target: DialectTarget, statements: string[]): Promise<void> {
  const inspector = await openInspector(target);
  try {
    for (const statement of statements) await inspector.query(statement);
  } finally {
    await inspector.close();
  }
}

async function loaded(target: DialectTarget): Promise<string> {
  const namespace = await loadSchema(target, 'shop');
  namespaces.push([target, namespace]);
  return namespace;
}

for (const target of targets) {
  const q = (name: string) => target.dialect.quoteIdentifier(name);

  describe(`sds init and sds diff on ${target.name}`, () => {
    it('init writes a config that sds validate accepts (warnings on stderr, exit 0); diff finds no drift, then every change of a migration (exit 1)', async () => {
      const namespace = await loaded(target);
      const out = file('shop');
      // As a user runs it on PostgreSQL; the same command in process on MySQL.
      const initArgs = ['init', '--from-database', target.url, namespaceFlag(target), namespace, '--rows', '25', '--out', out];
      const init = target.name === 'postgres' ? await runCli(initArgs, env) : await sds(initArgs);
      expect(init.code, init.stderr).toBe(0);
      // The composite foreign key shipments (order_id, line_no) → order_items is a composite reference now, not a warning.
      expect(init.stderr).not.toMatch(/spans several columns/);
      expect(readConfig(out).entities.find((entity: { id: string }) => entity.id === 'shipments')?.references).toHaveLength(1);
      expect(init.stderr).toMatch(new RegExp(`^wrote ${out.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: 9 entities, \\d+ fields, \\d+ warnings$`, 'm'));
      expect(readConfig(out).generationDefaults).toEqual({ rowCount: 25 });
      const validate = target.name === 'postgres' ? await runCli(['validate', out], env) : await sds(['validate', out]);
      const clean = await sds(['diff', out, '--database-url', target.url, namespaceFlag(target), namespace]);
      expect(validate.code, validate.stderr).toBe(0);
      expect(validate.stderr).toContain('valid (0 errors, 0 warnings)');
      expect(clean.code, clean.stderr).toBe(0);
      expect(clean.stdout).toContain(`no drift: ${out} matches the database`);

      const table = (name: string) => `${q(namespace)}.${q(name)}`;
      await sql(target, [
        `ALTER TABLE ${table('orders')} ADD COLUMN note TEXT`,
        `ALTER TABLE ${table('customers')} ${target.name === 'postgres' ? 'ALTER COLUMN first_name DROP NOT NULL' : 'MODIFY first_name VARCHAR(50) NULL'}`,
        `CREATE TABLE ${table('audit_log')} (id INTEGER PRIMARY KEY)`,
      ]);
      const text = await sds(['diff', out, '--database-url', target.url, namespaceFlag(target), namespace]);
      const json = await sds(['diff', out, '--database-url', target.url, namespaceFlag(target), namespace, '--json']);
      expect(text.code).toBe(1);
      expect(text.stdout.split('\n')).toEqual(
        expect.arrayContaining([
          'customers.first_name: NOT NULL in the config, nullable in the database',
          'column orders.note is in the database but not in the config',
          'table audit_log is in the database but not in the config',
          `drift: 3 differences between ${out} and the database`,
        ]),
      );
      expect(json.code).toBe(1);
      const report = JSON.parse(json.stdout) as { drift: boolean; differences: Array<{ kind: string; entity: string; field?: string }> };
      expect(report.drift).toBe(true);
      expect(report.differences.map(({ kind, entity, field }) => ({ kind, entity, field }))).toEqual([
        { kind: 'nullable', entity: 'customers', field: 'first_name' },
        { kind: 'column-only-in-database', entity: 'orders', field: 'note' },
        { kind: 'table-only-in-database', entity: 'audit_log', field: undefined },
      ]);
    }, SLOW);

    it('diff reports every change --merge applies (a length, a precision, a default, nullability), and merge applies exactly those', async () => {
      const namespace = await loaded(target);
      const original = file('before');
      expect((await sds(['init', '--from-database', target.url, namespaceFlag(target), namespace, '--out', original])).code).toBe(0);
      const table = (name: string) => `${q(namespace)}.${q(name)}`;
      await sql(
        target,
        target.name === 'postgres'
          ? [
              `ALTER TABLE ${table('customers')} ALTER COLUMN email TYPE varchar(200), ALTER COLUMN first_name DROP NOT NULL`,
              `ALTER TABLE ${table('products')} ALTER COLUMN price TYPE numeric(12, 4), ALTER COLUMN stock SET DEFAULT 5`,
            ]
          : [
              `ALTER TABLE ${table('customers')} MODIFY email VARCHAR(200) NOT NULL COMMENT 'Login and receipts', MODIFY first_name VARCHAR(50) NULL`,
              `ALTER TABLE ${table('products')} MODIFY price DECIMAL(12, 4) NOT NULL CHECK (price >= 0), ALTER COLUMN stock SET DEFAULT 5`,
            ],
      );
      const diff = await sds(['diff', original, '--database-url', target.url, namespaceFlag(target), namespace]);
      expect(diff.code).toBe(1);
      const reported = [
        'customers.email: maxLength 120 in the config, maxLength 200 in the database',
        'customers.first_name: NOT NULL in the config, nullable in the database',
        'products.price: decimal(10,2) in the config, decimal(12,4) in the database',
        'products.stock: default 0 in the config, 5 in the database',
      ];
      expect(diff.stdout.trim().split('\n').filter(Boolean)).toEqual([...reported, `drift: 4 differences between ${original} and the database`]);

      const merged = file('after');
      const result = await sds(['init', '--from-database', target.url, namespaceFlag(target), namespace, '--merge', original, '--out', merged]);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr.split('\n').filter((line) => line.startsWith('changed '))).toEqual([
        'changed customers.email: maxLength 120 → 200',
        'changed customers.first_name: now nullable',
        'changed products.price: decimal(10,2) → decimal(12,4)',
        'changed products.stock: default 0 → 5',
      ]);
      const again = await sds(['diff', merged, '--database-url', target.url, namespaceFlag(target), namespace]);
      expect(again.code, again.stdout).toBe(0);
      expect(again.stdout).toContain('no drift');
    }, SLOW);

    it('init --merge updates a hand-tuned config after a migration and keeps every hand-written setting', async () => {
      const namespace = await loaded(target);
      const original = file('merge');
      expect((await sds(['init', '--from-database', target.url, namespaceFlag(target), namespace, '--out', original])).code).toBe(0);
      const tuned = readConfig(original);
      tuned.generationDefaults = { rowCount: 30, seed: 'tuned', locale: 'de' };
      const customers = tuned.entities.find((entity) => entity.id === 'customers')!;
      customers.label = 'Customers';
      customers.generation = { rowCount: 12 };
      const email = customers.fields.find((field) => field.id === 'email')!;
      email.format = 'email';
      email.generation = { uniqueValues: true, strategy: { kind: 'template', template: '{{first_name}}.{{last_name}}@example.com' } };
      const price = tuned.entities.find((entity) => entity.id === 'products')!.fields.find((field) => field.id === 'price')!;
      price.generation = { strategy: { kind: 'randomFloat', min: 5, max: 50, precision: 2 } };
      fs.writeFileSync(original, JSON.stringify(tuned, null, 2));

      const table = (name: string) => `${q(namespace)}.${q(name)}`;
      await sql(target, [
        `ALTER TABLE ${table('customers')} ADD COLUMN phone VARCHAR(30)`,
        `ALTER TABLE ${table('orders')} DROP COLUMN total`,
        `CREATE TABLE ${table('coupons')} (code VARCHAR(20) PRIMARY KEY, percent INTEGER NOT NULL)`,
      ]);
      const merged = file('merged');
      const result = await sds(['init', '--from-database', target.url, namespaceFlag(target), namespace, '--merge', original, '--out', merged]);
      expect(result.code, result.stderr).toBe(0);
      for (const line of ['changed column customers.phone added (string)', 'changed column orders.total removed: it is no longer in the database', 'changed table coupons added']) {
        expect(result.stderr.split('\n')).toContain(line);
      }
      const config = readConfig(merged);
      expect(config.generationDefaults).toEqual(tuned.generationDefaults);
      const after = config.entities.find((entity) => entity.id === 'customers')!;
      expect(after).toMatchObject({ label: 'Customers', generation: { rowCount: 12 } });
      expect(after.fields.find((field) => field.id === 'email')).toEqual(email);
      expect(after.fields.map((field) => field.id)).toContain('phone');
      expect(config.entities.find((entity) => entity.id === 'products')!.fields.find((field) => field.id === 'price')).toEqual(price);
      expect(config.entities.find((entity) => entity.id === 'orders')!.fields.map((field) => field.id)).not.toContain('total');
      expect(config.entities.map((entity) => entity.id)).toContain('coupons');
      const validate = await sds(['validate', merged]);
      expect(validate.code, validate.stderr).toBe(0);
    }, SLOW);
  });
}

describe('sds init --from-sql', () => {
  it('runs PostgreSQL DDL on the embedded PostgreSQL by default', async () => {
    const dataDir = path.join(dir, 'embedded');
    const out = file('sql');
    const result = await runCli(['init', '--from-sql', schemaFile('rental', 'postgres'), '--dialect', 'postgres', '--out', out], childEnv({ SDS_DATA_DIR: dataDir }));
    expect(result.code, result.stderr).toBe(0);
    // The cycle of NOT NULL foreign keys stays NOT NULL: one reference is filled after insert, with no warning.
    expect(result.stderr).not.toMatch(/reference cycle/);
    const config = readConfig(out);
    const storeId = config.entities.find((entity) => entity.id === 'staff')!.fields.find((field) => field.id === 'store_id')!;
    expect(storeId.nullable ?? false).toBe(false);
    expect(storeId.references?.fillAfterInsert).toBe(true);
    expect(config.entities).toHaveLength(15);
    expect(config.metadata?.description).toBe('Introspected from SQL file rental.postgres.sql');
  }, SLOW);

  it('needs --dialect, and a MySQL server for MySQL DDL, and says so', async () => {
    const noDialect = await sds(['init', '--from-sql', schemaFile('shop', 'mysql')]);
    const noServer = await sds(['init', '--from-sql', schemaFile('shop', 'mysql'), '--dialect', 'mysql'], { MYSQL_URL: undefined });
    expect(noDialect.code).toBe(1);
    expect(noDialect.stderr).toContain('sds: --from-sql needs --dialect postgres or --dialect mysql');
    expect(noServer.code).toBe(1);
    expect(noServer.stderr).toContain('sds: MySQL DDL runs on a MySQL server: set MYSQL_URL (or give --scratch-url) to one where sds may create a database');
  }, SLOW);
});

describe('sds init errors never print the connection string', () => {
  it('an unreachable server, and an unsupported scheme', async () => {
    const secret = `s3cret${randomBytes(4).toString('hex')}`;
    const refused = await sds(['init', '--from-database', `postgres://someone:${secret}@127.0.0.1:1/shop`]);
    const scheme = await sds(['init', '--from-database', `oracle://someone:${secret}@db.example:1521/shop`]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('sds: The database server cannot be reached (ECONNREFUSED)');
    expect(scheme.code).toBe(1);
    expect(scheme.stderr).toContain('sds: The connection string cannot be used: unsupported scheme "oracle:"');
    for (const result of [refused, scheme]) expect(result.stdout + result.stderr).not.toContain(secret);
  }, SLOW);
});
