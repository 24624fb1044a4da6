// Semantic checks of value strategies: the kind suits the field type, the kind's properties make
// sense together, faker methods exist, templates name fields of the row, reference targets exist.
import { FIELD_TYPES } from '../contract.ts';
import { empiricalOf, type Entity, type Field, type FieldType, type Strategy, type StrategyKind, type StrategyOf } from '../model/config-types.ts';
import type { CheckContext, FieldSite } from './check-context.ts';
import { pointer } from '../model/config-issues.ts';
import { didYouMean } from '../suggest.ts';
import { resolveTarget, valueMismatch } from './check-context.ts';
import { singleFieldKeys } from '../model/composite-keys.ts';
import { sameTypeFamily } from '../model/field-types/index.ts';
import { FAKER_MODULES, fakerMethods } from '../generation/faker-methods.ts';
import { parseDateBound, resolveDateBound } from '../generation/date-bounds.ts';
import { parseFormula } from '../generation/formulas/parse-formula.ts';
import { checkFormula } from '../generation/formulas/check-formula.ts';
import { childrenSumCycle, resolveChildrenSum } from '../generation/children-sum.ts';
import { resolveRowReference } from '../generation/row-references.ts';
import { entityOrder } from '../model/config-graph.ts';
import { referenceTarget } from '../model/table-spec.ts';
import { fakerArgsIssues, templateLimitProblem } from './work-limits.ts';
import { checkSequenceWithin } from './composite-checks.ts';

/** Every field type: kinds that fill any type take a type added to the contract without a change here. */
const ALL_TYPES: readonly FieldType[] = FIELD_TYPES;

/** Field types each strategy kind can fill. */
export const KIND_FIELD_TYPES: Record<StrategyKind, readonly FieldType[]> = {
  literal: ALL_TYPES,
  sequence: ['integer', 'number', 'string', 'text'],
  randomInt: ['integer', 'number'],
  randomFloat: ['number'],
  randomBoolean: ['boolean'],
  weightedChoice: ALL_TYPES,
  faker: ALL_TYPES,
  template: ['string', 'text'],
  dateRange: ['date', 'datetime'],
  reference: ALL_TYPES,
  formula: ['string', 'text', 'integer', 'number', 'boolean', 'date', 'datetime'],
  styledText: ['string', 'text'],
  childrenSum: ['integer', 'number'],
};

/** Defaults of dateRange bounds, as the JSON Schema describes them. */
export const DATE_RANGE_DEFAULTS = { from: '-1y', to: 'now' } as const;

const PLACEHOLDER = /\{\{\s*([^{}]*?)\s*\}\}/g;

