// Word lists and compiled patterns of a faker locale (resolved through its chain to `en`, as faker
// resolves them), read once per locale, for the default values of common field ids. Composing from
// lists with the counter PRNG is several times faster than faker methods that parse patterns per
// call (fullName, email, company name…), the hot spot DESIGN.md measured.
import { localeChain } from '../faker-pool.ts';
import { mergedDefinitions } from '../faker-locales.ts';
import type { Composer } from './locale-patterns.ts';
import { PatternCompiler } from './locale-patterns.ts';

const FALLBACK_WORDS = ['alpha', 'beta', 'gamma', 'delta', 'omega'];

export class LocaleWords {
  static readonly #cache = new Map<string, LocaleWords>();

  /** Word lists of a locale (cached). */
  static of(locale: string): LocaleWords {
    let words = LocaleWords.#cache.get(locale);
    if (!words) LocaleWords.#cache.set(locale, (words = new LocaleWords(locale)));
    return words;
  }

  readonly patterns: PatternCompiler;
  readonly firstNames: readonly string[];
  readonly lastNames: readonly string[];
  /** Lower-case ASCII forms of the names, for emails and usernames ('' for non-Latin scripts). */
  readonly firstNamesAscii: readonly string[];
  readonly lastNamesAscii: readonly string[];
  readonly countries: readonly string[];
  readonly emailDomains: readonly string[];
  readonly domainSuffixes: readonly string[];
  readonly loremWords: readonly string[];
  /** Lorem words as lower-case ASCII (slugs, domains). */
  readonly loremAscii: readonly string[];
  readonly colors: readonly string[];

  private constructor(locale: string) {
    const chain = localeChain(locale).map((name) => mergedDefinitions(name) as Record<string, unknown>);
    this.patterns = new PatternCompiler(chain);
    const list = (path: string[], fallback: string[]): string[] => {
      const value = this.patterns.entry(path);
      if (Array.isArray(value) && value.length > 0 && value.every((item) => typeof item === 'string')) return value as string[];
      if (value && typeof value === 'object' && !Array.isArray(value)) {
        const merged = Object.values(value).flatMap((item) => (Array.isArray(item) ? item.filter((x) => typeof x === 'string') : []));
        if (merged.length > 0) return [...new Set(merged as string[])];
      }
      return fallback;
    };
    this.firstNames = list(['person', 'first_name'], ['Alex', 'Sam', 'Jordan']);
    this.lastNames = list(['person', 'last_name'], ['Smith', 'Jones', 'Brown']);
    this.firstNamesAscii = this.firstNames.map(toAsciiWord);
    this.lastNamesAscii = this.lastNames.map(toAsciiWord);
    this.countries = list(['location', 'country'], ['Nowhere']);
    this.emailDomains = list(['internet', 'free_email'], ['example.com']);
    this.domainSuffixes = list(['internet', 'domain_suffix'], ['com']);
    this.loremWords = list(['lorem', 'word'], FALLBACK_WORDS);
    const ascii = this.loremWords.map(toAsciiWord).filter((word) => word.length > 0);
    this.loremAscii = ascii.length > 0 ? ascii : FALLBACK_WORDS;
    this.colors = list(['color', 'human'], ['red', 'green', 'blue']);
  }

  /** A composer for a faker method (`person.fullName`, `location.city`…), undefined when only faker can make it. */
  composer(method: string): Composer | undefined {
    return this.patterns.method(method);
  }
}

/** Lower-case ASCII letters and digits of a word ('Zoë' → 'zoe'; '' for non-Latin scripts). */
export function toAsciiWord(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');
}
