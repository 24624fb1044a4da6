// Validation of schema configs: the JSON Schema first, then every semantic check of DESIGN.md
// ("Management API", validate) on the parts that are structurally sound, all errors at once, each with its fix.
import { MAX_JSON_DEPTH, tooDeep } from '../json-depth.ts';
import type { Entity, GenerationConfig, SchemaConfig } from '../model/config-types.ts';
import type { Issue, ValidationResult } from '../model/config-issues.ts';
import type { CheckContext } from './check-context.ts';
import { pointer } from '../model/config-issues.ts';
import { didYouMean } from '../suggest.ts';
import { checkConfigSchema, compareIndices } from './config-schema.ts';
import { isUnderBroken, repairConfig } from './repair-config.ts';
import { createContext, fieldSite } from './check-context.ts';
import { checkField } from './field-checks.ts';
import { checkCompositeReferences } from './composite-checks.ts';
import { checkTemplateCycles } from './strategy-checks.ts';
import { unbreakableCycles } from '../model/config-graph.ts';
import { fakerTrialIssues, type FakerTrialSite } from './faker-trial.ts';
import { configLimitIssues } from './work-limits.ts';
import { FAKER_LOCALES, normalizeLocale, normalizeTimeZone } from '../generation/config-lookups.ts';

export type { Issue, ValidationResult } from '../model/config-issues.ts';

/** Row counts above this are accepted with a warning. */
export const LARGE_ROW_COUNT = 10_000_000;

/**
 * Validates a schema config: every structural error (JSON Schema) and every semantic error and
 * warning of the parts that are structurally sound, at once (see repair-config.ts). `path` of each
 * issue is a JSON pointer.
 */
export function validateConfig(input: unknown): ValidationResult {
  const deep = input !== null && typeof input === 'object' ? tooDeep(input) : undefined;
  if (deep !== undefined) {
    const message = `nested too deeply: a schema config may nest at most ${MAX_JSON_DEPTH} levels of arrays and objects`;
    return { valid: false, errors: [{ path: deep, message }], warnings: [] };
  }
  // Before the JSON Schema: a config over the limits costs no more to refuse than to read.
  const overLimits = configLimitIssues(input);
  if (overLimits.length > 0) return { valid: false, errors: overLimits, warnings: [] };
  const structural = checkConfigSchema(input);
  const repaired = structural.length > 0 ? repairConfig(input, structural) : undefined;
  if (structural.length > 0 && !repaired) return { valid: false, errors: structural, warnings: [] };
  const config = repaired?.config ?? (input as SchemaConfig);
  const context = createContext(config, repaired);

  if (config.generationDefaults) checkGenerationConfig(context, config.generationDefaults, '/generationDefaults');
  if (config.entities.length === 0) {
    context.warnings.push({ path: '/entities', message: 'the config has no entities, so nothing will be generated' });
  }
  checkUniqueIds(context.errors, config.entities.map((entity) => entity.id), (i) => pointer('entities', i, 'id'), 'entity ids', 'table names');
  const indexIds = new Map<string, string>();
  config.entities.forEach((entity, index) => {
    if (!context.opaque.has(entity)) checkEntity(context, entity, index, indexIds);
  });
  checkCycles(context);
  if (!repaired) {
    context.errors.push(...fakerTrialIssues(config, fakerTrialSites(config, context.errors)));
    return { valid: context.errors.length === 0, errors: context.errors, warnings: context.warnings };
  }
  const sound = (issue: Issue) => !isUnderBroken(issue.path, repaired.broken);
  const errors = [...structural, ...context.errors.filter(sound)].sort((a, b) => compareIndices(a.path, b.path));
  return { valid: false, errors, warnings: context.warnings.filter(sound) };
}

/** Faker fields no other check found fault with under their field's pointer: tried (faker-trial.ts). */
function fakerTrialSites(config: SchemaConfig, errors: readonly Issue[]): FakerTrialSite[] {
  const sites: FakerTrialSite[] = [];
  config.entities.forEach((entity, entityIndex) => {
    entity.fields.forEach((field, fieldIndex) => {
      if (field.generation?.strategy?.kind !== 'faker' || field.references) return;
      const at = pointer('entities', entityIndex, 'fields', fieldIndex);
      if (errors.some((issue) => issue.path === at || issue.path.startsWith(`${at}/`))) return;
      sites.push({ entityIndex, fieldIndex });
    });
  });
  return sites;
}

