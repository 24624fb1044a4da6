// config-lookups lists faker's locales from its package folder instead of importing them all (see
// config-lookups.ts): the list must be exactly faker's own.
import { allLocales } from '@faker-js/faker';
import { describe, expect, it } from 'vitest';
import { FAKER_LOCALES, normalizeLocale, normalizeTimeZone } from '../../../src/generation/config-lookups.ts';

describe('config look-ups', () => {
  it("lists faker's locales, in allLocales' order, without base", () => {
    expect(FAKER_LOCALES).toEqual(Object.keys(allLocales).filter((name) => name !== 'base'));
  });

  it.each([
    ['en-US', 'en_US'],
    ['de_at', 'de_AT'],
    ['en', 'en'],
    ['base', undefined],
    ['xx', undefined],
  ])('normalizes locale %s to %s', (given, want) => {
    expect(normalizeLocale(given)).toBe(want);
  });

  it('normalizes time zones', () => {
    expect(normalizeTimeZone('europe/berlin')).toBe('Europe/Berlin');
    expect(normalizeTimeZone('Mars/Olympus')).toBeUndefined();
  });
});
