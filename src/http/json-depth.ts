// A nesting limit for parsed JSON bodies: a 1 MB body can nest ~500k levels, which overflows the
// stack of every recursive consumer (structuredClone, the request validator, JSON.stringify).
import { errors } from '../errors.ts';

/** Deepest nesting of arrays and objects a request body may have. */
export const MAX_BODY_DEPTH = 256;

/** Throws 400 when `value` nests arrays or objects more than MAX_BODY_DEPTH levels deep (checked without recursion). */
export function assertBodyDepth(value: unknown): void {
  const pending: [unknown, number][] = [[value, 1]];
  while (pending.length > 0) {
    const [current, depth] = pending.pop()!;
    if (depth > MAX_BODY_DEPTH) throw errors.badRequest(`JSON body nested too deeply: at most ${MAX_BODY_DEPTH} levels of arrays and objects`);
    for (const item of Object.values(current as object)) {
      if (item !== null && typeof item === 'object') pending.push([item, depth + 1]);
    }
  }
}
