// The connection-string guard as a table: every refused form with its message, and the forms it lets through.
import { describe, expect, it } from 'vitest';
import { mysqlDialect, postgresDialect } from '../../../src/dialects/index.ts';
import { loadSettings } from '../../../src/settings.ts';
import { ConnectionGuard, ConnectionRefusal, parseAllowedHosts, type AllowedHost } from '../../../src/security/connection-guard.ts';

/** A DNS of fixed answers: names not listed do not resolve. */
const DNS: Record<string, string[]> = {
  'db.example.com': ['203.0.113.10'],
  'replica.example.com': ['203.0.113.11'],
  'control.internal': ['10.0.0.5'],
  'metadata.internal': ['169.254.169.254'],
  'split.example.com': ['203.0.113.10', '10.9.9.9'],
  localhost: ['127.0.0.1', '::1'],
  'mapped.example.com': ['::ffff:10.0.0.5'],
  'pg.corp.example': ['198.51.100.1'],
  'corp.example': ['198.51.100.2'],
};
const resolve = async (host: string) => {
  const addresses = DNS[host];
  if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
  return addresses;
};

function guard(allowedHosts?: AllowedHost[]) {
  return new ConnectionGuard({
    // The control plane on an internal host; default targets on this machine (PostgreSQL 5432, MariaDB 3306).
    protectedUrls: ['postgres://sds:sds@control.internal:5432/sds', 'postgres://postgres@localhost:5432/test', 'mysql://root@127.0.0.1/test', undefined],
    allowedHosts,
    resolve,
  });
}

type Case = [name: string, { given: string; want: RegExp; kind?: string }];