export function checkStrategy(context: CheckContext, site: FieldSite, strategy: Strategy): void {
  const path = `${site.path}/generation/strategy`;
  const { field } = site;
  const error = (at: string, message: string) => context.errors.push({ path: path + at, message });
  if (!KIND_FIELD_TYPES[strategy.kind].includes(field.type)) {
    const fitting = (Object.keys(KIND_FIELD_TYPES) as StrategyKind[]).filter((kind) => KIND_FIELD_TYPES[kind].includes(field.type));
    error(
      '/kind',
      `strategy "${strategy.kind}" cannot fill ${field.type} field ${site.name}; it fills ${KIND_FIELD_TYPES[strategy.kind].join(', ')} fields. ` +
        `Change the type, or use one of: ${fitting.join(', ')}`,
    );
    return;
  }
  if (field.references && strategy.kind !== 'reference') {
    error(
      '/kind',
      `field ${site.name} references ${field.references.entity}.${field.references.field}, so its values come from that entity; ` +
        `remove the "${strategy.kind}" strategy or use kind "reference"`,
    );
    return;
  }
  switch (strategy.kind) {
    case 'literal': {
      const mismatch = valueMismatch(field, strategy.value);
      if (mismatch) error('/value', `literal value ${JSON.stringify(strategy.value)} does not fit ${field.type} field ${site.name}; give ${mismatch}`);
      return;
    }
    case 'sequence':
      for (const key of ['start', 'step'] as const) {
        const value = strategy[key];
        if (field.type === 'integer' && value !== undefined && !Number.isInteger(value)) {
          error(`/${key}`, `sequence ${key} ${value} does not fit integer field ${site.name}; use an integer`);
        }
      }
      if (strategy.within) checkSequenceWithin(context, site.entity, field.id, strategy.within, path);
      return;
    case 'randomInt':
    case 'randomFloat':
      if (strategy.min !== undefined && strategy.max !== undefined && strategy.min > strategy.max) {
        error('/max', `${strategy.kind} min (${strategy.min}) is greater than max (${strategy.max}) for ${site.name}; make min ≤ max`);
      } else if (strategy.distribution) {
        checkDistribution(context, site, strategy, path);
      }
      return;
    case 'weightedChoice':
      return checkChoices(context, site, strategy, path);
    case 'faker': {
      const problem = fakerMethodProblem(strategy.method);
      if (problem) error('/method', problem);
      else context.errors.push(...fakerArgsIssues(strategy.method, strategy.args ?? [], `${path}/args`));
      return;
    }
    case 'template':
      return checkTemplate(context, site, strategy.template, `${path}/template`);
    case 'dateRange':
      return checkDateRange(context, site, strategy, path);
    case 'reference': {
      const target = resolveTarget(context, strategy, path);
      if (field.references && (field.references.entity !== strategy.entity || field.references.field !== strategy.field)) {
        error(
          '',
          `strategy of ${site.name} takes values from ${strategy.entity}.${strategy.field} but its "references" names ` +
            `${field.references.entity}.${field.references.field}; make them agree or remove the strategy`,
        );
      } else if (target && !sameTypeFamily(field.type, target.field.type)) {
        error(
          '/field',
          `${site.name} is ${field.type} but ${target.entity.id}.${target.field.id} is ${target.field.type}; ` +
            `a field filled from another must have its type: change ${site.name} to "${target.field.type}"`,
        );
      }
      return;
    }
    case 'formula':
      return checkFormulaStrategy(context, site, strategy.expression, `${path}/expression`);
    case 'randomBoolean':
      return;
    case 'styledText': {
      const lengths = strategy.lengths ?? [];
      const descending = lengths.findIndex((length, i) => i > 0 && length < lengths[i - 1]!);
      if (descending > 0) error(`/lengths/${descending}`, `lengths of ${site.name} must ascend, but item ${descending} is smaller than item ${descending - 1}; sort them`);
      return;
    }
    case 'childrenSum':
      return checkChildrenSum(context, site, strategy, path);
  }
}

function checkChoices(context: CheckContext, site: FieldSite, strategy: StrategyOf<'weightedChoice'>, path: string): void {
  const seen = new Map<string, number>();
  strategy.choices.forEach((choice, i) => {
    const at = `${path}/choices/${i}`;
    const mismatch = valueMismatch(site.field, choice.value);
    if (mismatch) {
      context.errors.push({
        path: `${at}/value`,
        message: `choice ${JSON.stringify(choice.value)} does not fit ${site.field.type} field ${site.name}; give ${mismatch}`,
      });
    }
    const key = JSON.stringify(choice.value);
    const first = seen.get(key);
    if (first !== undefined) {
      context.warnings.push({
        path: at,
        message: `choice ${key} of ${site.name} is listed twice (choices ${first} and ${i}); merge them into one choice with the summed weight`,
      });
    } else seen.set(key, i);
  });
}

/** Why `module.method` is not a faker function (with suggestions), or undefined when it is. */
export function fakerMethodProblem(method: string): string | undefined {
  const [module = '', name = ''] = method.split('.');
  if (!FAKER_MODULES.includes(module)) {
    const hint = didYouMean(module, FAKER_MODULES);
    return `faker has no module "${module}"${hint || `; modules: ${FAKER_MODULES.join(', ')}`}`;
  }
  const methods = fakerMethods(module);
  if (!methods.includes(name)) {
    const hint = didYouMean(name, methods);
    return `faker.${module} has no method "${name}"${hint || `; methods: ${methods.join(', ')}`}`;
  }
  return undefined;
}

/** Field ids and faker methods a template names, in order: `{{firstName}}`, `{{faker.person.lastName}}`. */
export function templatePlaceholders(template: string): string[] {
  return [...template.matchAll(PLACEHOLDER)].map((match) => match[1] ?? '');
}

