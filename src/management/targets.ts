// Where sources keep their data: the service's default target of each kind (POSTGRES_TARGET_URL or
// the control-plane database; MYSQL_URL), or a source's own server from its encrypted connection
// string. Connections are pooled per server and shared by generation jobs and the runtime API.
// A source's own connection string passes the connection guard when the source is created, again
// when its pool is opened (a source stored before the guard, an allowlist since narrowed), and every
// connection of that pool resolves its host through the guard's lookup (DNS rebinding).
import type { LookupFunction } from 'node:net';
import type { ConnectOptions, Dialect, PoolStats, TargetConnection } from '../dialects/dialect.ts';
import { UNREACHABLE_CODE } from '../dialects/driver-errors.ts';
import { dialectFor, dialectOfKind } from '../dialects/index.ts';
import { errors } from '../errors.ts';
import { ConnectionRefusal, type ConnectionGuard } from '../security/connection-guard.ts';
import { SecretUnreadableError } from '../security/secrets.ts';
import type { SourceKind, SourceLocation } from '../store/sources.ts';

/** The service's default target server of each source kind, if it has one. */
export type TargetDefaults = Record<SourceKind, string | undefined>;

/**
 * A failed connect to a source's own server, as the runtime and the job's error show it: a network
 * failure of any kind (closed, filtered, another protocol) is one error, code UNREACHABLE_CODE;
 * refused credentials and the server's own errors stay as they were.
 */
function uniformFailure(dialect: Dialect, error: unknown): unknown {
  const mapped = dialect.mapError(error);
  // The server answered: a SQLSTATE (PostgreSQL) or a server error number (MySQL 1xxx, 3xxx, 4xxx).
  const answered = mapped.connectionProblem !== 'network' && mapped.code !== undefined && /^(?:[0-9A-Z]{5}|[134]\d{3})$/.test(mapped.code);
  if (answered || mapped.connectionProblem === 'credentials' || mapped.connectionProblem === 'database') return error;
  return Object.assign(new Error('The database server cannot be reached; check the host and port, and that it accepts connections'), { code: UNREACHABLE_CODE });
}

/** The dialect of a URL's scheme, or undefined. */
function dialectOfUrl(url: string) {
  try {
    return dialectFor(url);
  } catch {
    return undefined;
  }
}

export class Targets {
  private readonly connections = new Map<string, Promise<TargetConnection>>();
  /** The connections made so far, by key, for poolUse(). */
  private readonly opened = new Map<string, TargetConnection>();

  /**
   * `limits`: the query timeout of runtime statements, the idle limit of loads and the connect
   * timeout, on every target. `guard` checks sources' own connection strings.
   */
  constructor(
    private readonly defaults: TargetDefaults,
    private readonly readSecret: (secretId: string) => Promise<string>,
    private readonly limits: ConnectOptions,
    private readonly guard: ConnectionGuard,
  ) {}

  /** Checks a new source's target before anything is stored: 400 with a clear reason when unusable. */
  async assertUsable(kind: SourceKind, connectionString: string | undefined): Promise<void> {
    const dialect = dialectOfKind(kind);
    if (connectionString !== undefined) {
      if (dialectOfUrl(connectionString) !== dialect) {
        throw errors.badRequest(`config.connectionString must be a ${kind} connection string (${dialect.facts.urlExample}) for a ${kind} source`, [
          { path: '/body/config/connectionString', message: `expected a ${kind} URL` },
        ]);
      }
      await this.guard.check(connectionString, dialect).catch((error: unknown) => {
        if (!(error instanceof ConnectionRefusal)) throw error;
        throw errors.badRequest(`config.connectionString cannot be used: ${error.message}`, [{ path: '/body/config/connectionString', message: error.message }]);
      });
      return;
    }
    if (!this.defaults[kind]) {
      throw errors.badRequest(
        `This server has no ${dialect.facts.label} target: set ${dialect.facts.defaultTargetEnv} on the server, or give config.connectionString`,
        [{ path: '/body/kind', message: `no default ${kind} target is configured` }],
      );
    }
  }

  /** A pooled connection to the server holding a source's data. */
  async connect(location: SourceLocation): Promise<TargetConnection> {
    const key = location.connectionSecretId ?? `default:${location.kind}`;
    let connection = this.connections.get(key);
    if (!connection) {
      connection = (async () => {
        const own = location.connectionSecretId !== undefined ? await this.ownConnectionString(location.connectionSecretId) : undefined;
        const url = own?.url ?? this.defaults[location.kind];
        if (!url) throw new Error(`no ${location.kind} target is configured on this server`);
        const dialect = dialectFor(url);
        // The connect timeout is for teams' own servers (SDS_CONNECT_TIMEOUT_MS); the operator's default
        // targets keep the driver's own, so a short setting never fails generations on a busy server.
        const { connectTimeoutMs, ...serverLimits } = this.limits;
        const options: ConnectOptions = own ? { ...this.limits, fromRequest: true, lookup: own.lookup } : serverLimits;
        return dialect.connect(url, options).catch((error: unknown) => {
          throw own ? uniformFailure(dialect, error) : error;
        });
      })();
      this.connections.set(key, connection);
      // A failed connect must not be cached: the next call tries again.
      connection.then((opened) => this.opened.set(key, opened), () => this.connections.delete(key));
    }
    return connection;
  }

  /** A source's own connection string, decrypted and checked by the guard again, and the guard's lookup to connect with. */
  private async ownConnectionString(secretId: string): Promise<{ url: string; lookup: LookupFunction }> {
    let url: string;
    try {
      url = await this.readSecret(secretId);
    } catch (error) {
      // GCM refuses a key other than the one that sealed it: an instance started with another SDS_SECRET_KEY.
      if (error instanceof SecretUnreadableError) throw errors.secretUnreadable();
      throw error;
    }
    const { lookup } = await this.guard.check(url).catch((error: unknown) => {
      if (!(error instanceof ConnectionRefusal)) throw error;
      throw errors.targetRefused(error.message);
    });
    return { url, lookup };
  }

  /** Use of the pools of every target connected to (metrics), by connection key (`default:postgres`, a secret id). */
  poolUse(): Array<PoolStats & { database: string }> {
    return [...this.opened].flatMap(([database, connection]) => (connection.poolStats?.() ?? []).map((stats) => ({ database, ...stats })));
  }

  async close(): Promise<void> {
    const open = [...this.connections.values()];
    this.connections.clear();
    this.opened.clear();
    await Promise.all(open.map(async (connection) => (await connection.catch(() => undefined))?.close()));
  }
}