const refused: Case[] = [
  ['a raw CR LF in the database', { given: 'postgres://u@db.example.com/x\r\nSET pwned 1', want: /^it holds a control character \(U\+000D\)$/, kind: 'invalid' }],
  ['an encoded CR LF in the database', { given: 'postgres://u@db.example.com:6379/x%0D%0ASET%20pwned%201%0D%0A', want: /^it holds an encoded control character \(%0D\)$/ }],
  ['an encoded NUL in the password', { given: 'postgres://u:a%00b@db.example.com/x', want: /encoded control character \(%00\)/ }],
  ['an encoded DEL in the user', { given: 'mysql://u%7f@db.example.com/x', want: /encoded control character \(%7F\)/ }],
  ['a raw tab', { given: 'postgres://u@db.example.com/x\ty', want: /control character \(U\+0009\)/ }],
  ['not a URL', { given: 'host=db.example.com user=u', want: /^it is not a URL/ }],
  ['another scheme', { given: 'redis://u@db.example.com:6379/0', want: /^unsupported scheme "redis:"/ }],
  ['the socket: scheme', { given: 'socket:/var/run/postgresql?db=x', want: /^unsupported scheme "socket:"/ }],
  ['an encoded Unix socket host', { given: 'postgres://u@%2Fvar%2Frun%2Fpostgresql/x', want: /^Unix sockets are not allowed/ }],
  ['an encoded socket host in lower case', { given: 'postgresql://u@%2ftmp/x', want: /^Unix sockets are not allowed/ }],
  ['no host', { given: 'postgres:///x', want: /^it names no host/ }],
  ['a user but no host', { given: 'postgres://u@/x', want: /^it is not a URL/ }],
  ['no host, socket in the query', { given: 'postgres:///x?host=/var/run/postgresql', want: /^it names no host/ }],
  ['a host= parameter with a path', { given: 'postgres://u@db.example.com/x?host=/var/run/postgresql', want: /^the parameter "host" is not allowed: PostgreSQL connection strings may carry only sslmode, ssl$/ }],
  ['sslrootcert', { given: 'postgres://u@db.example.com/x?sslrootcert=/etc/shadow', want: /^the parameter "sslrootcert" is not allowed/ }],
  ['sslcert', { given: 'postgres://u@db.example.com/x?sslmode=require&sslcert=/etc/passwd', want: /"sslcert" is not allowed/ }],
  ['sslkey', { given: 'postgres://u@db.example.com/x?sslkey=/root/.ssh/id_rsa', want: /"sslkey" is not allowed/ }],
  ['sslcrl', { given: 'postgres://u@db.example.com/x?sslcrl=/etc/x', want: /"sslcrl" is not allowed/ }],
  ['passfile', { given: 'postgres://u@db.example.com/x?passfile=/root/.pgpass', want: /"passfile" is not allowed/ }],
  ['options', { given: 'postgres://u@db.example.com/x?options=-c%20search_path%3Dpublic', want: /"options" is not allowed/ }],
  ['service', { given: 'postgres://u@db.example.com/x?service=prod', want: /"service" is not allowed/ }],
  ['servicefile', { given: 'postgres://u@db.example.com/x?servicefile=/etc/pg_service.conf', want: /"servicefile" is not allowed/ }],
  ['application_name', { given: 'postgres://u@db.example.com/x?application_name=x', want: /"application_name" is not allowed/ }],
  ['uselibpqcompat', { given: 'postgres://u@db.example.com/x?uselibpqcompat=true', want: /"uselibpqcompat" is not allowed/ }],
  ['an unknown sslmode', { given: 'postgres://u@db.example.com/x?sslmode=allow-anything', want: /^the parameter sslmode must be one of disable, prefer, require, verify-ca, verify-full, no-verify$/ }],
  ['mysql socketPath', { given: 'mysql://u@db.example.com/x?socketPath=/var/run/mysqld/mysqld.sock', want: /^the parameter "socketPath" is not allowed: MySQL connection strings may carry only ssl, sslmode$/ }],
  ['mysql localAddress', { given: 'mysql://u@db.example.com/x?localAddress=10.0.0.1', want: /"localAddress" is not allowed/ }],
  ['mysql flags', { given: 'mysql://u@db.example.com/x?flags=%2BLOCAL_FILES', want: /"flags" is not allowed/ }],
  ['mysql infileStreamFactory', { given: 'mysql://u@db.example.com/x?infileStreamFactory=x', want: /"infileStreamFactory" is not allowed/ }],
  ['mysql multipleStatements', { given: 'mysql://u@db.example.com/x?multipleStatements=true', want: /"multipleStatements" is not allowed/ }],
  ['a host with a percent sign', { given: 'postgres://u@db%2eexample.com/x', want: /^the host must be a host name or an IP address$/ }],
  ['an IPv6 zone', { given: 'postgres://u@[fe80::1%25eth0]/x', want: /^it is not a URL/ }],
  ['port 0', { given: 'postgres://u@db.example.com:0/x', want: /^the port must be between 1 and 65535$/ }],
  ['no user', { given: 'postgres://db.example.com/x', want: /^it names no user/ }],
  ['malformed percent-encoding in the password', { given: 'postgres://u:%E0%A4%A@db.example.com/x', want: /^the password holds malformed percent-encoding$/ }],
  ['a fragment', { given: 'postgres://u@db.example.com/x#frag', want: /^it has a fragment/ }],
  // Where it points.
  ['the control plane by name', { given: 'postgres://sds:sds@control.internal:5432/sds', want: /^it points at a server sds itself uses/, kind: 'forbidden' }],
  ['the control plane, another database', { given: 'postgres://sds:sds@control.internal/other', want: /points at a server sds itself uses/ }],
  ['the control plane by address', { given: 'postgres://sds@10.0.0.5:5432/sds', want: /points at a server sds itself uses/ }],
  ['the control plane by an IPv4-mapped IPv6 name', { given: 'postgres://sds@mapped.example.com:5432/sds', want: /points at a server sds itself uses/ }],
  ['the default target as 127.0.0.1', { given: 'postgres://postgres@127.0.0.1:5432/test', want: /points at a server sds itself uses/ }],
  ['the default target as 127.1.2.3', { given: 'postgres://postgres@127.1.2.3:5432/postgres', want: /points at a server sds itself uses/ }],
  ['the default target as ::1', { given: 'postgres://postgres@[::1]:5432/test', want: /points at a server sds itself uses/ }],
  ['the default target as 0.0.0.0', { given: 'postgres://postgres@0.0.0.0/test', want: /points at a server sds itself uses/ }],
  ['the default MySQL target as localhost', { given: 'mysql://root@localhost/other', want: /points at a server sds itself uses/ }],
  ['the default MySQL target under the mariadb scheme', { given: 'mariadb://root@127.0.0.1:3306/x', want: /points at a server sds itself uses/ }],
  ['a link-local address (cloud metadata)', { given: 'postgres://u@169.254.169.254:80/x', want: /^the host resolves to 169\.254\.169\.254, a link-local, multicast or broadcast address$/ }],
  ['a name resolving to link-local', { given: 'postgres://u@metadata.internal/x', want: /resolves to 169\.254\.169\.254/ }],
  ['link-local as an IPv4-mapped IPv6 address', { given: 'postgres://u@[::ffff:169.254.169.254]/x', want: /resolves to 169\.254\.169\.254/ }],
  ['the default target as an IPv4-mapped IPv6 address', { given: 'postgres://postgres@[::ffff:127.0.0.1]:5432/x', want: /points at a server sds itself uses/ }],
  ['the default target as a mapped address written out', { given: 'postgres://postgres@[0:0:0:0:0:ffff:7f00:1]:5432/x', want: /points at a server sds itself uses/ }],
  ['IPv6 link-local', { given: 'postgres://u@[fe80::1]/x', want: /resolves to fe80::1/ }],
  ['multicast', { given: 'postgres://u@224.0.0.1/x', want: /multicast/ }],
  ['a host that does not resolve', { given: 'postgres://u@nowhere.invalid/x', want: /^the host nowhere\.invalid cannot be resolved$/, kind: 'unresolvable' }],
];

