// Structural validation of schema configs against schemas/schema-config.v1.json (Ajv, draft 2020-12),
// with Ajv's errors rewritten as issues that name the property, the allowed values and the fix. The
// validators are compiled ahead by `npm run generate` (generated/schema-config-validators.ts, Ajv's
// standalone code): compiling the schema here took a third of a second of every process's first check.
import fs from 'node:fs';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { definitions, structure } from '../../generated/schema-config-validators.ts';
import { resourceUrl } from '../resources.ts';
import type { SchemaConfig, StrategyKind } from '../model/config-types.ts';
import type { Issue } from '../model/config-issues.ts';
import { describePath, escapePointerToken, pointerTokens, quoteList } from '../model/config-issues.ts';
import { didYouMean } from '../suggest.ts';

interface JsonSchemaNode {
  $ref?: string;
  title?: string;
  properties?: Record<string, JsonSchemaNode>;
  oneOf?: JsonSchemaNode[];
  anyOf?: JsonSchemaNode[];
  not?: { const?: unknown };
  const?: unknown;
  pattern?: string;
  $defs?: Record<string, JsonSchemaNode>;
}

/** The schema config JSON Schema (draft 2020-12) as parsed from schemas/schema-config.v1.json. */
export const schemaConfigJsonSchema: JsonSchemaNode = JSON.parse(
  fs.readFileSync(resourceUrl('schemas/schema-config.v1.json'), 'utf8'),
);

const defs = schemaConfigJsonSchema.$defs ?? {};
const branchDefs = (union: string) => (defs[union]?.oneOf ?? []).map((branch) => (branch.$ref ?? '').replace('#/$defs/', ''));
const kindsOf = (union: string) => branchDefs(union).map((name) => String(defs[name]?.properties?.kind?.const));

/** The strategy kinds, in the order of the JSON Schema. */
export const STRATEGY_KINDS: readonly StrategyKind[] = kindsOf('strategy') as StrategyKind[];

/**
 * Objects that are a oneOf over branches told apart by their `kind` (strategies, numeric
 * distributions, fan-outs): each is checked against the branch of its own kind only, for one clear answer.
 */
const KIND_UNIONS = ['strategy', 'numericDistribution', 'fanOut'].map((name) => ({ name, title: defs[name]?.title, kinds: kindsOf(name) }));

/** The validators: the whole config, and each branch of the kind unions by kind. */
let compiled: { structure: ValidateFunction<SchemaConfig>; branches: Map<string, Map<string, ValidateFunction>> } | undefined;
function validators(): NonNullable<typeof compiled> {
  if (compiled) return compiled;
  const defined = definitions as unknown as Record<string, ValidateFunction>;
  const branches = new Map(KIND_UNIONS.map((union) => [union.name, new Map<string, ValidateFunction>(branchDefs(union.name).map((name, i) => [union.kinds[i]!, defined[name]!]))]));
  return (compiled = { structure: structure as unknown as ValidateFunction<SchemaConfig>, branches });
}

const IDENTIFIER_PATTERN = '^[A-Za-z][A-Za-z0-9_]*$';
const patternHints: Record<string, string> = {
  [IDENTIFIER_PATTERN]: 'is not a valid identifier: it must start with a letter and contain only letters, digits and underscores',
  [String(defs.dateRangeStrategy?.properties?.from?.pattern)]:
    'is not a valid date bound: use an ISO date or datetime (2024-01-31, 2024-01-31T12:00:00Z), "now", ' +
    'or an offset such as "-30d" or "+1y" (units s, m, h, d, w, M, y)',
  [String(defs.fakerStrategy?.properties?.method?.pattern)]:
    'is not a faker method: write it as "module.method", e.g. "person.firstName"',
};

/** Checks `input` against the JSON Schema; an empty list means it is structurally a `SchemaConfig`. */
export function checkConfigSchema(input: unknown): Issue[] {
  const { structure } = validators();
  if (structure(input)) return [];
  return formatErrors(structure.errors ?? [], input, '');
}

/** Type guard: whether `input` is structurally a `SchemaConfig` (no semantic checks). */
export function matchesConfigSchema(input: unknown): input is SchemaConfig {
  return validators().structure(input);
}

function formatErrors(errors: ErrorObject[], data: unknown, base: string): Issue[] {
  const unionAt = new Map<string, (typeof KIND_UNIONS)[number]>();
  for (const e of errors) {
    const union = e.keyword === 'oneOf' ? KIND_UNIONS.find((candidate) => candidate.title === (e.parentSchema as { title?: string } | undefined)?.title) : undefined;
    // The outermost union at a path explains everything inside it.
    if (union && ![...unionAt.keys()].some((p) => e.instancePath.startsWith(`${p}/`))) unionAt.set(e.instancePath, union);
  }
  const strategyPaths = [...unionAt.keys()];
  const inStrategy = (path: string) => strategyPaths.some((p) => path === p || path.startsWith(`${p}/`));
  let remaining = errors.filter((e) => !inStrategy(e.instancePath));

  // A failed anyOf reports every branch; keep the errors of the branch whose type matched, if any.
  for (const anyOf of remaining.filter((e) => e.keyword === 'anyOf')) {
    const at = anyOf.instancePath;
    remaining = remaining.filter((e) => !(e.instancePath === at && e.keyword === 'type'));
    const explained = remaining.some(
      (e) => e !== anyOf && (e.instancePath === at || e.instancePath.startsWith(`${at}/`)),
    );
    if (explained) remaining = remaining.filter((e) => e !== anyOf);
  }

  const issues = remaining.map((e) => toIssue(e, base));
  for (const [path, union] of unionAt) issues.push(...branchIssues(union, valueAt(data, path), base + path));
  const seen = new Set<string>();
  const unique = issues.filter((issue) => {
    const key = `${issue.path}\n${issue.message}`;
    return seen.has(key) ? false : (seen.add(key), true);
  });
  return unique.sort((a, b) => compareIndices(a.path, b.path));
}

