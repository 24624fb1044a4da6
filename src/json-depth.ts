// A nesting limit for parsed JSON: a 1 MB document can nest ~500k levels, which overflows the stack
// of every recursive consumer (structuredClone, validators, JSON.stringify, database drivers).
import { errors } from './errors.ts';

/** Deepest nesting of arrays and objects a request body or schema config may have. */
export const MAX_JSON_DEPTH = 256;

/** JSON pointer of the first array or object nested deeper than `maxDepth`, if any (found without recursion). */
export function tooDeep(value: unknown, maxDepth = MAX_JSON_DEPTH): string | undefined {
  const pending: [unknown, number, string][] = [[value, 1, '']];
  while (pending.length > 0) {
    const [current, depth, at] = pending.pop()!;
    if (depth > maxDepth) return at;
    for (const [key, item] of Object.entries(current as object)) {
      if (item !== null && typeof item === 'object') pending.push([item, depth + 1, `${at}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`]);
    }
  }
  return undefined;
}

/** Throws 400 when a request body nests arrays or objects more than MAX_JSON_DEPTH levels deep. */
export function assertBodyDepth(value: unknown): void {
  if (tooDeep(value) !== undefined) throw errors.badRequest(`JSON body nested too deeply: at most ${MAX_JSON_DEPTH} levels of arrays and objects`);
}
