// Faker without per-value seeding: one Faker per locale, all sharing a Randomizer backed by the
// counter-based PRNG. Before each value the randomizer is pointed at (stream, row, first draw), so a
// faker value is a pure function of its key and row, and costs no `faker.seed()` call.
import type { Faker, Randomizer } from '@faker-js/faker';
import { installFastFake } from './faker-fake.ts';
import { fakerClass, isFakerLocale, mergedDefinitions } from './faker-locales.ts';
import type { RandomStream } from './random.ts';
import { mix } from './random.ts';

const TWO_32 = 4_294_967_296;

/** A Randomizer whose numbers are (stream, row, draw) hashes; `point` sets the counter. */
export class CounterRandomizer implements Randomizer {
  #a = 0;
  #b = 0;
  #row = 0;
  #draw = 0;

  point(stream: RandomStream, row: number, firstDraw: number): void {
    this.#a = stream.a;
    this.#b = stream.b;
    this.#row = row;
    this.#draw = firstDraw;
  }

  // Arrow properties: faker calls these detached from the object.
  next = (): number => mix(this.#a, this.#b, this.#row, this.#draw++) / TWO_32;

  seed = (): void => {
    // Values are keyed by (stream, row, draw); there is no sequence state to seed.
  };
}

/** A bound faker method: call it after pointing the randomizer. */
export type FakerCall = (...args: unknown[]) => unknown;

/**
 * Exact stand-ins for faker methods called without arguments, where faker spends most of its time on
 * work that does not shape the value: the same draws from the randomizer in the same order, through
 * the same arithmetic, so the same values (a unit test compares them with faker in every locale).
 * Undefined when the locale lacks the data: faker then runs, and fails as it would.
 */
const STAND_INS: Record<string, (faker: Faker, next: () => number) => (() => string) | undefined> = {
  // faker 10: sentence() = words({ min: 3, max: 10 }) capitalised, with a full stop. The count is
  // number.int({ min: 3, max: 10 }) = floor(next() * 8 + 3); each word is lorem.word() =
  // arrayElement([...wordList]) = wordList[floor(next() * length)] — faker copies the list per word.
  'lorem.sentence': (faker, next) => {
    const words = definition(() => faker.definitions.lorem.word);
    if (!words || words.length < 2) return undefined;
    const size = words.length;
    return () => {
      const count = Math.floor(next() * 8 + 3);
      let text = words[Math.floor(next() * size)]!;
      for (let word = 1; word < count; word++) text += ` ${words[Math.floor(next() * size)]!}`;
      return `${text.charAt(0).toUpperCase() + text.substring(1)}.`;
    };
  },
};

/** A list of locale data, or undefined where the locale has none (faker's definitions throw then). */
function definition(read: () => unknown): readonly string[] | undefined {
  try {
    const value = read();
    return Array.isArray(value) && value.every((item) => typeof item === 'string') ? value : undefined;
  } catch {
    return undefined;
  }
}

/** Locale chain of a faker locale: `en_AU_ocker` → en_AU_ocker, en_AU, en, base. */
export function localeChain(locale: string): string[] {
  const parts = locale.split('_');
  const chain: string[] = [];
  for (let n = parts.length; n > 0; n--) chain.push(parts.slice(0, n).join('_'));
  if (!chain.includes('en')) chain.push('en');
  chain.push('base');
  return chain.filter(isFakerLocale);
}

export class FakerPool {
  readonly randomizer = new CounterRandomizer();
  readonly #fakers = new Map<string, Faker>();
  readonly #referenceMs: number;

  constructor(referenceMs: number) {
    this.#referenceMs = referenceMs;
  }

  /**
   * The Faker of a locale, its data falling back to `en` and `base`; `faker.date` counts from the
   * reference date; its `helpers.fake` is the fast, exact one (faker-fake.ts).
   */
  faker(locale: string): Faker {
    let faker = this.#fakers.get(locale);
    if (!faker) {
      const definitions = localeChain(locale).map(mergedDefinitions);
      const referenceMs = this.#referenceMs;
      const Faker = fakerClass();
      faker = new Faker({ locale: definitions, randomizer: this.randomizer, config: { defaultRefDate: () => new Date(referenceMs) } });
      installFastFake(faker);
      this.#fakers.set(locale, faker);
    }
    return faker;
  }

  /**
   * The function `module.method` of a locale's Faker, bound to its module; throws when there is
   * none. Called without arguments, a method with an exact stand-in runs the stand-in.
   */
  method(locale: string, method: string): FakerCall {
    const [moduleName = '', name = ''] = method.split('.');
    const faker = this.faker(locale);
    const module = (faker as unknown as Record<string, Record<string, unknown>>)[moduleName];
    const fn = module?.[name];
    if (typeof fn !== 'function') throw new Error(`faker has no method "${method}"`);
    const bound = (fn as FakerCall).bind(module);
    const standIn = STAND_INS[method]?.(faker, this.randomizer.next);
    return standIn ? (...args) => (args.length === 0 ? standIn() : bound(...args)) : bound;
  }

  /** Calls a bound faker method with the randomizer pointed at (stream, row, firstDraw). */
  call(fn: FakerCall, args: readonly unknown[], stream: RandomStream, row: number, firstDraw: number): unknown {
    this.randomizer.point(stream, row, firstDraw);
    return args.length === 0 ? fn() : fn(...args);
  }
}
