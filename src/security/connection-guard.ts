// The connection-string guard: every database URL that comes from a request (a source's own
// server, introspection) is checked here before sds opens any connection with it. It refuses
// control characters, Unix sockets, parameters other than the engine's TLS settings, the control
// plane's and the default targets' servers (any database on them: they share logins), hosts outside
// the operator's allowlist (SDS_ALLOWED_DATABASE_HOSTS) and link-local or multicast addresses.
import type { LookupAddress } from 'node:dns';
import { lookup } from 'node:dns/promises';
import { BlockList, isIP, isIPv4, type LookupFunction } from 'node:net';
import os from 'node:os';
import type { Dialect } from '../dialects/dialect.ts';
import { UNREACHABLE_CODE } from '../dialects/driver-errors.ts';
import { dialectFor } from '../dialects/index.ts';

/** Why a connection string was refused: `invalid` (the string itself), `forbidden` (where it points), `unresolvable` (DNS). */
export type ConnectionRefusalKind = 'invalid' | 'forbidden' | 'unresolvable';

/** A refused connection string. `message` never repeats the string nor its password. */
export class ConnectionRefusal extends Error {
  constructor(
    readonly kind: ConnectionRefusalKind,
    message: string,
  ) {
    super(message);
    this.name = 'ConnectionRefusal';
  }
}

/** One entry of SDS_ALLOWED_DATABASE_HOSTS: a host name (`*.` for any subdomain) or a CIDR, with an optional port. */
export interface AllowedHost {
  /** Lower-case host name, `*.example.com`, or undefined for a CIDR entry. */
  name?: string;
  /** CIDR entries: the network. */
  network?: { address: string; prefix: number; family: 'ipv4' | 'ipv6' };
  port?: number;
}

/** What a checked connection string points at. */
export interface CheckedTarget {
  dialect: Dialect;
  host: string;
  port: number;
  /** Every address the host resolved to. */
  addresses: string[];
  /** For the connection (ConnectOptions.lookup): resolves the host again, refusing what the check refuses. */
  lookup: LookupFunction;
}

export interface ConnectionGuardOptions {
  /** Servers no request may point at: the control plane and the default targets (any database on them). */
  protectedUrls: Array<string | undefined>;
  /** SDS_ALLOWED_DATABASE_HOSTS; undefined: any host but the protected servers, link-local and multicast addresses. */
  allowedHosts?: AllowedHost[] | undefined;
  /** DNS, every address of a host name (tests replace it). */
  resolve?: (host: string) => Promise<string[]>;
}

const CONTROL_CHARACTER = /[\u0000-\u001f\u007f]/;
const ENCODED_CONTROL_CHARACTER = /%(?:[01][0-9a-f]|7f)/i;
/** Host names and IPv4 addresses as letters, digits, dots and hyphens; IPv6 in brackets. */
const HOST_NAME = /^[a-z0-9](?:[a-z0-9.-]*[a-z0-9])?$/i;
const IPV6_LITERAL = /^\[[0-9a-f:.]+\]$/i;

/** Addresses of no database: link-local (cloud metadata services live there), multicast, broadcast. */
const NEVER = new BlockList();
NEVER.addSubnet('169.254.0.0', 16, 'ipv4');
NEVER.addSubnet('224.0.0.0', 4, 'ipv4');
NEVER.addAddress('255.255.255.255', 'ipv4');
NEVER.addSubnet('fe80::', 10, 'ipv6');
NEVER.addSubnet('ff00::', 8, 'ipv6');

/** This machine, however it is addressed: loopback, unspecified (0.0.0.0 connects here) and its own interfaces. */
const THIS_MACHINE = 'this machine';

export class ConnectionGuard {
  private readonly resolve: (host: string) => Promise<string[]>;
  private readonly allowed: AllowedHost[] | undefined;
  private readonly protectedUrls: string[];

  constructor(options: ConnectionGuardOptions) {
    this.resolve = options.resolve ?? resolveAll;
    this.allowed = options.allowedHosts;
    this.protectedUrls = options.protectedUrls.filter((url): url is string => url !== undefined);
  }

