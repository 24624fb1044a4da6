// Connection strings from requests, as the attacks they used to allow (issue 23, items 3, 4 and 9):
// introspecting or building a source on sds's own control plane or default targets, Unix sockets,
// files read through TLS parameters, commands smuggled in a database name to a local service, port
// scans told apart by error texts and timings, a target failing with XX000, and a stored connection
// string opened with another SDS_SECRET_KEY. Each request must now fail before any connection, and
// the victim (the control plane, the listener) must see nothing.
import net from 'node:net';
import { randomBytes } from 'node:crypto';
import pino from 'pino';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mysqlDialect, postgresDialect } from '../../src/dialects/index.ts';
import { ConnectionGuard } from '../../src/security/connection-guard.ts';
import { SecretBox } from '../../src/security/secrets.ts';
import { startService } from '../../src/service.ts';
import { waitForLatestJob } from '../helpers/generation.ts';
import { PG_TARGET_URL } from '../helpers/dialect-targets.ts';
import { mysqlTarget } from '../helpers/mysql.ts';
import { blogProject, startTestService, type TestService } from '../helpers/service.ts';
import { ownServer, type OwnServer } from '../helpers/own-server.ts';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy.ts';

const mysqlUrl = await mysqlTarget();
const CONNECT_TIMEOUT_MS = 1_500;
const SECRET_KEY = `key-one-${randomBytes(8).toString('hex')}`;
const SLOW = 60_000;

let t: TestService;
/** PG_TARGET_URL's server as a team's own: through a proxy, never the control plane's server (see own-server.ts). */
let ownPg: OwnServer;
let projectId: string;
let versionId: string;
/** Everything a local listener received, by port: it must stay empty for refused strings. */
const listeners: Array<{ server: net.Server; port: number; connections: number; bytes: Buffer[] }> = [];

beforeAll(async () => {
  // MariaDB, when there is one, is this service's default MySQL target: no request may name its server.
  t = await startTestService('conn_guard', { targetUrls: { mysql: mysqlUrl }, connectTimeoutMs: CONNECT_TIMEOUT_MS, secretKey: SECRET_KEY });
  ({ projectId, versionId } = await blogProject(t.client(t.teamKey), 'Connection guard'));
  ownPg = await ownServer(PG_TARGET_URL);
});
afterAll(async () => {
  for (const listener of listeners) listener.server.close();
  await ownPg?.close();
  await t?.stop();
});

/** A TCP listener on an ephemeral loopback port that records what it gets; `answer` runs on each connection. */
async function listen(answer: (socket: net.Socket) => void = () => {}) {
  const record = { server: net.createServer(), port: 0, connections: 0, bytes: [] as Buffer[] };
  record.server.on('connection', (socket) => {
    record.connections++;
    socket.on('data', (chunk) => record.bytes.push(chunk));
    socket.on('error', () => {});
    answer(socket);
  });
  await new Promise<void>((resolve) => record.server.listen(0, '127.0.0.1', resolve));
  record.port = (record.server.address() as net.AddressInfo).port;
  listeners.push(record);
  return record;
}

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function introspect(body: Record<string, unknown>) {
  const started = Date.now();
  const response = await fetch(`${t.url}/public/v1/schema-config/introspect`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': t.teamKey },
    body: JSON.stringify(body),
  });
  return { status: response.status, text: await response.text(), ms: Date.now() - started };
}

async function createSource(connectionString: string, kind: 'postgres' | 'mysql' = 'postgres', extra: Record<string, unknown> = {}) {
  const response = await fetch(`${t.url}/public/v1/projects/${projectId}/sources`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': t.teamKey },
    body: JSON.stringify({ name: `Attack ${randomBytes(3).toString('hex')}`, kind, schemaVersionId: versionId, config: { connectionString }, ...extra }),
  });
  return { status: response.status, body: (await response.json()) as { id?: string; error?: string; details?: Array<{ path: string; message: string }> } };
}

async function sourceCount(): Promise<number> {
  const { rows } = await t.service.db.query<{ count: string }>('SELECT count(*) FROM sources');
  return Number(rows[0]!.count);
}

const withHost = (url: string, host: string, database?: string) => {
  const parsed = new URL(url);
  parsed.hostname = host;
  if (database !== undefined) parsed.pathname = `/${database}`;
  return parsed.toString();
};

