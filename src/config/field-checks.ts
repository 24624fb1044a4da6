// Semantic checks of one field: properties that suit its type, enum values and weights, ranges,
// its reference, its strategy, and whether a unique field has enough distinct values for its rows.
import type { Field, FieldType } from '../model/config-types.ts';
import type { CheckContext, FieldSite } from './check-context.ts';
import { plannedRows, resolveTarget } from './check-context.ts';
import { singleFieldKeys } from '../model/composite-keys.ts';
import { sameTypeFamily } from '../model/field-types/index.ts';
import { castFieldDefault } from '../model/field-default.ts';
import { checkStrategy, DATE_RANGE_DEFAULTS } from './strategy-checks.ts';
import { parseDateBound, resolveDateBound } from '../generation/date-bounds.ts';

/** Field properties that only some types accept. */
export const TYPE_SPECIFIC_PROPERTIES: Record<string, readonly FieldType[]> = {
  format: ['string'],
  minLength: ['string', 'text'],
  maxLength: ['string', 'text'],
  min: ['integer', 'number'],
  max: ['integer', 'number'],
  precision: ['number'],
  digits: ['integer', 'number'],
  prefix: ['string', 'text'],
  suffix: ['string', 'text'],
  trueRate: ['boolean'],
  outputFormat: ['date', 'datetime'],
  weekdaysOnly: ['date', 'datetime'],
  values: ['enum'],
  weights: ['enum'],
};

export function checkField(context: CheckContext, site: FieldSite): void {
  const { field, path, name } = site;
  const error = (at: string, message: string) => context.errors.push({ path: path + at, message });

  for (const [property, types] of Object.entries(TYPE_SPECIFIC_PROPERTIES)) {
    if (field[property as keyof Field] === undefined || types.includes(field.type)) continue;
    const list = types.length > 1 ? `${types.slice(0, -1).join(', ')} and ${types.at(-1)}` : types[0];
    error(`/${property}`, `"${property}" applies only to ${list} fields, but ${name} is ${field.type}; remove it or change the type`);
  }

  if (field.type === 'enum') {
    const values = field.values;
    if (values === undefined) error('', `enum field ${name} needs "values": a non-empty list of its allowed values`);
    else if (values.length === 0) error('/values', `values of enum field ${name} is empty; list at least one allowed value`);
    // First positions in a map: indexOf per value made 40k values (0.5 MB) take seconds.
    const firstAt = new Map<string, number>();
    values?.forEach((value, i) => {
      const first = firstAt.get(value);
      if (first === undefined) firstAt.set(value, i);
      else error(`/values/${i}`, `values of ${name} lists ${JSON.stringify(value)} twice (at ${first} and ${i}); remove the duplicate`);
    });
    if (field.weights && field.weights.length !== (values?.length ?? 0)) {
      error('/weights', `weights has ${field.weights.length} entries but values has ${values?.length ?? 0}; give one weight per value`);
    }
  }
  if (field.min !== undefined && field.max !== undefined && field.min > field.max) {
    error('/max', `min (${field.min}) of ${name} is greater than its max (${field.max}); make min ≤ max`);
  }
  if (field.digits !== undefined && field.type === 'number' && field.precision !== undefined && field.precision > field.digits) {
    error('/digits', `digits (${field.digits}) of ${name} is less than its precision (${field.precision}); numeric(digits, precision) needs digits ≥ precision`);
  }
  if (field.minLength !== undefined && field.maxLength !== undefined && field.minLength > field.maxLength) {
    error('/maxLength', `minLength (${field.minLength}) of ${name} is greater than its maxLength (${field.maxLength}); make minLength ≤ maxLength`);
  }

  const declaredDefault = castFieldDefault(field, name);
  if (declaredDefault && 'problem' in declaredDefault) error(declaredDefault.at, declaredDefault.problem);

  if (field.references) checkReference(context, site);
  const strategy = field.generation?.strategy;
  if (strategy) checkStrategy(context, site, strategy);
  checkFanOut(context, site);
  warnOnSmallPool(context, site);
}

