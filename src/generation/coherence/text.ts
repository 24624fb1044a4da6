// Text that fits its field: titles, product and company names, descriptions, summaries, bios,
// comments and tags, not Latin lorem (users who want lorem ask for it: faker lorem.*).
// Version 2 writes English-like sentences from the word lists of the locale's chain filtered to
// lower-case ASCII (adjectives, nouns, verbs, adverbs). Version 3 writes in the locale's language
// where faker has enough words of it (German, French, Danish, Hungarian, Portuguese, Indonesian,
// Korean, Persian, Chinese…) and in English from faker's `en` lists elsewhere (localeTextWords).
import { mergedDefinitions } from '../faker-locales.ts';
import { localeChain } from '../faker-pool.ts';
import type { EntityContext } from '../program.ts';
import type { RandomCursor } from '../random.ts';
import { capitalize } from '../values/strings.ts';
import { hasFeature } from '../versions.ts';

/** A part of a locale's product-name pattern: a word list to pick from, or literal text. */
export type ProductPart = 'adjective' | 'material' | 'product' | { text: string };

export interface TextWords {
  /** `english`: English templates around the words; `locale`: sequences of the locale's own words (version 3). */
  kind: 'english' | 'locale';
  adjectives: readonly string[];
  nouns: readonly string[];
  /** Empty where a locale writing its own words has no verbs (or adverbs) of its own: its sentences do without. */
  verbs: readonly string[];
  adverbs: readonly string[];
  materials: readonly string[];
  products: readonly string[];
  /** The same lists capitalised, index for index (a pick from them is the capitalised pick). */
  capitalAdjectives: readonly string[];
  capitalMaterials: readonly string[];
  capitalProducts: readonly string[];
  /** How many different words `nouns` holds. */
  distinctNouns: number;
  /** Between two words: a space, or nothing in scripts written without spaces (Chinese, Japanese, Thai). */
  space: string;
  /** What ends a sentence: `.`, or `。` in Chinese and Japanese. */
  stop: string;
  /** The locale's own product names: faker's pattern of the locale (`{{product}} {{adjective}} de {{material}}`) and its adjectives. */
  product?: { parts: readonly ProductPart[]; adjectives: readonly string[] };
}

type Lists = Pick<TextWords, 'adjectives' | 'nouns' | 'verbs' | 'adverbs' | 'materials' | 'products' | 'product'>;

function textWordsOf(kind: TextWords['kind'], lists: Lists, space = ' ', stop = '.'): TextWords {
  return {
    kind,
    ...lists,
    capitalAdjectives: lists.adjectives.map(capitalize),
    capitalMaterials: lists.materials.map(capitalize),
    capitalProducts: lists.products.map(capitalize),
    distinctNouns: new Set(lists.nouns).size,
    space,
    stop,
  };
}

const cache = new Map<string, TextWords>();

/** Version 2's words: faker's lists of the locale's chain that are lower-case ASCII, else three fallback words. */
export function englishWords(context: EntityContext): TextWords {
  // Word lists exist in faker's `en` data, which every locale's chain ends with.
  const key = context.plan.locale;
  let words = cache.get(key);
  if (words) return words;
  const list = (path: string[], fallback: string[]): string[] => {
    const value = context.words.patterns.entry(path);
    const simple = Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string' && /^[a-z]+$/.test(item)) : [];
    return simple.length > 0 ? simple : fallback;
  };
  const lists = {
    adjectives: list(['word', 'adjective'], ['quick', 'bright', 'quiet']),
    nouns: list(['word', 'noun'], ['garden', 'river', 'window']),
    verbs: list(['word', 'verb'], ['build', 'share', 'find']),
    adverbs: list(['word', 'adverb'], ['quickly', 'gladly', 'often']),
    materials: list(['commerce', 'product_name', 'material'], ['wooden', 'steel', 'cotton']).map((word) => word.toLowerCase()),
    products: list(['commerce', 'product_name', 'product'], ['chair', 'table', 'lamp']),
  };
  // commerce lists are capitalised in faker: keep them, lower-cased, when the filter above dropped them.
  const commerce = (path: string[]) => {
    const value = context.words.patterns.entry(path);
    return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string' && /^[A-Za-z]+$/.test(item)) : [];
  };
  const materials = commerce(['commerce', 'product_name', 'material']);
  const products = commerce(['commerce', 'product_name', 'product']);
  if (materials.length) lists.materials = materials;
  if (products.length) lists.products = products;
  words = textWordsOf('english', lists);
  cache.set(key, words);
  return words;
}

/** The words of the entity's text fields: version 2's, or from version 3 on the locale's own where it has enough. */
export function textWords(context: EntityContext): TextWords {
  return hasFeature(context.version, 'localeText') ? localeTextWords(context.plan.locale) : englishWords(context);
}

