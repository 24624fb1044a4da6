// The dialects by source kind and by connection URL scheme. Adding an engine is a folder under
// src/dialects/ and a line in DIALECTS and in DIALECT_FACTS (facts.ts; the contract's SourceKind names it).
import type { SourceKind } from '../contract.ts';
import type { Dialect, DriverError } from './dialect.ts';
import { urlScheme } from './facts.ts';
import { mysqlDialect } from './mysql/mysql-dialect.ts';
import { postgresDialect } from './postgres/postgres-dialect.ts';

export type { Dialect, DriverError, TargetConnection } from './dialect.ts';
export { mysqlDialect, postgresDialect };
export { DIALECT_FACTS, ENGINE_KINDS } from './facts.ts';

/** Every engine sds serves, by source kind. */
export const DIALECTS = {
  postgres: postgresDialect,
  mysql: mysqlDialect,
} as const satisfies Record<SourceKind, Dialect>;

const DIALECT_LIST: readonly Dialect[] = Object.values(DIALECTS);

/** The dialect of a source kind. */
export function dialectOfKind(kind: SourceKind): Dialect {
  return DIALECTS[kind];
}

/** The dialect whose URL schemes include the connection URL's (postgres:// or postgresql://, mysql:// or mariadb://…). */
export function dialectFor(url: string): Dialect {
  const scheme = urlScheme(url);
  const dialect = scheme === undefined ? undefined : DIALECT_LIST.find((candidate) => candidate.facts.urlSchemes.includes(scheme));
  if (!dialect) {
    const schemes = DIALECT_LIST.flatMap((candidate) => candidate.facts.urlSchemes.map((name) => `${name}://`));
    throw new Error(`Unsupported database URL scheme ${scheme === undefined ? '(none)' : `"${scheme}:"`}: use ${schemes.slice(0, -1).join(', ')} or ${schemes.at(-1)}`);
  }
  return dialect;
}

/** Whether a connection URL is one of this dialect's. */
export function acceptsUrl(dialect: Dialect, url: string): boolean {
  const scheme = urlScheme(url);
  return scheme !== undefined && dialect.facts.urlSchemes.includes(scheme);
}

/** Whether a namespace is reserved on any engine: sds keeps out of every server's system namespaces. */
export function isReservedNamespace(namespace: string): boolean {
  return DIALECT_LIST.some((dialect) => dialect.facts.reservedNamespace.test(namespace));
}

/**
 * A driver error from any engine (the control plane's or a target's), mapped by the first dialect
 * that recognises it; `other` when none does. For layers that get an error without knowing its engine.
 */
export function mapAnyDriverError(error: unknown): DriverError {
  let mapped: DriverError | undefined;
  for (const dialect of DIALECT_LIST) {
    mapped = dialect.mapError(error);
    if (mapped.kind !== 'other') return mapped;
  }
  return mapped!;
}