function checkReference(context: CheckContext, site: FieldSite): void {
  const reference = site.field.references!;
  const path = `${site.path}/references`;
  const target = resolveTarget(context, reference, path);
  for (const action of ['onDelete', 'onUpdate'] as const) {
    if (reference[action] === 'set-null' && !site.field.nullable) {
      context.errors.push({
        path: `${path}/${action}`,
        message: `${action} "set-null" needs a nullable field; set "nullable": true on ${site.name} or use "restrict" or "cascade"`,
      });
    }
  }
  if (reference.fillAfterInsert === true) {
    if (site.field.nullable) {
      context.errors.push({
        path: `${path}/fillAfterInsert`,
        message: `fillAfterInsert keeps a NOT NULL reference NOT NULL, but ${site.name} is nullable (nullable references are filled after insert anyway); remove one of them`,
      });
    } else if (site.entity.primaryKey?.includes(site.field.id)) {
      context.errors.push({
        path: `${path}/fillAfterInsert`,
        message: `${site.name} is in the primary key of "${site.entity.id}", which is never null, so it cannot be filled after insert; remove fillAfterInsert and break the cycle with another reference`,
      });
    }
  }
  if (!target) return;
  const targetName = `${target.entity.id}.${target.field.id}`;
  if (!singleFieldKeys(target.entity).has(target.field.id)) {
    const primary = target.entity.primaryKey?.length === 1 ? `reference ${target.entity.id}.${target.entity.primaryKey[0]} or ` : '';
    context.errors.push({
      path: `${path}/field`,
      message:
        `${site.name} references ${targetName}, which is neither the single-field primary key nor a single-field unique key of "${target.entity.id}"; ` +
        `${primary}add ["${target.field.id}"] to the uniqueKeys of "${target.entity.id}"`,
    });
  }
  if (!sameTypeFamily(site.field.type, target.field.type)) {
    context.errors.push({
      path: `${site.path}/type`,
      message:
        `${site.name} is ${site.field.type} but the field it references, ${targetName}, is ${target.field.type}; ` +
        `change ${site.name} to "${target.field.type}"`,
    });
  }
  if (reference.relation === 'one-to-one') {
    const rows = plannedRows(context, site.entity).max;
    const parents = plannedRows(context, target.entity).min;
    if (rows > parents) {
      const [child, parent] = [site.entity.id, target.entity.id];
      context.warnings.push({
        path: `${path}/relation`,
        message:
          `one-to-one reference ${site.name} → ${targetName}: "${child}" plans up to ${rows} rows but "${parent}" may have only ${parents}; ` +
          `each parent is used at most once, so "${child}" will get fewer rows. ` +
          `Give "${parent}" at least ${rows} rows or lower the rowCount of "${child}"`,
      });
    }
  }
}

