// The operator table (src/runtime/operators.ts) is what parsing, planning, compiling, the runtime
// docs and the SDK's filter types derive from: these cases pin it, and check that the contract's
// description of the runtime list and the SDK's generated types say the same.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FIELD_TYPES, type FieldType } from '../../../src/contract.ts';
import { escapeLike, FILTER_OPERATORS, OPERATOR_NAMES, operatorsFor } from '../../../src/runtime/operators.ts';

const EQUALITY = ['$eq', '$ne', '$in', '$notIn'];
const ORDERING = ['$gt', '$gte', '$lt', '$lte'];
const TEXT = ['$contains', '$containsi', '$startsWith', '$endsWith'];
const order = (names: string[]) => OPERATOR_NAMES.filter((name) => names.includes(name));

const cases: Array<[FieldType, string[]]> = [
  ['string', [...EQUALITY, ...ORDERING, ...TEXT, '$null']],
  ['text', [...EQUALITY, ...ORDERING, ...TEXT, '$null']],
  ['enum', [...EQUALITY, ...ORDERING, ...TEXT, '$null']],
  ['integer', [...EQUALITY, ...ORDERING, '$null']],
  ['number', [...EQUALITY, ...ORDERING, '$null']],
  ['date', [...EQUALITY, ...ORDERING, '$null']],
  ['datetime', [...EQUALITY, ...ORDERING, '$null']],
  ['time', [...EQUALITY, ...ORDERING, '$null']],
  ['uuid', [...EQUALITY, ...ORDERING, '$null']],
  ['boolean', [...EQUALITY, '$null']],
  ['json', ['$null']],
];

describe('the operator table', () => {
  it('covers every field type', () => {
    expect(cases.map(([type]) => type).sort()).toEqual([...FIELD_TYPES].sort());
  });

  it.each(cases)('%s fields take %j', (type, operators) => {
    expect(operatorsFor(type)).toEqual(order(operators));
  });

  it('marks $in and $notIn as lists, the LIKE operators as text, $null as true/false', () => {
    expect(OPERATOR_NAMES.filter((name) => FILTER_OPERATORS[name].list)).toEqual(['$in', '$notIn']);
    expect(OPERATOR_NAMES.filter((name) => FILTER_OPERATORS[name].operand === 'text')).toEqual(TEXT);
    expect(OPERATOR_NAMES.filter((name) => FILTER_OPERATORS[name].operand === 'boolean')).toEqual(['$null']);
  });

  it('is the operator list the contract documents for the runtime list', () => {
    const contract = fs.readFileSync(new URL('../../../openapi/openapi.yaml', import.meta.url), 'utf8');
    const table = contract.slice(contract.indexOf('| Operator | Meaning |'), contract.indexOf('Text operators match'));
    const firstCells = [...table.matchAll(/^\s*\| ([^|]+) \|/gm)].map((match) => match[1]!);
    const documented = firstCells.flatMap((cell) => [...cell.matchAll(/`(\$[A-Za-z]+)`/g)].map((match) => match[1]));
    expect(documented).toEqual(OPERATOR_NAMES);
  });

  it('is what the SDK types (sdk/src/generated/filter-operators.ts, written by npm run generate)', () => {
    const sdk = fs.readFileSync(new URL('../../../sdk/src/generated/filter-operators.ts', import.meta.url), 'utf8');
    for (const type of FIELD_TYPES) {
      const line = new RegExp(`^  ${type}: (.*);$`, 'm').exec(sdk)?.[1];
      expect(line?.split(' | ').map((name) => name.replaceAll("'", ''))).toEqual(operatorsFor(type));
    }
  });

  it('escapes %, _ and the escape character in LIKE patterns', () => {
    expect(escapeLike('50%_off!', '!')).toBe('50!%!_off!!');
    expect(escapeLike('back\\slash', '!')).toBe('back\\slash');
  });
});