describe("the control plane and the default targets' servers", () => {
  it("introspecting the service's own DATABASE_URL is refused, and the answer names none of its tables or namespaces", async () => {
    const names = ['localhost', '127.0.0.1', '127.1', '2130706433', '0x7f.1', '[::ffff:127.0.0.1]', '0.0.0.0'];
    for (const url of [t.database.url, ...names.map((name) => withHost(t.database.url, name)), withHost(t.database.url, '127.0.0.1', 'postgres')]) {
      const answer = await introspect({ connectionString: url });
      expect(answer.status, answer.text).toBe(400);
      const body = JSON.parse(answer.text);
      expect(body.error).toMatch(/^The connection string cannot be used: it points at a server sds itself uses/);
      expect(body.details).toEqual([{ path: '/body/connectionString', message: expect.stringMatching(/points at a server sds itself uses/) }]);
      expect(answer.text).not.toMatch(/team_api_keys|secrets|teams|public|sds_/);
    }
  });

  it('a bring-your-own source on the control plane is refused before anything is stored', async () => {
    const before = await sourceCount();
    const created = await createSource(t.database.url, 'postgres', { config: { connectionString: t.database.url, schema: 'public' } });
    expect(created.status).toBe(400);
    expect(created.body.error).toMatch(/^config\.connectionString cannot be used: it points at a server sds itself uses/);
    expect(created.body.details?.[0]?.path).toBe('/body/config/connectionString');
    expect(await sourceCount()).toBe(before);
    // The control plane is as it was: its tables are still there, nothing was generated into it.
    const { rows } = await t.service.db.query<{ name: string }>("SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_name = 'users'");
    expect(rows).toEqual([]);
  });

  it.runIf(mysqlUrl)('the default MySQL target, under any database name, is refused for introspection and sources', async () => {
    for (const database of ['mysql', 'information_schema', 'other_tenant']) {
      const url = withHost(mysqlUrl!, '127.0.0.1', database);
      const answer = await introspect({ connectionString: url });
      expect(answer.status, answer.text).toBe(400);
      expect(answer.text).toMatch(/points at a server sds itself uses/);
      expect(answer.text).not.toMatch(/performance_schema|sds_/);
    }
    const created = await createSource(withHost(mysqlUrl!, 'localhost', 'victim'), 'mysql');
    expect(created.status).toBe(400);
    expect(created.body.details?.[0]?.path).toBe('/body/config/connectionString');
  });
});

describe('strings that reach files, sockets and other services', () => {
  const refused: Array<[string, { url: (port: number) => string; error: RegExp }]> = [
    ['a Unix socket host', { url: () => 'postgres://postgres@%2Fvar%2Frun%2Fpostgresql/postgres', error: /Unix sockets are not allowed/ }],
    ['a host= socket parameter', { url: (port) => `postgres://postgres@127.0.0.1:${port}/x?host=/var/run/postgresql`, error: /the parameter "host" is not allowed/ }],
    ['sslrootcert=/etc/shadow', { url: (port) => `postgres://u@127.0.0.1:${port}/x?sslrootcert=/etc/shadow`, error: /the parameter "sslrootcert" is not allowed/ }],
    ['sslkey', { url: (port) => `postgres://u@127.0.0.1:${port}/x?sslmode=require&sslkey=/etc/ssl/private/key.pem`, error: /the parameter "sslkey" is not allowed/ }],
    ['a CR LF in the database name', { url: (port) => `postgres://u@127.0.0.1:${port}/x%0D%0ASET%20pwned%201%0D%0A`, error: /encoded control character \(%0D\)/ }],
    ['a CR LF in the user name', { url: (port) => `postgres://x%0D%0AFLUSHALL%0D%0A@127.0.0.1:${port}/x`, error: /encoded control character \(%0D\)/ }],
    ['a MySQL socketPath', { url: (port) => `mysql://root@127.0.0.1:${port}/x?socketPath=/var/run/mysqld/mysqld.sock`, error: /the parameter "socketPath" is not allowed/ }],
    ['a CR LF in a MySQL database', { url: (port) => `mysql://root@127.0.0.1:${port}/x%0D%0ASET%20pwned%201%0D%0A`, error: /encoded control character/ }],
    ['a MySQL flags parameter', { url: (port) => `mysql://root@127.0.0.1:${port}/x?flags=%2BLOCAL_FILES`, error: /the parameter "flags" is not allowed/ }],
  ];
  for (const [name, { url, error }] of refused) {
    it(`${name}: 400 for introspection and sources, and a local listener gets no byte`, async () => {
      const listener = await listen();
      const connectionString = url(listener.port);
      const answer = await introspect({ connectionString });
      expect(answer.status, answer.text).toBe(400);
      expect(JSON.parse(answer.text).error).toMatch(error);
      const kind = connectionString.startsWith('mysql') ? 'mysql' : 'postgres';
      const before = await sourceCount();
      const created = await createSource(connectionString, kind);
      expect(created.status, JSON.stringify(created.body)).toBe(400);
      expect(created.body.error).toMatch(error);
      expect(await sourceCount()).toBe(before);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(listener.connections).toBe(0);
      expect(Buffer.concat(listener.bytes).length).toBe(0);
    });
  }
});