/**
 * A usable word of version 3: one word of letters of any script (marks, a zero-width non-joiner
 * and inner hyphens or apostrophes allowed: `abu-abu`, `aujourd’hui`), whose letters after the
 * first are not upper-case (German nouns keep their capital; acronyms such as `AIDS` and entries
 * of several words such as `commis de cuisine` are left out).
 */
const WORD = /^\p{L}[\p{L}\p{M}\u200c]*(?:[-'’]\p{L}[\p{L}\p{M}\u200c]*)*$/u;
const LOWER_AFTER_FIRST = /^.\P{Lu}*$/su;
/** A locale writes its own words when its own adjective and noun lists each hold this many usable words. */
export const MIN_LOCALE_WORDS = 40;
/** Its own verbs and adverbs join its sentences when it has this many of each (else sentences do without). */
export const MIN_LOCALE_VERBS = 20;
/** Its own product adjectives, materials and products make its product names when it has this many of each. */
export const MIN_LOCALE_PRODUCT_WORDS = 5;
/** Scripts written without spaces between words, and those of them that end sentences with `。`. */
const UNSPACED = /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}ー]+$/u;
const FULL_WIDTH_STOP = /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}ー]+$/u;

export function usableWord(word: unknown): word is string {
  return typeof word === 'string' && WORD.test(word) && LOWER_AFTER_FIRST.test(word);
}

type Path = readonly [string, string, string?];

/**
 * The entry at `path` of a locale's data merged with its fallbacks' (faker-locales.ts): the
 * locale's own entry where it has one, else its first fallback's that has.
 */
function entryOf(locale: string, path: Path): unknown {
  let value: unknown = (mergedDefinitions(locale) as Record<string, Record<string, unknown> | undefined>)[path[0]]?.[path[1]];
  if (path[2] !== undefined) value = (value as Record<string, unknown> | undefined)?.[path[2]];
  return value;
}

/** The usable words of a list of faker's `en` data. */
function englishList(path: Path, simple: RegExp): string[] {
  const value = entryOf('en', path);
  // Not deduplicated: for `en` these are exactly the lists version 2 draws from.
  return Array.isArray(value) ? value.filter((word): word is string => usableWord(word) && simple.test(word)) : [];
}

const localeCache = new Map<string, TextWords>();

/**
 * Version 3's words of a locale. Each list comes from the first locale of its chain that defines
 * it (`de_AT` → de_AT, de, en), and is the locale's own when that one is not `en`. A locale whose
 * own adjective and noun lists hold ≥ MIN_LOCALE_WORDS usable words each writes its own words
 * (with its own verbs and adverbs when it has ≥ MIN_LOCALE_VERBS of them); every other locale
 * writes English from faker's `en` lists, never another language's adjectives among English nouns
 * nor a fallback of three words. Product names follow the locale's own commerce lists and pattern
 * when it has ≥ MIN_LOCALE_PRODUCT_WORDS usable words in each list, else English ones.
 */
export function localeTextWords(locale: string): TextWords {
  let words = localeCache.get(locale);
  if (words) return words;
  const chain = localeChain(locale).filter((name) => name !== 'base');
  /** The usable words of the chain's first list at `path`, and whether that list is the locale's own. */
  const first = (path: Path): { own: boolean; items: string[]; raw: unknown[] } => {
    for (const name of chain) {
      const value = entryOf(name, path);
      // A merged entry that is `en`'s very list came from `en`: the locale has none of its own.
      if (Array.isArray(value) && value.length > 0) return { own: name !== 'en' && value !== entryOf('en', path), items: [...new Set(value.filter(usableWord))], raw: value };
    }
    return { own: false, items: [], raw: [] };
  };
  const ownList = (path: Path, min: number) => {
    const found = first(path);
    return found.own && found.items.length >= min ? found.items : undefined;
  };
  const own = ownProduct(ownList, first(['commerce', 'product_name', 'pattern']).raw);
  const adjectives = ownList(['word', 'adjective'], MIN_LOCALE_WORDS);
  const nouns = ownList(['word', 'noun'], MIN_LOCALE_WORDS);
  // Product names in the locale's own commerce words; else English ones: among English words as
  // version 2 makes them, among the locale's own words from faker's `en` commerce lists alone.
  const product = own ?? (adjectives && nouns ? englishProduct() : undefined);
  const commerce = product
    ? { materials: product.materials, products: product.products, product: { parts: product.parts, adjectives: product.adjectives } }
    : { materials: englishList(['commerce', 'product_name', 'material'], /^[A-Za-z]+$/), products: englishList(['commerce', 'product_name', 'product'], /^[A-Za-z]+$/) };
  if (adjectives && nouns) {
    const share = (script: RegExp) => nouns.filter((word) => script.test(word)).length > nouns.length / 2;
    words = textWordsOf(
      'locale',
      { adjectives, nouns, verbs: ownList(['word', 'verb'], MIN_LOCALE_VERBS) ?? [], adverbs: ownList(['word', 'adverb'], MIN_LOCALE_VERBS) ?? [], ...commerce },
      share(UNSPACED) ? '' : ' ',
      share(FULL_WIDTH_STOP) ? '。' : '.',
    );
  } else {
    // English throughout, the words version 2 takes for `en`: lower-case ASCII words of faker's `en` lists.
    const lower = /^[a-z]+$/;
    words = textWordsOf('english', {
      adjectives: englishList(['word', 'adjective'], lower),
      nouns: englishList(['word', 'noun'], lower),
      verbs: englishList(['word', 'verb'], lower),
      adverbs: englishList(['word', 'adverb'], lower),
      ...commerce,
    });
  }
  localeCache.set(locale, words);
  return words;
}

