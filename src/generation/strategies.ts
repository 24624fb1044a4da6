// The value program of a field: its strategy (every kind of the JSON Schema), its reference, or
// a default from type, format and id.
import { withinSequenceProgram } from './composite-programs.ts';
import type { Field, NumericDistribution, Strategy } from '../model/config-types.ts';
import type { EntityContext, ValueProgram } from './program.ts';
import type { RandomStream } from './random.ts';
import type { RandomCursor } from './random.ts';
import type { LocaleWords } from './values/words.ts';
import { cursorProgram, fakerProgram } from './program.ts';
import { emailText, slugText, urlText, usernameText } from './named-defaults.ts';
import { defaultProgram } from './defaults.ts';
import { referenceProgram, referenceSpec } from './references.ts';
import { templateProgram } from './templates.ts';
import { styledTextProgram } from './values/styled-text.ts';
import { formulaProgram } from './formulas/formula-program.ts';
import { childrenSumProgram } from './children-sum.ts';
import { constantProgram, randomFloatProgram, randomIntProgram, rangeWithinDigits, sequenceProgram } from './values/numbers.ts';
import { booleanProgram, choiceProgram } from './values/choices.ts';
import { dateRangeProgram, quantileDateProgram } from './values/date-programs.ts';
import { correlatedProgram, distributionProgram, distributionSampler } from './values/distributions.ts';
import { isShaped, shapedDateProgram, storedDay, storedInstant, type LowerBound } from './values/date-shapes.ts';
import { resolveRowReference } from './row-references.ts';
import { orderedDateProgram, rowBound } from './values/date-gaps.ts';
import { agreementOf, agreementProgram } from './reference-agreement.ts';
import { hasFeature } from './versions.ts';

const FAST_FAKER: Record<string, (cursor: RandomCursor, words: LocaleWords) => string> = {
  'internet.email': emailText,
  'internet.username': usernameText,
  'internet.url': urlText,
  'lorem.slug': slugText,
};

/** Defaults of dateRange bounds, as the JSON Schema describes them. */
const DATE_RANGE = { from: '-1y', to: 'now' };

/**
 * The raw program of a field. Reference fields need their parent's key pool: `null` when it does
 * not exist yet (a deferred reference, compiled again once every row exists).
 */
export function createProgram(context: EntityContext, field: Field): ValueProgram | null {
  const stream = context.stream(field.id, 'value');
  const reference = referenceSpec(field);
  if (reference) {
    const parents = context.keyPool(reference.entity, reference.field);
    if (!parents) return null;
    const program = referenceProgram(reference, parents, stream, reference.entity === context.entity.id, context.plan.rowCount);
    const agreement = hasFeature(context.version, 'agreeingReferences') ? agreementOf(context, context.fieldIndex(field.id)) : undefined;
    return agreement ? agreementProgram(context, agreement, program, parents) : program;
  }
  const strategy = field.generation?.strategy;
  return strategy ? strategyProgram(context, field, strategy, stream) : defaultProgram(context, field, stream);
}

