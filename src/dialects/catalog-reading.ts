// What the dialects' catalog readers share: CHECK clauses as both engines print them
// (pg_get_constraintdef, information_schema.CHECK_CLAUSE) read into the few rules a schema config can
// express (`x IN (…)`, bounds such as `x >= 0` or `x BETWEEN a AND b`, and `x IS NOT NULL`, joined
// by AND; anything else is left as text), and catalog rows grouped by table.
import type { CatalogDefault, CheckRule } from './catalog.ts';

type Token =
  | { kind: 'word'; text: string }
  | { kind: 'identifier'; text: string }
  | { kind: 'string'; text: string }
  | { kind: 'number'; value: number }
  | { kind: 'symbol'; text: string };

export interface CheckClauseOptions {
  /** Backslash escapes in string literals (MySQL). */
  backslashEscapes?: boolean;
  /** The column a domain's `VALUE` stands for. */
  valueColumn?: string;
}

/** The rules of a CHECK clause, or undefined when any part of it is more than a rule. */
export function parseCheckClause(clause: string, options: CheckClauseOptions = {}): CheckRule[] | undefined {
  const body = clause.trim().replace(/^CHECK\s*/i, '').replace(/\s+NOT VALID$/i, '');
  const tokens = tokenize(body, options.backslashEscapes === true);
  if (!tokens) return undefined;
  const parser = new ClauseParser(tokens, options.valueColumn);
  const rules = parser.parse();
  return rules && rules.length > 0 ? rules : undefined;
}

const SYMBOLS = ['::', '>=', '<=', '<>', '!=', '=', '>', '<', '(', ')', '[', ']', ',', '-', '+'];

function tokenize(text: string, backslashEscapes: boolean): Token[] | undefined {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const char = text[i]!;
    if (/\s/.test(char)) {
      i++;
      continue;
    }
    // E'…' (PostgreSQL escape strings) and _utf8mb4'…' (MySQL charset introducers) are strings.
    const prefixed = /^(?:[Ee]|_[A-Za-z0-9]+)'/.exec(text.slice(i));
    if (char === "'" || prefixed) {
      const start = prefixed ? i + prefixed[0].length - 1 : i;
      const read = readQuoted(text, start, "'", backslashEscapes || (prefixed?.[0][0] ?? '').toUpperCase() === 'E');
      if (!read) return undefined;
      tokens.push({ kind: 'string', text: read.value });
      i = read.end;
      continue;
    }
    if (char === '"' || char === '`') {
      const read = readQuoted(text, i, char, false);
      if (!read) return undefined;
      tokens.push({ kind: 'identifier', text: read.value });
      i = read.end;
      continue;
    }
    const number = /^\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(text.slice(i));
    if (number) {
      tokens.push({ kind: 'number', value: Number(number[0]) });
      i += number[0].length;
      continue;
    }
    const word = /^[A-Za-z_][A-Za-z0-9_$]*/.exec(text.slice(i));
    if (word) {
      tokens.push({ kind: 'word', text: word[0] });
      i += word[0].length;
      continue;
    }
    const symbol = SYMBOLS.find((candidate) => text.startsWith(candidate, i));
    if (!symbol) return undefined;
    tokens.push({ kind: 'symbol', text: symbol });
    i += symbol.length;
  }
  return tokens;
}

/** A quoted string or identifier from `start` (its opening quote); a doubled quote is one quote. */
function readQuoted(text: string, start: number, quote: string, backslashEscapes: boolean): { value: string; end: number } | undefined {
  let value = '';
  for (let i = start + 1; i < text.length; i++) {
    const char = text[i]!;
    if (backslashEscapes && char === '\\' && i + 1 < text.length) {
      value += text[++i];
    } else if (char === quote) {
      if (text[i + 1] === quote) {
        value += quote;
        i++;
      } else {
        return { value, end: i + 1 };
      }
    } else {
      value += char;
    }
  }
  return undefined;
}

type Operand = { kind: 'column'; name: string } | { kind: 'value'; value: string | number };

const COMPARISONS = new Set(['>=', '<=', '>', '<', '=']);
const FLIPPED: Record<string, '>=' | '<=' | '>' | '<'> = { '>=': '<=', '<=': '>=', '>': '<', '<': '>' };

/** Recursive descent over the tokens; every method returns undefined (and the caller gives up) on anything else. */
class ClauseParser {
  private at = 0;

  constructor(
    private readonly tokens: Token[],
    private readonly valueColumn: string | undefined,
  ) {}

  parse(): CheckRule[] | undefined {
    const rules = this.or();
    return rules && this.at === this.tokens.length ? rules : undefined;
  }

