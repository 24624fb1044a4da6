import { describe, expect, it } from 'vitest';
import { fromKey, hashesMatch, issueKey, SOURCE_KEY_PREFIX, TEAM_KEY_PREFIX } from '../../../src/security/api-keys.ts';

describe('API keys', () => {
  it('issues prefixed, unique, high-entropy keys', () => {
    const keys = Array.from({ length: 200 }, () => issueKey(TEAM_KEY_PREFIX));
    for (const issued of keys) {
      expect(issued.key).toMatch(/^svc_api_[A-Za-z0-9_-]{43}$/);
      expect(issued.hash).toHaveLength(32);
    }
    expect(new Set(keys.map((issued) => issued.key)).size).toBe(200);
    expect(new Set(keys.map((issued) => issued.lookup)).size).toBe(200);
    expect(issueKey(SOURCE_KEY_PREFIX).key.startsWith('svc_src_')).toBe(true);
  });

  it('parses a presented key back to the same lookup and hash', () => {
    const issued = issueKey(TEAM_KEY_PREFIX);
    const presented = fromKey(issued.key, TEAM_KEY_PREFIX)!;
    expect(presented.lookup).toBe(issued.lookup);
    expect(hashesMatch(issued.hash, presented.hash)).toBe(true);
  });

  const rejected: [string, string][] = [
    ['another prefix', `${SOURCE_KEY_PREFIX}${'a'.repeat(43)}`],
    ['a short body', `${TEAM_KEY_PREFIX}abc`],
    ['characters outside base64url', `${TEAM_KEY_PREFIX}${'a'.repeat(30)} OR 1=1`],
    ['an absurdly long body', `${TEAM_KEY_PREFIX}${'a'.repeat(300)}`],
  ];
  for (const [name, key] of rejected) {
    it(`rejects ${name}`, () => expect(fromKey(key, TEAM_KEY_PREFIX)).toBeUndefined());
  }

  it('does not match a different key with the same lookup', () => {
    const issued = issueKey(TEAM_KEY_PREFIX);
    const forged = fromKey(`${issued.key.slice(0, -4)}AAAA`, TEAM_KEY_PREFIX)!;
    expect(forged.lookup).toBe(issued.lookup);
    expect(hashesMatch(issued.hash, forged.hash)).toBe(false);
  });
});
