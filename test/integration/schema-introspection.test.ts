// POST /public/v1/schema-config/introspect through the SDK's typed client, responses validated
// against the contract: configs from both engines, the team key and the management budget like
// every operation, and every failure a clear 4xx/503 that never repeats the connection string,
// in the answer or in the logs.
import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { validateConfig } from '../../src/config/validate-config.ts';
import { startTestService, type TestService } from '../helpers/service.ts';
import { dialectTargets, openInspector, openTarget, type DialectTarget } from '../helpers/dialect-targets.ts';
import { loadSchema } from './introspection/schemas.ts';
import { ownServer, type OwnServer } from '../helpers/own-server.ts';

const targets = await dialectTargets();
const postgres = targets.find((target) => target.name === 'postgres')!;
const mysqlTarget = targets.find((target) => target.name === 'mysql');
const SLOW = 60_000;

let t: TestService;
/** The PostgreSQL target as a team's own server (never the control plane's, whichever CI pass runs). */
let own: OwnServer;
const byo = (target: DialectTarget) => (target.name === 'postgres' ? own.through(target.url) : target.url);
let logs = '';
const namespaces: Array<[DialectTarget, string]> = [];

beforeAll(async () => {
  const sink = new Writable({
    write(chunk, _encoding, done) {
      logs += String(chunk);
      done();
    },
  });
  t = await startTestService('introspect', { connectTimeoutMs: 1_000 }, pino({ level: 'info' }, sink));
  own = await ownServer(postgres.url);
});
afterAll(async () => {
  await t?.stop();
  await own?.close();
  for (const target of targets) {
    const connection = await openTarget(target);
    for (const [owner, namespace] of namespaces) if (owner === target) connection.track(namespace);
    await connection.cleanup();
  }
});

async function introspect(body: Record<string, unknown>, key: string | null = t.teamKey) {
  const response = await fetch(`${t.url}/public/v1/schema-config/introspect`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(key ? { 'x-api-key': key } : {}) },
    body: JSON.stringify(body),
  });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