function checkTemplate(context: CheckContext, site: FieldSite, template: string, path: string): void {
  const tooLong = templateLimitProblem(template);
  if (tooLong) {
    context.errors.push({ path, message: tooLong });
    return;
  }
  const fields = site.entity.fields.map((field) => field.id);
  for (const name of templatePlaceholders(template)) {
    const placeholder = `{{${name}}}`;
    if (name.startsWith('faker.')) {
      const problem = fakerMethodProblem(name.slice('faker.'.length));
      if (problem) context.errors.push({ path, message: `template placeholder ${placeholder}: ${problem}` });
    } else if (name === site.field.id) {
      context.errors.push({ path, message: `template of ${site.name} uses ${placeholder}, its own value; name another field` });
    } else if (!fields.includes(name)) {
      context.errors.push({
        path,
        message:
          `template placeholder ${placeholder} names no field of entity "${site.entity.id}"${didYouMean(name, fields)}; ` +
          `use {{fieldId}} with one of: ${fields.join(', ')}, or {{faker.module.method}}`,
      });
    }
  }
}

/** Templates of one entity that need each other's values: a cycle of `{{field}}` placeholders. */
export function checkTemplateCycles(context: CheckContext, entity: Entity, entityIndex: number): void {
  const uses = new Map<string, string[]>();
  const pathOf = new Map<string, string>();
  for (const field of entity.fields) {
    const strategy = field.generation?.strategy;
    if (strategy?.kind === 'template') {
      uses.set(field.id, templatePlaceholders(strategy.template).filter((name) => name !== field.id));
      pathOf.set(field.id, 'template');
    } else if (strategy?.kind === 'formula') {
      const parsed = parseFormula(strategy.expression);
      if (!parsed.ok) continue;
      const checked = checkFormula(parsed.node, { entity, field, entityById: (id) => context.entities.get(id)?.entity });
      uses.set(field.id, [...checked.uses.fields].filter((name) => name !== field.id));
      pathOf.set(field.id, 'expression');
    }
  }
  const done = new Set<string>();
  const visit = (id: string, trail: string[]): string[] | undefined => {
    if (trail.includes(id)) return [...trail.slice(trail.indexOf(id)), id];
    if (done.has(id)) return undefined;
    for (const next of uses.get(id) ?? []) {
      const cycle = visit(next, [...trail, id]);
      if (cycle) return cycle;
    }
    done.add(id);
    return undefined;
  };
  for (const id of uses.keys()) {
    const cycle = visit(id, []);
    if (!cycle) continue;
    const fieldIndex = entity.fields.findIndex((field) => field.id === cycle[0]);
    const formulas = cycle.some((member) => pathOf.get(member) === 'expression');
    context.errors.push({
      path: pointer('entities', entityIndex, 'fields', fieldIndex, 'generation', 'strategy', pathOf.get(cycle[0]!) ?? 'template'),
      message: formulas
        ? `formulas and templates of entity "${entity.id}" need each other's values (${cycle.join(' → ')}); break the cycle by removing one of these names`
        : `templates of entity "${entity.id}" need each other's values (${cycle.join(' → ')}); remove one of these placeholders`,
    });
    cycle.forEach((member) => done.add(member));
  }
}

function checkDateRange(context: CheckContext, site: FieldSite, strategy: StrategyOf<'dateRange'>, path: string): void {
  checkDateShape(context, site, strategy, path);
  const from = strategy.from ?? DATE_RANGE_DEFAULTS.from;
  const to = strategy.to ?? DATE_RANGE_DEFAULTS.to;
  const fromBound = parseDateBound(from);
  const toBound = parseDateBound(to);
  for (const [key, text, bound] of [['from', from, fromBound], ['to', to, toBound]] as const) {
    if (!bound) context.errors.push({ path: `${path}/${key}`, message: `dateRange ${key} "${text}" of ${site.name} is not a real date or time` });
  }
  // Only bounds of the same kind compare the same way whenever the generation runs.
  if (!fromBound || !toBound || fromBound.kind !== toBound.kind) return;
  const now = new Date();
  if (resolveDateBound(fromBound, now) > resolveDateBound(toBound, now)) {
    const label = (key: 'from' | 'to', text: string) => (strategy[key] === undefined ? `${text}, the default` : text);
    context.errors.push({
      path: `${path}/${strategy.from === undefined ? 'to' : 'from'}`,
      message: `dateRange of ${site.name} starts after it ends: from (${label('from', from)}) is later than to (${label('to', to)}); make from ≤ to`,
    });
  }
}