const PRODUCT_TOKENS: Record<string, 'adjective' | 'material' | 'product'> = {
  '{{commerce.productAdjective}}': 'adjective',
  '{{commerce.productMaterial}}': 'material',
  '{{commerce.product}}': 'product',
};

interface ProductWords {
  parts: ProductPart[];
  adjectives: string[];
  materials: string[];
  products: string[];
}

/** The locale's own product lists and its one pattern of exactly those three placeholders, if it has them. */
function ownProduct(ownList: (path: Path, min: number) => string[] | undefined, patterns: unknown[]): ProductWords | undefined {
  return productWords(
    ownList(['commerce', 'product_name', 'adjective'], MIN_LOCALE_PRODUCT_WORDS),
    ownList(['commerce', 'product_name', 'material'], MIN_LOCALE_PRODUCT_WORDS),
    ownList(['commerce', 'product_name', 'product'], MIN_LOCALE_PRODUCT_WORDS),
    patterns,
  );
}

/** faker's `en` product lists and pattern. */
function englishProduct(): ProductWords | undefined {
  const list = (part: string) => englishList(['commerce', 'product_name', part], /^[A-Za-z]+$/);
  const pattern = entryOf('en', ['commerce', 'product_name', 'pattern']);
  return productWords(list('adjective'), list('material'), list('product'), Array.isArray(pattern) ? pattern : []);
}

function productWords(adjectives: string[] | undefined, materials: string[] | undefined, products: string[] | undefined, patterns: unknown[]): ProductWords | undefined {
  const pattern = patterns.length === 1 ? patterns[0] : undefined;
  if (!adjectives?.length || !materials?.length || !products?.length || typeof pattern !== 'string') return undefined;
  const parts: ProductPart[] = [];
  for (const piece of pattern.split(/(\{\{[^}]*\}\})/)) {
    if (piece === '') continue;
    if (piece.startsWith('{{')) {
      const list = PRODUCT_TOKENS[piece];
      if (!list) return undefined;
      parts.push(list);
    } else parts.push({ text: piece });
  }
  const lists = parts.filter((part) => typeof part === 'string');
  return lists.length === 3 && new Set(lists).size === 3 ? { parts, adjectives, materials, products } : undefined;
}

/** `a` or `an` before a word. */
function an(word: string): string {
  return /^[aeiou]/.test(word) ? `an ${word}` : `a ${word}`;
}

const TITLE_PATTERNS: ((w: TextWords, c: RandomCursor) => string)[] = [
  (w, c) => `The ${c.pick(w.adjectives)} ${c.pick(w.nouns)}`,
  (w, c) => `How to ${c.pick(w.verbs)} ${an(c.pick(w.adjectives))} ${c.pick(w.nouns)}`,
  (w, c) => `${c.int(3, 12)} ways to ${c.pick(w.verbs)} your ${c.pick(w.nouns)}`,
  (w, c) => `Why every ${c.pick(w.nouns)} needs ${an(c.pick(w.adjectives))} ${c.pick(w.nouns)}`,
  (w, c) => `${c.pick(w.capitalAdjectives)} ${c.pick(w.nouns)} and the ${c.pick(w.nouns)}`,
  (w, c) => `A guide to ${c.pick(w.adjectives)} ${c.pick(w.nouns)}s`,
];

/**
 * Shapes of version 3's titles and sentences in a locale's own words: A adjective, N noun, V verb,
 * D adverb. No function words of any language, so no English among German or Chinese words.
 */