function checkEntity(context: CheckContext, entity: Entity, entityIndex: number, indexIds: Map<string, string>): void {
  const at = (...tokens: (string | number)[]) => pointer('entities', entityIndex, ...tokens);
  const fieldIds = entity.fields.map((field) => field.id);
  if (entity.fields.length === 0) {
    context.errors.push({ path: at('fields'), message: `entity "${entity.id}" has no fields; add at least one field` });
  }
  checkUniqueIds(context.errors, fieldIds, (i) => at('fields', i, 'id'), `field ids of entity "${entity.id}"`, 'column names');

  if (entity.primaryKey) {
    checkKeyFields(context, entity, entity.primaryKey, at('primaryKey'), 'primaryKey');
    entity.primaryKey.forEach((id, i) => {
      const fieldIndex = fieldIds.indexOf(id);
      if (entity.fields[fieldIndex]?.nullable) {
        context.errors.push({
          path: at('primaryKey', i),
          message: `primary key field "${id}" of entity "${entity.id}" is nullable; remove "nullable": true from it or take it out of the primaryKey`,
        });
      }
    });
  } else {
    context.warnings.push({
      path: at(),
      message: `entity "${entity.id}" has no primaryKey; the runtime API reads, updates and deletes rows by primary key, so add one (e.g. ["id"])`,
    });
  }
  entity.uniqueKeys?.forEach((group, i) => checkKeyFields(context, entity, group, at('uniqueKeys', i), `uniqueKeys[${i}]`));
  entity.indexes?.forEach((index, i) => {
    checkKeyFields(context, entity, index.fields, at('indexes', i, 'fields'), `indexes[${i}].fields`);
    if (index.id === undefined) return;
    const other = indexIds.get(index.id.toLowerCase());
    if (other !== undefined) {
      context.errors.push({
        path: at('indexes', i, 'id'),
        message: `index id "${index.id}" is already used at ${other}; index names share one database namespace, so give each index its own id`,
      });
    } else indexIds.set(index.id.toLowerCase(), at('indexes', i, 'id'));
  });
  checkCompositeReferences(context, entity, entityIndex);
  if (entity.generation) checkGenerationConfig(context, entity.generation, at('generation'));

  entity.fields.forEach((field, fieldIndex) => {
    if (!context.opaque.has(field)) checkField(context, fieldSite(entity, entityIndex, field, fieldIndex));
  });
  checkTemplateCycles(context, entity, entityIndex);
}

function checkKeyFields(context: CheckContext, entity: Entity, ids: readonly string[], path: string, label: string): void {
  const fieldIds = entity.fields.map((field) => field.id);
  if (ids.length === 0) {
    context.errors.push({ path, message: `${label} of entity "${entity.id}" is empty; list at least one field id or remove it` });
  }
  ids.forEach((id, i) => {
    if (!fieldIds.includes(id)) {
      context.errors.push({
        path: `${path}/${i}`,
        message: `${label} of entity "${entity.id}" names unknown field "${id}"${didYouMean(id, fieldIds)}; use one of: ${fieldIds.join(', ')}`,
      });
    } else if (ids.indexOf(id) < i) {
      context.errors.push({ path: `${path}/${i}`, message: `${label} of entity "${entity.id}" lists "${id}" twice; remove the duplicate` });
    }
  });
}

function checkGenerationConfig(context: CheckContext, generation: GenerationConfig, path: string): void {
  const { rowCount, locale, timezone } = generation;
  if (typeof rowCount === 'object' && rowCount.min > rowCount.max) {
    context.errors.push({
      path: `${path}/rowCount`,
      message: `rowCount range min (${rowCount.min}) is greater than max (${rowCount.max}); make min ≤ max`,
    });
  }
  const largest = typeof rowCount === 'object' ? rowCount.max : rowCount;
  if (largest !== undefined && largest > LARGE_ROW_COUNT) {
    context.warnings.push({
      path: `${path}/rowCount`,
      message: `rowCount ${largest} is above ${LARGE_ROW_COUNT.toLocaleString('en-US')}; generation will take long and need much disk space`,
    });
  }
  if (locale !== undefined && normalizeLocale(locale) === undefined) {
    context.errors.push({
      path: `${path}/locale`,
      message: `unknown locale "${locale}"${didYouMean(locale, FAKER_LOCALES)}; use a faker locale such as "en", "de" or "en_US"`,
    });
  }
  if (timezone !== undefined && normalizeTimeZone(timezone) === undefined) {
    context.errors.push({
      path: `${path}/timezone`,
      message: `unknown time zone "${timezone}"; use an IANA time zone such as "UTC" or "Europe/Berlin"`,
    });
  }
}

// Ids become SQL identifiers, which many databases compare case-insensitively.
function checkUniqueIds(errors: Issue[], ids: string[], pathOf: (i: number) => string, what: string, becomes: string): void {
  const first = new Map<string, number>();
  ids.forEach((id, i) => {
    const earlier = first.get(id.toLowerCase());
    if (earlier === undefined) {
      first.set(id.toLowerCase(), i);
      return;
    }
    const same = ids[earlier] === id ? `"${id}" is used twice` : `"${id}" and "${ids[earlier]}" differ only in case`;
    errors.push({
      path: pathOf(i),
      message: `${what} must be unique: ${same} (also at ${pathOf(earlier)}); they become ${becomes}, compared ignoring case, so rename one`,
    });
  });
}

function checkCycles(context: CheckContext): void {
  for (const cycle of unbreakableCycles(context.config)) {
    const [edge] = cycle.edges;
    if (!edge) continue;
    if (cycle.edges.length === 1 && edge.entity === edge.target.entity) {
      context.errors.push({
        path: edge.path,
        message:
          `${edge.entity}.${edge.field} references its own entity "${edge.entity}" but is not nullable; ` +
          `self references are filled after insert, so set "nullable": true (or, to keep it NOT NULL, give its "references" "fillAfterInsert": true)`,
      });
      continue;
    }
    context.errors.push({
      path: edge.path,
      message:
        `reference cycle ${cycle.entities.join(' → ')} cannot be broken: make one of these reference fields nullable: ` +
        cycle.edges.map((e) => e.path).join(', ') +
        ` (or, to keep it NOT NULL, give its "references" "fillAfterInsert": true)`,
    });
  }
}
