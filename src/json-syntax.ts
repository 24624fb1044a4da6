// JSON syntax errors for people: the parser says "at position 1234" (or, on Node 20, often no
// position at all), an editor shows lines and columns. One reading of a parse failure for the CLI's
// config files and the API's request bodies.

/** The parser's message about `text`, ending "at line L, column C" (both from 1) where the text goes wrong. */
export function describeJsonSyntaxError(message: string, text: string): string {
  const position = /\bat position (\d+)/.exec(message);
  const offset = position ? Number(position[1]) : syntaxErrorOffset(text);
  const cleaned = message
    .replace(/\s*\(line \d+ column \d+\)$/, '')
    .replace(/ at position \d+$/, '')
    // V8 quotes a snippet of the text: the line and column say where, without echoing it.
    .replace(/^(Unexpected token '.+?'), ".*" is not valid JSON$/s, '$1');
  if (offset === undefined) return cleaned;
  const { line, column } = lineAndColumn(text, offset);
  return `${cleaned} at line ${line}, column ${column}`;
}

/** Line and column (from 1) of a character offset; a column counts characters, not bytes. */
export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, Math.min(offset, text.length));
  const lineStart = before.lastIndexOf('\n') + 1;
  let line = 1;
  for (let at = before.indexOf('\n'); at !== -1; at = before.indexOf('\n', at + 1)) line++;
  return { line, column: before.length - lineStart + 1 };
}

/** "1 error", "2 errors": a count with its noun in the right number. */
export function plural(count: number, noun: string, nouns = `${noun}s`): string {
  return `${count} ${count === 1 ? noun : nouns}`;
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const WHITESPACE = /[ \t\n\r]*/y;

/**
 * Offset of the first character where `text` stops being JSON (its length when it ends too soon),
 * or undefined when it is JSON. Iterative, so any nesting depth is safe; only run on a failed parse.
 */
export function syntaxErrorOffset(text: string): number | undefined {
  const open: string[] = [];
  let state: 'value' | 'key' | 'colon' | 'after' = 'value';
  let at = 0;
  for (;;) {
    WHITESPACE.lastIndex = at;
    WHITESPACE.exec(text);
    at = WHITESPACE.lastIndex;
    const char = text[at];
    if (state === 'after' && open.length === 0) return char === undefined ? undefined : at;
    if (char === undefined) return at;
    if (state === 'key' || state === 'value') {
      if (char === '"') {
        const end = stringEnd(text, at);
        if (end < 0) return -end - 1;
        at = end;
        state = state === 'key' ? 'colon' : 'after';
        continue;
      }
      if (state === 'key') return at;
      if (char === '{' || char === '[') {
        open.push(char === '{' ? '}' : ']');
        at++;
        state = char === '{' ? 'key' : 'value';
        // An empty object or array closes at once.
        WHITESPACE.lastIndex = at;
        WHITESPACE.exec(text);
        if (text[WHITESPACE.lastIndex] === open.at(-1)) {
          open.pop();
          at = WHITESPACE.lastIndex + 1;
          state = 'after';
        }
        continue;
      }
      const literal = ['true', 'false', 'null'].find((word) => text.startsWith(word, at));
      if (literal) {
        at += literal.length;
        state = 'after';
        continue;
      }
      NUMBER.lastIndex = at;
      if (!NUMBER.exec(text)) return at;
      at = NUMBER.lastIndex;
      state = 'after';
      continue;
    }
    if (state === 'colon') {
      if (char !== ':') return at;
      at++;
      state = 'value';
      continue;
    }
    if (char === ',') {
      at++;
      state = open.at(-1) === '}' ? 'key' : 'value';
    } else if (char === open.at(-1)) {
      open.pop();
      at++;
    } else {
      return at;
    }
  }
}

/** Offset after the string starting at `start`, or −(offset of its error + 1). */
function stringEnd(text: string, start: number): number {
  for (let at = start + 1; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (code === 0x22) return at + 1;
    if (code < 0x20) return -at - 1;
    if (code === 0x5c) {
      const escape = text[at + 1];
      if (escape === 'u') {
        if (!/^[0-9a-fA-F]{4}$/.test(text.slice(at + 2, at + 6))) return -(at + 1) - 1;
        at += 5;
      } else if (escape !== undefined && '"\\/bfnrt'.includes(escape)) {
        at++;
      } else {
        return -(at + 1) - 1;
      }
    }
  }
  return -text.length - 1;
}
