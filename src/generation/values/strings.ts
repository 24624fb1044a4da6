// String values: prefix, suffix and lengths applied to every generated string (a uniqueness tag is
// kept inside maxLength), and lorem text from locale word lists.
import type { Field } from '../../model/config-types.ts';
import type { RandomCursor, RandomStream } from '../random.ts';

/**
 * Makes the stored string from a generated core: `prefix + core + suffix`, cut to maxLength
 * (emails lose letters of the local part, not the domain), padded to minLength. A non-empty `tag`
 * (a uniqueness suffix such as `-42`) survives the cut: it goes before the `@` of an email, else
 * after the core.
 */
export type StringFinisher = (core: string, row: number, tag: string) => string;

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

export function stringFinisher(field: Field, padStream: RandomStream): StringFinisher {
  const prefix = field.prefix ?? '';
  const suffix = field.suffix ?? '';
  const minLength = field.minLength ?? 0;
  const maxLength = field.maxLength;
  const budget = maxLength === undefined ? Number.POSITIVE_INFINITY : maxLength - prefix.length - suffix.length;
  if (!prefix && !suffix && minLength === 0 && maxLength === undefined) {
    return (core, _row, tag) => (tag ? insertTag(core, tag) : core);
  }
  return (core, row, tag) => {
    let text = core;
    if (text.length + tag.length > budget) text = truncate(text, Math.max(0, budget - tag.length));
    if (tag) text = insertTag(text, tag);
    let value = prefix + text + suffix;
    if (value.length < minLength) {
      let padding = '';
      for (let i = value.length; i < minLength; i++) padding += LETTERS[padStream.u32(row, i) % 26];
      value = prefix + insertTag(text, padding) + suffix;
    }
    if (maxLength !== undefined && value.length > maxLength) value = value.slice(0, maxLength);
    return value;
  };
}

/** Puts `tag` before the `@` of an email-like text, else at its end. */
export function insertTag(text: string, tag: string): string {
  const at = text.lastIndexOf('@');
  if (at > 0 && !text.includes(' ')) return text.slice(0, at) + tag + text.slice(at);
  return text + tag;
}

function truncate(text: string, length: number): string {
  const at = text.lastIndexOf('@');
  if (at > 0 && !text.includes(' ')) {
    const domain = text.slice(at);
    if (domain.length < length) return text.slice(0, length - domain.length) + domain;
  }
  return text.slice(0, length).trimEnd();
}

/** `count` words from a list, space-separated. */
export function wordsText(words: readonly string[], cursor: RandomCursor, count: number): string {
  let text = cursor.pick(words);
  for (let i = 1; i < count; i++) text += ` ${cursor.pick(words)}`;
  return text;
}

export function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** A sentence of 4 to 12 words, capitalised, ending with a full stop. */
export function sentenceText(words: readonly string[], cursor: RandomCursor): string {
  return `${capitalize(wordsText(words, cursor, cursor.int(4, 12)))}.`;
}

/** Sentences until `sentences` of them are written. */
export function paragraphText(words: readonly string[], cursor: RandomCursor, sentences: number): string {
  let text = sentenceText(words, cursor);
  for (let i = 1; i < sentences; i++) text += ` ${sentenceText(words, cursor)}`;
  return text;
}
