// Introspection from SQL DDL: nothing is parsed by hand. The script runs in a throw-away database
// on a real server of its engine (split into statements, data and privileges skipped), that
// database is introspected like any other, and dropped. Then the usual mapping stage.
import type { Catalog } from '../dialects/catalog.ts';
import type { Dialect, SqlExecutor, TargetConnection } from '../dialects/dialect.ts';
import { IntrospectionError, introspectionErrors } from './introspection-errors.ts';
import { mapCatalog, type IntrospectedConfig, type MapOptions } from './map-config.ts';
import { connectionFailure, readNamespace, type ReadOptions } from './read-catalog.ts';
import { planStatement, splitScript, type ScriptStatement } from './sql-script.ts';
import type { IntrospectionWarning } from './warnings.ts';

export interface SqlImportOptions extends ReadOptions, MapOptions {
  /** The engine the DDL is written for. */
  dialect: Dialect;
  /** A server of that engine on which sds may create (and drop) a database. */
  serverUrl: string;
}

/** A schema config for the tables a DDL script creates, with warnings for what it skipped. */
export async function introspectSql(script: string, options: SqlImportOptions): Promise<IntrospectedConfig> {
  const { dialect } = options;
  const statements = splitScript(script, dialect.scriptSyntax);
  const scratch = await dialect.createScratchDatabase(options.serverUrl).catch((error: unknown) => {
    const mapped = dialect.mapError(error);
    if (mapped.kind === 'connection') throw connectionFailure(dialect, error);
    throw introspectionErrors.noScratchServer(`sds cannot create a throw-away database on the server that runs the DDL${mapped.code ? ` (${mapped.code})` : ''}: its user needs the right to create databases`);
  });
  try {
    // The script may change its session (search_path, sql_mode): the catalog is read on a fresh one.
    const scriptWarnings = await withConnection(dialect, scratch.url, (connection) => runScript(connection, statements));
    const catalog = await withConnection(dialect, scratch.url, (connection) => readScriptNamespace(connection, options, scratch.namespace));
    const result = mapCatalog(catalog, options);
    return { config: result.config, warnings: [...scriptWarnings, ...result.warnings] };
  } finally {
    await scratch.drop().catch(() => {});
  }
}

async function withConnection<T>(dialect: Dialect, url: string, work: (connection: TargetConnection) => Promise<T>): Promise<T> {
  const connection = await dialect.connect(url);
  try {
    return await work(connection);
  } finally {
    await connection.close().catch(() => {});
  }
}

/**
 * Runs the statements in order on one session. A failing DDL statement fails the import with its
 * line and the server's message; a failing session setting, extension or routine is a warning.
 */
async function runScript(connection: TargetConnection, statements: ScriptStatement[]): Promise<IntrospectionWarning[]> {
  const skipped = new Map<string, number[]>();
  const failed: IntrospectionWarning[] = [];
  const savepoints = connection.dialect.capabilities.transactionalDdl;
  await connection.transaction(async (tx) => {
    for (const statement of statements) {
      const plan = planStatement(statement);
      if (plan.action === 'skip') {
        if (!plan.quiet) skipped.set(plan.reason, [...(skipped.get(plan.reason) ?? []), statement.line]);
        continue;
      }
      if (!plan.tolerated) {
        await tx.query(statement.text, []).catch((error: unknown) => {
          throw introspectionErrors.statement(statement.line, serverMessage(error));
        });
        continue;
      }
      const failure = await tolerated(tx, statement.text, savepoints);
      if (failure) failed.push({ message: `line ${statement.line}: ${firstWords(statement.text)} failed (${failure}); skipped` });
    }
  });
  const summaries = [...skipped].map(([reason, lines]) => ({
    message: `${lines.length} statement${lines.length === 1 ? '' : 's'} skipped (line${lines.length === 1 ? '' : 's'} ${lineList(lines)}): ${reason}`,
  }));
  return [...summaries, ...failed];
}

async function tolerated(tx: SqlExecutor, sql: string, savepoints: boolean): Promise<string | undefined> {
  if (savepoints) await tx.query('SAVEPOINT sds_statement', []);
  try {
    await tx.query(sql, []);
    if (savepoints) await tx.query('RELEASE SAVEPOINT sds_statement', []);
    return undefined;
  } catch (error) {
    if (savepoints) await tx.query('ROLLBACK TO SAVEPOINT sds_statement', []);
    return serverMessage(error);
  }
}

/**
 * The namespace holding the script's tables: the one asked for; else where the engine puts
 * unqualified tables (the scratch database on MySQL, `public` on PostgreSQL); else, when that is
 * empty, the only namespace the script created.
 */
async function readScriptNamespace(connection: TargetConnection, options: ReadOptions, scratchNamespace: string | undefined): Promise<Catalog> {
  if (options.namespace !== undefined || scratchNamespace !== undefined) return readNamespace(connection, { ...options, namespace: options.namespace ?? scratchNamespace });
  const fallback = await connection.currentNamespace();
  const catalog = fallback === undefined ? undefined : await connection.readCatalog(fallback);
  if (catalog && catalog.tables.length > 0) return readNamespace(connection, { ...options, namespace: fallback });
  const others = (catalog?.namespaces ?? []).filter((name) => name !== fallback);
  if (others.length === 1) return readNamespace(connection, { ...options, namespace: others[0] });
  const word = connection.dialect.facts.namespaceField;
  if (others.length === 0) throw new IntrospectionError('invalid', 'The script creates no tables');
  throw new IntrospectionError('invalid', `The script creates tables in several ${word}s (${others.join(', ')}): name the one to introspect`);
}

function serverMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/\s+/g, ' ').trim();
}

function firstWords(sql: string): string {
  const words = sql.replace(/\/\*!\d*|\*\//g, ' ').trim().split(/\s+/).slice(0, 4).join(' ');
  return words.length > 60 ? `${words.slice(0, 60)}…` : words;
}

function lineList(lines: number[]): string {
  return lines.length <= 5 ? lines.join(', ') : `${lines.slice(0, 5).join(', ')} and ${lines.length - 5} more`;
}
