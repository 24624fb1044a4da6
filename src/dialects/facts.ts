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

/**
 * Engines by kind, as DIALECT_FACTS holds them: what the lists below are derived from (every
 * function takes one, DIALECT_FACTS by default, so that a registry with a stub engine can be tried).
 */
export type EngineRegistry<K extends string = SourceKind> = Readonly<Record<K, DialectFacts>>;

const registered = <K extends string>(registry: EngineRegistry<K> | undefined): EngineRegistry<K> =>
  registry ?? (DIALECT_FACTS as unknown as EngineRegistry<K>);

/** The kinds of a registry, in its order. */
export function engineKinds<K extends string = SourceKind>(registry?: EngineRegistry<K>): K[] {
  return Object.keys(registered(registry)) as K[];
}

/** The source kind whose URL schemes include the connection URL's; undefined for none. */
export function kindOfUrl<K extends string = SourceKind>(url: string, registry?: EngineRegistry<K>): K | undefined {
  const engines = registered(registry);
  const scheme = urlScheme(url);
  return scheme === undefined ? undefined : engineKinds(engines).find((kind) => engines[kind].urlSchemes.includes(scheme));
}

/** Each engine's default target, from the environment variable it names (`defaultTargetEnv`): kinds whose variable is unset or empty are left out. */
export function defaultTargetUrls<K extends string = SourceKind>(env: Readonly<Record<string, string | undefined>>, registry?: EngineRegistry<K>): Partial<Record<K, string>> {
  const engines = registered(registry);
  const urls: Partial<Record<K, string>> = {};
  for (const kind of engineKinds(engines)) {
    const url = env[engines[kind].defaultTargetEnv]?.trim();
    if (url) urls[kind] = url;
  }
  return urls;
}

/** The connection strings a kind of engine takes, as messages show them: `postgres://… or mysql://…`. */
export function urlExamples<K extends string = SourceKind>(registry?: EngineRegistry<K>): string {
  const engines = registered(registry);
  return engineKinds(engines).map((kind) => engines[kind].urlExample).join(' or ');
}

/** The lower-case scheme of a URL (`postgres`, `mysql`…); undefined when it has none. */
export function urlScheme(url: string): string | undefined {
  return /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(url)?.[1]?.toLowerCase();
}