  /**
   * Checks `url` before any connection; `expected`, when given, is the dialect it must be for.
   * Throws a ConnectionRefusal saying what is wrong (never repeating the string). The answer's
   * `lookup` is for the connection itself: it resolves the host again and refuses what the check refuses.
   */
  async check(url: string, expected?: Dialect): Promise<CheckedTarget> {
    const parsed = parseConnectionString(url, expected);
    const addresses = await this.addressesOf(parsed.host);
    const verdict = await this.verdictFor(parsed.host, parsed.port);
    for (const address of addresses) {
      const refused = verdict(address);
      if (refused) throw refusal('forbidden', refused);
    }
    return { ...parsed, addresses, lookup: checkedLookup(this.resolve, verdict) };
  }

  private async addressesOf(host: string): Promise<string[]> {
    if (isIP(host)) return [host];
    try {
      const addresses = await this.resolve(host);
      if (addresses.length > 0) return addresses;
    } catch {
      // Said the same way as no address at all.
    }
    throw refusal('unresolvable', `the host ${host} cannot be resolved`);
  }

  /**
   * Why an address of host:port is refused (undefined: allowed): link-local or multicast, the
   * control plane's or a default target's server (by name, or any of their addresses, this
   * machine's being one), outside the allowlist.
   */
  private async verdictFor(host: string, port: number): Promise<(address: string) => string | undefined> {
    const protectedKeys = new Set<string>();
    let protectedName = false;
    for (const url of this.protectedUrls) {
      const server = protectedServer(url);
      if (!server || server.port !== port) continue;
      if (server.host === host) protectedName = true;
      for (const address of await this.addressesOf(server.host).catch(() => [] as string[])) protectedKeys.add(machineKey(address));
    }
    const allowed = this.allowed;
    const byName = allowed?.some((entry) => entry.name !== undefined && (entry.port === undefined || entry.port === port) && nameMatches(entry.name, host)) ?? true;
    const networks = new BlockList();
    for (const entry of allowed ?? []) if (entry.network && (entry.port === undefined || entry.port === port)) networks.addSubnet(entry.network.address, entry.network.prefix, entry.network.family);
    return (address) => {
      const plain = plainAddress(address);
      const family = isIPv4(plain) ? 'ipv4' : 'ipv6';
      if (NEVER.check(plain, family)) return `the host resolves to ${plain}, a link-local, multicast or broadcast address`;
      if (protectedName || protectedKeys.has(machineKey(plain))) return 'it points at a server sds itself uses (its control plane or a default target): give your own database server';
      if (!byName && !networks.check(plain, family)) return `the host ${host}:${port} is not among the database hosts this server allows (SDS_ALLOWED_DATABASE_HOSTS)`;
      return undefined;
    };
  }
}

/**
 * The host and port of one of the operator's own URLs. One that names no TCP host (a Unix socket:
 * `%2Fvar%2Frun%2Fpostgresql`, `?host=/tmp`) is a server on this machine, on its port.
 */
function protectedServer(url: string): { host: string; port: number } | undefined {
  try {
    const server = parseConnectionString(url, undefined, { trusted: true });
    const socket = new URL(url).searchParams.get('host');
    return socket?.startsWith('/') ? { host: 'localhost', port: server.port } : server;
  } catch {
    try {
      const dialect = dialectFor(url);
      const parsed = new URL(url);
      return { host: 'localhost', port: Number(parsed.port || parsed.searchParams.get('port') || dialect.facts.defaultPort) };
    } catch {
      return undefined;
    }
  }
}

/**
 * A net.connect lookup that resolves as the system does and fails (as a network error, code
 * UNREACHABLE_CODE) when any address is one the check refuses: a DNS answering one address to the
 * check and another to the connection (rebinding) reaches nothing.
 */