  private or(): CheckRule[] | undefined {
    const branches = [this.and()];
    while (this.keyword('OR')) branches.push(this.and());
    if (branches.some((branch) => branch === undefined)) return undefined;
    if (branches.length === 1) return branches[0];
    // `x = 'a' OR x = 'b'` (or IN lists) on one column is one IN list; other disjunctions are not rules.
    const lists = branches.map((branch) => (branch!.length === 1 && branch![0]!.op === 'in' ? branch![0]! : undefined));
    const column = lists[0]?.column;
    if (lists.some((list) => list === undefined || list.column !== column)) return undefined;
    return [{ column: column!, op: 'in', values: lists.flatMap((list) => (list as Extract<CheckRule, { op: 'in' }>).values) }];
  }

  private and(): CheckRule[] | undefined {
    const first = this.unary();
    if (!first) return undefined;
    const rules = [...first];
    while (this.keyword('AND')) {
      const next = this.unary();
      if (!next) return undefined;
      rules.push(...next);
    }
    return rules;
  }

  private unary(): CheckRule[] | undefined {
    const start = this.at;
    const predicate = this.predicate();
    if (predicate) return predicate;
    this.at = start;
    if (!this.symbol('(')) return undefined;
    const inner = this.or();
    return inner && this.symbol(')') ? inner : undefined;
  }

  private predicate(): CheckRule[] | undefined {
    const left = this.operand();
    if (!left) return undefined;
    if (this.keyword('IS')) {
      return this.keyword('NOT') && this.keyword('NULL') && left.kind === 'column' ? [{ column: left.name, op: 'not-null' }] : undefined;
    }
    if (this.keyword('BETWEEN')) {
      const low = this.operand();
      if (!this.keyword('AND')) return undefined;
      const high = this.operand();
      if (left.kind !== 'column' || low?.kind !== 'value' || high?.kind !== 'value') return undefined;
      if (typeof low.value !== 'number' || typeof high.value !== 'number') return undefined;
      return [
        { column: left.name, op: '>=', value: low.value },
        { column: left.name, op: '<=', value: high.value },
      ];
    }
    if (this.keyword('IN')) {
      const values = this.list(')');
      return values && left.kind === 'column' ? [{ column: left.name, op: 'in', values }] : undefined;
    }
    const token = this.tokens[this.at];
    if (token?.kind !== 'symbol' || !COMPARISONS.has(token.text)) return undefined;
    this.at++;
    if (token.text === '=' && this.keyword('ANY')) {
      // PostgreSQL prints `x IN ('a', 'b')` as `x = ANY (ARRAY['a', 'b'])`, casts sprinkled in.
      if (!this.symbol('(')) return undefined;
      const parenthesised = this.symbol('(');
      if (!this.keyword('ARRAY')) return undefined;
      const values = this.list(']');
      if (!values || (parenthesised && !this.symbol(')'))) return undefined;
      this.casts();
      return this.symbol(')') && left.kind === 'column' ? [{ column: left.name, op: 'in', values }] : undefined;
    }
    const right = this.operand();
    if (!right) return undefined;
    return comparison(left, token.text, right);
  }

  /** `( a, b )` or `[ a, b ]` (the opening bracket is read here): literal values only. */
  private list(close: ')' | ']'): Array<string | number> | undefined {
    if (!this.symbol(close === ')' ? '(' : '[')) return undefined;
    const values: Array<string | number> = [];
    do {
      const operand = this.operand();
      if (operand?.kind !== 'value') return undefined;
      values.push(operand.value);
    } while (this.symbol(','));
    return this.symbol(close) ? values : undefined;
  }

  private operand(): Operand | undefined {
    const token = this.tokens[this.at];
    let operand: Operand | undefined;
    if (!token) return undefined;
    if (token.kind === 'symbol' && (token.text === '-' || token.text === '+') && this.tokens[this.at + 1]?.kind === 'number') {
      const number = this.tokens[this.at + 1] as { value: number };
      operand = { kind: 'value', value: token.text === '-' ? -number.value : number.value };
      this.at += 2;
    } else if (token.kind === 'symbol' && token.text === '(') {
      this.at++;
      operand = this.operand();
      if (!operand || !this.symbol(')')) return undefined;
    } else if (token.kind === 'number') {
      operand = { kind: 'value', value: token.value };
      this.at++;
    } else if (token.kind === 'string') {
      operand = { kind: 'value', value: token.text };
      this.at++;
    } else if (token.kind === 'identifier') {
      operand = { kind: 'column', name: token.text };
      this.at++;
    } else if (token.kind === 'word' && !RESERVED.has(token.text.toUpperCase())) {
      const isValue = this.valueColumn !== undefined && token.text.toUpperCase() === 'VALUE';
      operand = { kind: 'column', name: isValue ? this.valueColumn! : token.text };
      this.at++;
      if (this.tokens[this.at]?.kind === 'symbol' && (this.tokens[this.at] as { text: string }).text === '(') return undefined; // a function call
    } else {
      return undefined;
    }
    this.casts();
    return operand;
  }

