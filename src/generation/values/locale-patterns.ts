// Compiles faker's locale patterns ("{{person.lastName}} {{company.legal_entity_type}}") into
// composers over the counter PRNG. Keys resolve through the locale chain as faker resolves them
// (first locale that has the entry wins), so values read like faker's at a fraction of its cost;
// a pattern naming anything this compiler does not know yields undefined, and callers use faker.
import type { RandomCursor } from '../random.ts';

export type Composer = (cursor: RandomCursor) => string;
type Lookup = Record<string, unknown>;

const TOKEN = /\{\{\s*([A-Za-z_.]+)\s*\}\}/g;
const MAX_DEPTH = 6;
const DIGITS = '0123456789';
// Zero-padded digit runs, so filling `####` picks a ready string instead of building one.
const RUNS = [1, 2, 3, 4].map((length) => Array.from({ length: 10 ** length }, (_, i) => String(i).padStart(length, '0')));

// Methods whose data key is not their snake_case name.
const ALIASES: Record<string, string[]> = {
  'person.fullName': ['person', 'name'],
  'location.streetAddress': ['location', 'street_address', 'normal'],
  'phone.number': ['phone_number', 'format', 'human'],
};

export class PatternCompiler {
  readonly #chain: Lookup[];
  readonly #compiled = new Map<string, Composer | undefined>();

  constructor(chain: Lookup[]) {
    this.#chain = chain;
  }

  /** The first entry of the chain at `path` (objects of lists merged across their keys by the caller). */
  entry(path: readonly string[]): unknown {
    for (const definition of this.#chain) {
      let value: unknown = definition;
      for (const key of path) value = (value as Lookup | undefined)?.[key];
      if (value !== undefined && value !== null) return value;
    }
    return undefined;
  }

  /** A composer for a faker method such as `person.fullName`, or undefined when it cannot be compiled. */
  method(name: string, depth = 0): Composer | undefined {
    if (this.#compiled.has(name)) return this.#compiled.get(name);
    this.#compiled.set(name, undefined); // guards against self-referencing patterns
    const composer = depth > MAX_DEPTH ? undefined : this.#resolve(name, depth);
    this.#compiled.set(name, composer);
    return composer;
  }

  #resolve(name: string, depth: number): Composer | undefined {
    const [module, method, ...rest] = name.split('.');
    if (!module || !method) return undefined;
    if (rest.length > 0) return this.#fromData(this.entry([module, method, ...rest]), depth);
    const snake = method.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
    const candidates = [ALIASES[name], [module, `${snake}_pattern`], [module, snake]];
    for (const path of candidates) {
      if (!path) continue;
      const data = this.entry(path);
      if (data !== undefined) return this.#fromData(data, depth);
    }
    return undefined;
  }

  #fromData(data: unknown, depth: number): Composer | undefined {
    if (typeof data === 'string') return this.#pattern(data, depth);
    if (Array.isArray(data)) {
      if (data.length === 0) return undefined;
      if (data.every((item) => typeof item === 'string')) return this.#choice(data as string[], undefined, depth);
      const weighted = data as { value?: unknown; weight?: unknown }[];
      if (!weighted.every((item) => typeof item?.value === 'string' && typeof item.weight === 'number')) return undefined;
      return this.#choice(weighted.map((item) => item.value as string), weighted.map((item) => item.weight as number), depth);
    }
    if (data && typeof data === 'object') {
      // { generic, female, male }: the generic entry as faker uses it without a sex, else any of them.
      const { generic, normal } = data as Lookup;
      if (generic !== undefined || normal !== undefined) return this.#fromData(generic ?? normal, depth);
      const lists = Object.values(data).filter((value): value is string[] => Array.isArray(value) && value.every((item) => typeof item === 'string'));
      const merged = [...new Set(lists.flat())];
      return merged.length > 0 ? this.#choice(merged, undefined, depth) : undefined;
    }
    return undefined;
  }

  #choice(items: string[], weights: number[] | undefined, depth: number): Composer | undefined {
    const parts: Composer[] = [];
    for (const item of items) {
      const composer = this.#pattern(item, depth);
      if (!composer) return undefined;
      parts.push(composer);
    }
    if (!weights) return (cursor) => parts[Math.floor(cursor.float() * parts.length)]!(cursor);
    const cumulative: number[] = [];
    let total = 0;
    for (const weight of weights) cumulative.push((total += weight));
    return (cursor) => {
      const target = cursor.float() * total;
      let i = 0;
      while (i < cumulative.length - 1 && cumulative[i]! <= target) i++;
      return parts[i]!(cursor);
    };
  }

  #pattern(text: string, depth: number): Composer | undefined {
    if (!text.includes('{{')) return text.includes('#') ? digitsComposer(text) : () => text;
    const parts: (string | Composer)[] = [];
    let last = 0;
    for (const match of text.matchAll(TOKEN)) {
      if (match.index > last) parts.push(text.slice(last, match.index));
      const composer = this.method(match[1]!, depth + 1);
      if (!composer) return undefined;
      parts.push(composer);
      last = match.index + match[0].length;
    }
    const tail = text.slice(last);
    if (tail) parts.push(tail);
    // Placeholders this compiler cannot parse (arguments, digits in names) stay in the text parts.
    if (parts.some((part) => typeof part === 'string' && part.includes('{{'))) return undefined;
    return (cursor) => {
      let out = '';
      for (const part of parts) out += typeof part === 'string' ? part : part(cursor);
      return out;
    };
  }
}

/**
 * A composer of a number format: each `#` a random digit, each `!` a digit from 2 to 9 (faker's
 * formats, e.g. `!##-!##-####`). Runs of `#` are drawn as one number, so a value costs a few strings.
 */
export function digitsComposer(format: string): Composer {
  const parts: (string | number)[] = []; // text, or a run length of digits (negative: one `!`)
  for (const match of format.matchAll(/#+|!|[^#!]+/g)) {
    const token = match[0];
    parts.push(token[0] === '#' ? token.length : token === '!' ? -1 : token);
  }
  return (cursor) => {
    let out = '';
    for (const part of parts) {
      if (typeof part === 'string') out += part;
      else if (part < 0) out += DIGITS[2 + (cursor.u32() % 8)];
      else {
        for (let left = part; left > 0; left -= 4) {
          const run = RUNS[Math.min(left, 4) - 1]!;
          out += run[Math.floor(cursor.float() * run.length)];
        }
      }
    }
    return out;
  };
}
