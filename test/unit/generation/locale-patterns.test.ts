import { describe, expect, it } from 'vitest';
import { allLocales } from '@faker-js/faker';
import { FakerPool } from '../../../src/generation/faker-pool.ts';
import { RandomCursor, RandomStream, streamKey } from '../../../src/generation/random.ts';
import { LocaleWords } from '../../../src/generation/values/words.ts';
import { digitsComposer } from '../../../src/generation/values/locale-patterns.ts';

const METHODS = ['person.firstName', 'person.lastName', 'person.fullName', 'person.jobTitle', 'location.city', 'location.streetAddress', 'location.state', 'company.name', 'phone.number', 'person.sex'];

describe('compiled locale patterns', () => {
  it('fill every pattern of every locale completely, or leave the method to faker', () => {
    const cursor = new RandomCursor(new RandomStream(streamKey('patterns')));
    const fakers = new FakerPool(Date.UTC(2025, 0, 1));
    const broken: string[] = [];
    for (const locale of Object.keys(allLocales).filter((name) => name !== 'base')) {
      const words = LocaleWords.of(locale);
      for (const method of METHODS) {
        const composer = words.composer(method);
        for (let row = 0; row < 20; row++) {
          const value = composer ? composer(cursor.reset(row)) : String(fakers.call(fakers.method(locale, method), [], cursor.stream, row, 0));
          if (value.length === 0 || /\{\{|#/.test(value)) broken.push(`${locale} ${method}: ${JSON.stringify(value)}`);
        }
      }
    }
    expect(broken).toEqual([]);
  });

  it('compiles the common English methods (the fast path)', () => {
    const words = LocaleWords.of('en');
    expect(METHODS.filter((method) => !words.composer(method))).toEqual([]);
  });

  it('fills number formats: # any digit, ! 2 to 9', () => {
    const compose = digitsComposer('(!##) !##-#### x#####');
    const cursor = new RandomCursor(new RandomStream(streamKey('digits')));
    for (let row = 0; row < 500; row++) expect(compose(cursor.reset(row))).toMatch(/^\([2-9]\d\d\) [2-9]\d\d-\d{4} x\d{5}$/);
  });
});
