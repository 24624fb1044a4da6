// How many characters a plain string field has for its value: rules pick codes, flags and words by it.

/** Plain strings with at most this many characters of room are codes rather than words. */
export const CODE_LENGTH = 10;

/** Characters a string field has for its value, after its prefix and suffix (unbounded without maxLength). */
export function roomOf(field: { maxLength?: number; prefix?: string; suffix?: string }): number {
  return (field.maxLength ?? Number.POSITIVE_INFINITY) - (field.prefix?.length ?? 0) - (field.suffix?.length ?? 0);
}
