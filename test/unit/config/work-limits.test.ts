// The work limits of a config (work-limits.ts) and the faker trial (faker-trial.ts): cases of
// arguments that break a limit or fail in faker, each with the pointer and message validation gives,
// and arguments that work, which must stay valid (and generate exactly as before).
import { describe, expect, it } from 'vitest';
import { configLimitIssues, fakerArgsIssues, templateLimitProblem, WORK_LIMITS } from '../../../src/config/work-limits.ts';
import { validateConfig } from '../../../src/config/validate-config.ts';
import type { SchemaConfig } from '../../../src/model/config-types.ts';

const ARGS = '/entities/0/fields/1/generation/strategy/args';

type Case = [string, { given: [method: string, args: unknown[]]; want: { path: string; message: RegExp }[] }];

const argumentCases: Case[] = [
  ['a string of ten million characters', { given: ['string.alpha', [{ length: 10_000_000 }]], want: [{ path: `${ARGS}/0/length`, message: /asked for 10000000 characters, over the limit of 10000/ }] }],
  ['a positional string length', { given: ['string.numeric', [20_000]], want: [{ path: `${ARGS}/0`, message: /20000 characters/ }] }],
  ['a length range', { given: ['string.alphanumeric', [{ length: { min: 1, max: 50_000 } }]], want: [{ path: `${ARGS}/0/length/max`, message: /50000 characters/ }] }],
  ['a million words', { given: ['lorem.words', [1_000_000]], want: [{ path: `${ARGS}/0`, message: /1000000 items, over the limit of 1000/ }] }],
  ['a count option anywhere', { given: ['date.betweens', [{ from: '2020-01-01', to: '2021-01-01', count: 5_000 }]], want: [{ path: `${ARGS}/0/count`, message: /5000 items/ }] }],
  ['arrayElements asked for too many', { given: ['helpers.arrayElements', [['a', 'b'], 2_000]], want: [{ path: `${ARGS}/1`, message: /2000 items/ }] }],
  ['a pattern of eleven thousand characters', { given: ['helpers.fake', ['x'.repeat(11_000)]], want: [{ path: `${ARGS}/0`, message: /11000 characters is over the limit of 10000/ }] }],
  ['an array of twenty thousand items', { given: ['helpers.arrayElement', [Array.from({ length: 20_000 }, () => 'a')]], want: [{ path: `${ARGS}/0`, message: /20000 items is over the limit of 10000/ }] }],
  ['a fake pattern asking for a long string', { given: ['helpers.fake', ['{{string.alpha(10000000)}}']], want: [{ path: `${ARGS}/0`, message: /pattern asks for 10000000/ }] }],
  ['a regular expression repeating a million times', { given: ['helpers.fromRegExp', ['[a-z]{1000000}']], want: [{ path: `${ARGS}/0`, message: /pattern asks for 1000000/ }] }],
  ['a fake expression naming constructor', { given: ['helpers.fake', ['{{person.constructor}}']], want: [{ path: `${ARGS}/0`, message: /names "constructor"/ }] }],
  ['a fake expression naming __proto__', { given: ['helpers.fake', ['hi {{location.__proto__}}']], want: [{ path: `${ARGS}/0`, message: /names "__proto__"/ }] }],
  ['a fake expression stepping into constructor after a call', { given: ['helpers.fake', ['{{person.firstName("x").constructor.constructor("return 1")()}}']], want: [{ path: `${ARGS}/0`, message: /names "constructor"/ }] }],
  ['a fake expression naming a private member', { given: ['helpers.fake', ['{{person._faker}}']], want: [{ path: `${ARGS}/0`, message: /names "_faker"/ }] }],
  // Within the limits: values, not sizes, are not bounded.
  ['a large integer range', { given: ['number.int', [{ min: 0, max: 1e15 }]], want: [] }],
  ['a string at the limit', { given: ['string.alpha', [{ length: WORK_LIMITS.fakerLength }]], want: [] }],
  ['a small word count', { given: ['lorem.words', [{ min: 2, max: 8 }]], want: [] }],
  ['a plain fake pattern', { given: ['helpers.fake', ['{{person.firstName}} {{person.lastName}} #{{number.int(99)}}']], want: [] }],
  ['a phone-like replaceSymbols pattern', { given: ['helpers.replaceSymbols', ['+1 555 1234567 ###']], want: [] }],
];

describe('fakerArgsIssues', () => {
  it.each(argumentCases)('%s', (_name, { given: [method, args], want }) => {
    const issues = fakerArgsIssues(method, args, ARGS);
    expect(issues.map((issue) => issue.path)).toEqual(want.map((issue) => issue.path));
    issues.forEach((issue, i) => expect(issue.message).toMatch(want[i]!.message));
  });
});

