// Every engine's facts (label, URL schemes, default target variable…) by source kind, without its
// driver: for configuration, the CLI and messages, which must not load pg or mysql2 to name an engine.
// DIALECTS (index.ts) holds the same facts on each dialect; a new engine is a line here and a line there.
import type { SourceKind } from '../contract.ts';
import type { DialectFacts } from './dialect.ts';
import { mysqlFacts } from './mysql/mysql-facts.ts';
import { postgresFacts } from './postgres/postgres-facts.ts';

/** Every engine sds serves, by source kind: the facts of DIALECTS without the drivers. */
export const DIALECT_FACTS = {
  postgres: postgresFacts,
  mysql: mysqlFacts,
} as const satisfies Record<SourceKind, DialectFacts>;

/** The source kinds, in registry order. */
export const ENGINE_KINDS = Object.keys(DIALECT_FACTS) as SourceKind[];

/** The source kind whose URL schemes include the connection URL's; undefined for none. */
export function kindOfUrl(url: string): SourceKind | undefined {
  const scheme = urlScheme(url);
  return scheme === undefined ? undefined : ENGINE_KINDS.find((kind) => DIALECT_FACTS[kind].urlSchemes.includes(scheme));
}

/** The lower-case scheme of a URL (`postgres`, `mysql`…); undefined when it has none. */
export function urlScheme(url: string): string | undefined {
  return /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(url)?.[1]?.toLowerCase();
}
