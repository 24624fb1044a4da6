// The faker stand-ins must give exactly faker's values: same draws, same order, same arithmetic.
import { describe, expect, it } from 'vitest';
import { allLocales, Faker, type LocaleDefinition } from '@faker-js/faker';
import { FakerPool, localeChain, type FakerCall } from '../../../src/generation/faker-pool.ts';
import { RandomStream, streamKey } from '../../../src/generation/random.ts';

const ROWS = 300;

describe('faker stand-ins', () => {
  it('lorem.sentence() gives faker’s own sentence in every locale, and faker’s error where there is no data', () => {
    const pool = new FakerPool(Date.UTC(2025, 0, 1));
    const stream = new RandomStream(streamKey('stand-ins'));
    for (const locale of Object.keys(allLocales)) {
      const standIn = pool.method(locale, 'lorem.sentence');
      // A separate Faker on the same randomizer runs faker's own code.
      const definitions = localeChain(locale).map((name) => (allLocales as Record<string, LocaleDefinition>)[name]!);
      const faker = new Faker({ locale: definitions, randomizer: pool.randomizer });
      for (let row = 0; row < ROWS; row++) {
        const want = outcome(() => pool.call(faker.lorem.sentence as FakerCall, [], stream, row, 7));
        expect(outcome(() => pool.call(standIn, [], stream, row, 7)), `${locale} row ${row}`).toEqual(want);
      }
    }
  });

  it('passes arguments on to faker', () => {
    const pool = new FakerPool(Date.UTC(2025, 0, 1));
    const stream = new RandomStream(streamKey('stand-ins'));
    const sentence = pool.call(pool.method('en', 'lorem.sentence'), [2], stream, 1, 0) as string;
    expect(sentence.split(' ')).toHaveLength(2);
  });
});

function outcome(run: () => unknown): { value: unknown } | { error: string } {
  try {
    return { value: run() };
  } catch (error) {
    return { error: String(error) };
  }
}
