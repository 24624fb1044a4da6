// Generator version 3's text over every faker locale: a locale with enough words of its own (≥ 40
// usable adjectives and nouns) writes them, every other locale writes English from faker's `en`
// lists; none falls back to a handful of words, and none mixes English with another language.
import { allLocales } from '@faker-js/faker';
import { describe, expect, it } from 'vitest';
import { localeTextWords, MIN_LOCALE_WORDS, usableWord } from '../../../src/generation/coherence/text.ts';
import { config as configOf, entity, generate } from '../../helpers/generate-in-memory.ts';

const ROWS = 300;
const LOCALES = Object.keys(allLocales).filter((locale) => locale !== 'base');

function textRows(locale: string, version: 2 | 3 = 3) {
  const config = configOf(
    entity('posts', ROWS, [
      { id: 'title', type: 'string', maxLength: 300 },
      { id: 'body', type: 'text' },
      { id: 'tags', type: 'string', maxLength: 300 },
      { id: 'productName', type: 'string', maxLength: 300 },
    ]),
  );
  config.generationDefaults = { ...config.generationDefaults, locale };
  return generate(config, { generatorVersion: version }).objects('posts');
}

/** The list faker's chain of a locale gives first at word.noun, and the locale it comes from. */
function chainNouns(locale: string): { from: string; nouns: string[] } {
  const parts = locale.split('_');
  for (let n = parts.length; n > 0; n--) {
    const name = parts.slice(0, n).join('_');
    const nouns = (allLocales as Record<string, { word?: { noun?: string[] } }>)[name]?.word?.noun;
    if (nouns?.length) return { from: name, nouns };
  }
  return { from: 'en', nouns: allLocales.en.word!.noun! };
}

describe('generator version 3 text in every faker locale', () => {
  it('writes the locale’s own words in exactly the locales with ≥ 40 usable adjectives and nouns of their own', () => {
    const own = LOCALES.filter((locale) => localeTextWords(locale).kind === 'locale');
    expect(own).toEqual(['da', 'de', 'de_AT', 'de_CH', 'fa', 'fr', 'fr_BE', 'fr_CA', 'fr_CH', 'fr_LU', 'fr_SN', 'hu', 'id_ID', 'ko', 'pt_BR', 'pt_PT', 'zh_CN']);
    for (const locale of own) {
      const words = localeTextWords(locale);
      expect(words.adjectives.length, locale).toBeGreaterThanOrEqual(MIN_LOCALE_WORDS);
      expect(words.nouns.length, locale).toBeGreaterThanOrEqual(MIN_LOCALE_WORDS);
    }
    // nb_NO has adjectives of its own but no nouns: English throughout, not Norwegian adjectives among English nouns.
    expect(localeTextWords('nb_NO').adjectives).toEqual(localeTextWords('en').adjectives);
  });

  for (const locale of LOCALES) {
    it(`${locale}: draws titles, sentences and tags from many words of one language`, () => {
      const rows = textRows(locale);
      const tags = rows.flatMap((row) => String(row.tags).split(', '));
      const distinctTags = new Set(tags);
      // Never a fallback of a few words: ≥ 40 distinct nouns as tags, and titles that rarely repeat.
      expect(distinctTags.size).toBeGreaterThanOrEqual(40);
      expect(new Set(rows.map((row) => row.title)).size).toBeGreaterThan(ROWS * 0.9);
      expect(new Set(rows.map((row) => row.productName)).size).toBeGreaterThan(ROWS * 0.5);
      for (const tag of distinctTags) expect(usableWord(tag), tag).toBe(true);
      // Tags come from the locale's own nouns where it writes its own words, else from `en`'s.
      const words = localeTextWords(locale);
      const source = words.kind === 'locale' ? chainNouns(locale) : { from: 'en', nouns: allLocales.en.word!.noun! };
      expect(source.from === 'en', `${locale} takes nouns of ${source.from}`).toBe(words.kind === 'english');
      const nouns = new Set(source.nouns);
      for (const tag of distinctTags) expect(nouns.has(tag), `${locale}: ${tag}`).toBe(true);
      if (words.kind === 'english') for (const row of rows) expect(String(row.title), locale).toMatch(/^[\x20-\x7e]+$/);
      for (const row of rows) expect(String(row.body)).toMatch(/[.。]$/);
    });
  }

  it('keeps German nouns capitalised, writes Chinese without spaces, and French product names in faker’s French pattern', () => {
    for (const row of textRows('de')) for (const tag of String(row.tags).split(', ')) expect(tag).toMatch(/^\p{Lu}/u);
    for (const row of textRows('zh_CN')) {
      expect(String(row.body)).not.toContain(' ');
      expect(String(row.body)).toMatch(/。$/);
      expect(String(row.title)).toMatch(/^\p{Script=Han}+$/u);
    }
    for (const row of textRows('fr')) expect(String(row.productName)).toMatch(/^\S+ \S+ en \S+$/u);
  });

  it('writes `en` text as version 2 does, and other locales’ no longer as version 2’s English templates around three words', () => {
    expect(textRows('en', 3)).toEqual(textRows('en', 2));
    const v2 = textRows('de', 2);
    expect(new Set(v2.flatMap((row) => String(row.tags).split(', ')))).toEqual(new Set(['garden', 'river', 'window']));
    expect(textRows('de', 3)).not.toEqual(v2);
  });
});
