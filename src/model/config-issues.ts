// Issues found in a schema config: JSON pointers into the config (RFC 6901) and human-readable
// locations for their messages (the "did you mean" hints are src/suggest.ts's, shared with the runtime API).

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
