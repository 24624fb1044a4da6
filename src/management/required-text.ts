// Names in request bodies: the validator checks types and lengths, but a name of only spaces is
// still no name. One check and one message for every resource that has a name.
import { errors } from '../errors.ts';

/** `value` trimmed, or 400 `<field> must not be empty` pointing at `/body/<field>`. */
export function requireText(value: string | undefined, field: string): string {
  const text = value?.trim();
  if (!text) throw errors.badRequest(`${field} must not be empty`, [{ path: `/body/${field}`, message: `${field} must contain at least one non-space character` }]);
  return text;
}

/** For updates: undefined stays undefined (no change); anything given must hold a name. */
export function optionalText(value: string | undefined, field: string): string | undefined {
  return value === undefined ? undefined : requireText(value, field);
}