function checkDistribution(context: CheckContext, site: FieldSite, strategy: StrategyOf<'randomInt' | 'randomFloat'>, path: string): void {
  const distribution = strategy.distribution!;
  const min = strategy.min ?? site.field.min ?? 0;
  const max = strategy.max ?? site.field.max ?? 1000;
  const at = `${path}/distribution`;
  const bounds = `${strategy.kind} ${site.name} (min ${min}, max ${max})`;
  switch (distribution.kind) {
    case 'lognormal':
      if (distribution.median === undefined && (min + max) / 2 <= 0) {
        context.errors.push({ path: at, message: `lognormal values are positive but the midpoint of ${bounds}, the default median, is not; give a median > 0` });
      }
      return;
    case 'exponential': {
      const mean = distribution.mean ?? min + (max - min) / 4;
      if (!(mean > min)) {
        context.errors.push({
          path: distribution.mean === undefined ? at : `${at}/mean`,
          message: `exponential values start at min, so their mean (${mean}) must be greater than min of ${bounds}; give a mean > ${min}`,
        });
      }
      return;
    }
    case 'zipf':
      if (Math.floor(max) < Math.ceil(min)) {
        context.errors.push({ path: at, message: `zipf ranks are whole numbers from min, but ${bounds} holds none; widen min and max` });
      }
      return;
    case 'normal':
      if (distribution.mean !== undefined && (distribution.mean < min || distribution.mean > max)) {
        context.warnings.push({
          path: `${at}/mean`,
          message: `normal mean ${distribution.mean} lies outside ${bounds}: values are clamped, so most rows get ${distribution.mean < min ? 'min' : 'max'}`,
        });
      }
      return;
    case 'uniform':
      return;
    case 'empirical':
      checkAscending(context, `${at}/quantiles`, distribution.quantiles, (value) => value, `quantiles of ${site.name}`);
      if (distribution.correlation) checkCorrelation(context, site, distribution.correlation.field, `${at}/correlation/field`);
      return;
  }
}

/** A correlation names another numeric field of the entity drawn from its own quantiles, not correlated itself (no chains, no cycles). */
function checkCorrelation(context: CheckContext, site: FieldSite, partner: string, path: string): void {
  const candidates = site.entity.fields.filter((field) => field.id !== site.field.id && !field.references && empiricalOf(field) && !empiricalOf(field)!.correlation).map((field) => field.id);
  const other = site.entity.fields.find((field) => field.id === partner);
  if (partner === site.field.id) {
    context.errors.push({ path, message: `correlation of ${site.name} names the field itself; name another field of entity "${site.entity.id}"` });
  } else if (!other || other.references || !empiricalOf(other)) {
    context.errors.push({ path, message: `correlation field "${partner}" of ${site.name} is not a randomInt or randomFloat field of entity "${site.entity.id}" with an empirical distribution${didYouMean(partner, candidates)}; use one of: ${candidates.join(', ') || 'none'}` });
  } else if (empiricalOf(other)!.correlation) {
    context.errors.push({ path, message: `correlation field "${partner}" of ${site.name} is itself correlated with "${empiricalOf(other)!.correlation!.field}"; correlate both with "${empiricalOf(other)!.correlation!.field}" instead` });
  }
}

/** Quantiles must ascend (equal neighbours allowed): the first is the smallest value. */
function checkAscending<T>(context: CheckContext, path: string, values: readonly T[], toNumber: (value: T) => number, name: string): void {
  for (let i = 1; i < values.length; i++) {
    const [previous, current] = [toNumber(values[i - 1]!), toNumber(values[i]!)];
    if (Number.isNaN(current)) {
      context.errors.push({ path: `${path}/${i}`, message: `${name}: item ${i} is not a valid value` });
      return;
    }
    if (current < previous) {
      context.errors.push({ path: `${path}/${i}`, message: `${name} must ascend, but item ${i} is smaller than item ${i - 1}; sort them` });
      return;
    }
  }
}

