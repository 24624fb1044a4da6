// Issues found in a schema config: JSON pointers into the config (RFC 6901) and human-readable
// locations and suggestions for their messages.

/** One problem in a config; `path` is a JSON pointer into it (`""` is the whole config). */
export interface Issue {
  path: string;
  message: string;
}

/** Outcome of validating a config: `valid` is true exactly when `errors` is empty. */
export interface ValidationResult {
  valid: boolean;
  errors: Issue[];
  warnings: Issue[];
}

/** Escapes one reference token: `~` → `~0`, `/` → `~1` (RFC 6901 §3). */
export function escapePointerToken(token: string | number): string {
  return String(token).replaceAll('~', '~0').replaceAll('/', '~1');
}

/** Builds a JSON pointer from unescaped tokens: `pointer('entities', 0, 'id')` → `/entities/0/id`. */
export function pointer(...tokens: (string | number)[]): string {
  return tokens.map((token) => `/${escapePointerToken(token)}`).join('');
}

/** Splits a JSON pointer into unescaped tokens. */
export function pointerTokens(path: string): string[] {
  if (path === '') return [];
  return path
    .slice(1)
    .split('/')
    .map((token) => token.replaceAll('~1', '/').replaceAll('~0', '~'));
}

/** A pointer as people read it: `/entities/0/fields/2` → `entities[0].fields[2]`; `""` → `the config`. */
export function describePath(path: string): string {
  let text = '';
  for (const token of pointerTokens(path)) {
    if (/^(0|[1-9][0-9]*)$/.test(token)) text += `[${token}]`;
    else if (/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(token)) text += text ? `.${token}` : token;
    else text += `[${JSON.stringify(token)}]`;
  }
  return text || 'the config';
}

/** Quotes values for messages: `"a", "b", "c"`. */
export function quoteList(values: readonly unknown[]): string {
  return values.map((value) => JSON.stringify(value)).join(', ');
}

/** The closest candidate to a misspelt name (case-insensitive edit distance ≤ a third of its length), if any. */
export function closest(name: string, candidates: Iterable<string>): string | undefined {
  if (name.length > 64) return undefined; // no typo of a short name, and costly to compare
  const wanted = name.toLowerCase();
  let best: string | undefined;
  let bestDistance = Math.max(1, Math.floor(name.length / 3)) + 1;
  for (const candidate of candidates) {
    const distance = editDistance(wanted, candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/** `; did you mean "x"?` when a close candidate exists, else the empty string. */
export function didYouMean(name: string, candidates: Iterable<string>): string {
  const match = closest(name, candidates);
  return match === undefined ? '' : ` (did you mean "${match}"?)`;
}

// Optimal string alignment distance: edits and swaps of neighbours ("emial" → "email") cost 1.
function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  const at = (i: number, j: number) => rows[i]![j]!;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, at(i - 2, j - 2) + 1);
      rows[i]![j] = best;
    }
  }
  return at(a.length, b.length);
}