describe('ports told apart', () => {
  const schemes = ['postgres', 'mysql'] as const;
  for (const scheme of schemes) {
    it(`${scheme}: a closed port, a port answering garbage and a silent port get the same 503, no sooner than the connect timeout`, async () => {
      const garbage = await listen((socket) => socket.end('HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n'));
      const chatty = await listen((socket) => socket.write('-ERR unknown command\r\n'.repeat(4)));
      const silent = await listen();
      const ports = [await closedPort(), garbage.port, chatty.port, silent.port];
      const answers = await Promise.all(ports.map((port) => introspect({ connectionString: `${scheme}://u:pw@127.0.0.1:${port}/x` })));
      const bodies = new Set(answers.map((answer) => `${answer.status} ${answer.text}`));
      expect([...bodies]).toEqual([`503 ${JSON.stringify({ error: 'The database server cannot be reached; check the host and port, and that it accepts connections' })}`]);
      for (const answer of answers) {
        expect(answer.ms).toBeGreaterThanOrEqual(CONNECT_TIMEOUT_MS - 50);
        expect(answer.ms).toBeLessThan(CONNECT_TIMEOUT_MS + 3_000);
      }
    }, SLOW);
  }

  for (const kind of ['postgres', 'mysql'] as const) {
    it(`${kind}: sources on a closed port, a port answering garbage and a silent port fail their jobs with the same error`, async () => {
      const garbage = await listen((socket) => socket.end('HTTP/1.1 400 Bad Request\r\n\r\n'));
      const silent = await listen();
      const ports = [await closedPort(), garbage.port, silent.port];
      const ids: string[] = [];
      for (const port of ports) {
        const created = await createSource(`${kind}://u:pw@127.0.0.1:${port}/x`, kind, { generatorConfig: { rowCounts: { users: 1, posts: 1 } } });
        expect(created.status, JSON.stringify(created.body)).toBe(201);
        ids.push(created.body.id!);
      }
      const errors = new Set<string>();
      for (const id of ids) errors.add((await waitForLatestJob(t, projectId, id, 'failed')).error ?? '');
      expect([...errors]).toEqual(["Target database unreachable (EUNREACHABLE). The generation stopped; the source's live data was left as it was"]);
      for (const id of ids) expect((await fetch(`${t.url}/runtime/${id}/users?limit=1`, { headers: { 'x-api-key': t.teamKey } })).status).not.toBe(500);
    }, SLOW);
  }

  it('a host that does not resolve answers as a closed port does', async () => {
    const answer = await introspect({ connectionString: 'postgres://u@no-such-host.invalid/x' });
    expect(answer.status).toBe(503);
    expect(JSON.parse(answer.text).error).toBe('The database server cannot be reached; check the host and port, and that it accepts connections');
    expect(answer.ms).toBeGreaterThanOrEqual(CONNECT_TIMEOUT_MS - 50);
  });

  it.runIf(mysqlUrl)('a postgres:// URL on a MySQL port (through a proxy) is the same 503, not a 500', async () => {
    const mysql = new URL(mysqlUrl!);
    const proxy: TcpProxy = await startTcpProxy({ host: mysql.hostname, port: Number(mysql.port || 3306) });
    try {
      const answer = await introspect({ connectionString: `postgres://root@127.0.0.1:${proxy.port}/test` });
      expect(answer.status, answer.text).toBe(503);
      expect(JSON.parse(answer.text).error).toMatch(/^The database server cannot be reached;/);
    } finally {
      await proxy.close();
    }
  }, SLOW);

  it('a mysql:// URL on a PostgreSQL port is the same 503, not a 500', async () => {
    const answer = await introspect({ connectionString: ownPg.url.replace(/^postgres(ql)?:/, 'mysql:') });
    expect(answer.status, answer.text).toBe(503);
    expect(JSON.parse(answer.text).error).toMatch(/^The database server cannot be reached;/);
  }, SLOW);
});