function checkFormulaStrategy(context: CheckContext, site: FieldSite, expression: string, path: string): void {
  const parsed = parseFormula(expression);
  if (!parsed.ok) {
    context.errors.push({ path, message: `formula of ${site.name} is not valid: ${parsed.message}` });
    return;
  }
  const checked = checkFormula(parsed.node, { entity: site.entity, field: site.field, entityById: (id) => context.entities.get(id)?.entity });
  for (const problem of checked.errors) context.errors.push({ path, message: `formula of ${site.name}: ${problem}` });
  const { field, entity } = site;
  for (const id of checked.uses.fields) {
    if (deferredReference(context, entity, id)) {
      context.warnings.push({
        path,
        message: `formula of ${site.name} reads ${entity.id}.${id}, a reference that closes a cycle and is filled after every row is inserted: the formula sees null there`,
      });
    }
  }
  if (checked.errors.length === 0 && (field.generation?.uniqueValues === true || singleFieldKeys(entity).has(field.id))) {
    context.warnings.push({
      path,
      message:
        `${site.name} must be unique, but a formula gives the same value whenever its inputs repeat; repeated values are then made unique ` +
        `(a "-<row>" tag on text, a step on numbers and dates) and no longer equal the formula. Make the formula read a unique field (e.g. id) or drop the uniqueness`,
    });
  }
}

/** Weights that leave some value possible, hour weights on datetimes, and an `after` that names a date of the referenced row. */
function checkDateShape(context: CheckContext, site: FieldSite, strategy: StrategyOf<'dateRange'>, path: string): void {
  const error = (at: string, message: string) => context.errors.push({ path: path + at, message });
  const sum = (weights: readonly number[]) => weights.reduce((total, weight) => total + weight, 0);
  if (strategy.quantiles) {
    checkAscending(context, `${path}/quantiles`, strategy.quantiles, (text) => Date.parse(text.length === 10 ? `${text}T00:00:00Z` : text), `quantiles of ${site.name}`);
    for (const option of ['trend', 'weekdayWeights', 'hourWeights'] as const) {
      if (strategy[option] !== undefined) error(`/${option}`, `${site.name} has quantiles, which already give the shape of its dates; remove ${option}`);
    }
  }
  if (strategy.weekdayWeights && sum(strategy.weekdayWeights) <= 0) error('/weekdayWeights', `weekdayWeights of ${site.name} are all 0; give at least one day a weight > 0`);
  else if (strategy.weekdayWeights && site.field.weekdaysOnly && sum(strategy.weekdayWeights.slice(0, 5)) <= 0) {
    error('/weekdayWeights', `${site.name} is weekdaysOnly but its weekdayWeights give Monday to Friday weight 0; give a weekday a weight > 0`);
  }
  if (strategy.hourWeights) {
    if (site.field.type !== 'datetime') error('/hourWeights', `hourWeights apply to datetime fields only, but ${site.name} is ${site.field.type}; remove them or make the field a datetime`);
    else if (sum(strategy.hourWeights) <= 0) error('/hourWeights', `hourWeights of ${site.name} are all 0; give at least one hour a weight > 0`);
  }
  checkDateOrder(context, site, strategy, path);
  if (strategy.after === undefined) return;
  const [name = '', fieldId = ''] = strategy.after.split('.');
  const resolved = resolveRowReference(site.entity, name);
  if (!resolved.ok) {
    error('/after', `after "${strategy.after}" of ${site.name}: ${resolved.message}`);
    return;
  }
  const { target } = resolved.reference;
  if (target.entity === site.entity.id) {
    error('/after', `after "${strategy.after}" of ${site.name} names a reference to entity "${site.entity.id}" itself; use a reference to another entity`);
    return;
  }
  const parent = context.entities.get(target.entity)?.entity;
  if (!parent) return; // the reference's own check reports the missing entity
  if (deferredReference(context, site.entity, resolved.reference.field.id)) {
    context.warnings.push({
      path: `${path}/after`,
      message: `after "${strategy.after}" of ${site.name} goes through ${site.entity.id}.${resolved.reference.field.id}, a reference that closes a cycle and is filled after every row is inserted: the dates cannot follow it and come from the range alone`,
    });
  }
  const parentField = parent.fields.find((candidate) => candidate.id === fieldId);
  const dates = parent.fields.filter((candidate) => candidate.type === 'date' || candidate.type === 'datetime').map((candidate) => candidate.id);
  if (!parentField) {
    error('/after', `after "${strategy.after}" of ${site.name}: entity "${parent.id}" has no field "${fieldId}"${didYouMean(fieldId, dates)}; use one of its date or datetime fields: ${dates.join(', ') || 'none'}`);
  } else if (parentField.type !== 'date' && parentField.type !== 'datetime') {
    error('/after', `after "${strategy.after}" of ${site.name}: ${parent.id}.${fieldId} is ${parentField.type}, not a date or datetime; use one of: ${dates.join(', ') || 'none'}`);
  }
}

