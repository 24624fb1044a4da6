// Introspection, the pipeline: read the catalog (read-catalog.ts) → catalog model (dialects'
// catalog.ts) → schema config + warnings (map-config.ts). Each stage hands plain data to the next;
// failures come from one catalogue (introspection-errors.ts).
import { mapCatalog, type IntrospectedConfig, type MapOptions } from './map-config.ts';
import { readCatalog, type ReadOptions } from './read-catalog.ts';

export type { IntrospectedConfig } from './map-config.ts';
export type { IntrospectionWarning } from './warnings.ts';
export { IntrospectionError } from './introspection-errors.ts';

export interface IntrospectOptions extends ReadOptions, MapOptions {}

/** A schema config for the tables of a live database, and what it could not carry over. */
export async function introspectDatabase(url: string, options: IntrospectOptions = {}): Promise<IntrospectedConfig> {
  const catalog = await readCatalog(url, options);
  return mapCatalog(catalog, options);
}
