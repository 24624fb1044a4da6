// faker's `helpers.fake`, exact and several times faster. Many faker methods are patterns filled
// by `fake` (commerce.productName is '{{commerce.productAdjective}} {{commerce.productMaterial}}
// {{commerce.product}}', company.name, location.city, person.fullName …), and faker parses the
// pattern again, and resolves each expression through its modules and locale data again, for every
// value: half the time of a faker-heavy table. Here the parse and the resolution are kept per
// pattern and per expression; the random draws are faker's own, in faker's order, so every value
// is faker's (a test compares them over every locale and method, and over odd patterns).
//
// faker 10's `fake(pattern)`: take a pattern (an array: one drawn by `arrayElement`); find the first
// `{{` followed by a lower-case letter and the next `}}`; evaluate the expression between them
// (`fakeEval`); put its text in their place; and call `fake` again on the whole new string. Whatever
// this code cannot follow exactly (a value with braces in it, an expression with arguments or one
// that calls a function or draws on its way), it hands to faker's own `fake` with the string as it
// stands at that point, which gives what faker would from there: `fake` depends on its string and
// the draws alone.
import type { Faker } from '@faker-js/faker';

/** A pattern's first expression: where it starts, where its `}}` starts, and its text. */
interface Expression {
  start: number;
  end: number;
  text: string;
}

/**
 * An expression that resolves without side effects: the values its last step leaves (faker then
 * draws an element of each array among them, in order, and returns the first, called if it is a
 * function).
 */
type Resolution = readonly unknown[];

/** Patterns and expressions kept at most (configs may pass patterns of their own to helpers.fake). */
const CACHE_LIMIT = 10_000;
const EXPRESSION_START = /{{[a-z]/;
const PART_END = /\.|\(/;

type FakeFunction = (pattern: string | readonly string[]) => string;

/**
 * Names faker's own expression evaluation must never step through: from them it reaches JavaScript's
 * own objects (`{{person.firstName().constructor.constructor("…")()}}` would make and call a function
 * from text). No faker module, method or definition has these names.
 */
const HIDDEN_NAMES = new Set([
  ...Object.getOwnPropertyNames(Object.prototype),
  'prototype',
  'apply',
  'bind',
  'call',
  'caller',
  'arguments',
]);
const WORD = /[A-Za-z_$][\w$]*/g;

/** The first name in an expression's text (arguments included) that faker must not evaluate, if any. */
export function hiddenFakerName(expression: string): string | undefined {
  for (const [word] of expression.matchAll(WORD)) if (HIDDEN_NAMES.has(word) || word.startsWith('_')) return word;
  return undefined;
}

interface Helpers {
  fake: FakeFunction;
  arrayElement<T>(array: readonly T[]): T;
}

/** Replaces `faker.helpers.fake` by the fast, exact one. */
export function installFastFake(faker: Faker): void {
  const helpers = faker.helpers as unknown as Helpers;
  const unguarded = helpers.fake.bind(helpers);
  // faker's fake evaluates the first expression of the string it is given (then calls this fake again on
  // the result): every expression faker itself evaluates is checked here first, however it was assembled.
  const fakersOwn: FakeFunction = (text) => {
    const expression = typeof text === 'string' ? firstExpression(text) : null;
    const hidden = expression === null ? undefined : hiddenFakerName(expression.text);
    if (hidden !== undefined) throw new Error(`helpers.fake expression {{${expression!.text}}} names "${hidden}", which faker must not evaluate`);
    return unguarded(text);
  };
  const patterns = new Map<string, Expression | null>();
  const resolutions = new Map<string, Resolution | null>();
  const entryPoints = [faker, faker.rawDefinitions];

  const firstExpression = (pattern: string): Expression | null => {
    let found = patterns.get(pattern);
    if (found === undefined) {
      const start = pattern.search(EXPRESSION_START);
      const end = start === -1 ? -1 : pattern.indexOf('}}', start);
      found = start === -1 || end === -1 ? null : { start, end, text: pattern.substring(start + 2, end + 2).replace('}}', '').replace('{{', '') };
      if (patterns.size < CACHE_LIMIT) patterns.set(pattern, found);
    }
    return found;
  };

  const resolution = (expression: string): Resolution | null => {
    let found = resolutions.get(expression);
    if (found === undefined) {
      found = resolve(expression, entryPoints);
      if (resolutions.size < CACHE_LIMIT) resolutions.set(expression, found);
    }
    return found;
  };

  const evaluate = (values: Resolution): unknown => {
    let first: unknown;
    for (let index = 0; index < values.length; index++) {
      const value = values[index];
      const drawn = Array.isArray(value) ? helpers.arrayElement(value) : value;
      if (index === 0) first = drawn;
    }
    return typeof first === 'function' ? (first as () => unknown)() : first;
  };

  const fake: FakeFunction = (pattern) => {
    const text = typeof pattern === 'string' ? pattern : helpers.arrayElement(pattern);
    // faker's string is always `done + rest`: `done` holds no expression and cannot start one.
    let done = '';
    let rest = text;
    for (;;) {
      const expression = firstExpression(rest);
      if (expression === null) return done + rest;
      const before = rest.substring(0, expression.start);
      const values = resolution(expression.text);
      // A `{` just before the expression could join the value's first letter into a new one.
      const last = before.length > 0 ? before : done;
      if (values === null || last.charCodeAt(last.length - 1) === 123 /* { */) return fakersOwn(done + rest);
      const value = String(evaluate(values));
      const after = rest.substring(expression.end + 2);
      if (value.includes('{') || value.includes('}')) return fakersOwn(done + before + value + after);
      done += before + value;
      rest = after;
    }
  };
  helpers.fake = fake;
}

/**
 * faker's `fakeEval(expression)` followed step by step without calling anything: the values its last
 * step leaves, or null when it would call a function or draw before its last step, take arguments,
 * or fail (faker's own code then runs, and throws where it throws).
 */
function resolve(expression: string, entryPoints: readonly unknown[]): Resolution | null {
  if (expression.length === 0) return null;
  try {
    let values: unknown[] = [...entryPoints];
    let rest = expression;
    do {
      if (rest.startsWith('(')) return null;
      const match = PART_END.exec(rest);
      const dot = (match?.[0] ?? '') === '.';
      const at = match?.index ?? rest.length;
      const name = rest.substring(0, at);
      if (name.length === 0) return null;
      const next = rest[at + 1];
      if (dot && (next === undefined || next === '.' || next === '(')) return null;
      // faker calls a function value to step into its result.
      if (values.some((value) => typeof value === 'function')) return null;
      values = values.map((value) => (typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[name] : undefined)).filter((value) => value !== null && value !== undefined);
      rest = rest.substring(at + (dot ? 1 : 0));
      // faker draws an element of every array after each step: before the last, the next step would depend on it.
      if (rest.length > 0 && values.some((value) => Array.isArray(value))) return null;
    } while (rest.length > 0 && values.length > 0);
    return values.length === 0 ? null : values;
  } catch {
    return null;
  }
}