/** Whether a field is a reference the plan fills after insert: its target comes later in entity order (a cycle). */
function deferredReference(context: CheckContext, entity: Entity, fieldId: string): boolean {
  const target = referenceTarget(entity.fields.find((field) => field.id === fieldId) ?? ({} as Entity['fields'][number]));
  if (!target || target.entity === entity.id) return false;
  let order = ENTITY_ORDERS.get(context);
  if (!order) ENTITY_ORDERS.set(context, (order = entityOrder(context.config)));
  return order.indexOf(target.entity) >= order.indexOf(entity.id);
}

/** Entity order per validation, computed once. */
const ENTITY_ORDERS = new WeakMap<CheckContext, string[]>();

/** An `afterField` that names another date of the row without closing a cycle, and a `gap` that has an earlier date to follow. */
function checkDateOrder(context: CheckContext, site: FieldSite, strategy: StrategyOf<'dateRange'>, path: string): void {
  const error = (at: string, message: string) => context.errors.push({ path: path + at, message });
  if (strategy.gap && strategy.after === undefined && strategy.afterField === undefined) error('/gap', `gap of ${site.name} needs after or afterField: the date it follows`);
  if (strategy.gap) checkAscending(context, `${path}/gap/quantiles`, strategy.gap.quantiles, (value) => value, `gap quantiles of ${site.name}`);
  if (strategy.afterField === undefined) return;
  if (strategy.after !== undefined) error('/afterField', `${site.name} has both after and afterField; keep one`);
  const dates = site.entity.fields.filter((other) => other !== site.field && (other.type === 'date' || other.type === 'datetime')).map((other) => other.id);
  const earlier = site.entity.fields.find((other) => other.id === strategy.afterField);
  if (!earlier || earlier === site.field || (earlier.type !== 'date' && earlier.type !== 'datetime')) {
    error('/afterField', `afterField "${strategy.afterField}" of ${site.name} is not another date or datetime field of entity "${site.entity.id}"${didYouMean(strategy.afterField, dates)}; use one of: ${dates.join(', ') || 'none'}`);
    return;
  }
  // Follow the chain of afterFields from this field: coming back to it is a cycle.
  const seen = new Set([site.field.id]);
  for (let at: typeof earlier | undefined = earlier; at; ) {
    if (seen.has(at.id)) {
      error('/afterField', `afterField "${strategy.afterField}" of ${site.name} closes a cycle (${[...seen, at.id].join(' → ')}); remove one afterField of it`);
      return;
    }
    seen.add(at.id);
    const next: string | undefined = at.generation?.strategy?.kind === 'dateRange' ? at.generation.strategy.afterField : undefined;
    at = next === undefined ? undefined : site.entity.fields.find((other) => other.id === next);
  }
}

/** A childrenSum names a child entity that references the row, its reference and one or two of its numeric fields. */
function checkChildrenSum(context: CheckContext, site: FieldSite, strategy: StrategyOf<'childrenSum'>, path: string): void {
  if (context.opaqueEntityIds.has(strategy.entity)) return;
  const entities = [...context.entities.values()].map((entry) => entry.entity);
  const resolved = resolveChildrenSum(site.entity, strategy, entities);
  if (!resolved.ok) {
    context.errors.push({ path: path + resolved.at, message: `childrenSum of ${site.name}: ${resolved.message}` });
    return;
  }
  const child = context.entities.get(resolved.sum.child)!.entity;
  const reference = child.fields[resolved.sum.reference]!;
  if (reference.references?.fillAfterInsert) {
    context.errors.push({
      path: path + (strategy.reference === undefined ? '' : '/reference'),
      message: `childrenSum of ${site.name}: ${child.id}.${reference.id} is filled after every row is inserted (fillAfterInsert), so the children cannot be summed before ${site.entity.id} is made; sum over another reference or drop fillAfterInsert`,
    });
  }
  // A child's summed field may be a sum over its own children, one generation further down, but not back up.
  const cycle = childrenSumCycle(site.entity, strategy, entities);
  if (cycle) {
    context.errors.push({
      path: path + '/entity',
      message: `childrenSum of ${site.name}: sums over sums come back to ${cycle.at(-1)} (${cycle.join(' → ')}), so none of them can be made first; make one of those fields something other than a childrenSum`,
    });
  }
}