function strategyProgram(context: EntityContext, field: Field, strategy: Strategy, stream: RandomStream): ValueProgram {
  switch (strategy.kind) {
    case 'literal':
      return constantProgram(strategy.value);
    case 'sequence':
      if (strategy.within) return withinSequenceProgram(strategy.start ?? 1, strategy.step ?? 1, strategy.within.map((id) => context.fieldIndex(id)));
      return field.type === 'integer' || field.type === 'number'
        ? sequenceProgram(strategy.start ?? 1, strategy.step ?? 1, field.min, field.max)
        : sequenceProgram(strategy.start ?? 1, strategy.step ?? 1);
    case 'randomInt': {
      const [min, max] = rangeWithinDigits(field, strategy.min ?? field.min ?? 0, strategy.max ?? field.max ?? 1000);
      const correlated = correlatedWith(context, strategy.distribution);
      if (correlated && strategy.distribution?.kind === 'empirical') return correlatedProgram(stream, strategy.distribution.quantiles, correlated, Math.ceil(min), Math.floor(max), 0);
      const sampler = strategy.distribution && distributionSampler(strategy.distribution, min, max);
      if (sampler) return distributionProgram(stream, sampler, Math.ceil(min), Math.floor(max), 0);
      return randomIntProgram(stream, min, max);
    }
    case 'randomFloat': {
      const [min, max] = rangeWithinDigits(field, strategy.min ?? field.min ?? 0, strategy.max ?? field.max ?? 1000);
      const precision = strategy.precision ?? field.precision ?? 2;
      const correlated = correlatedWith(context, strategy.distribution);
      if (correlated && strategy.distribution?.kind === 'empirical') return correlatedProgram(stream, strategy.distribution.quantiles, correlated, min, max, precision);
      const sampler = strategy.distribution && distributionSampler(strategy.distribution, min, max);
      if (sampler) return distributionProgram(stream, sampler, min, max, precision);
      return randomFloatProgram(stream, min, max, precision);
    }
    case 'randomBoolean':
      return booleanProgram(stream, strategy.trueRate ?? field.trueRate ?? 0.5);
    case 'weightedChoice':
      return choiceProgram(
        stream,
        strategy.choices.map((choice) => choice.value),
        strategy.choices.map((choice) => choice.weight),
      );
    case 'faker': {
      // Same shape of value as faker's, composed from the locale's data without faker's overhead.
      const fast = (strategy.args ?? []).length === 0 ? FAST_FAKER[strategy.method] : undefined;
      if (fast) return cursorProgram(stream, (cursor) => fast(cursor, context.words));
      return fakerProgram(context, strategy.method, strategy.args ?? [], stream);
    }
    case 'template':
      return templateProgram(context, strategy.template, stream);
    case 'dateRange': {
      if (strategy.afterField !== undefined || strategy.gap !== undefined) return orderedDateRange(context, field, strategy, stream);
      const window = { from: strategy.from ?? DATE_RANGE.from, to: strategy.to ?? DATE_RANGE.to };
      const zone = context.plan.timezone;
      if (strategy.quantiles) {
        const lower = strategy.after ? afterBound(context, strategy.after) : undefined;
        return quantileDateProgram(stream, field.type, strategy.quantiles, context.referenceMs, zone, lower);
      }
      const plain = dateRangeProgram(stream, field.type, window, context.referenceMs, zone, field.weekdaysOnly === true);
      const shape = { trend: strategy.trend, weekdayWeights: strategy.weekdayWeights, hourWeights: strategy.hourWeights, weekdaysOnly: field.weekdaysOnly === true };
      // Without the shape and `after` options, dateRange keeps its programs (and existing configs their values).
      if (!isShaped(shape) && !strategy.after) return plain;
      const after = strategy.after ? afterBound(context, strategy.after) : undefined;
      return shapedDateProgram(stream.derive('shape'), field.type, window, context.referenceMs, zone, shape, after, plain);
    }
    case 'reference':
      throw new Error('reference strategies are compiled by createProgram');
    case 'formula':
      return formulaProgram(context, field, strategy.expression);
    case 'styledText':
      return styledTextProgram(context, strategy, defaultProgram(context, field, stream), stream);
    case 'childrenSum':
      return childrenSumProgram(context, field, strategy);
  }
}

/** The field an empirical distribution is correlated with: its index, its quantiles and the target ρ (undefined: drawn on its own). */
function correlatedWith(context: EntityContext, distribution: NumericDistribution | undefined): { index: number; quantiles: readonly number[]; spearman: number } | undefined {
  if (distribution?.kind !== 'empirical' || !distribution.correlation) return undefined;
  const { field: id, spearman } = distribution.correlation;
  const strategy = context.entity.fields.find((other) => other.id === id)?.generation?.strategy;
  if ((strategy?.kind !== 'randomInt' && strategy?.kind !== 'randomFloat') || strategy.distribution?.kind !== 'empirical') return undefined;
  return { index: context.fieldIndex(id), quantiles: strategy.distribution.quantiles, spearman };
}

/**
 * A dateRange kept after another date (`afterField` of the row, or `after` with a `gap`): the
 * strategy without those options draws where that date is null.
 */
function orderedDateRange(context: EntityContext, field: Field, strategy: Extract<Strategy, { kind: 'dateRange' }>, stream: RandomStream): ValueProgram {
  const { afterField, gap, ...plain } = strategy;
  const bound = afterField !== undefined ? rowBound(context.fieldIndex(afterField), context.entity.fields.find((other) => other.id === afterField)?.type === 'date') : plain.after ? afterBound(context, plain.after) : undefined;
  if (gap && plain.after) delete plain.after;
  const inner = strategyProgram(context, field, plain, stream);
  return bound ? orderedDateProgram(stream.derive('order'), field.type, context.plan.timezone, bound, inner, gap?.quantiles) : inner;
}

/** The referenced row's date that `after` (`reference.field`) names; always null while the parent is not generated. */
function afterBound(context: EntityContext, after: string): LowerBound {
  const [name = '', fieldId = ''] = after.split('.');
  const resolved = resolveRowReference(context.entity, name);
  if (!resolved.ok) throw new Error(`after "${after}" of entity "${context.entity.id}": ${resolved.message}`);
  const keyIndex = context.fieldIndex(resolved.reference.field.id);
  const parentField = context.entityById(resolved.reference.target.entity)?.fields.find((field) => field.id === fieldId);
  const date = parentField?.type === 'date';
  const lookup = context.parentValue(resolved.reference, fieldId, date ? storedDay : storedInstant);
  return {
    deps: [keyIndex],
    date,
    value: (values) => {
      const key = values[keyIndex];
      return key === null || key === undefined || !lookup ? undefined : lookup(key);
    },
  };
}