function checkedLookup(resolve: (host: string) => Promise<string[]>, verdict: (address: string) => string | undefined): LookupFunction {
  return (hostname, options, callback) => {
    const reply = callback as (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;
    const unreachable = () => reply(Object.assign(new Error('The database server cannot be reached'), { code: UNREACHABLE_CODE }), '');
    (isIP(hostname) ? Promise.resolve([hostname]) : resolve(hostname)).then(
      (addresses) => {
        const entries = addresses
          .map((address) => ({ address, family: isIPv4(address) ? 4 : 6 }))
          .filter((entry) => !options.family || entry.family === options.family);
        if (entries.length === 0 || entries.some((entry) => verdict(entry.address) !== undefined)) return unreachable();
        if (options.all) reply(null, entries);
        else reply(null, entries[0]!.address, entries[0]!.family);
      },
      () => unreachable(),
    );
  };
}

/**
 * The parts of a connection string sds connects with, once it is known to hold nothing but a
 * host, port, user, password, database and the engine's TLS parameters. `trusted`: the operator's
 * own URLs (only host and port are read).
 */
export function parseConnectionString(url: string, expected?: Dialect, options: { trusted?: boolean } = {}): { dialect: Dialect; host: string; port: number } {
  const trusted = options.trusted === true;
  if (!trusted) {
    const raw = CONTROL_CHARACTER.exec(url);
    if (raw) throw refusal('invalid', `it holds a control character (U+${raw[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')})`);
    const encoded = ENCODED_CONTROL_CHARACTER.exec(url);
    if (encoded) throw refusal('invalid', `it holds an encoded control character (${encoded[0].toUpperCase()})`);
  }
  if (!URL.canParse(url)) throw refusal('invalid', 'it is not a URL (postgres://user:password@host:5432/database or mysql://…)');
  let dialect: Dialect;
  try {
    dialect = dialectFor(url);
  } catch (error) {
    throw refusal('invalid', (error as Error).message.replace(/^Unsupported database URL scheme/, 'unsupported scheme'));
  }
  if (expected && dialect !== expected) throw refusal('invalid', `it is a ${dialect.kind} URL, not a ${expected.kind} one (${expected.facts.urlExample})`);
  const parsed = new URL(url);
  const rawHost = parsed.hostname;
  if (rawHost === '') throw refusal('invalid', 'it names no host: give the database server as host:port');
  if (/^(?:\/|%2f)/i.test(rawHost) || /%2f/i.test(rawHost)) throw refusal('invalid', 'Unix sockets are not allowed: give the database server as host:port');
  if (!HOST_NAME.test(rawHost) && !IPV6_LITERAL.test(rawHost)) throw refusal('invalid', 'the host must be a host name or an IP address');
  const host = rawHost.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  if (IPV6_LITERAL.test(rawHost) && isIP(host) !== 6) throw refusal('invalid', 'the host must be a host name or an IP address');
  const port = parsed.port === '' ? dialect.facts.defaultPort : Number(parsed.port);
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw refusal('invalid', 'the port must be between 1 and 65535');
  if (trusted) return { dialect, host, port };

  const user = decoded(parsed.username, 'user name');
  decoded(parsed.password, 'password');
  decoded(parsed.pathname.slice(1), 'database name');
  if (user === '') throw refusal('invalid', 'it names no user: give user@host');
  if (parsed.hash !== '') throw refusal('invalid', 'it has a fragment (#…): remove it');
  const allowed = dialect.facts.urlParameters;
  const names = Object.keys(allowed);
  for (const [name, value] of parsed.searchParams) {
    const values = Object.hasOwn(allowed, name) ? allowed[name]! : undefined;
    if (!values) {
      throw refusal('invalid', `the parameter "${name}" is not allowed: ${names.length ? `${dialect.facts.label} connection strings may carry only ${names.join(', ')}` : 'give no parameters'}`);
    }
    if (!values.includes(value)) throw refusal('invalid', `the parameter ${name} must be one of ${values.join(', ')}`);
  }
  return { dialect, host, port };
}

/**
 * SDS_ALLOWED_DATABASE_HOSTS: comma-separated host names (`db.example.com`, `*.example.com`) or
 * CIDRs (`10.0.0.0/8`, `2001:db8::/32`), each with an optional `:port` (IPv6 in brackets:
 * `[2001:db8::/32]:5432`). Throws with the entry that cannot be read.
 */
export function parseAllowedHosts(value: string): AllowedHost[] {
  return value
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '')
    .map((entry) => {
      const bad = () => new Error(`SDS_ALLOWED_DATABASE_HOSTS: cannot read "${entry}": give host names (db.example.com, *.example.com) or CIDRs (10.0.0.0/8, [2001:db8::/32]), each with an optional :port`);
      const match = /^(?:\[([^\]]+)\]|([^:]+))(?::(\d{1,5}))?$/.exec(entry) ?? (isIP(entry.split('/')[0]!) === 6 ? [entry, entry, undefined, undefined] : null);
      if (!match) throw bad();
      const host = (match[1] ?? match[2])!.toLowerCase();
      const port = match[3] === undefined ? undefined : Number(match[3]);
      if (port !== undefined && (port < 1 || port > 65535)) throw bad();
      const [address, prefixText, ...rest] = host.split('/');
      if (rest.length > 0) throw bad();
      const family = isIP(address!);
      if (family) {
        const max = family === 4 ? 32 : 128;
        const prefix = prefixText === undefined ? max : Number(prefixText);
        if (!/^\d{1,3}$/.test(prefixText ?? String(max)) || prefix > max) throw bad();
        return { network: { address: address!, prefix, family: family === 4 ? 'ipv4' : 'ipv6' }, ...(port !== undefined ? { port } : {}) };
      }
      if (prefixText !== undefined || !HOST_NAME.test(host.replace(/^\*\./, ''))) throw bad();
      return { name: host, ...(port !== undefined ? { port } : {}) };
    });
}