const LOCALE_TITLES = ['AN', 'AAN', 'ANN'];
const LOCALE_SENTENCES = ['ANVAN', 'NVD', 'ANDVN', 'NVAN', 'AANV', 'ANVN'];
/** Sentences of a locale without verbs of its own. */
const LOCALE_PHRASES = ['ANAN', 'AAN', 'NAN', 'ANN', 'AANAN'];

/** Words of a shape joined by the locale's space; an adverb is left out where the locale has none. */
function shaped(words: TextWords, cursor: RandomCursor, shape: string): string {
  let text = '';
  for (const part of shape) {
    const list = part === 'A' ? words.adjectives : part === 'N' ? words.nouns : part === 'V' ? words.verbs : words.adverbs;
    if (list.length === 0) continue;
    text += (text === '' ? '' : words.space) + cursor.pick(list);
  }
  return capitalize(text);
}

/** A headline: `How to build a quiet garden`; in a locale's own words `Schneller Garten`. */
export function titleText(words: TextWords, cursor: RandomCursor): string {
  if (words.kind === 'locale') return shaped(words, cursor, cursor.pick(LOCALE_TITLES));
  return cursor.pick(TITLE_PATTERNS)(words, cursor);
}

const SENTENCE_PATTERNS: ((w: TextWords, c: RandomCursor) => string)[] = [
  (w, c) => `The ${c.pick(w.adjectives)} ${c.pick(w.nouns)} ${c.pick(w.adverbs)} helps every ${c.pick(w.nouns)}`,
  (w, c) => `We ${c.pick(w.verbs)} the ${c.pick(w.nouns)} before the ${c.pick(w.nouns)} arrives`,
  (w, c) => `Each ${c.pick(w.nouns)} can ${c.pick(w.verbs)} ${an(c.pick(w.adjectives))} ${c.pick(w.nouns)}`,
  (w, c) => `This ${c.pick(w.nouns)} is ${c.pick(w.adjectives)} and ${c.pick(w.adjectives)}`,
  (w, c) => `You will ${c.pick(w.adverbs)} ${c.pick(w.verbs)} the ${c.pick(w.adjectives)} ${c.pick(w.nouns)}`,
  (w, c) => `Our ${c.pick(w.nouns)} should ${c.pick(w.verbs)} with the ${c.pick(w.nouns)}`,
];

/** One sentence ending with a full stop. */
export function englishSentence(words: TextWords, cursor: RandomCursor): string {
  if (words.kind === 'locale') return shaped(words, cursor, cursor.pick(words.verbs.length > 0 ? LOCALE_SENTENCES : LOCALE_PHRASES)) + words.stop;
  // Every pattern opens with a capitalised word of its own, so the sentence needs no capitalize().
  return `${cursor.pick(SENTENCE_PATTERNS)(words, cursor)}.`;
}

/** `count` sentences. */
export function englishParagraph(words: TextWords, cursor: RandomCursor, count: number): string {
  let text = englishSentence(words, cursor);
  for (let i = 1; i < count; i++) text += words.space + englishSentence(words, cursor);
  return text;
}

/** A product name: `Rustic Wooden Chair`; with the locale's own pattern `Chaise Ergonomique en Bois`. */
export function productName(words: TextWords, cursor: RandomCursor): string {
  if (!words.product) return `${cursor.pick(words.capitalAdjectives)} ${cursor.pick(words.capitalMaterials)} ${cursor.pick(words.capitalProducts)}`;
  let text = '';
  for (const part of words.product.parts) {
    if (typeof part === 'object') text += part.text;
    else text += cursor.pick(part === 'adjective' ? words.product.adjectives : part === 'material' ? words.materials : words.products);
  }
  return capitalize(text);
}

/** A plain string of one or two words: `garden`, `quiet garden`. */
export function shortPhrase(words: TextWords, cursor: RandomCursor): string {
  return cursor.chance(0.5) ? cursor.pick(words.nouns) : `${cursor.pick(words.adjectives)}${words.space}${cursor.pick(words.nouns)}`;
}

/** A name of two words: `Quiet garden`. */
export function twoWordName(words: TextWords, cursor: RandomCursor): string {
  return `${cursor.pick(words.capitalAdjectives)}${words.space}${cursor.pick(words.nouns)}`;
}

/** Comma-separated tags: `garden, river, window`. */
export function tagsText(words: TextWords, cursor: RandomCursor): string {
  // No more tags than distinct nouns: a shorter list (version 2's 3-word fallback) would otherwise never end.
  const count = Math.min(cursor.int(1, 4), words.distinctNouns);
  const tags: string[] = [];
  while (tags.length < count) {
    const tag = cursor.pick(words.nouns);
    if (!tags.includes(tag)) tags.push(tag);
  }
  return tags.join(', ');
}
