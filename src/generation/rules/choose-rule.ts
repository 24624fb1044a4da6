// Which rules of the table (field-rules.ts) may make a field without a strategy, in the order the
// generator tries them: per rule set of the version (versions.ts), its context rules, then a rule by
// the field's format (formatted strings match nothing else), else by name — the whole id first, then
// the longest ending, then its last word, then its first word; after every set, the fallback rules. The coherence report asks the same.
import type { Field } from '../../model/config-types.ts';
import type { RuleSetName } from '../versions.ts';
import { VERSIONS } from '../versions.ts';
import { FIELD_RULES } from './field-rules.ts';
import { idWords, normalizeId, ruleMatch, type FieldRule, type RuleMaker, type RuleMatch, type RuleScope } from './field-rule.ts';

export interface RuleChoice {
  rule: FieldRule;
  set: RuleSetName;
  make: RuleMaker;
}

interface SetIndex {
  context: { rule: FieldRule; match: RuleMatch }[];
  fallback: { rule: FieldRule; match: RuleMatch }[];
  byFormat: Map<string, { rule: FieldRule; match: RuleMatch }[]>;
  byName: Map<string, { rule: FieldRule; match: RuleMatch }[]>;
  /** Every ending of the set, longest first. */
  endings: string[];
  byEnding: Map<string, { rule: FieldRule; match: RuleMatch }[]>;
  byFirstWord: Map<string, { rule: FieldRule; match: RuleMatch }[]>;
  byLastWord: Map<string, { rule: FieldRule; match: RuleMatch }[]>;
}

const indexes = new Map<RuleSetName, SetIndex>();

/** The rules of one set, indexed by how they match (built once per set). */
function setIndex(set: RuleSetName): SetIndex {
  let index = indexes.get(set);
  if (index) return index;
  index = { context: [], fallback: [], byFormat: new Map(), byName: new Map(), endings: [], byEnding: new Map(), byFirstWord: new Map(), byLastWord: new Map() };
  const add = <K>(map: Map<K, { rule: FieldRule; match: RuleMatch }[]>, key: K, entry: { rule: FieldRule; match: RuleMatch }) =>
    map.set(key, [...(map.get(key) ?? []), entry]);
  for (const rule of FIELD_RULES) {
    if (!rule.make[set]) continue;
    const entry = { rule, match: ruleMatch(rule, set) };
    if (rule.fallback) {
      index.fallback.push(entry);
      continue;
    }
    if (rule.when && !rule.names) index.context.push(entry);
    for (const format of rule.formats ?? []) add(index.byFormat, format, entry);
    for (const name of entry.match.names) add(index.byName, name, entry);
    for (const ending of entry.match.endings) add(index.byEnding, ending, entry);
    for (const word of rule.firstWords ?? []) add(index.byFirstWord, word, entry);
    for (const word of rule.lastWords ?? []) add(index.byLastWord, word, entry);
  }
  // Ties in length cannot both end one id, so the order among them does not matter.
  index.endings = [...index.byEnding.keys()].sort((a, b) => b.length - a.length);
  indexes.set(set, index);
  return index;
}

/** Whether a rule applies to the field (type, extra conditions, table context). */
function applies(entry: { rule: FieldRule; match: RuleMatch }, scope: RuleScope, field: Field): boolean {
  const { rule, match } = entry;
  return match.types.includes(field.type) && (rule.fits?.(field) ?? true) && (rule.when?.(scope, field) ?? true);
}

/** The rules of one set that may make the field, in the order they are tried. */
function setChoices(set: RuleSetName, scope: RuleScope, field: Field): FieldRule[] {
  const index = setIndex(set);
  const found = index.context.filter((entry) => applies(entry, scope, field)).map((entry) => entry.rule);
  if (field.type === 'string' && field.format !== undefined && field.format !== 'plain') {
    const byFormat = index.byFormat.get(field.format)?.find((entry) => applies(entry, scope, field));
    return byFormat ? [...found, byFormat.rule] : found;
  }
  const id = normalizeId(field.id);
  const ending = index.endings.find((name) => id.length > name.length && id.endsWith(name));
  const words = idWords(field.id);
  const [firstWord, lastWord] = words.length > 1 ? [words[0]!, words[words.length - 1]!] : ['', ''];
  for (const entries of [index.byName.get(id), ending === undefined ? undefined : index.byEnding.get(ending), index.byLastWord.get(lastWord), index.byFirstWord.get(firstWord)]) {
    const entry = entries?.find((candidate) => applies(candidate, scope, field));
    if (entry) return [...found, entry.rule];
  }
  return found;
}

/**
 * The rules that may make a field without a strategy or reference, in the order they are tried
 * (a maker may decline); empty when the field gets its type's plain default (integer primary keys
 * always do: they count up).
 */
export function ruleChoices(scope: RuleScope, field: Field): RuleChoice[] {
  if (field.generation?.strategy || field.references) return [];
  if (field.type === 'integer' && scope.entity.primaryKey?.includes(field.id)) return [];
  const sets = VERSIONS[scope.version].rules;
  const choices = sets.flatMap((set) => setChoices(set, scope, field).map((rule) => ({ rule, set, make: rule.make[set]! })));
  if (choices.length > 0) return choices;
  return sets.flatMap((set) =>
    setIndex(set)
      .fallback.filter((entry) => applies(entry, scope, field))
      .map(({ rule }) => ({ rule, set, make: rule.make[set]! })),
  );
}

/** The rule that makes a field (the first choice), if any. */
export function ruleOf(scope: RuleScope, field: Field): FieldRule | undefined {
  return ruleChoices(scope, field)[0]?.rule;
}
