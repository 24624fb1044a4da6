// Stage 2 of formulas: syntax tree → types. Resolves every name (a field of the row, or a field of
// a referenced row through `reference.field`), gives each node a static type, and collects every
// problem at once (unknown names, operands of the wrong type, a result that does not suit the field).
import type { Entity, Field, FieldType } from '../../model/config-types.ts';
import type { RowReference } from '../row-references.ts';
import type { FormulaNode } from './parse-formula.ts';
import { didYouMean } from '../../suggest.ts';
import { resolveRowReference } from '../row-references.ts';

export type ValueType = 'number' | 'string' | 'boolean' | 'date' | 'datetime' | 'duration' | 'null';

/** The type of a field's values in a formula; json fields have none. */
export const FIELD_VALUE_TYPES: Record<FieldType, ValueType | undefined> = {
  string: 'string',
  text: 'string',
  integer: 'number',
  number: 'number',
  boolean: 'boolean',
  date: 'date',
  datetime: 'datetime',
  time: 'string',
  uuid: 'string',
  json: undefined,
  enum: 'string',
};

/** Result types a field of each type accepts (null fits every field). */
const FITS: Record<FieldType, readonly ValueType[]> = {
  string: ['string'],
  text: ['string'],
  integer: ['number'],
  number: ['number'],
  boolean: ['boolean'],
  date: ['date'],
  datetime: ['datetime', 'date'],
  time: [],
  uuid: [],
  json: [],
  enum: [],
};

interface FunctionSpec {
  /** Result type from argument types, or a problem. */
  type(args: ValueType[]): ValueType | string;
  arity: [number, number];
}

const numeric = (result: ValueType = 'number'): FunctionSpec['type'] => (args) => (args.every((arg) => arg === 'number' || arg === 'null') ? result : 'takes numbers');
const textual = (result: ValueType): FunctionSpec['type'] => (args) => (args.every((arg) => arg === 'string' || arg === 'null') ? result : 'takes a string');
const temporal = (result: ValueType): FunctionSpec['type'] => (args) => (args.every((arg) => arg === 'date' || arg === 'datetime' || arg === 'null') ? result : 'takes dates or datetimes');

export const FUNCTIONS: Record<string, FunctionSpec> = {
  round: { type: numeric(), arity: [1, 2] },
  floor: { type: numeric(), arity: [1, 1] },
  ceil: { type: numeric(), arity: [1, 1] },
  abs: { type: numeric(), arity: [1, 1] },
  min: { type: numeric(), arity: [1, 16] },
  max: { type: numeric(), arity: [1, 16] },
  lower: { type: textual('string'), arity: [1, 1] },
  upper: { type: textual('string'), arity: [1, 1] },
  length: { type: textual('number'), arity: [1, 1] },
  daysBetween: { type: temporal('number'), arity: [2, 2] },
  date: { type: temporal('date'), arity: [1, 1] },
};

/** What a formula reads. */
export interface FormulaUses {
  /** Field ids of the row. */
  fields: Set<string>;
  /** Fields of referenced rows, by the node that reads them. */
  members: Map<FormulaNode, { reference: RowReference; field: Field }>;
}

export interface CheckedFormula {
  type: ValueType;
  /** Static type of every node. */
  types: Map<FormulaNode, ValueType>;
  uses: FormulaUses;
  errors: string[];
}

export interface FormulaScope {
  entity: Entity;
  /** The field the formula fills. */
  field: Field;
  entityById(id: string): Entity | undefined;
}