const allowed: Array<[string, string]> = [
  ['a plain PostgreSQL URL', 'postgres://reader:secret@db.example.com:5432/shop'],
  ['postgresql:// with sslmode=verify-full', 'postgresql://reader:secret@db.example.com/shop?sslmode=verify-full'],
  ['ssl=true', 'postgres://reader@db.example.com/shop?ssl=true'],
  ['an encoded @ in the password', 'postgres://reader:p%40ss@db.example.com/shop'],
  ['MySQL with ssl=required', 'mysql://reader:secret@db.example.com:3306/shop?ssl=required'],
  ['MariaDB scheme', 'mariadb://reader@db.example.com/shop'],
  ['no database', 'mysql://reader@db.example.com'],
  ['this machine on another port (a team server beside sds)', 'postgres://postgres@127.0.0.1:5433/mine'],
  ['localhost on another port', 'mysql://root@localhost:3307/mine'],
  ['an IPv6 address', 'postgres://u@[2001:db8::5]:5432/x'],
];

describe('connection guard', () => {
  for (const [name, { given, want, kind }] of refused) {
    it(`refuses ${name}`, async () => {
      const error = await guard().check(given).then(
        () => undefined,
        (caught: unknown) => caught,
      );
      expect(error).toBeInstanceOf(ConnectionRefusal);
      expect((error as Error).message).toMatch(want);
      if (kind) expect((error as ConnectionRefusal).kind).toBe(kind);
      // The message never repeats the password or the string.
      expect((error as Error).message).not.toContain('secret');
    });
  }

  for (const [name, given] of allowed) {
    it(`allows ${name}`, async () => {
      const checked = await guard().check(given);
      expect(checked.addresses.length).toBeGreaterThan(0);
    });
  }

  it('refuses a URL of the other engine when one is expected', async () => {
    await expect(guard().check('mysql://u@db.example.com/x', postgresDialect)).rejects.toThrow(/^it is a mysql URL, not a postgres one/);
    expect((await guard().check('mysql://u@db.example.com/x', mysqlDialect)).port).toBe(3306);
  });

  it('uses the default port of the engine', async () => {
    expect((await guard().check('postgres://u@db.example.com/x')).port).toBe(5432);
    expect((await guard().check('mysql://u@db.example.com/x')).port).toBe(3306);
  });
});

describe('a control plane reached through a Unix socket', () => {
  for (const controlPlane of ['postgres://sds@%2Fvar%2Frun%2Fpostgresql/sds', 'postgres:///sds?host=/var/run/postgresql', 'postgres://sds@localhost/sds?host=/tmp']) {
    it(`protects this machine's port 5432 when the control plane is ${controlPlane}`, async () => {
      const socketGuard = new ConnectionGuard({ protectedUrls: [controlPlane], resolve });
      await expect(socketGuard.check('postgres://sds@127.0.0.1:5432/sds')).rejects.toThrow(/points at a server sds itself uses/);
      await expect(socketGuard.check('postgres://sds@localhost/other')).rejects.toThrow(/points at a server sds itself uses/);
      expect((await socketGuard.check('postgres://sds@127.0.0.1:5433/sds')).port).toBe(5433);
    });
  }
});

