// Text that fits its field (generator version 2): titles, product and company names, descriptions,
// summaries, bios, comments and tags in English-like sentences made from faker's English word lists
// (adjectives, nouns, verbs, adverbs), not Latin lorem. Users who want lorem ask for it (faker lorem.*).
import type { EntityContext } from '../program.ts';
import type { RandomCursor } from '../random.ts';
import { capitalize } from '../values/strings.ts';

export interface EnglishWords {
  adjectives: readonly string[];
  nouns: readonly string[];
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
}

const cache = new Map<string, EnglishWords>();

export function englishWords(context: EntityContext): EnglishWords {
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
  words = {
    ...lists,
    capitalAdjectives: lists.adjectives.map(capitalize),
    capitalMaterials: lists.materials.map(capitalize),
    capitalProducts: lists.products.map(capitalize),
    distinctNouns: new Set(lists.nouns).size,
  };
  cache.set(key, words);
  return words;
}

/** `a` or `an` before a word. */
function an(word: string): string {
  return /^[aeiou]/.test(word) ? `an ${word}` : `a ${word}`;
}

const TITLE_PATTERNS: ((w: EnglishWords, c: RandomCursor) => string)[] = [
  (w, c) => `The ${c.pick(w.adjectives)} ${c.pick(w.nouns)}`,
  (w, c) => `How to ${c.pick(w.verbs)} ${an(c.pick(w.adjectives))} ${c.pick(w.nouns)}`,
  (w, c) => `${c.int(3, 12)} ways to ${c.pick(w.verbs)} your ${c.pick(w.nouns)}`,
  (w, c) => `Why every ${c.pick(w.nouns)} needs ${an(c.pick(w.adjectives))} ${c.pick(w.nouns)}`,
  (w, c) => `${c.pick(w.capitalAdjectives)} ${c.pick(w.nouns)} and the ${c.pick(w.nouns)}`,
  (w, c) => `A guide to ${c.pick(w.adjectives)} ${c.pick(w.nouns)}s`,
];

/** A headline: `How to build a quiet garden`. */
export function titleText(words: EnglishWords, cursor: RandomCursor): string {
  return cursor.pick(TITLE_PATTERNS)(words, cursor);
}

const SENTENCE_PATTERNS: ((w: EnglishWords, c: RandomCursor) => string)[] = [
  (w, c) => `The ${c.pick(w.adjectives)} ${c.pick(w.nouns)} ${c.pick(w.adverbs)} helps every ${c.pick(w.nouns)}`,
  (w, c) => `We ${c.pick(w.verbs)} the ${c.pick(w.nouns)} before the ${c.pick(w.nouns)} arrives`,
  (w, c) => `Each ${c.pick(w.nouns)} can ${c.pick(w.verbs)} ${an(c.pick(w.adjectives))} ${c.pick(w.nouns)}`,
  (w, c) => `This ${c.pick(w.nouns)} is ${c.pick(w.adjectives)} and ${c.pick(w.adjectives)}`,
  (w, c) => `You will ${c.pick(w.adverbs)} ${c.pick(w.verbs)} the ${c.pick(w.adjectives)} ${c.pick(w.nouns)}`,
  (w, c) => `Our ${c.pick(w.nouns)} should ${c.pick(w.verbs)} with the ${c.pick(w.nouns)}`,
];

/** One English-like sentence ending with a full stop. */
export function englishSentence(words: EnglishWords, cursor: RandomCursor): string {
  // Every pattern opens with a capitalised word of its own, so the sentence needs no capitalize().
  return `${cursor.pick(SENTENCE_PATTERNS)(words, cursor)}.`;
}

/** `count` sentences. */
export function englishParagraph(words: EnglishWords, cursor: RandomCursor, count: number): string {
  let text = englishSentence(words, cursor);
  for (let i = 1; i < count; i++) text += ` ${englishSentence(words, cursor)}`;
  return text;
}

/** A product name: `Rustic Wooden Chair`. */
export function productName(words: EnglishWords, cursor: RandomCursor): string {
  return `${cursor.pick(words.capitalAdjectives)} ${cursor.pick(words.capitalMaterials)} ${cursor.pick(words.capitalProducts)}`;
}

/** Comma-separated tags: `garden, river, window`. */
export function tagsText(words: EnglishWords, cursor: RandomCursor): string {
  // No more tags than distinct nouns: a shorter list (the 3-word fallback) would otherwise never end.
  const count = Math.min(cursor.int(1, 4), words.distinctNouns);
  const tags: string[] = [];
  while (tags.length < count) {
    const tag = cursor.pick(words.nouns);
    if (!tags.includes(tag)) tags.push(tag);
  }
  return tags.join(', ');
}