  /** Skips `::type`, `::character varying(20)`, `::text[]`: casts do not change what a rule says. */
  private casts(): void {
    while (this.symbol('::')) {
      while (this.tokens[this.at]?.kind === 'word') this.at++;
      if (this.symbol('(')) {
        while (this.tokens[this.at] && !this.symbol(')')) this.at++;
      }
      if (this.symbol('[')) this.symbol(']');
    }
  }

  private keyword(word: string): boolean {
    const token = this.tokens[this.at];
    if (token?.kind === 'word' && token.text.toUpperCase() === word) {
      this.at++;
      return true;
    }
    return false;
  }

  private symbol(text: string): boolean {
    const token = this.tokens[this.at];
    if (token?.kind === 'symbol' && token.text === text) {
      this.at++;
      return true;
    }
    return false;
  }
}

const RESERVED = new Set(['AND', 'OR', 'NOT', 'IN', 'IS', 'NULL', 'BETWEEN', 'ANY', 'ARRAY', 'TRUE', 'FALSE']);

function comparison(left: Operand, op: string, right: Operand): CheckRule[] | undefined {
  const [column, value, operator] =
    left.kind === 'column' && right.kind === 'value' ? [left.name, right.value, op] : left.kind === 'value' && right.kind === 'column' ? [right.name, left.value, FLIPPED[op] ?? op] : [];
  if (column === undefined || value === undefined || operator === undefined) return undefined;
  if (operator === '=') return [{ column, op: 'in', values: [value] }];
  // PostgreSQL prints negative numbers as text literals: '-5'::integer.
  const number = typeof value === 'number' ? value : /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : undefined;
  if (number === undefined) return undefined;
  return [{ column, op: operator as '>=' | '<=' | '>' | '<', value: number }];
}

/** Catalog rows grouped by a key (a table's oid or name), in their order. */
export function groupBy<T, K>(rows: T[], key: (row: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const row of rows) {
    const list = groups.get(key(row));
    if (list) list.push(row);
    else groups.set(key(row), [row]);
  }
  return groups;
}

/** Default functions as both engines print them, by what they give. */
const DEFAULT_FUNCTIONS: Array<[RegExp, 'now' | 'current_date' | 'uuid']> = [
  [/^(?:now\(\)|current_timestamp(?:\(\d?\))?|transaction_timestamp\(\)|statement_timestamp\(\)|clock_timestamp\(\)|localtimestamp(?:\(\d?\))?)$/i, 'now'],
  [/^(?:current_date(?:\(\))?|curdate\(\))$/i, 'current_date'],
  [/^(?:(?:\w+\.)?gen_random_uuid\(\)|(?:\w+\.)?uuid_generate_v4\(\)|uuid\(\))$/i, 'uuid'],
];

/**
 * A default expression as the catalog prints it (pg_get_expr; information_schema.COLUMN_DEFAULT) read
 * as a literal or a known function: `'draft'::text`, `'a''b'`, `(-1)`, `0.5`, `true`, `now()`,
 * `CURRENT_TIMESTAMP`, `curdate()`, `gen_random_uuid()`, `uuid()`. Undefined for any other expression.
 * MySQL prints a string literal's text bare (MariaDB quotes it): `bare` takes such text as the literal.
 */
export function parseDefaultExpression(text: string, options: { backslashEscapes?: boolean; bare?: boolean } = {}): CatalogDefault | undefined {
  let expression = text.trim();
  while (/^\(.*\)$/s.test(expression) && balanced(expression.slice(1, -1))) expression = expression.slice(1, -1).trim();
  for (const [pattern, name] of DEFAULT_FUNCTIONS) if (pattern.test(expression)) return { function: name };
  // A quoted literal, with a PostgreSQL cast or two after it ('x'::character varying, '{}'::jsonb).
  const quoted = /^'((?:[^'\\]|''|\\.)*)'(?:::[\w\s".\[\]()]+)*$/s.exec(expression);
  if (quoted) {
    const body = quoted[1]!.replaceAll("''", "'");
    return { literal: options.backslashEscapes ? body.replace(/\\(.)/gs, (_, char: string) => BACKSLASH_ESCAPES[char] ?? char) : body };
  }
  const number = /^([+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?)(?:::[\w\s]+)?$/.exec(expression);
  if (number) return { literal: number[1]! };
  if (/^(?:true|false)$/i.test(expression)) return { literal: expression.toLowerCase() };
  if (options.bare && !/[()]/.test(expression) && !/^null$/i.test(expression)) return { literal: text };
  return undefined;
}

const BACKSLASH_ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', '0': '\0', Z: '\x1a' };

/** Whether parentheses balance in a text (outside quotes, roughly): `(a) + (b)` is not one parenthesised expression. */
function balanced(text: string): boolean {
  let depth = 0;
  for (const char of text) {
    if (char === '(') depth++;
    else if (char === ')' && --depth < 0) return false;
  }
  return depth === 0;
}
