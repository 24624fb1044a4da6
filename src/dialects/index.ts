// Picks the dialect of a target database from its connection URL's scheme.
import type { Dialect } from './dialect.ts';
import { mysqlDialect } from './mysql/mysql-dialect.ts';
import { postgresDialect } from './postgres/postgres-dialect.ts';

export type { Dialect, DriverError, TargetConnection } from './dialect.ts';
export { mysqlDialect, postgresDialect };

const DIALECTS_BY_SCHEME: Record<string, Dialect> = {
  postgres: postgresDialect,
  postgresql: postgresDialect,
  mysql: mysqlDialect,
  mariadb: mysqlDialect,
};

/** The dialect of a source kind. */
export function dialectOfKind(kind: 'postgres' | 'mysql'): Dialect {
  return kind === 'postgres' ? postgresDialect : mysqlDialect;
}

/** postgres:// or postgresql:// → PostgreSQL; mysql:// or mariadb:// → MySQL. */
export function dialectFor(url: string): Dialect {
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(url)?.[1]?.toLowerCase();
  const dialect = scheme === undefined ? undefined : DIALECTS_BY_SCHEME[scheme];
  if (!dialect) {
    throw new Error(
      `Unsupported database URL scheme ${scheme === undefined ? '(none)' : `"${scheme}:"`}: use postgres://, postgresql://, mysql:// or mariadb://`,
    );
  }
  return dialect;
}
