// Stage 1 of a runtime read: the raw query string → ParsedQuery, plain data with names and values
// still as text. Accepts the documented dot form (`filters.name.$eq=x`, `populate.author.fields=a,b`)
// and the bracket form `qs` writes (`filters[name][$eq]=x`, `filters[id][$in][0]=1`, `populate[0]=a`),
// and `where`, the same filters as one JSON object (`where={"name":{"$eq":"x"}}`), which a client
// generated from an OpenAPI document can send (no generator writes a two-level deepObject).
// Only syntax is checked here; names and values are checked against the table by plan.ts.
import { isFilterOperator, OPERATOR_NAMES, operatorSpec, type FilterOperator } from './operators.ts';
import { quoted } from '../errors.ts';
import { runtimeErrors } from './runtime-errors.ts';
import { describeJsonSyntaxError } from '../json-syntax.ts';

const PARAMETERS = ['limit', 'offset', 'fields', 'sort', 'filters', 'where', 'populate', 'format', 'csvFormulaEscape'];

export interface ParsedFilter {
  field: string;
  operator: FilterOperator;
  /** One value for scalar operators; one or more for $in/$notIn. */
  values: string[];
  /** Set when the filter came from `where`: errors about it name that parameter. */
  parameter?: 'where';
}

export interface ParsedSort {
  field: string;
  /** As written after the colon; undefined when there was none. */
  direction?: string;
}

export interface ParsedPopulate {
  field: string;
  /** `populate.<field>.fields`: the projection of the populated row. */
  fields?: string[];
}

export interface ParsedQuery {
  limit?: string;
  offset?: string;
  /** `format=csv|jsonl|json`: the answer's format (export.ts), as written. */
  format?: string;
  /** `csvFormulaEscape=true|false`: whether a CSV export escapes formula-like text (default true). */
  csvFormulaEscape?: boolean;
  fields?: string[];
  sort: ParsedSort[];
  /** In the order first written; several filters combine with AND. */
  filters: ParsedFilter[];
  populate: ParsedPopulate[];
}

/** An array position in a key: `[0]`, `[1]` or the empty `[]`. */
const INDEX = /^\d*$/;

/**
 * Parses a raw query string (with or without its leading '?'). List parameters (fields, sort,
 * populate, populate.<f>.fields, $in, $notIn) take comma-separated values, repeated or indexed; an
 * indexed $in/$notIn value (`[$in][0]=a,b`) is one value, commas included. Scalar parameters (limit,
 * offset, the other operators) may appear once.
 */
export function parseQuery(raw: string): ParsedQuery {
  const parsed: ParsedQuery = { sort: [], filters: [], populate: [] };
  const seen = new Set<string>();
  const filters = new Map<string, ParsedFilter>();
  const populate = new Map<string, ParsedPopulate>();
  const populateEntry = (field: string) => {
    let entry = populate.get(field);
    if (!entry) populate.set(field, (entry = { field }));
    return entry;
  };
  const scalar = (name: string) => {
    if (seen.has(name)) throw runtimeErrors.duplicateParameter(name);
    seen.add(name);
  };

  for (const [key, value] of pairs(raw)) {
    const path = splitKey(key);
    if (!path) throw runtimeErrors.malformedParameter(key);
    const [head, ...rest] = path as [string, ...string[]];
    const listIndex = rest.length === 1 && INDEX.test(rest[0]!);
    switch (head) {
      case 'format':
        if (rest.length > 0) throw runtimeErrors.malformedParameter(key, 'use format=csv, format=jsonl or format=json');
        scalar(head);
        parsed.format = value;
        break;
      case 'csvFormulaEscape':
        if (rest.length > 0 || (value !== 'true' && value !== 'false')) throw runtimeErrors.malformedParameter(key, 'use csvFormulaEscape=true or csvFormulaEscape=false');
        scalar(head);
        parsed.csvFormulaEscape = value === 'true';
        break;
      case 'limit':
      case 'offset':
        if (rest.length > 0) throw runtimeErrors.malformedParameter(key, `use ${head}=<integer>`);
        scalar(head);
        parsed[head] = value;
        break;
      case 'fields':
        if (rest.length > 0 && !listIndex) throw runtimeErrors.malformedParameter(key, 'use fields=a,b');
        parsed.fields = [...(parsed.fields ?? []), ...names(value, 'fields')];
        break;
      case 'sort':
        if (rest.length > 0 && !listIndex) throw runtimeErrors.malformedParameter(key, 'use sort=field:asc,other:desc');
        parsed.sort.push(...names(value, 'sort').map(sortTerm));
        break;
      case 'populate':
        if (rest.length === 0 || listIndex) {
          for (const field of names(value, 'populate')) populateEntry(field);
        } else if (rest.length >= 2 && rest[1] === 'fields' && (rest.length === 2 || (rest.length === 3 && INDEX.test(rest[2]!)))) {
          const entry = populateEntry(rest[0]!);
          entry.fields = [...(entry.fields ?? []), ...names(value, `populate.${rest[0]}.fields`)];
        } else {
          throw runtimeErrors.malformedParameter(key, 'use populate=a,b or populate.<field>.fields=a,b');
        }
        break;
      case 'filters':
        addFilter(filters, key, rest, value, scalar);
        break;
      case 'where':
        if (rest.length > 0) throw runtimeErrors.malformedParameter(key, 'use where={"<field>":{"<operator>":<value>}}');
        scalar(head);
        addWhere(filters, value, scalar);
        break;
      default:
        throw runtimeErrors.unknownParameter(head, PARAMETERS);
    }
  }
  parsed.filters = [...filters.values()];
  parsed.populate = [...populate.values()];
  return parsed;
}