/** Types a parsed formula in its scope. */
export function checkFormula(node: FormulaNode, scope: FormulaScope): CheckedFormula {
  const types = new Map<FormulaNode, ValueType>();
  const errors: string[] = [];
  const uses: FormulaUses = { fields: new Set(), members: new Map() };
  const where = (at: number) => ` (character ${at + 1})`;

  const fieldType = (field: Field, label: string, at: number): ValueType => {
    const type = FIELD_VALUE_TYPES[field.type];
    if (type === undefined) {
      errors.push(`${label} is a json field, which formulas cannot read${where(at)}`);
      return 'null';
    }
    return type;
  };

  const visit = (node: FormulaNode): ValueType => {
    const type = typeOf(node);
    types.set(node, type);
    return type;
  };

  const typeOf = (node: FormulaNode): ValueType => {
    switch (node.type) {
      case 'number':
      case 'string':
      case 'boolean':
      case 'duration':
      case 'null':
        return node.type;
      case 'name': {
        const field = scope.entity.fields.find((candidate) => candidate.id === node.name);
        if (!field) {
          const ids = scope.entity.fields.map((candidate) => candidate.id).filter((id) => id !== scope.field.id);
          errors.push(`"${node.name}" is not a field of entity "${scope.entity.id}"${didYouMean(node.name, ids)}${where(node.at)}; use one of: ${ids.join(', ')}`);
          return 'null';
        }
        if (field === scope.field) {
          errors.push(`the formula of ${scope.entity.id}.${field.id} uses its own value${where(node.at)}`);
          return 'null';
        }
        uses.fields.add(field.id);
        return fieldType(field, `${scope.entity.id}.${field.id}`, node.at);
      }
      case 'member': {
        const resolved = resolveRowReference(scope.entity, node.reference);
        if (!resolved.ok) {
          errors.push(`${resolved.message}${where(node.at)}`);
          return 'null';
        }
        const { reference } = resolved;
        if (reference.target.entity === scope.entity.id) {
          errors.push(`"${node.reference}" references entity "${scope.entity.id}" itself; formulas read fields of other entities' rows only${where(node.at)}`);
          return 'null';
        }
        const parent = scope.entityById(reference.target.entity);
        const field = parent?.fields.find((candidate) => candidate.id === node.field);
        if (!parent || !field) {
          const ids = parent?.fields.map((candidate) => candidate.id) ?? [];
          errors.push(`"${node.field}" is not a field of entity "${reference.target.entity}"${didYouMean(node.field, ids)}${where(node.at)}${ids.length ? `; use one of: ${ids.join(', ')}` : ''}`);
          return 'null';
        }
        uses.fields.add(reference.field.id);
        uses.members.set(node, { reference, field });
        return fieldType(field, `${parent.id}.${field.id}`, node.at);
      }
      case 'unary': {
        const arg = visit(node.arg);
        if (arg === 'null') return 'null';
        if (node.op === '!' && arg === 'boolean') return 'boolean';
        if (node.op === '-' && (arg === 'number' || arg === 'duration')) return arg;
        errors.push(`"${node.op}" cannot apply to a ${arg}${where(node.at)}`);
        return 'null';
      }
      case 'binary': {
        const left = visit(node.left);
        const right = visit(node.right);
        const result = binaryType(node.op, left, right);
        if (result === undefined) {
          errors.push(`"${node.op}" cannot combine a ${left} and a ${right}${where(node.at)}`);
          return 'null';
        }
        return result;
      }
      case 'conditional': {
        const test = visit(node.test);
        if (test !== 'boolean' && test !== 'null') errors.push(`the condition before "?" must be a boolean, not a ${test}${where(node.at)}`);
        const then = visit(node.then);
        const otherwise = visit(node.otherwise);
        if (then === 'null') return otherwise;
        if (otherwise === 'null' || otherwise === then) return then;
        errors.push(`the two branches of "? :" must have one type, not a ${then} and a ${otherwise}${where(node.at)}`);
        return then;
      }
      case 'call': {
        const spec = FUNCTIONS[node.name];
        const args = node.args.map(visit);
        if (!spec) {
          errors.push(`unknown function "${node.name}"${didYouMean(node.name, Object.keys(FUNCTIONS))}${where(node.at)}; functions: ${Object.keys(FUNCTIONS).join(', ')}`);
          return 'null';
        }
        const [least, most] = spec.arity;
        if (args.length < least || args.length > most) {
          errors.push(`${node.name}() takes ${least === most ? least : `${least} to ${most}`} argument${most === 1 ? '' : 's'}, not ${args.length}${where(node.at)}`);
          return 'null';
        }
        const type = spec.type(args);
        if (!FUNCTION_RESULT.has(type)) {
          errors.push(`${node.name}() ${type}, not ${args.map((arg) => `a ${arg}`).join(', ')}${where(node.at)}`);
          return 'null';
        }
        return type as ValueType;
      }
    }
  };

  const type = visit(node);
  if (type !== 'null' && !FITS[scope.field.type].includes(type)) {
    errors.push(
      FITS[scope.field.type].length === 0
        ? `formulas cannot fill ${scope.field.type} fields`
        : `the formula gives a ${type} but ${scope.entity.id}.${scope.field.id} is a ${scope.field.type} field, which takes a ${FITS[scope.field.type].join(' or ')}`,
    );
  }
  return { type, types, uses, errors };
}

const FUNCTION_RESULT = new Set<string>(['number', 'string', 'boolean', 'date', 'datetime', 'duration', 'null']);

/** The type of `left op right`, or undefined when the operator cannot combine them. Null stands for any type. */
export function binaryType(op: string, left: ValueType, right: ValueType): ValueType | undefined {
  if (left === 'null' && right === 'null') return 'null';
  const l = left === 'null' ? right : left;
  const r = right === 'null' ? left : right;
  const time = (type: ValueType) => type === 'date' || type === 'datetime';
  switch (op) {
    case '+':
      if (l === 'string' || r === 'string') return 'string';
      if (l === 'number' && r === 'number') return 'number';
      if (time(l) && r === 'duration') return l;
      if (l === 'duration' && time(r)) return r;
      if (l === 'duration' && r === 'duration') return 'duration';
      return undefined;
    case '-':
      if (l === 'number' && r === 'number') return 'number';
      if (time(l) && r === 'duration') return l;
      if (l === 'duration' && r === 'duration') return 'duration';
      return undefined;
    case '*':
      if (l === 'number' && r === 'number') return 'number';
      if ((l === 'duration' && r === 'number') || (l === 'number' && r === 'duration')) return 'duration';
      return undefined;
    case '/':
      if (l === 'number' && r === 'number') return 'number';
      if (l === 'duration' && r === 'number') return 'duration';
      return undefined;
    case '%':
      return l === 'number' && r === 'number' ? 'number' : undefined;
    case '<':
    case '<=':
    case '>':
    case '>=':
    case '==':
    case '!=':
      return l === r || (time(l) && time(r)) ? 'boolean' : undefined;
    case '&&':
    case '||':
      return l === 'boolean' && r === 'boolean' ? 'boolean' : undefined;
  }
  return undefined;
}
