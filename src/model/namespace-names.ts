// The names of the namespaces sds works in beside a source's live one, on every engine: the staging
// namespace a regeneration builds (`<live>__next`) and the one a swap moves the old data to
// (`sds_old_<hash of the live name>`). They are sds's alone: a request may never name one as a source's namespace.

import { createHash } from 'node:crypto';

/** Suffix of a staging namespace. */
const STAGING_SUFFIX = '__next';
/** Prefix of the namespace a swap moves the replaced data to, just before dropping it. */
export const REPLACED_PREFIX = 'sds_old_';

/** The staging namespace a regeneration of `namespace` builds and swaps in. */
export function stagingNamespace(namespace: string): string {
  return `${namespace.slice(0, 50)}${STAGING_SUFFIX}`;
}

/**
 * The namespace a swap of `live` moves the old data to, the same for every swap of `live`: a swap
 * killed before it dropped it leaves it behind under a name the next swap of `live` knows, and
 * drops first.
 */
export function replacedNamespace(live: string): string {
  return `${REPLACED_PREFIX}${createHash('sha256').update(live).digest('hex').slice(0, 16)}`;
}

/** Whether `namespace` has the form of a namespace sds works in beside a live one (staging or replaced). */
export function isWorkingNamespace(namespace: string): boolean {
  const lower = namespace.toLowerCase();
  return lower.endsWith(STAGING_SUFFIX) || lower.startsWith(REPLACED_PREFIX);
}