describe('SDS_ALLOWED_DATABASE_HOSTS', () => {
  const entries = parseAllowedHosts('db.example.com:5432, *.corp.example, 10.0.0.0/8, [2001:db8::/32]:5432, 192.0.2.7');

  it('reads names, wildcards, CIDRs and ports', () => {
    expect(entries).toEqual([
      { name: 'db.example.com', port: 5432 },
      { name: '*.corp.example' },
      { network: { address: '10.0.0.0', prefix: 8, family: 'ipv4' } },
      { network: { address: '2001:db8::', prefix: 32, family: 'ipv6' }, port: 5432 },
      { network: { address: '192.0.2.7', prefix: 32, family: 'ipv4' } },
    ]);
  });

  const cases: Array<[string, { given: string; allowed: boolean }]> = [
    ['a listed name on its port', { given: 'postgres://u@db.example.com:5432/x', allowed: true }],
    ['a listed name on another port', { given: 'postgres://u@db.example.com:6379/x', allowed: false }],
    ['a subdomain of a wildcard', { given: 'postgres://u@pg.corp.example/x', allowed: true }],
    ['the wildcard domain itself', { given: 'postgres://u@corp.example/x', allowed: false }],
    ['an address inside a CIDR', { given: 'mysql://u@10.1.2.3/x', allowed: true }],
    ['an IPv6 address inside a CIDR on its port', { given: 'postgres://u@[2001:db8::9]:5432/x', allowed: true }],
    ['an IPv6 address inside a CIDR on another port', { given: 'postgres://u@[2001:db8::9]:5433/x', allowed: false }],
    ['a single listed address', { given: 'postgres://u@192.0.2.7/x', allowed: true }],
    ['an unlisted name', { given: 'postgres://u@replica.example.com/x', allowed: false }],
    ['a name with one address outside every network', { given: 'postgres://u@split.example.com/x', allowed: false }],
    ['this machine when not listed', { given: 'postgres://u@127.0.0.1:5433/x', allowed: false }],
    ['the control plane even when listed', { given: 'postgres://sds@10.0.0.5:5432/sds', allowed: false }],
  ];
  for (const [name, { given, allowed: ok }] of cases) {
    it(`${ok ? 'allows' : 'refuses'} ${name}`, async () => {
      const outcome = await guard(entries).check(given).then(
        () => 'allowed',
        (error: Error) => error.message,
      );
      if (ok) expect(outcome).toBe('allowed');
      else expect(outcome).toMatch(/not among the database hosts this server allows|points at a server sds itself uses/);
    });
  }

  const unreadable: string[] = ['db.example.com:99999', '10.0.0.0/33', 'bad host', '10.0.0.0/8/1', 'db.example.com/24'];
  for (const entry of unreadable) {
    it(`refuses to start with "${entry}"`, () => expect(() => parseAllowedHosts(entry)).toThrow(/^SDS_ALLOWED_DATABASE_HOSTS: cannot read/));
  }
});

describe('settings', () => {
  it('SDS_ALLOWED_DATABASE_HOSTS is unset by default, and read when set', () => {
    expect(loadSettings({}).allowedDatabaseHosts).toBeUndefined();
    expect(loadSettings({ SDS_ALLOWED_DATABASE_HOSTS: ' ' }).allowedDatabaseHosts).toBeUndefined();
    expect(loadSettings({ SDS_ALLOWED_DATABASE_HOSTS: 'db.example.com:5432,10.0.0.0/8' }).allowedDatabaseHosts).toEqual([
      { name: 'db.example.com', port: 5432 },
      { network: { address: '10.0.0.0', prefix: 8, family: 'ipv4' } },
    ]);
    expect(() => loadSettings({ SDS_ALLOWED_DATABASE_HOSTS: 'not a host' })).toThrow(/^SDS_ALLOWED_DATABASE_HOSTS: cannot read "not a host"/);
  });

  it('SDS_CONNECT_TIMEOUT_MS defaults to 10 s and must be positive', () => {
    expect(loadSettings({}).connectTimeoutMs).toBe(10_000);
    expect(loadSettings({ SDS_CONNECT_TIMEOUT_MS: '2500' }).connectTimeoutMs).toBe(2_500);
    expect(() => loadSettings({ SDS_CONNECT_TIMEOUT_MS: '0' })).toThrow(/^SDS_CONNECT_TIMEOUT_MS must be a whole number of 1 or more/);
  });
});
