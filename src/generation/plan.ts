// The generation plan of a config: seeds, row counts, reference date, insert order (parents first),
// table specs, and the reference columns that must wait until every row exists (cycles, self references).
import type { TableSpec } from '../model/table-spec.ts';
import type { Entity, SchemaConfig } from '../model/config-types.ts';
import { entityOrder, referenceEdges, resolveRowCount } from '../model/config-graph.ts';
import { normalizeLocale, normalizeTimeZone } from './config-lookups.ts';
import { buildTableSpecs } from '../model/table-spec.ts';
import { RandomStream, streamKey } from './random.ts';
import { GENERATOR_VERSIONS, type GeneratorVersion } from './versions.ts';

/**
 * Generator versions (versions.ts): same version + seed + config → same rows, forever. A source
 * keeps the version it was created with until its owner moves it (generatorConfig.generatorVersion).
 */
export { GENERATOR_VERSIONS, type GeneratorVersion } from './versions.ts';
/** What new sources, previews and the CLI use unless told otherwise. */
export const LATEST_GENERATOR_VERSION: GeneratorVersion = 5;

/** The full name of a generator version, recorded in each job and audit (faker's version is part of it). */
export function generatorVersionName(version: GeneratorVersion): string {
  return `${version}.0.0+faker-10.6.0`;
}

/** Name of version 1, recorded by every generation before versions could be chosen. */
export const GENERATOR_VERSION = generatorVersionName(1);

/** Seed used when neither the options, the entity nor the config's defaults set one. */
export const DEFAULT_SEED = 'sds';

export interface GenerationOptions {
  /** Overrides every seed of the config. */
  seed?: string | number;
  /** Row counts by entity id; they win over the config's `rowCount`. */
  rowCounts?: Record<string, number>;
  /** ISO date or datetime that relative dateRange bounds (`now`, `-30d`) count from; default today's UTC midnight. */
  referenceDate?: string;
  /**
   * Generator version (default 1, so data made through this library never changes by surprise;
   * sources, previews and the CLI pass LATEST_GENERATOR_VERSION unless told otherwise).
   */
  generatorVersion?: GeneratorVersion;
}

export interface EntityPlan {
  id: string;
  table: TableSpec;
  rowCount: number;
  /** Nullable reference columns inserted as null and filled by `deferredUpdates` once every row exists. */
  deferredColumns: string[];
  /** Seed of this entity's values: options.seed > entity seed > defaults' seed > 'sds'. */
  seed: string;
  /** Faker locale (normalised, e.g. `en_US`) and IANA time zone of this entity. */
  locale: string;
  timezone: string;
}

export interface GenerationPlan {
  seed: string;
  /** ISO datetime (UTC) standing for `now`. */
  referenceDate: string;
  /** Full name of the generator version (`2.0.0+faker-10.6.0`). */
  generatorVersion: string;
  /** The generator version as a number: what value programs branch on. */
  version: GeneratorVersion;
  /** Insert order: parents first. */
  entities: EntityPlan[];
  warnings: { path: string; message: string }[];
}

