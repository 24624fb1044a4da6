// The style of identifying text: counts → a styledText strategy (fit-text.ts), and the rows it makes
// (values/styled-text.ts): the case, lengths within the learned ones, emails at the learned domains
// in the learned formats, deterministic, with the domains under k never in the strategy.
import { describe, expect, it } from 'vitest';
import { fitText } from '../../../src/learn/fit-text.ts';
import { config, entity, generate } from '../../helpers/generate-in-memory.ts';

const noFormats = { 'firstDotLast': 0, firstUnderscoreLast: 0, firstLast: 0, initialLast: 0, first: 0, other: 0 };

describe('fitText', () => {
  it.each([
    ['upper-case names', { kind: 'person' as const, minCount: 5, cases: { lettered: 100, lower: 0, upper: 97, capital: 0 } }, { kind: 'styledText', case: 'upper' }],
    ['title-case names', { kind: 'person' as const, minCount: 5, cases: { lettered: 100, lower: 0, upper: 1, capital: 99 } }, { kind: 'styledText', case: 'title' }],
    ['sentences are not title-cased', { kind: 'free text' as const, minCount: 5, cases: { lettered: 100, lower: 0, upper: 0, capital: 100 }, lengths: [10, 40, 90] }, { kind: 'styledText', lengths: [10, 40, 90] }],
    ['mixed case: nothing', { kind: 'person' as const, minCount: 5, cases: { lettered: 100, lower: 50, upper: 10, capital: 40 } }, undefined],
  ])('%s', (_name, facts, want) => {
    expect(fitText(facts).strategy).toEqual(want);
  });

  it('emails: the domains the database let out (≥ k rows), the rest as sds’s own, formats and digits as shares', () => {
    const email = { emails: 200, domains: [{ value: 'corp.example', count: 150 }, { value: 'mail.example', count: 40 }], formats: { ...noFormats, 'firstDotLast': 160, initialLast: 40 }, digits: 20 };
    expect(fitText({ kind: 'contact', minCount: 5, email }).strategy).toEqual({
      kind: 'styledText',
      email: { domains: [{ value: 'corp.example', weight: 150 }, { value: 'mail.example', weight: 40 }], otherDomains: 10, formats: [{ value: 'firstDotLast', weight: 160 }, { value: 'initialLast', weight: 40 }], digits: 0.1 },
    });
  });
});

describe('styledText generation', () => {
  const people = (strategy: object) =>
    config(entity('members', 2000, [{ id: 'firstName', type: 'string' }, { id: 'lastName', type: 'string' }, { id: 'email', type: 'string', generation: { strategy } as never }, { id: 'notes', type: 'text' }]));

  it('emails of the row’s person at the learned domains, in the learned formats, the same on every run', () => {
    const strategy = { kind: 'styledText', email: { domains: [{ value: 'corp.example', weight: 3 }, { value: 'mail.example', weight: 1 }], formats: [{ value: 'firstDotLast', weight: 1 }] } };
    const run = generate(people(strategy));
    const emails = run.column('members', 'email') as string[];
    const domains = emails.map((email) => email.split('@')[1]);
    expect(new Set(domains)).toEqual(new Set(['corp.example', 'mail.example']));
    expect(domains.filter((domain) => domain === 'corp.example').length / emails.length).toBeCloseTo(0.75, 1);
    expect(emails.every((email) => /^[a-z]+\.[a-z]+@/.test(email))).toBe(true);
    expect(generate(people(strategy)).column('members', 'email')).toEqual(emails);
  });

  it('upper case and lengths drawn from the learned quantiles', () => {
    const schema = config(entity('books', 2000, [{ id: 'title', type: 'string', generation: { strategy: { kind: 'styledText', case: 'upper' } } }, { id: 'summary', type: 'text', generation: { strategy: { kind: 'styledText', lengths: [20, 60, 200] } } }]));
    const run = generate(schema);
    expect((run.column('books', 'title') as string[]).every((title) => title === title.toUpperCase())).toBe(true);
    const lengths = (run.column('books', 'summary') as string[]).map((text) => text.length).sort((a, b) => a - b);
    expect(lengths.at(-1)).toBeLessThanOrEqual(200);
    // Half the values at most 60 characters long (cut at word boundaries: a little shorter).
    expect(lengths[1000]).toBeGreaterThan(40);
    expect(lengths[1000]).toBeLessThanOrEqual(60);
  });
});