/**
 * Document order as far as array positions tell it (`/entities/1/...` before `/entities/10/...`,
 * paths without positions first); with a stable sort, ties keep their order.
 */
export function compareIndices(a: string, b: string): number {
  const indices = (path: string) => pointerTokens(path).filter((t) => /^[0-9]+$/.test(t)).map(Number);
  const [left, right] = [indices(a), indices(b)];
  for (let i = 0; i < Math.max(left.length, right.length); i++) {
    const difference = (left[i] ?? -1) - (right[i] ?? -1);
    if (difference !== 0) return difference;
  }
  return 0;
}

// A strategy (distribution, fan-out) is a oneOf over its kinds; validate it against its own kind only.
function branchIssues(union: (typeof KIND_UNIONS)[number], strategy: unknown, path: string): Issue[] {
  const kinds = union.kinds;
  const where = describePath(path);
  if (typeof strategy !== 'object' || strategy === null || Array.isArray(strategy)) {
    return [{ path, message: `${where} must be an object with a "kind"; got ${jsonType(strategy)}` }];
  }
  const kind = (strategy as { kind?: unknown }).kind;
  if (kind === undefined) {
    return [{ path, message: `${where} is missing required property "kind" (one of ${quoteList(kinds)})` }];
  }
  const validate = typeof kind === 'string' ? validators().branches.get(union.name)?.get(kind) : undefined;
  if (!validate) {
    const hint = typeof kind === 'string' ? didYouMean(kind, kinds) : '';
    return [
      {
        path: `${path}/kind`,
        message: `${where}.kind must be one of ${quoteList(kinds)}; got ${JSON.stringify(kind)}${hint}`,
      },
    ];
  }
  if (validate(strategy)) return [];
  return formatErrors(validate.errors ?? [], strategy, path);
}

function toIssue(error: ErrorObject, base: string): Issue {
  const path = base + error.instancePath;
  const where = describePath(path);
  const params = error.params as Record<string, unknown>;
  const got = error.data;
  switch (error.keyword) {
    case 'required':
      return { path, message: `${where} is missing required property "${String(params.missingProperty)}"` };
    case 'additionalProperties': {
      const name = String(params.additionalProperty);
      const allowed = Object.keys((error.parentSchema as JsonSchemaNode | undefined)?.properties ?? {});
      return {
        path: `${path}/${escapePointerToken(name)}`,
        message: `${where} has unknown property "${name}"${didYouMean(name, allowed)}; allowed properties: ${allowed.join(', ')}`,
      };
    }
    case 'enum': {
      const allowed = (params.allowedValues as unknown[]) ?? [];
      const hint = typeof got === 'string' ? didYouMean(got, allowed.map(String)) : '';
      return { path, message: `${where} must be one of ${quoteList(allowed)}; got ${JSON.stringify(got)}${hint}` };
    }
    case 'const':
      return { path, message: `${where} must be ${JSON.stringify(params.allowedValue)}; got ${JSON.stringify(got)}` };
    case 'type':
      return { path, message: `${where} must be ${article(String(params.type))}; got ${jsonType(got)}` };
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return { path, message: `${where} must be ${String(params.comparison)} ${String(params.limit)}; got ${JSON.stringify(got)}` };
    case 'pattern': {
      const hint = patternHints[String(params.pattern)] ?? `must match the pattern ${String(params.pattern)}`;
      return { path, message: `${where} ${JSON.stringify(got)} ${hint}` };
    }
    case 'minLength':
      return params.limit === 1
        ? { path, message: `${where} must not be empty` }
        : { path, message: `${where} must be at least ${String(params.limit)} characters long` };
    case 'maxLength':
      return { path, message: `${where} must be at most ${String(params.limit)} characters long; got ${String(got).length}` };
    case 'minItems':
      return { path, message: `${where} must have at least ${String(params.limit)} item${params.limit === 1 ? '' : 's'}` };
    case 'not':
      return { path, message: `${where} must not be ${JSON.stringify((error.schema as JsonSchemaNode).const)}` };
    case 'anyOf':
      return { path, message: `${where} must be ${anyOfText(path, error.schema as JsonSchemaNode[])}; got ${jsonType(got)}` };
    default:
      return { path, message: `${where} ${error.message ?? 'is invalid'}` };
  }
}

function anyOfText(path: string, branches: JsonSchemaNode[]): string {
  if (pointerTokens(path).at(-1) === 'rowCount') return 'an integer from 0 to 100000000 or a range {"min": …, "max": …}';
  const names = branches.map((branch) => article((branch as { type?: string }).type ?? 'object'));
  return names.length > 1 ? `${names.slice(0, -1).join(', ')} or ${names.at(-1)}` : (names[0] ?? 'valid');
}

function article(type: string): string {
  if (type === 'null') return 'null';
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'number') return Number.isInteger(value) ? `the integer ${value}` : `the number ${value}`;
  if (typeof value === 'string') return `the string ${JSON.stringify(value)}`;
  if (typeof value === 'boolean') return String(value);
  return typeof value === 'object' ? 'an object' : typeof value;
}

function valueAt(data: unknown, path: string): unknown {
  let value = data;
  for (const token of pointerTokens(path)) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<string, unknown>)[token];
  }
  return value;
}
