// The fast helpers.fake (faker-fake.ts) must give exactly faker's values: every method of every
// module in every locale, and patterns of every odd shape, drawn from the same randomizer.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Faker } from '@faker-js/faker';
import { hiddenFakerName, installFastFake } from '../../../src/generation/faker-fake.ts';
import { fakerClass, mergedDefinitions } from '../../../src/generation/faker-locales.ts';
import { CounterRandomizer, localeChain } from '../../../src/generation/faker-pool.ts';
import { FAKER_LOCALES } from '../../../src/generation/config-lookups.ts';
import { RandomStream, streamKey } from '../../../src/generation/random.ts';

const REFERENCE = Date.UTC(2025, 0, 1);
const stream = new RandomStream(streamKey('fast-fake'));

/** Two Fakers of a locale on one randomizer: faker's own `fake`, and the fast one. */
function fakers(locale: string): { own: Faker; fast: Faker; randomizer: CounterRandomizer } {
  const randomizer = new CounterRandomizer();
  const FakerClass = fakerClass();
  const make = () => new FakerClass({ locale: localeChain(locale).map(mergedDefinitions), randomizer, config: { defaultRefDate: () => new Date(REFERENCE) } });
  const fast = make();
  installFastFake(fast);
  return { own: make(), fast, randomizer };
}

/**
 * The fast fake's outcome is faker's own, except where the guard refused an expression naming something
 * faker must never evaluate (`constructor`, `__proto__`, any `_name`): there the text must really name one.
 */
function expectFakersOutcome(got: ReturnType<typeof outcome>, want: ReturnType<typeof outcome>, text: string): void {
  if ('error' in got && got.error.includes('which faker must not evaluate')) {
    expect(hiddenFakerName(text), `refused ${JSON.stringify(text)}`).toBeDefined();
    return;
  }
  expect(got).toEqual(want);
}

function outcome(run: () => unknown): { value: unknown } | { error: string } {
  try {
    const value = run();
    return { value: value instanceof Date ? value.toISOString() : value };
  } catch (error) {
    return { error: String(error) };
  }
}

/** Every method of a faker module, inherited ones included. */
function methodNames(module: object): string[] {
  const names = new Set<string>();
  for (let proto = Object.getPrototypeOf(module) as object | null; proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto) as object | null) {
    for (const name of Object.getOwnPropertyNames(proto)) if (name !== 'constructor' && typeof (module as Record<string, unknown>)[name] === 'function') names.add(name);
  }
  return [...names].sort();
}

const MODULES = ['airline', 'animal', 'book', 'color', 'commerce', 'company', 'database', 'datatype', 'date', 'finance', 'food', 'git', 'hacker', 'helpers', 'image', 'internet', 'location', 'lorem', 'music', 'person', 'phone', 'science', 'string', 'system', 'vehicle', 'word', 'number'] as const;

describe('fast helpers.fake', () => {
  // faker warns on every call of its deprecated methods (image.urlLoremFlickr).
  beforeAll(() => void vi.spyOn(console, 'warn').mockImplementation(() => {}));
  afterAll(() => vi.restoreAllMocks());

  it("gives faker's own value for every method of every module, called without arguments, in every locale", () => {
    let compared = 0;
    let throughFake = 0;
    for (const locale of FAKER_LOCALES) {
      const { own, fast, randomizer } = fakers(locale);
      for (const moduleName of MODULES) {
        const ownModule = (own as unknown as Record<string, Record<string, () => unknown>>)[moduleName]!;
        const fastModule = (fast as unknown as Record<string, Record<string, () => unknown>>)[moduleName]!;
        for (const method of methodNames(ownModule)) {
          for (let row = 0; row < 12; row++) {
            randomizer.point(stream, row, 3);
            const want = outcome(() => ownModule[method]!());
            randomizer.point(stream, row, 3);
            const got = outcome(() => fastModule[method]!());
            expect(got, `${locale} ${moduleName}.${method} row ${row}`).toEqual(want);
            compared++;
          }
        }
      }
      // The methods that are patterns, many rows each.
      for (const method of ['commerce.productName', 'commerce.productDescription', 'company.name', 'location.city', 'location.streetAddress', 'location.street', 'person.fullName', 'person.jobTitle', 'internet.email', 'location.secondaryAddress', 'phone.number', 'animal.petName', 'book.title', 'vehicle.vehicle']) {
        const [moduleName = '', name = ''] = method.split('.');
        for (let row = 0; row < 150; row++) {
          randomizer.point(stream, row, 11);
          const want = outcome(() => (own as unknown as Record<string, Record<string, () => unknown>>)[moduleName]![name]!());
          randomizer.point(stream, row, 11);
          const got = outcome(() => (fast as unknown as Record<string, Record<string, () => unknown>>)[moduleName]![name]!());
          expect(got, `${locale} ${method} row ${row}`).toEqual(want);
          throughFake++;
        }
      }
    }
    expect(compared).toBeGreaterThan(100_000);
    expect(throughFake).toBe(FAKER_LOCALES.length * 14 * 150);
  }, 120_000);

  it('refuses an expression that an earlier one made name an underscore name (found by the property below, seed 356403275)', () => {
    const { fast } = fakers('en');
    // faker joins "{{a _" and the filled "{{person.firstName}}" into one expression, "a _person.firstName".
    expect(() => fast.helpers.fake('{{a _{{person.firstName}}')).toThrow(/names "_person", which faker must not evaluate/);
  });

  it("gives faker's own value, or its error, for patterns of any shape", () => {
    const { own, fast, randomizer } = fakers('de');
    const piece = fc.oneof(
      fc.constantFrom('{{', '}}', '{', '}', '{{{', '}}}', ' ', '-', '#', 'a', '(', ')', '.', "'", '"'),
      fc.constantFrom(
        '{{person.firstName}}',
        '{{person.lastName}}',
        '{{location.city_name}}',
        '{{location.city_pattern}}',
        '{{commerce.product_name.adjective}}',
        '{{commerce.productName}}',
        '{{person.first_name.generic}}',
        '{{number.int(5)}}',
        '{{number.int({"min": 1, "max": 9})}}',
        '{{helpers.arrayElement(["a", "b"])}}',
        '{{string.alpha}}',
        '{{person.firstName.length}}',
        '{{nothing.here}}',
        '{{person.}}',
        '{{person..firstName}}',
        '{{ person.firstName }}',
        '{{Person.firstName}}',
        '{{definitions.person.first_name}}',
        '{{location.street_pattern}}',
        '{{word.adjective}}',
        '{{lorem.word}}',
      ),
      fc.string({ maxLength: 4 }),
    );
    const pattern = fc.array(piece, { maxLength: 8 }).map((pieces) => pieces.join(''));
    fc.assert(
      fc.property(pattern, fc.nat(10_000), (text, row) => {
        randomizer.point(stream, row, 0);
        const want = outcome(() => own.helpers.fake(text));
        randomizer.point(stream, row, 0);
        const got = outcome(() => fast.helpers.fake(text));
        expectFakersOutcome(got, want, text);
        // Arrays of patterns: one drawn, then filled.
        randomizer.point(stream, row, 5);
        const wantOne = outcome(() => own.helpers.fake([text, `${text}!`]));
        randomizer.point(stream, row, 5);
        expectFakersOutcome(outcome(() => fast.helpers.fake([text, `${text}!`])), wantOne, text);
      }),
      { numRuns: 3_000 },
    );
  });
});
