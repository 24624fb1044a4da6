// The names a table takes in its source's OpenAPI document, and so in every client generated from it:
// `posts` → Post (its row type, `getPost`) and Posts (`listPosts`). Deterministic for a given schema:
// the same config always gives the same names, whatever the server, so regenerated clients keep
// compiling. English inflection of the last word, with the common irregulars; anything it gets
// wrong still gives two distinct, stable names.

export interface TableNames {
  /** One row: the row type and `get…`, `create…`, `update…`, `delete…`. */
  singular: string;
  /** Several rows: `list…`, `export…`. */
  plural: string;
}

/** Component names that would shadow a global or a file in generated code (plus the document's own). */
const RESERVED = new Set([
  'Array', 'Blob', 'Boolean', 'Date', 'Error', 'ErrorBody', 'Event', 'File', 'Function', 'Headers', 'Index', 'JSON', 'Location', 'Map',
  'Number', 'Object', 'Omit', 'Pagination', 'Partial', 'Pick', 'Promise', 'Record', 'Request', 'Response', 'Set', 'String', 'Symbol', 'URL',
]);

const IRREGULAR: Record<string, string> = { people: 'person', men: 'man', women: 'woman', children: 'child', mice: 'mouse', geese: 'goose', feet: 'foot', teeth: 'tooth', criteria: 'criterion', indices: 'index', matrices: 'matrix', vertices: 'vertex' };
const IRREGULAR_PLURAL = Object.fromEntries(Object.entries(IRREGULAR).map(([plural, singular]) => [singular, plural]));
/** Words whose singular and plural are one word. */
const UNCOUNTABLE = new Set(['data', 'series', 'species', 'news', 'metadata', 'information', 'equipment', 'media', 'sheep', 'fish', 'deer', 'staff', 'feedback', 'software', 'inventory']);

/** `order_items` → `OrderItems`; `userProfile` → `UserProfile`. */
export function pascalCase(id: string): string {
  return id
    .split(/[_\s]+/)
    .filter(Boolean)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');
}

/** `categories` → `category`, `addresses` → `address`, `status` → `status`, `people` → `person`. */
export function singularize(word: string): string {
  const lower = word.toLowerCase();
  if (UNCOUNTABLE.has(lower)) return word;
  if (IRREGULAR[lower]) return matchCase(IRREGULAR[lower], word);
  if (/[^aeiou]ies$/.test(lower)) return `${word.slice(0, -3)}y`;
  if (/(ss|x|z|ch|sh)es$/.test(lower)) return word.slice(0, -2);
  if (/(ss|us|is)$/.test(lower)) return word;
  if (lower.endsWith('s') && lower.length > 1) return word.slice(0, -1);
  return word;
}

/** `category` → `categories`, `address` → `addresses`, `person` → `people`. */
export function pluralize(word: string): string {
  const lower = word.toLowerCase();
  if (UNCOUNTABLE.has(lower)) return word;
  if (IRREGULAR_PLURAL[lower]) return matchCase(IRREGULAR_PLURAL[lower], word);
  if (/[^aeiou]y$/.test(lower)) return `${word.slice(0, -1)}ies`;
  if (/(s|x|z|ch|sh)$/.test(lower)) return `${word}es`;
  return `${word}s`;
}

function matchCase(replacement: string, like: string): string {
  return like.charAt(0) === like.charAt(0).toUpperCase() ? replacement.charAt(0).toUpperCase() + replacement.slice(1) : replacement;
}

/** Inflects the last word of a PascalCase name: `OrderItems` → `OrderItem`. */
function inflectLast(name: string, inflect: (word: string) => string): string {
  const words = name.match(/[A-Z]+[a-z0-9]*|[a-z0-9]+/g) ?? [name];
  const last = words.pop()!;
  return words.join('') + inflect(last);
}

/** The suffixes of a table's components after its singular (`Post`, `PostSelection`, …). */
export const COMPONENT_SUFFIXES = ['', 'Selection', 'Projection', 'Input', 'Patch', 'Page', 'Where'] as const;
const componentNames = (singular: string) => COMPONENT_SUFFIXES.map((suffix) => `${singular}${suffix}`);

/**
 * Names of every table, in config order. A table whose singular would be a reserved name gets
 * `Row` after it (`dates` → DateRow, Dates). A table whose names (or components' names) an earlier table already took
 * takes its own PascalCase id for both, or that id followed by 2, 3, … until nothing collides.
 */
export function tableNames(ids: readonly string[]): Map<string, TableNames> {
  const taken = new Set<string>();
  const names = new Map<string, TableNames>();
  for (const id of ids) {
    const pascal = pascalCase(id) || 'Table';
    let singular = inflectLast(pascal, singularize);
    let plural = singular === pascal ? inflectLast(singular, pluralize) : pascal;
    if (RESERVED.has(singular)) singular = `${singular}Row`;
    if (RESERVED.has(plural)) plural = `${plural}Rows`;
    const free = (name: string) => !taken.has(name) && !RESERVED.has(name);
    const freeAsRow = (name: string) => componentNames(name).every(free);
    if (!freeAsRow(singular) || !free(plural)) {
      for (let n = 1; ; n++) {
        singular = plural = n === 1 ? pascal : `${pascal}${n}`;
        if (freeAsRow(singular)) break;
      }
    }
    for (const name of [...componentNames(singular), plural]) taken.add(name);
    names.set(id, { singular, plural });
  }
  return names;
}