/** Plans the generation of a valid config (see `validateConfig`); throws on a reference it cannot satisfy. */
export function planGeneration(config: SchemaConfig, options: GenerationOptions = {}): GenerationPlan {
  const warnings: GenerationPlan['warnings'] = [];
  const defaults = config.generationDefaults;
  const seed = String(options.seed ?? defaults?.seed ?? DEFAULT_SEED);
  const referenceDate = resolveReferenceDate(options.referenceDate);
  const entities = new Map(config.entities.map((entity, index) => [entity.id, { entity, index }]));

  for (const [id, count] of Object.entries(options.rowCounts ?? {})) {
    if (!entities.has(id)) warnings.push({ path: '/entities', message: `rowCounts names unknown entity "${id}"; it is ignored` });
    else if (!Number.isSafeInteger(count) || count < 0) {
      warnings.push({ path: '/entities', message: `rowCounts.${id} is ${count}, not an integer ≥ 0; the config's rowCount is used` });
    }
  }

  const order = entityOrder(config);
  const position = new Map(order.map((id, i) => [id, i]));
  const deferred = new Map<string, string[]>();
  for (const edge of referenceEdges(config)) {
    if ((position.get(edge.target.entity) ?? -1) < (position.get(edge.entity) ?? -1)) continue;
    if (!edge.nullable) {
      throw new Error(`${edge.entity}.${edge.field} closes a reference cycle but is not nullable, so it cannot be filled after insert`);
    }
    deferred.set(edge.entity, [...(deferred.get(edge.entity) ?? []), edge.field]);
  }

  const seeds = entitySeeds(config, options);
  const rowCounts = plannedRowCounts(config, options, seeds);
  const tables = buildTableSpecs(config, rowCounts);

  const plans = order.flatMap((id): EntityPlan[] => {
    const found = entities.get(id);
    if (!found) return [];
    const { entity } = found;
    const generation = entity.generation;
    return [
      {
        id,
        table: tables.get(id)!,
        rowCount: rowCounts.get(id)!,
        deferredColumns: entity.fields.filter((field) => deferred.get(id)?.includes(field.id)).map((field) => field.id),
        seed: seeds.get(id)!,
        locale: fakerLocale(generation?.locale ?? defaults?.locale ?? 'en'),
        timezone: normalizeTimeZone(generation?.timezone ?? defaults?.timezone ?? 'UTC') ?? 'UTC',
      },
    ];
  });
  const version = options.generatorVersion ?? 1;
  if (!GENERATOR_VERSIONS.includes(version)) throw new RangeError(`generator version ${String(version)} does not exist (versions: ${GENERATOR_VERSIONS.join(', ')})`);
  return { seed, referenceDate, generatorVersion: generatorVersionName(version), version, entities: plans, warnings };
}

/** Seed of each entity's values by entity id: options.seed > entity seed > defaults' seed > 'sds'. */
function entitySeeds(config: SchemaConfig, options: GenerationOptions): Map<string, string> {
  const defaults = config.generationDefaults;
  return new Map(config.entities.map((entity) => [entity.id, String(options.seed ?? entity.generation?.seed ?? defaults?.seed ?? DEFAULT_SEED)]));
}

/**
 * The row count of each entity by id (options.rowCounts, else the config's, a range drawn from the
 * entity's seed): what the plan generates, and what decides which integer columns are bigint
 * (buildTableSpecs). Without options, the counts the runtime and files build their tables with.
 */
export function plannedRowCounts(config: SchemaConfig, options: GenerationOptions = {}, seeds = entitySeeds(config, options)): Map<string, number> {
  return new Map(config.entities.map((entity) => [entity.id, plannedRowCount(entity, config, options, seeds.get(entity.id)!)]));
}

function plannedRowCount(entity: Entity, config: SchemaConfig, options: GenerationOptions, seed: string): number {
  const override = options.rowCounts?.[entity.id];
  if (override !== undefined && Number.isSafeInteger(override) && override >= 0) return override;
  const { min, max } = resolveRowCount(entity, config.generationDefaults);
  if (min >= max) return min;
  return new RandomStream(streamKey(seed, entity.id, '$rowCount')).int(0, 0, min, max);
}

/** The faker locale a config names (`en-US` → `en_US`); else its language (`de-DE` → `de`); else `en`. */
function fakerLocale(locale: string): string {
  return normalizeLocale(locale) ?? normalizeLocale(locale.split(/[-_]/)[0] ?? '') ?? 'en';
}

/** `referenceDate` as a full ISO datetime; today's UTC midnight when absent. */
export function resolveReferenceDate(referenceDate: string | undefined): string {
  if (referenceDate === undefined) {
    const now = new Date();
    return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate())).toISOString();
  }
  const date = new Date(/^\d{4}-\d{2}-\d{2}$/.test(referenceDate) ? `${referenceDate}T00:00:00Z` : referenceDate);
  if (Number.isNaN(date.getTime())) throw new RangeError(`referenceDate "${referenceDate}" is not an ISO date or datetime`);
  return date.toISOString();
}
