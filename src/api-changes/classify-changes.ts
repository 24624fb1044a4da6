// Classifies the changes between two OpenAPI documents for the contract's clients: api-smart-diff
// computes and classifies every change with $refs resolved (so a schema change is reported at each
// operation that uses it), and this module places each change on an operation and a side (request,
// response) and corrects the two verdicts api-smart-diff 1.0.6 gets wrong for clients. Used by
// `npm run api:diff` (the contract) and by getSourceApiChanges (a source's runtime API).
import { apiCompare, type Diff } from 'api-smart-diff';

export const CHANGE_TYPES = ['breaking', 'non-breaking', 'deprecated', 'annotation', 'unclassified'] as const;
export type ChangeType = (typeof CHANGE_TYPES)[number];

/** Which half of an exchange a change is on: what clients send, what they receive, or neither. */
export type ChangeSide = 'request' | 'response' | 'operation' | 'document';

export interface Change {
  type: ChangeType;
  action: Diff['action'];
  side: ChangeSide;
  /** `POST /public/v1/projects` for a change in an operation; the path alone for one in a path item. */
  operation?: string;
  /** JSON pointer of the change in the whole document (`#/paths/~1public~1v1~1projects/post/...`). */
  pointer: string;
  /** JSON pointer inside its operation (`/requestBody/content/application~1json/schema/required/1`), or the document pointer. */
  location: string;
  /** Names the change in CHANGELOG.md acknowledgements: the operation, or the document part (`#/components/securitySchemes/teamApiKey`). */
  key: string;
  description: string;
  before?: unknown;
  after?: unknown;
  /** Why this tool overrode api-smart-diff's verdict, when it did. */
  rule?: string;
}

const METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

/**
 * Reusable parts reached through `$ref`: api-smart-diff reports their changes where each operation
 * uses them, so the copy under `components` is left out (it is classified without knowing whether a
 * request or a response uses it). Security schemes are named, not referenced, and stay.
 */
const INLINED_COMPONENTS = new Set(['schemas', 'responses', 'parameters', 'requestBodies', 'headers', 'examples', 'links', 'callbacks', 'pathItems']);

const escape = (segment: string | number) => String(segment).replaceAll('~', '~0').replaceAll('/', '~1');
const pointerOf = (segments: readonly (string | number)[]) => segments.map((segment) => `/${escape(segment)}`).join('');

export function classifyChanges(before: unknown, after: unknown): Change[] {
  const { diffs } = apiCompare(before, after);
  const changes: Change[] = [];
  for (const diff of diffs) {
    const [top, second] = diff.path;
    if (top === 'components' && INLINED_COMPONENTS.has(String(second))) continue;
    changes.push(correct(place(diff)));
  }
  return changes;
}

/**
 * The changes of paths that exist on one side only, as classifyChanges reports them (api-smart-diff
 * reports an added or removed operation as one change, whatever it holds), without comparing
 * anything: `add` is non-breaking, `remove` breaking. For a caller that knows which paths are new
 * or gone, e.g. a whole table added to or removed from a source's runtime API.
 */
export function operationsAddedOrRemoved(paths: Record<string, unknown>, action: 'add' | 'remove'): Change[] {
  const changes: Change[] = [];
  for (const [route, item] of Object.entries(paths)) {
    for (const [method, operation] of Object.entries(item as Record<string, unknown>)) {
      if (!METHODS.has(method)) continue;
      const name = `${method.toUpperCase()} ${route}`;
      changes.push({
        type: action === 'add' ? 'non-breaking' : 'breaking',
        action,
        side: 'operation',
        operation: name,
        pointer: `#${pointerOf(['paths', route, method])}`,
        location: '/',
        key: name,
        description: `[${VERBS[action]}] operation ${name}`,
        ...(action === 'add' ? { after: operation } : { before: operation }),
      });
    }
  }
  return changes;
}

