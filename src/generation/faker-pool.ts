// Faker without per-value seeding: one Faker per locale, all sharing a Randomizer backed by the
// counter-based PRNG. Before each value the randomizer is pointed at (stream, row, first draw), so a
// faker value is a pure function of its key and row, and costs no `faker.seed()` call.
import type { LocaleDefinition, Randomizer } from '@faker-js/faker';
import { Faker, allLocales } from '@faker-js/faker';
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

/** Locale chain of a faker locale: `en_AU_ocker` → en_AU_ocker, en_AU, en, base. */
export function localeChain(locale: string): string[] {
  const parts = locale.split('_');
  const chain: string[] = [];
  for (let n = parts.length; n > 0; n--) chain.push(parts.slice(0, n).join('_'));
  if (!chain.includes('en')) chain.push('en');
  chain.push('base');
  return chain.filter((name) => name in allLocales);
}

export class FakerPool {
  readonly randomizer = new CounterRandomizer();
  readonly #fakers = new Map<string, Faker>();
  readonly #referenceMs: number;

  constructor(referenceMs: number) {
    this.#referenceMs = referenceMs;
  }

  /** The Faker of a locale, its data falling back to `en` and `base`; `faker.date` counts from the reference date. */
  faker(locale: string): Faker {
    let faker = this.#fakers.get(locale);
    if (!faker) {
      const definitions = localeChain(locale).map((name) => (allLocales as Record<string, LocaleDefinition>)[name]!);
      const referenceMs = this.#referenceMs;
      faker = new Faker({ locale: definitions, randomizer: this.randomizer, config: { defaultRefDate: () => new Date(referenceMs) } });
      this.#fakers.set(locale, faker);
    }
    return faker;
  }

  /** The function `module.method` of a locale's Faker, bound to its module; throws when there is none. */
  method(locale: string, method: string): FakerCall {
    const [moduleName = '', name = ''] = method.split('.');
    const module = (this.faker(locale) as unknown as Record<string, Record<string, unknown>>)[moduleName];
    const fn = module?.[name];
    if (typeof fn !== 'function') throw new Error(`faker has no method "${method}"`);
    return (fn as FakerCall).bind(module);
  }

  /** Calls a bound faker method with the randomizer pointed at (stream, row, firstDraw). */
  call(fn: FakerCall, args: readonly unknown[], stream: RandomStream, row: number, firstDraw: number): unknown {
    this.randomizer.point(stream, row, firstDraw);
    return args.length === 0 ? fn() : fn(...args);
  }
}