describe('POST /public/v1/schema-config/introspect', () => {
  for (const target of targets) {
    it(`answers a config that validates, and its warnings, for ${target.name} (typed SDK client)`, async () => {
      const namespace = await loadSchema(target, 'shop');
      namespaces.push([target, namespace]);
      const api = t.client(t.teamKey);
      const { data, error, response } = await api.POST('/public/v1/schema-config/introspect', {
        body: { connectionString: byo(target), [target.name === 'postgres' ? 'schema' : 'database']: namespace, rows: 20 },
      });
      expect(error, JSON.stringify(error)).toBeUndefined();
      expect(response.status).toBe(200);
      expect(validateConfig(data!.schema)).toMatchObject({ valid: true, errors: [] });
      expect(data!.schema.entities).toHaveLength(9);
      expect(data!.schema.generationDefaults).toEqual({ rowCount: 20 });
      // The foreign key of two columns is a composite reference of the config, not a warning.
      expect(data!.warnings.map((warning) => warning.message)).not.toContainEqual(expect.stringMatching(/spans several columns/));
      expect(data!.schema.entities.find((entity) => entity.id === 'shipments')!.references).toEqual([
        expect.objectContaining({ fields: ['order_id', 'line_no'], entity: 'order_items', targetFields: ['order_id', 'line_no'] }),
      ]);
    }, SLOW);
  }

  it('takes a list of tables and shares rows out by the statistics', async () => {
    const namespace = await loadSchema(postgres, 'shop');
    namespaces.push([postgres, namespace]);
    const inspector = await openInspector(postgres);
    try {
      await inspector.query(`INSERT INTO "${namespace}".categories (name, slug) SELECT 'c' || n, 's' || n FROM generate_series(1, 300) n`);
      await inspector.query(`ANALYZE "${namespace}".categories`);
      await inspector.query(`ANALYZE "${namespace}".customers`);
    } finally {
      await inspector.close();
    }
    const answer = await introspect({ connectionString: own.url, schema: namespace, tables: ['categories', 'customers'], rowsFromStatistics: 1000 });
    expect(answer.status, answer.text).toBe(200);
    const { schema } = JSON.parse(answer.text) as { schema: { entities: Array<{ id: string; generation?: { rowCount: number } }> } };
    expect(schema.entities.map((entity) => [entity.id, entity.generation?.rowCount])).toEqual([
      ['categories', 1000],
      ['customers', 1],
    ]);
  }, SLOW);

  it('learn: true answers a learned config and its privacy report; a value of 4 rows stays in the database', async () => {
    const namespace = await loadSchema(postgres, 'shop');
    namespaces.push([postgres, namespace]);
    const inspector = await openInspector(postgres);
    try {
      await inspector.query(`CREATE TABLE "${namespace}".tickets (id INTEGER PRIMARY KEY, state VARCHAR(20) NOT NULL, opened DATE, payload XML)`);
      await inspector.query(
        `INSERT INTO "${namespace}".tickets SELECT n, CASE WHEN n <= 4 THEN 'escalated' WHEN n % 3 = 0 THEN 'closed' ELSE 'open' END, ` +
          `CASE WHEN n % 5 = 0 THEN NULL ELSE DATE '2024-01-01' + n END FROM generate_series(1, 60) n`,
      );
    } finally {
      await inspector.close();
    }
    const api = t.client(t.teamKey);
    const { data, error } = await api.POST('/public/v1/schema-config/introspect', { body: { connectionString: own.url, schema: namespace, tables: ['tickets'], learn: true, scale: 2 } });
    expect(error, JSON.stringify(error)).toBeUndefined();
    expect(validateConfig(data!.schema)).toMatchObject({ valid: true, errors: [] });
    const tickets = data!.schema.entities[0]!;
    expect(tickets.generation?.rowCount).toBe(120);
    expect(tickets.fields.find((field) => field.id === 'opened')?.generation).toMatchObject({ emptyRate: 0.2, strategy: { kind: 'dateRange' } });
    expect(data!.privacyReport?.columns).toContainEqual({ table: 'tickets', column: 'state', learned: 'categories: 2 with their frequencies', rule: 'min-count', copied: ['open', 'closed'], dropped: 1 });
    expect(data!.schema.learned).toMatchObject({ database: expect.stringMatching(new RegExp(`\\.${namespace}$`)), engine: 'postgres', minCount: 5, scale: 2 });
    // xml has no equality, so its values cannot be counted: that column alone is left to sds.
    expect(data!.privacyReport?.columns).toContainEqual(expect.objectContaining({ column: 'payload', rule: 'not-learned' }));
    expect(JSON.stringify(data)).not.toContain('escalated');
    expect(JSON.stringify(data)).not.toContain('://');
    const mixed = await introspect({ connectionString: own.url, schema: namespace, learn: true, rows: 10 });
    expect(mixed.status).toBe(400);
    expect(JSON.parse(mixed.text)).toMatchObject({ error: 'learn takes row counts from the database (use scale); give rows without learn' });
    const stray = await introspect({ connectionString: own.url, schema: namespace, minCount: 3 });
    expect(stray.status).toBe(400);
    expect(JSON.parse(stray.text)).toMatchObject({ error: 'minCount goes with learn: true' });
  }, SLOW);

  it('needs a team key and counts against the management budget like every operation', async () => {
    const missing = await introspect({ connectionString: own.url }, null);
    expect(missing.status).toBe(401);
    expect(JSON.parse(missing.text)).toEqual({ error: 'API key required' });
    const first = await introspect({ connectionString: 'oracle://x@y/z' });
    const second = await introspect({ connectionString: 'oracle://x@y/z' });
    expect(first.headers.get('ratelimit-limit')).toBe(String(t.config.managementRateLimitRpm));
    expect(Number(second.headers.get('ratelimit-remaining'))).toBeLessThan(Number(first.headers.get('ratelimit-remaining')));
  });

  type Case = [string, { body: () => Record<string, unknown>; status: number; error: RegExp }];
  const secret = `pw${randomBytes(6).toString('hex')}`;
  const cases: Case[] = [
    ['not a URL', { body: () => ({ connectionString: `host=db password=${secret}` }), status: 400, error: /^The connection string cannot be used: it is not a URL/ }],
    ['an unsupported scheme', { body: () => ({ connectionString: `oracle://me:${secret}@db.example:1521/x` }), status: 400, error: /^The connection string cannot be used: unsupported scheme "oracle:"/ }],
    // One text for every network failure: no code that tells a closed port from a filtered one.
    ['an unreachable server', { body: () => ({ connectionString: `postgres://me:${secret}@127.0.0.1:1/shop` }), status: 503, error: /^The database server cannot be reached; check the host and port/ }],
    ['an unreachable MySQL server', { body: () => ({ connectionString: `mysql://me:${secret}@127.0.0.1:1/shop` }), status: 503, error: /^The database server cannot be reached; check the host and port/ }],
    ['a database that does not exist', { body: () => ({ connectionString: withDatabase(own.url, `nodb_${secret}`) }), status: 400, error: /^The database named in the connection string does not exist \(3D000\)$/ }],
    ['a schema that does not exist', { body: () => ({ connectionString: withPassword(own.url, secret), schema: 'no_such_schema' }), status: 400, error: /^The schema "no_such_schema" does not exist; the database has: / }],
    ['a table that does not exist', { body: () => ({ connectionString: own.url, schema: 'public', tables: ['no_such_table'] }), status: 400, error: /^No table named "no_such_table"|has no tables/ }],
    ['database with a PostgreSQL URL', { body: () => ({ connectionString: own.url, database: 'x' }), status: 400, error: /^database is not for PostgreSQL connections: give the schema to introspect$/ }],
    ['rows and rowsFromStatistics together', { body: () => ({ connectionString: own.url, rows: 1, rowsFromStatistics: 10 }), status: 400, error: /^Give rows or rowsFromStatistics, not both$/ }],
    ['an unknown property', { body: () => ({ connectionString: own.url, password: secret }), status: 400, error: /^Invalid request: body/ }],
    ['no connection string', { body: () => ({ schema: 'public' }), status: 400, error: /^Invalid request: body/ }],
  ];
  for (const [name, { body, status, error }] of cases) {
    it(`${name}: ${status}, without the connection string`, async () => {
      const answer = await introspect(body());
      expect(answer.status, answer.text).toBe(status);
      expect(JSON.parse(answer.text).error).toMatch(error);
      expect(answer.text).not.toContain(secret);
    }, SLOW);
  }

  it.runIf(mysqlTarget)('a MySQL connection string without a database, and no database named: 400', async () => {
    const answer = await introspect({ connectionString: withDatabase(mysqlTarget!.url, '') });
    expect(answer.status, answer.text).toBe(400);
    expect(JSON.parse(answer.text)).toEqual({ error: 'The connection string names no database: name the database to introspect' });
  }, SLOW);

  it.runIf(mysqlTarget)('a wrong MySQL password: 400 saying so, without the URL or the password', async () => {
    const user = `sds_intro_${randomBytes(4).toString('hex')}`;
    const inspector = await openInspector(mysqlTarget!);
    try {
      await inspector.query(`CREATE USER '${user}'@'%' IDENTIFIED BY 'right-${secret}'`);
      const url = new URL(mysqlTarget!.url);
      url.username = user;
      url.password = `wrong-${secret}`;
      const answer = await introspect({ connectionString: url.toString() });
      expect(answer.status, answer.text).toBe(400);
      expect(JSON.parse(answer.text)).toEqual({ error: 'The database refused the user name or password of the connection string (1045)' });
    } finally {
      await inspector.query(`DROP USER IF EXISTS '${user}'@'%'`);
      await inspector.close();
    }
  }, SLOW);

  // The run's server holds this service's control plane: introspecting it, even with a wrong
  // password, is refused before any connection (test/integration/connection-guard.test.ts).
  it("the control plane's server, with a wrong password: 400 refused before connecting, without the URL or the password", async () => {
    const server = new URL(inject('pgServerUrl'));
    server.password = `wrong-${secret}`;
    const answer = await introspect({ connectionString: server.toString() });
    expect(answer.status, answer.text).toBe(400);
    expect(JSON.parse(answer.text).error).toMatch(/^The connection string cannot be used: it points at a server sds itself uses/);
    expect(answer.text).not.toContain(secret);
  }, SLOW);

  it('never logs a connection string', () => {
    expect(logs).toContain('/public/v1/schema-config/introspect');
    expect(logs).not.toContain(secret);
    expect(logs).not.toContain(postgres.url);
    expect(logs).not.toContain(own.url);
  });
});

/** The URL with a password (a trusting server ignores it): it must not come back. */
function withPassword(url: string, password: string): string {
  const parsed = new URL(url);
  if (!parsed.password) parsed.password = password;
  return parsed.toString();
}

function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}
