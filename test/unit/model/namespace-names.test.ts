// The names sds keeps for itself beside a source's namespace, and the default namespace of a source.
import { describe, expect, it } from 'vitest';
import { isWorkingNamespace, replacedNamespace, stagingNamespace } from '../../../src/model/namespace-names.ts';
import { namespaceFor } from '../../../src/store/sources.ts';

describe('isWorkingNamespace', () => {
  const cases: [string, { given: string; want: boolean }][] = [
    ['a staging namespace', { given: 'sds_victim__next', want: true }],
    ['a staging namespace in capitals', { given: 'SDS_VICTIM__NEXT', want: true }],
    ['a replaced namespace', { given: 'sds_old_0123456789abcdef', want: true }],
    ['a source namespace', { given: 'sds_victim', want: false }],
    ['one underscore before next', { given: 'sds_victim_next', want: false }],
    ['__next inside the name', { given: 'a__next_b', want: false }],
  ];
  for (const [name, { given, want }] of cases) it(name, () => expect(isWorkingNamespace(given)).toBe(want));

  it('holds for every staging name', () => {
    for (const live of ['sds_blog', 'x'.repeat(48), 'shop']) expect(isWorkingNamespace(stagingNamespace(live))).toBe(true);
  });

  it('holds for every replaced name, one per live namespace (a killed swap leaves it where the next swap looks)', () => {
    for (const live of ['sds_blog', 'x'.repeat(48), 'shop']) expect(isWorkingNamespace(replacedNamespace(live))).toBe(true);
    expect(replacedNamespace('sds_blog')).toBe(replacedNamespace('sds_blog'));
    expect(replacedNamespace('sds_blog')).not.toBe(replacedNamespace('sds_shop'));
  });
});

describe('namespaceFor', () => {
  const id = '9c4e7a1b-3d2f-4b6a-8e5c-7f1a0d2b4c68';
  const cases: [string, { given: string; want: string }][] = [
    ['a slug', { given: 'blog-api', want: 'sds_blog_api_9c4e7a1b' }],
    ['a long slug, cut to fit 48 characters', { given: `${'a'.repeat(34)}-b-c`, want: `sds_${'a'.repeat(34)}_9c4e7a1b` }],
  ];
  for (const [name, { given, want }] of cases) {
    it(name, () => {
      const namespace = namespaceFor(given, id);
      expect(namespace).toBe(want);
      expect(namespace.length).toBeLessThanOrEqual(48);
      expect(isWorkingNamespace(namespace)).toBe(false);
    });
  }
});
