// Stage 1 of formulas: text → syntax tree. A small hand-written tokenizer and precedence-climbing
// parser (no eval, no new Function): numbers, strings, true/false/null, durations (`30 days`), field
// names and `reference.field`, unary ! and -, binary operators, `a ? b : c`, calls of named functions.
// Errors are values with the character position, for the validator to report.

export type FormulaNode =
  | { type: 'number'; value: number; at: number }
  | { type: 'string'; value: string; at: number }
  | { type: 'boolean'; value: boolean; at: number }
  | { type: 'null'; at: number }
  | { type: 'duration'; ms: number; at: number }
  | { type: 'name'; name: string; at: number }
  | { type: 'member'; reference: string; field: string; at: number }
  | { type: 'unary'; op: '!' | '-'; arg: FormulaNode; at: number }
  | { type: 'binary'; op: BinaryOp; left: FormulaNode; right: FormulaNode; at: number }
  | { type: 'conditional'; test: FormulaNode; then: FormulaNode; otherwise: FormulaNode; at: number }
  | { type: 'call'; name: string; args: FormulaNode[]; at: number };

export type BinaryOp = '+' | '-' | '*' | '/' | '%' | '==' | '!=' | '<' | '<=' | '>' | '>=' | '&&' | '||';

export type ParseResult = { ok: true; node: FormulaNode } | { ok: false; message: string };

/** Milliseconds of each duration unit a formula may name after a number (`30 days`). */
export const DURATION_UNITS: Record<string, number> = {
  second: 1000,
  seconds: 1000,
  minute: 60_000,
  minutes: 60_000,
  hour: 3_600_000,
  hours: 3_600_000,
  day: 86_400_000,
  days: 86_400_000,
  week: 604_800_000,
  weeks: 604_800_000,
};

/** Binding power of each binary operator (higher binds tighter). */
const PRECEDENCE: Record<BinaryOp, number> = {
  '||': 1,
  '&&': 2,
  '==': 3,
  '!=': 3,
  '<': 4,
  '<=': 4,
  '>': 4,
  '>=': 4,
  '+': 5,
  '-': 5,
  '*': 6,
  '/': 6,
  '%': 6,
};

type Token =
  | { kind: 'number'; value: number; at: number }
  | { kind: 'string'; value: string; at: number }
  | { kind: 'name'; value: string; at: number }
  | { kind: 'op'; value: string; at: number }
  | { kind: 'end'; at: number };

class FormulaSyntaxError extends Error {}

const OPERATORS = ['==', '!=', '<=', '>=', '&&', '||', '+', '-', '*', '/', '%', '<', '>', '!', '(', ')', ',', '.', '?', ':'];
const NUMBER = /^(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?/;
const NAME = /^[A-Za-z_][A-Za-z0-9_]*/;

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const ch = text[i]!;
    if (/\s/.test(ch)) {
      i++;
      continue;
    }
    const rest = text.slice(i);
    const number = NUMBER.exec(rest);
    if (number && /[\d.]/.test(ch) && !(ch === '.' && !/\d/.test(text[i + 1] ?? ''))) {
      tokens.push({ kind: 'number', value: Number(number[0]), at: i });
      i += number[0].length;
      continue;
    }
    const name = NAME.exec(rest);
    if (name) {
      tokens.push({ kind: 'name', value: name[0], at: i });
      i += name[0].length;
      continue;
    }
    if (ch === '"' || ch === "'") {
      let value = '';
      let j = i + 1;
      for (; j < text.length && text[j] !== ch; j++) {
        if (text[j] === '\\' && j + 1 < text.length) j++;
        value += text[j];
      }
      if (j >= text.length) throw syntax(`the string starting at character ${i + 1} is not closed with ${ch}`);
      tokens.push({ kind: 'string', value, at: i });
      i = j + 1;
      continue;
    }
    const op = OPERATORS.find((candidate) => rest.startsWith(candidate));
    if (!op) throw syntax(`unexpected ${JSON.stringify(ch)} at character ${i + 1}`);
    tokens.push({ kind: 'op', value: op, at: i });
    i += op.length;
  }
  tokens.push({ kind: 'end', at: text.length });
  return tokens;
}