describe("the server's own settings stay its own", () => {
  it("a string without a password never sends this server's PGPASSWORD (nor ~/.pgpass) to the host it names", async () => {
    // A server that asks for a cleartext password and records the answer.
    const asking = await listen((socket) => {
      socket.once('data', () => socket.write(Buffer.from([0x52, 0, 0, 0, 8, 0, 0, 0, 3])));
    });
    const saved = process.env.PGPASSWORD;
    process.env.PGPASSWORD = 'operator-secret-password';
    try {
      const answer = await introspect({ connectionString: `postgres://victim@127.0.0.1:${asking.port}/x` });
      expect(answer.status).toBe(503);
    } finally {
      if (saved === undefined) delete process.env.PGPASSWORD;
      else process.env.PGPASSWORD = saved;
    }
    const received = Buffer.concat(asking.bytes).toString('latin1');
    // The startup message, then the password message ('p') with an empty password.
    expect(received).toContain('victim');
    expect(received).toContain('p\u0000\u0000\u0000\u0005\u0000');
    expect(received).not.toContain('operator-secret-password');
  });
});

describe('DNS rebinding', () => {
  for (const [kind, dialect] of [['postgres', postgresDialect], ['mysql', mysqlDialect]] as const) {
    it(`${kind}: a name that resolves elsewhere for the check than for the connection reaches nothing`, async () => {
      // The "control plane": a listener on this machine that must see no connection.
      const victim = await listen();
      let answers = 0;
      const guard = new ConnectionGuard({
        protectedUrls: [`${kind}://sds@127.0.0.1:${victim.port}/sds`],
        // A hostile DNS: a public address for the check, then this machine for the connection.
        resolve: async () => (answers++ === 0 ? ['203.0.113.10'] : ['127.0.0.1']),
      });
      const url = `${kind}://u:pw@rebind.example:${victim.port}/x`;
      const checked = await guard.check(url);
      expect(checked.addresses).toEqual(['203.0.113.10']);
      const error = await dialect.connect(url, { fromRequest: true, lookup: checked.lookup, connectTimeoutMs: CONNECT_TIMEOUT_MS }).then(
        async (connection) => {
          await connection.close();
          return undefined;
        },
        (caught: unknown) => caught,
      );
      expect(dialect.mapError(error)).toMatchObject({ kind: 'connection', code: 'EUNREACHABLE', connectionProblem: 'network' });
      expect(answers).toBeGreaterThanOrEqual(2);
      expect(victim.connections).toBe(0);
    });
  }
});

describe('TLS parameters', () => {
  const pg = (query: string) => `${ownPg.url}?${query}`;
  for (const query of ['sslmode=require', 'sslmode=verify-full', 'sslmode=no-verify', 'sslmode=prefer', 'ssl=true', 'sslmode=disable']) {
    it(`postgres ${query}: an answer sds wrote (200, 400 or 503), never a 500`, async () => {
      const answer = await introspect({ connectionString: pg(query), schema: 'public' });
      expect([200, 400, 503], answer.text).toContain(answer.status);
      expect(typeof JSON.parse(answer.text).error === 'string' || answer.status === 200).toBe(true);
    }, SLOW);
  }

  it.runIf(mysqlUrl)('mysql ssl=required, verify_identity and sslmode=disabled through a proxy: never a 500', async () => {
    const mysql = new URL(mysqlUrl!);
    const proxy = await startTcpProxy({ host: mysql.hostname, port: Number(mysql.port || 3306) });
    try {
      for (const query of ['ssl=required', 'ssl=verify_identity', 'sslmode=disabled', 'ssl=true']) {
        const url = new URL(mysqlUrl!);
        url.hostname = '127.0.0.1';
        url.port = String(proxy.port);
        url.search = query;
        const answer = await introspect({ connectionString: url.toString() });
        expect([200, 400, 503], `${query}: ${answer.text}`).toContain(answer.status);
      }
    } finally {
      await proxy.close();
    }
  }, SLOW);
});