/** How many distinct values a field can take, when that number is finite and known. */
export function valuePool(context: CheckContext, site: FieldSite): { size: number; source: string } | undefined {
  const { field } = site;
  const strategy = field.generation?.strategy;
  const parentRows = (entity: string) => {
    const parent = context.entities.get(entity);
    return parent ? { size: plannedRows(context, parent.entity).min, source: `rows of "${entity}"` } : undefined;
  };
  if (field.references) return parentRows(field.references.entity);
  switch (strategy?.kind) {
    case 'literal':
      return { size: 1, source: 'a literal' };
    case 'randomBoolean':
      return { size: 2, source: 'randomBoolean' };
    case 'weightedChoice':
      return { size: new Set(strategy.choices.map((choice) => JSON.stringify(choice.value))).size, source: 'weightedChoice choices' };
    case 'reference':
      return parentRows(strategy.entity);
    case 'randomInt': {
      const min = Math.ceil(strategy.min ?? field.min ?? 0);
      const max = Math.floor(strategy.max ?? field.max ?? 1000);
      return { size: Math.max(0, max - min + 1), source: `randomInt range ${min}..${max}` };
    }
    case 'dateRange': {
      if (field.type !== 'date') return undefined;
      const from = parseDateBound(strategy.from ?? DATE_RANGE_DEFAULTS.from);
      const to = parseDateBound(strategy.to ?? DATE_RANGE_DEFAULTS.to);
      if (!from || !to || from.kind !== to.kind) return undefined;
      const now = new Date();
      const days = Math.floor((resolveDateBound(to, now).getTime() - resolveDateBound(from, now).getTime()) / 86_400_000) + 1;
      return { size: Math.max(0, days), source: 'days of the dateRange' };
    }
    case undefined:
      break;
    // Open-ended or not counted: no pool to compare with the row count.
    case 'sequence':
    case 'randomFloat':
    case 'faker':
    case 'template':
      return undefined;
  }
  if (field.type === 'enum') return { size: field.values?.length ?? 0, source: 'enum values' };
  if (field.type === 'boolean') return { size: 2, source: 'true and false' };
  if (field.type === 'integer' && field.min !== undefined && field.max !== undefined) {
    const min = Math.ceil(field.min);
    const max = Math.floor(field.max);
    return { size: Math.max(0, max - min + 1), source: `integers ${min}..${max}` };
  }
  return undefined;
}

function warnOnSmallPool(context: CheckContext, site: FieldSite): void {
  const { field, entity } = site;
  const unique = field.generation?.uniqueValues === true || singleFieldKeys(entity).has(field.id);
  // One-to-one references have their own warning.
  if (!unique || field.references?.relation === 'one-to-one') return;
  const pool = valuePool(context, site);
  const rows = plannedRows(context, entity).max;
  if (!pool || pool.size >= rows) return;
  context.warnings.push({
    path: site.path,
    message:
      `${site.name} must be unique but has only ${pool.size} distinct value${pool.size === 1 ? '' : 's'} (${pool.source}) ` +
      `while "${entity.id}" plans up to ${rows} rows; "${entity.id}" will get at most ${pool.size} rows. Widen the values or lower rowCount`,
  });
}

/** A fan-out other than uniform needs a random many-to-one reference to another entity. */
function checkFanOut(context: CheckContext, site: FieldSite): void {
  const { field, name } = site;
  const strategy = field.generation?.strategy;
  const fromStrategy = strategy?.kind === 'reference' ? strategy : undefined;
  const fanOut = field.references?.fanOut ?? fromStrategy?.fanOut;
  if (!fanOut) return;
  const path = `${site.path}${field.references?.fanOut ? '/references' : '/generation/strategy'}/fanOut`;
  const error = (at: string, message: string) => context.errors.push({ path: path + at, message });
  if (fanOut.kind === 'bounded' && fanOut.min > fanOut.max) error('/max', `fanOut min (${fanOut.min}) of ${name} is greater than its max (${fanOut.max}); make min ≤ max`);
  if (fanOut.kind === 'uniform') return;
  if (fanOut.kind === 'empirical' && (fanOut.empty ?? 0) > 0 && !field.nullable) error('/empty', `fanOut empty (${fanOut.empty}) of ${name} leaves rows without a parent, but the field is not nullable; make it nullable or remove empty`);
  const target = field.references ?? fromStrategy!;
  const why =
    field.references?.relation === 'one-to-one'
      ? 'a one-to-one reference gives every parent at most one child'
      : (field.references?.pick ?? fromStrategy?.pick) === 'sequential'
        ? 'sequential picks give parents children in turn'
        : target.entity === site.entity.id
          ? 'a reference to its own entity points at earlier rows'
          : field.generation?.uniqueValues === true || singleFieldKeys(site.entity).has(field.id)
            ? 'a unique reference uses every parent at most once'
            : undefined;
  if (why) error('/kind', `fanOut "${fanOut.kind}" of ${name} cannot apply: ${why}; remove the fanOut or make the reference a random many-to-one one`);
}
