// JSON syntax errors read as line and column; counts read in the right number.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { describeJsonSyntaxError, lineAndColumn, plural, syntaxErrorOffset } from '../../src/json-syntax.ts';

const parseError = (text: string): string => {
  try {
    JSON.parse(text);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('parsed');
};

describe('describeJsonSyntaxError', () => {
  it.each([
    ['a missing colon on line 3', '{\n  "a": 1,\n  "b" 2\n}', /at line 3, column 7$/],
    ['the end of the input', '{\n  "a": ', /^Unexpected end of JSON input at line 2, column 8$/],
    ['text after the document', '{}\nx', /at line 2, column 1$/],
    ['a first-line error', '[1,,2]', /at line 1, column 4$/],
  ])('%s', (_name, text, want) => {
    const described = describeJsonSyntaxError(parseError(text), text);
    expect(described).toMatch(want);
    expect(described).not.toMatch(/position/);
  });

  it('leaves a message it cannot place as it is', () => {
    expect(describeJsonSyntaxError('Bad control character', '{}')).toBe('Bad control character');
  });
});

describe('lineAndColumn', () => {
  it.each([
    [0, { line: 1, column: 1 }],
    [3, { line: 2, column: 1 }],
    [5, { line: 2, column: 3 }],
  ])('offset %i', (offset, want) => expect(lineAndColumn('ab\ncde', offset)).toEqual(want));
});

describe('plural', () => {
  it.each([
    [0, '0 errors'],
    [1, '1 error'],
    [2, '2 errors'],
  ])('%i', (count, want) => expect(plural(count, 'error')).toBe(want));
});

describe('syntaxErrorOffset', () => {
  it.each([
    ['{"a": [1, {"b": null}], "c": "\\u00e9"}', undefined],
    ['  [ ]  ', undefined],
    ['{}', undefined],
    ['[1,,2]', 3],
    ['{"a" 1}', 5],
    ['{"a": tru}', 6],
    ['[1, 2', 5],
    ['"a\\x"', 3],
    ['{"a": 1} {', 9],
    ['[01]', 2],
  ])('%s', (text, want) => expect(syntaxErrorOffset(text)).toBe(want));

  it('agrees with JSON.parse on what is JSON, at any depth', () => {
    const deep = '['.repeat(100_000) + ']'.repeat(100_000);
    expect(syntaxErrorOffset(deep)).toBeUndefined();
    expect(syntaxErrorOffset(deep.slice(0, -1))).toBe(deep.length - 1);
  });
});

  it('finds an error exactly when JSON.parse does (fast-check)', () => {
    const parses = (text: string) => {
      try {
        JSON.parse(text);
        return true;
      } catch {
        return false;
      }
    };
    const pieces = fc.constantFrom('{', '}', '[', ']', ',', ':', '"a"', '"b\\n"', '1', '-2.5e3', 'true', 'null', ' ', '\n', 'x', '01', '"');
    fc.assert(
      fc.property(fc.oneof(fc.json(), fc.array(pieces, { maxLength: 12 }).map((parts) => parts.join(''))), (text) => {
        expect(syntaxErrorOffset(text) === undefined).toBe(parses(text));
      }),
      { numRuns: 3000 },
    );
  });