describe('servers failing and secrets that do not open', () => {
  it('a server answering XX000 at startup: 502 with a clear error', async () => {
    // Speaks just enough PostgreSQL to fail the startup with an internal error.
    const failing = await listen((socket) => {
      socket.once('data', () => {
        const fields = Buffer.from('SFATAL\0VFATAL\0CXX000\0Mcache lookup failed for relation 1\0\0', 'latin1');
        const length = Buffer.alloc(4);
        length.writeInt32BE(fields.length + 4);
        socket.end(Buffer.concat([Buffer.from('E'), length, fields]));
      });
    });
    const answer = await introspect({ connectionString: `postgres://u@127.0.0.1:${failing.port}/x` });
    expect(answer.status, answer.text).toBe(502);
    expect(JSON.parse(answer.text)).toEqual({ error: 'The database server failed while being introspected (XX000); try again, or ask its administrator' });
  });

  it('a source whose own server answers XX000 to a runtime read: 503, not 500', async () => {
    const schema = `sds_xx_${randomBytes(4).toString('hex')}`;
    const created = await createSource(ownPg.url, 'postgres', { config: { connectionString: ownPg.url, schema }, requireAuth: false, generatorConfig: { rowCounts: { users: 2, posts: 2 } } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const sourceId = created.body.id!;
    const admin = new pg.Client({ connectionString: PG_TARGET_URL });
    await admin.connect();
    try {
      await waitForLatestJob(t, projectId, sourceId);
      // The team's server breaks: its users table becomes a view whose every read fails with an internal error.
      await admin.query(`ALTER TABLE "${schema}".users RENAME TO users_old`);
      await admin.query(`CREATE FUNCTION "${schema}".boom() RETURNS SETOF "${schema}".users_old LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'cache lookup failed' USING ERRCODE = 'XX000'; END $$`);
      await admin.query(`CREATE VIEW "${schema}".users AS SELECT * FROM "${schema}".boom()`);
      const answer = await fetch(`${t.url}/runtime/${sourceId}/users?limit=1`);
      const text = await answer.text();
      expect(answer.status, text).toBe(503);
      expect(JSON.parse(text)).toEqual({ error: 'Target database is unavailable; try again shortly' });
    } finally {
      await t.client(t.teamKey).DELETE('/public/v1/projects/{projectId}/sources/{sourceId}', { params: { path: { projectId, sourceId } } });
      await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).finally(() => admin.end());
    }
  }, SLOW);

  it("a source stored with another SDS_SECRET_KEY answers 503 saying so, not 500", async () => {
    const schema = `sds_guard_${randomBytes(4).toString('hex')}`;
    const created = await createSource(ownPg.url, 'postgres', {
      config: { connectionString: ownPg.url, schema },
      requireAuth: false,
      generatorConfig: { rowCounts: { users: 3, posts: 3 } },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const sourceId = created.body.id!;
    try {
      await waitForLatestJob(t, projectId, sourceId);
      expect((await fetch(`${t.url}/runtime/${sourceId}/users?limit=1`)).status).toBe(200);
      // A second instance on the same control plane, started with another key.
      const other = await startService({ ...t.config, secretKey: 'not-the-key-it-was-sealed-with', runWorker: false }, pino({ level: 'silent' }));
      try {
        const answer = await fetch(`${other.url}/runtime/${sourceId}/users?limit=1`);
        const text = await answer.text();
        expect(answer.status, text).toBe(503);
        expect(JSON.parse(text).error).toBe("This source's connection string cannot be decrypted: this server's SDS_SECRET_KEY is not the one it was stored with");
      } finally {
        await other.close();
      }
    } finally {
      await t.client(t.teamKey).DELETE('/public/v1/projects/{projectId}/sources/{sourceId}', { params: { path: { projectId, sourceId } } });
      const cleanup = new pg.Client({ connectionString: PG_TARGET_URL });
      await cleanup.connect();
      await cleanup.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).finally(() => cleanup.end());
    }
  }, SLOW);

  it('a source stored before the guard, pointing at the control plane, is refused when it connects (503), its data untouched', async () => {
    // Created on a closed port (its first job fails, so no connection is kept), then its stored
    // string is replaced by the control plane's, as a source created before the guard would hold.
    const created = await createSource(`postgres://u@127.0.0.1:${await closedPort()}/x`, 'postgres', { requireAuth: false, generatorConfig: { rowCounts: { users: 1, posts: 1 } } });
    expect(created.status).toBe(201);
    const sourceId = created.body.id!;
    await waitForLatestJob(t, projectId, sourceId, 'failed');
    const { rows } = await t.service.db.query<{ id: string }>('SELECT connection_secret_id AS id FROM sources WHERE id = $1', [sourceId]);
    const secretId = rows[0]!.id;
    const sealed = new SecretBox(SECRET_KEY).seal(t.database.url, secretId);
    await t.service.db.query('UPDATE secrets SET iv = $2, tag = $3, ciphertext = $4 WHERE id = $1', [secretId, sealed.iv, sealed.tag, sealed.ciphertext]);
    const teamsBefore = await t.service.db.query('SELECT * FROM team_api_keys ORDER BY id');
    const answer = await fetch(`${t.url}/runtime/${sourceId}/users?limit=1`);
    const text = await answer.text();
    expect(answer.status, text).toBe(503);
    expect(JSON.parse(text).error).toMatch(/^This source's connection string can no longer be used: it points at a server sds itself uses/);
    expect(text).not.toMatch(/team_api_keys|sds_/);
    expect((await t.service.db.query('SELECT * FROM team_api_keys ORDER BY id')).rows).toEqual(teamsBefore.rows);
  }, SLOW);
});