function place(diff: Diff): Change {
  const path = diff.path;
  const base = { type: diff.type as ChangeType, action: diff.action, pointer: `#${pointerOf(path)}`, description: describe(diff), before: diff.before, after: diff.after };
  if (path[0] === 'paths' && path.length >= 2) {
    const route = String(path[1]);
    const method = path[2] !== undefined ? String(path[2]) : undefined;
    if (method && METHODS.has(method)) {
      const inside = path.slice(3);
      const operation = `${method.toUpperCase()} ${route}`;
      return { ...base, operation, key: operation, side: sideOf(inside[0]), location: pointerOf(inside) || '/' };
    }
    const inside = path.slice(2);
    return { ...base, operation: route, key: route, side: sideOf(inside[0]), location: pointerOf(inside) || '/' };
  }
  const key = `#${pointerOf(path[0] === 'components' ? path.slice(0, 3) : path.slice(0, 1))}`;
  return { ...base, side: 'document', key, location: base.pointer };
}

function sideOf(segment: string | number | undefined): ChangeSide {
  if (segment === 'parameters' || segment === 'requestBody') return 'request';
  if (segment === 'responses') return 'response';
  return 'operation';
}

const VERBS: Record<Diff['action'], string> = { add: 'Added', remove: 'Removed', replace: 'Replaced', rename: 'Renamed' };

function describe(diff: Diff): string {
  // api-smart-diff describes a schema reached again through the same $ref as "annotation (name)",
  // and some changes with no text before " in …": the changed key and the action say more.
  if (diff.description && /^\[\w+\] \S/.test(diff.description) && !/\bannotation \(/.test(diff.description)) return diff.description;
  const where = diff.description?.match(/ in (.+)$/)?.[1];
  const [parent, last] = diff.path.slice(-2);
  const name = typeof last === 'number' || /^\d+$/.test(String(last)) ? `${String(parent)}[${String(last)}]` : String(last);
  return `[${VERBS[diff.action]}] ${name}${where ? ` in ${where}` : ''}`;
}

const typesOf = (value: unknown): string[] => (Array.isArray(value) ? value.map(String) : value === undefined ? [] : [String(value)]);

/** The types of `from` that `to` does not allow (an integer is a number). */
function lost(from: readonly string[], to: readonly string[]): string[] {
  return from.filter((type) => !to.includes(type) && !(type === 'integer' && to.includes('number')));
}

/**
 * api-smart-diff 1.0.6 calls a changed `type` breaking in a request and non-breaking in a response,
 * whichever way it goes. For clients, what matters is the direction: a response that may now hold a
 * type it did not (`string` → `[string, null]`: a field made nullable) breaks the code reading it,
 * and a request that no longer takes a type breaks the code sending it; the reverse breaks nothing.
 */
function correct(change: Change): Change {
  if (change.side !== 'request' && change.side !== 'response') return change;
  const segments = change.location.split('/');
  const [parent, last] = segments.slice(-2);
  // api-smart-diff calls an optional response field's removal non-breaking: by the schema, a client
  // could not count on it. Clients read what they were sent, though, and every field a runtime list
  // answers is optional (a `fields` projection may leave it out): code reading it gets nothing now.
  if (change.side === 'response' && change.action === 'remove' && parent === 'properties' && change.type !== 'breaking') {
    return { ...change, type: 'breaking', rule: 'response field removed: code reading it, required or not, gets nothing' };
  }
  let before: string[];
  let after: string[];
  if (last === 'type' && change.action === 'replace') [before, after] = [typesOf(change.before), typesOf(change.after)];
  else if (parent === 'type' && /^\d+$/.test(last ?? '') && change.action === 'add') [before, after] = [[], typesOf(change.after)];
  else if (parent === 'type' && /^\d+$/.test(last ?? '') && change.action === 'remove') [before, after] = [typesOf(change.before), []];
  else if (last === 'nullable' && change.action !== 'remove') [before, after] = [change.before === true ? ['null'] : [], change.after === true ? ['null'] : []];
  else return change;
  const gone = change.side === 'response' ? lost(after, before) : lost(before, after);
  const verdict: ChangeType = gone.length ? 'breaking' : 'non-breaking';
  if (verdict === change.type) return change;
  const rule = gone.length
    ? `${change.side} type ${change.side === 'response' ? 'widened by' : 'narrowed by'} ${gone.join(', ')}`
    : `${change.side} type ${change.side === 'response' ? 'narrowed' : 'widened'}: nothing a client sends or reads stops working`;
  return { ...change, type: verdict, rule };
}
