// API key secrets: generation, hashing at rest and constant-time verification.
// A key is `<prefix><lookup><secret>`; only `lookup` (to find the row) and a SHA-256 of the whole key are stored.
import { hash, randomBytes, timingSafeEqual } from 'node:crypto';

export const TEAM_KEY_PREFIX = 'svc_api_';
export const SOURCE_KEY_PREFIX = 'svc_src_';
const LOOKUP_LENGTH = 12;
const MIN_KEY_BODY = 24;

export interface IssuedKey {
  key: string;
  lookup: string;
  hash: Buffer;
}

export function issueKey(prefix: string): IssuedKey {
  const body = randomBytes(32).toString('base64url');
  return fromKey(prefix + body, prefix) as IssuedKey;
}

/** Splits a presented key; undefined when it cannot be a key of this prefix. */
export function fromKey(key: string, prefix: string): IssuedKey | undefined {
  if (!key.startsWith(prefix)) return undefined;
  const body = key.slice(prefix.length);
  if (body.length < MIN_KEY_BODY || body.length > 256 || !/^[A-Za-z0-9_-]+$/.test(body)) return undefined;
  return { key, lookup: body.slice(0, LOOKUP_LENGTH), hash: hashKey(key) };
}

export function hashKey(key: string): Buffer {
  // crypto.hash: one call, without a Hash object per key (every authenticated request hashes its key).
  return hash('sha256', key, 'buffer');
}

/** Constant-time comparison of two key hashes. */
export function hashesMatch(stored: Buffer, presented: Buffer): boolean {
  return stored.length === presented.length && timingSafeEqual(stored, presented);
}