function syntax(message: string): FormulaSyntaxError {
  return new FormulaSyntaxError(message);
}

/** Parses a formula; the message of a failure names what is wrong and where (1-based characters). */
export function parseFormula(text: string): ParseResult {
  try {
    const tokens = tokenize(text);
    let position = 0;
    const peek = () => tokens[position]!;
    const next = () => tokens[position++]!;
    const describe = (token: Token) => (token.kind === 'end' ? 'the end of the formula' : `${JSON.stringify(String(token.value))} at character ${token.at + 1}`);
    const expect = (op: string) => {
      const token = next();
      if (token.kind !== 'op' || token.value !== op) throw syntax(`expected "${op}" but found ${describe(token)}`);
    };
    const isOp = (token: Token, ...ops: string[]) => token.kind === 'op' && ops.includes(token.value);

    const expression = (): FormulaNode => {
      const test = binary(1);
      if (!isOp(peek(), '?')) return test;
      const at = next().at;
      const then = expression();
      expect(':');
      return { type: 'conditional', test, then, otherwise: expression(), at };
    };

    const binary = (minimum: number): FormulaNode => {
      let left = unary();
      for (;;) {
        const token = peek();
        if (token.kind !== 'op') return left;
        const precedence = PRECEDENCE[token.value as BinaryOp] as number | undefined;
        if (precedence === undefined || precedence < minimum) return left;
        next();
        const right = binary(precedence + 1);
        left = { type: 'binary', op: token.value as BinaryOp, left, right, at: token.at };
      }
    };

    const unary = (): FormulaNode => {
      const token = peek();
      if (token.kind === 'op' && (token.value === '!' || token.value === '-')) {
        next();
        return { type: 'unary', op: token.value, arg: unary(), at: token.at };
      }
      if (isOp(token, '+')) {
        next();
        return unary();
      }
      return primary();
    };

    const primary = (): FormulaNode => {
      const token = next();
      switch (token.kind) {
        case 'number': {
          const unit = peek();
          if (unit.kind === 'name' && DURATION_UNITS[unit.value] !== undefined) {
            next();
            return { type: 'duration', ms: token.value * DURATION_UNITS[unit.value]!, at: token.at };
          }
          return { type: 'number', value: token.value, at: token.at };
        }
        case 'string':
          return { type: 'string', value: token.value, at: token.at };
        case 'name': {
          if (token.value === 'true' || token.value === 'false') return { type: 'boolean', value: token.value === 'true', at: token.at };
          if (token.value === 'null') return { type: 'null', at: token.at };
          if (isOp(peek(), '(')) {
            next();
            const args: FormulaNode[] = [];
            if (!isOp(peek(), ')')) {
              do args.push(expression());
              while (isOp(peek(), ',') && next());
            }
            expect(')');
            return { type: 'call', name: token.value, args, at: token.at };
          }
          if (isOp(peek(), '.')) {
            next();
            const field = next();
            if (field.kind !== 'name') throw syntax(`expected a field name after "${token.value}." but found ${describe(field)}`);
            return { type: 'member', reference: token.value, field: field.value, at: token.at };
          }
          return { type: 'name', name: token.value, at: token.at };
        }
        case 'op':
          if (token.value === '(') {
            const inner = expression();
            expect(')');
            return inner;
          }
          throw syntax(`unexpected ${describe(token)}`);
        case 'end':
          throw syntax('the formula ends where a value is expected');
      }
    };

    const node = expression();
    const rest = peek();
    if (rest.kind !== 'end') throw syntax(`unexpected ${describe(rest)}; join values with an operator`);
    return { ok: true, node };
  } catch (error) {
    if (error instanceof FormulaSyntaxError) return { ok: false, message: error.message };
    throw error;
  }
}
