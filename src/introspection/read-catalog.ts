// Stage 1 of introspection: connection string → catalog model. Connects once through the URL's
// dialect, reads one namespace (the one named, or the connection's own), keeps the tables asked
// for, and turns every failure into an IntrospectionError that never repeats the URL.
import type { Catalog } from '../dialects/catalog.ts';
import type { ConnectOptions, Dialect, TargetConnection } from '../dialects/dialect.ts';
import { dialectFor } from '../dialects/index.ts';
import { IntrospectionError, introspectionErrors } from './introspection-errors.ts';

export interface ReadOptions {
  /** PostgreSQL schema or MySQL database; default the connection's own (`public`, the URL's database). */
  namespace?: string;
  /** Only these tables (database names); default all. */
  tables?: string[];
  /** Limits of the connection (its connect timeout). */
  connect?: ConnectOptions;
}

/** The dialect of a connection string, or an IntrospectionError saying why there is none. */
export function dialectOfUrl(url: string): Dialect {
  if (!URL.canParse(url)) throw introspectionErrors.badUrl('it is not a URL (postgres://user:password@host:5432/database or mysql://…)');
  try {
    return dialectFor(url);
  } catch (error) {
    throw introspectionErrors.badUrl((error as Error).message.replace(/^Unsupported database URL scheme/, 'unsupported scheme'));
  }
}

/** Connects, reads the catalog and closes: the connection string is used for this one read. */
export async function readCatalog(url: string, options: ReadOptions = {}): Promise<Catalog> {
  const dialect = dialectOfUrl(url);
  const connection = await dialect.connect(url, options.connect).catch((error: unknown) => {
    // Before the server has said who it is, a failure without a database's error code is the
    // network's or the server's (a port speaking another protocol), never sds's bug.
    const failure = connectionFailure(dialect, error, true);
    throw failure;
  });
  try {
    return await readNamespace(connection, options);
  } catch (error) {
    throw error instanceof IntrospectionError ? error : connectionFailure(dialect, error);
  } finally {
    await connection.close().catch(() => {});
  }
}

/** Reads the catalog over an open connection (also the DDL import's scratch database). */
export async function readNamespace(connection: TargetConnection, options: ReadOptions = {}): Promise<Catalog> {
  const word = connection.dialect.facts.namespaceField;
  const namespace = options.namespace ?? (await connection.currentNamespace());
  if (namespace === undefined) throw introspectionErrors.noNamespace(word);
  const catalog = await connection.readCatalog(namespace);
  if (!catalog.exists) throw introspectionErrors.namespaceMissing(word, namespace, catalog.namespaces);
  if (catalog.tables.length === 0 && catalog.views.length === 0) throw introspectionErrors.noTables(word, namespace, catalog.namespaces);
  // Tables in code-point order of their names, whatever the database's collation sorts by.
  catalog.tables.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  if (!options.tables) return catalog;
  const wanted = new Set(options.tables);
  const known = new Set([...catalog.tables.map((table) => table.name), ...catalog.views]);
  const missing = options.tables.filter((name) => !known.has(name));
  if (missing.length) throw introspectionErrors.unknownTables(missing, [...known]);
  return { ...catalog, tables: catalog.tables.filter((table) => wanted.has(table.name)), views: catalog.views.filter((view) => wanted.has(view)) };
}

/**
 * A driver failure as the user can act on it: credentials, a missing database, an unreachable
 * server, a server failing. `connecting`: the failure came before the connection was made.
 */
export function connectionFailure(dialect: Dialect, error: unknown, connecting = false): IntrospectionError {
  if (error instanceof IntrospectionError) return error;
  const mapped = dialect.mapError(error);
  // The server's own failure (internal error XX…, system error 58…), not the request's nor the network's.
  if (mapped.code !== undefined && /^(XX|58)/.test(mapped.code)) return introspectionErrors.serverFailed(mapped.code);
  if (mapped.kind === 'connection') {
    switch (mapped.connectionProblem) {
      case 'credentials':
        return introspectionErrors.credentials(mapped.code);
      case 'database':
        return introspectionErrors.databaseMissing(mapped.code);
      default:
        return introspectionErrors.unreachable(mapped.code);
    }
  }
  if (mapped.code === undefined) {
    if (connecting) return introspectionErrors.unreachable(undefined);
    // Not the database's doing (no error code): a bug, thrown as it is (it carries no connection string).
    throw error;
  }
  return introspectionErrors.failed(mapped.code);
}