function nameMatches(pattern: string, host: string): boolean {
  return pattern.startsWith('*.') ? host.endsWith(pattern.slice(1)) && host.length > pattern.length - 1 : pattern === host;
}

/** An address as compared with others: every address of this machine is one. */
function machineKey(address: string): string {
  const plain = plainAddress(address);
  if (/^127\./.test(plain) || plain === '::1' || plain === '0.0.0.0' || plain === '::' || ownAddresses().has(plain)) return THIS_MACHINE;
  return plain;
}

/** An IPv4-mapped IPv6 address is its IPv4 address: `::ffff:10.0.0.1` and `::ffff:a00:1` (as URLs write it) are 10.0.0.1. */
function plainAddress(address: string): string {
  const dotted = /^(?:0{0,4}:){0,5}:?ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (dotted) return dotted[1]!;
  const hex = /^(?:0{0,4}:){0,5}:?ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (hex) {
    const high = parseInt(hex[1]!, 16);
    const low = parseInt(hex[2]!, 16);
    return [high >> 8, high & 255, low >> 8, low & 255].join('.');
  }
  return address.toLowerCase();
}

function ownAddresses(): Set<string> {
  return new Set(
    Object.values(os.networkInterfaces())
      .flatMap((list) => list ?? [])
      .map((info) => plainAddress(info.address.replace(/%.*$/, ''))),
  );
}

function decoded(part: string, what: string): string {
  try {
    const text = decodeURIComponent(part);
    if (CONTROL_CHARACTER.test(text)) throw refusal('invalid', `the ${what} holds a control character`);
    return text;
  } catch (error) {
    if (error instanceof ConnectionRefusal) throw error;
    throw refusal('invalid', `the ${what} holds malformed percent-encoding`);
  }
}

/** Longest wait for DNS: a resolver that never answers must not hold the request. */
const RESOLVE_TIMEOUT_MS = 5_000;

async function resolveAll(host: string): Promise<string[]> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('DNS lookup timed out')), RESOLVE_TIMEOUT_MS);
  });
  try {
    return (await Promise.race([lookup(host, { all: true, verbatim: true }), timeout])).map((entry) => entry.address);
  } finally {
    clearTimeout(timer);
  }
}

function refusal(kind: ConnectionRefusalKind, message: string): ConnectionRefusal {
  return new ConnectionRefusal(kind, message);
}