describe('configLimitIssues', () => {
  const entities = (count: number, fields = 1) =>
    Array.from({ length: count }, (_, i) => ({ id: `e${i}`, fields: Array.from({ length: fields }, (_, j) => ({ id: `f${j}`, type: 'integer' })) }));

  it.each([
    ['1,000 entities', { given: { entities: entities(1_000) }, want: [] as string[] }],
    ['1,001 entities', { given: { entities: entities(1_001) }, want: ['/entities'] }],
    ['1,000 fields', { given: { entities: entities(2, 1_000) }, want: [] }],
    ['1,001 fields in the second entity', { given: { entities: [...entities(1), ...entities(1, 1_001)] }, want: ['/entities/1/fields'] }],
    ['no entities array', { given: { entities: 'x' }, want: [] }],
    ['not an object', { given: null, want: [] }],
  ] as [string, { given: unknown; want: string[] }][])('%s', (_name, { given, want }) => {
    expect(configLimitIssues(given).map((issue) => issue.path)).toEqual(want);
  });

  it('comes first in validation, so a config over the limit is refused without the rest of its checks', () => {
    const result = validateConfig({ formatVersion: 1, entities: entities(2_500) });
    expect(result).toEqual({ valid: false, errors: [{ path: '/entities', message: expect.stringMatching(/2500 entities, over the limit of 1000; split it/) }], warnings: [] });
  });
});

describe('templateLimitProblem', () => {
  it.each([
    ['a template at the limit', { given: 'x'.repeat(WORK_LIMITS.templateLength), want: undefined }],
    ['a template over it', { given: 'x'.repeat(WORK_LIMITS.templateLength + 1), want: 'the template has 10001 characters, over the limit of 10000' }],
  ])('%s', (_name, { given, want }) => expect(templateLimitProblem(given)).toBe(want));
});

describe('the faker trial in validation', () => {
  const config = (type: string, strategy: Record<string, unknown>): SchemaConfig =>
    ({ formatVersion: 1, entities: [{ id: 'users', primaryKey: ['id'], fields: [{ id: 'id', type: 'integer' }, { id: 'x', type, generation: { strategy: { kind: 'faker', ...strategy } } }] }] }) as SchemaConfig;

  it.each([
    ['number.int with min over max', { given: config('integer', { method: 'number.int', args: [{ min: 10, max: 1 }] }), want: { path: ARGS, message: /number\.int\(\{"min":10,"max":1\}\) fails for integer field users\.x: Max 1 should be greater than min 10; fix the arguments/ } }],
    ['an empty arrayElement', { given: config('string', { method: 'helpers.arrayElement', args: [[]] }), want: { path: ARGS, message: /Cannot get value from empty dataset/ } }],
    ['date.between from a non-date', { given: config('date', { method: 'date.between', args: [{ from: 'x' }] }), want: { path: ARGS, message: /Invalid from date: x/ } }],
    [
      'a fake pattern that assembles a constructor expression while it runs',
      {
        given: config('string', { method: 'helpers.fake', args: ['{{helpers.arrayElement(["{{{{person.constr"])}}uctor.constructor("globalThis.pwned = 1")()}}'] }),
        want: { path: ARGS, message: /names "constructor", which faker must not evaluate/ },
      },
    ],
    ['words into an integer', { given: config('integer', { method: 'lorem.word' }), want: { path: '/entities/0/fields/1/generation/strategy/method', message: /which is not a number; use a faker method whose values fit/ } }],
    ['words into a uuid', { given: config('uuid', { method: 'lorem.word' }), want: { path: '/entities/0/fields/1/generation/strategy/method', message: /lorem\.word\(\) fails for uuid field/ } }],
  ])('%s', (_name, { given, want }) => {
    const result = validateConfig(given);
    expect(result.errors).toEqual([{ path: want.path, message: expect.stringMatching(want.message) }]);
  });

  it.each([
    ['a number faker into an integer', config('integer', { method: 'number.int', args: [{ min: 1, max: 9 }] })],
    ['a name into a string', config('string', { method: 'person.firstName' })],
    ['a date between two dates', config('date', { method: 'date.between', args: [{ from: '2020-01-01', to: '2021-01-01' }] })],
    ['an element of a list', config('string', { method: 'helpers.arrayElement', args: [['a', 'b']] })],
  ])('keeps %s valid', (_name, given) => {
    expect(validateConfig(given)).toEqual({ valid: true, errors: [], warnings: [] });
  });

  it('never lets faker run code assembled in a fake pattern', () => {
    validateConfig(config('string', { method: 'helpers.fake', args: ['{{helpers.arrayElement(["{{{{person.constr"])}}uctor.constructor("globalThis.pwned = 1")()}}'] }));
    expect((globalThis as { pwned?: number }).pwned).toBeUndefined();
  });

  it('tries only fields no other check refused', () => {
    const result = validateConfig(config('integer', { method: 'number.nope', args: [{ min: 10, max: 1 }] }));
    expect(result.errors.map((issue) => issue.path)).toEqual(['/entities/0/fields/1/generation/strategy/method']);
  });
});