function addFilter(filters: Map<string, ParsedFilter>, key: string, path: string[], value: string, scalar: (name: string) => void): void {
  const [field, operator, index, ...extra] = path;
  if (field === undefined || field === '' || INDEX.test(field)) throw runtimeErrors.malformedParameter(key, 'use filters.<field>.<operator>=<value>');
  if (operator === undefined) throw runtimeErrors.missingOperator(field);
  if (!isFilterOperator(operator)) throw runtimeErrors.unknownOperator(operator, field, OPERATOR_NAMES);
  const op: FilterOperator = operator;
  const takesList = operatorSpec(op).list;
  const name = `filters.${field}.${op}`;
  if (extra.length > 0 || (index !== undefined && !(takesList && INDEX.test(index)))) {
    throw runtimeErrors.malformedParameter(key, takesList ? `use ${name}=a,b or filters[${field}][${op}][0]=a` : `use ${name}=<value>`);
  }
  if (!takesList) scalar(name);
  const values = !takesList || index !== undefined ? [value] : value.split(',');
  const existing = filters.get(name);
  if (existing) existing.values.push(...values);
  else filters.set(name, { field, operator: op, values });
}

/**
 * `where={"<field>":{"<operator>":<value>}}`: the filters of the dot and bracket forms as one JSON
 * object, merged with them (AND) under the same rules: a scalar operator once per field, list
 * operators ($in, $notIn) gathering every value given. A list operator takes an array (or one
 * value); the others a string, number or boolean, kept as text for plan.ts to cast as it casts the
 * query string's values. JSON needs no comma splitting: `{"$in": ["a,b"]}` is one value.
 */
function addWhere(filters: Map<string, ParsedFilter>, text: string, scalar: (name: string) => void): void {
  let where: unknown;
  try {
    where = JSON.parse(text);
  } catch (error) {
    throw runtimeErrors.invalidWhere(`not JSON (${describeJsonSyntaxError((error as Error).message, text)})`);
  }
  if (!isObject(where)) throw runtimeErrors.invalidWhere('use a JSON object {"<field>":{"<operator>":<value>}}');
  for (const [field, condition] of Object.entries(where)) {
    if (field.trim() === '') throw runtimeErrors.emptyName('where');
    if (!isObject(condition)) throw runtimeErrors.invalidWhere(`${quoted(field)} must hold an object of operators, e.g. {"${field}":{"$eq":…}}`);
    if (Object.keys(condition).length === 0) throw runtimeErrors.missingWhereOperator(field);
    for (const [operator, value] of Object.entries(condition)) {
      if (!isFilterOperator(operator)) throw runtimeErrors.unknownOperator(operator, field, OPERATOR_NAMES, 'where');
      const takesList = operatorSpec(operator).list;
      const name = `filters.${field}.${operator}`;
      const values = takesList && Array.isArray(value) ? value : [value];
      if (takesList && values.length === 0) throw runtimeErrors.invalidWhere(`where.${field}.${operator} needs at least one value`);
      const texts = values.map((item) => {
        if (typeof item === 'string') return item;
        if (typeof item === 'number' || typeof item === 'boolean') return String(item);
        const usage = operator === '$null' ? 'use true or false' : item === null ? `use {"${field}":{"$null":true}} to select null values` : `use ${takesList ? 'an array of ' : 'a '}string, number or boolean`;
        throw runtimeErrors.invalidWhere(`invalid value for where.${field}.${operator}: ${usage}`);
      });
      if (!takesList) scalar(name);
      const existing = filters.get(name);
      if (existing) existing.values.push(...texts);
      else filters.set(name, { field, operator, values: texts, parameter: 'where' });
    }
  }
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** `a, b` → ['a', 'b']; an empty entry is an error. */
function names(value: string, parameter: string): string[] {
  return value.split(',').map((name) => {
    const trimmed = name.trim();
    if (trimmed === '') throw runtimeErrors.emptyName(parameter);
    return trimmed;
  });
}

function sortTerm(term: string): ParsedSort {
  const colon = term.indexOf(':');
  if (colon < 0) return { field: term };
  return { field: term.slice(0, colon).trim(), direction: term.slice(colon + 1).trim() };
}

/** Key/value pairs, decoded as forms are ('+' is a space); empty pieces are skipped. */
function* pairs(raw: string): Generator<[string, string]> {
  const text = raw.startsWith('?') ? raw.slice(1) : raw;
  if (text === '') return;
  for (const piece of text.split('&')) {
    if (piece === '') continue;
    const equals = piece.indexOf('=');
    const rawKey = equals < 0 ? piece : piece.slice(0, equals);
    const key = decode(rawKey, rawKey);
    yield [key, equals < 0 ? '' : decode(piece.slice(equals + 1), key)];
  }
}

function decode(text: string, key: string): string {
  try {
    return decodeURIComponent(text.replaceAll('+', ' '));
  } catch {
    throw runtimeErrors.malformedEncoding(key);
  }
}

/** `a.b[c][0]` → ['a', 'b', 'c', '0']; undefined when the key is malformed. */
export function splitKey(key: string): string[] | undefined {
  const head = /^[^.[\]]+/.exec(key);
  if (!head) return undefined;
  const path = [head[0]];
  const segment = /\.([^.[\]]+)|\[([^[\]]*)\]/y;
  segment.lastIndex = head[0].length;
  while (segment.lastIndex < key.length) {
    const match = segment.exec(key);
    if (!match) return undefined;
    path.push(match[1] ?? match[2]!);
  }
  return path;
}
