import { describe, expect, it } from 'vitest';
import { slugify, withUniqueSlug } from '../../../src/store/slugs.ts';

describe('slugify', () => {
  const cases: [string, { given: string; want: string }][] = [
    ['lower-cases and joins words', { given: 'Blog API', want: 'blog-api' }],
    ['drops accents', { given: 'Café Ünïcode', want: 'cafe-unicode' }],
    ['collapses punctuation', { given: '  --Hello,   World!!  ', want: 'hello-world' }],
    ['falls back when nothing is left', { given: '🚀🚀', want: 'project' }],
    ['caps the length without a trailing dash', { given: `${'a'.repeat(59)} b`, want: 'a'.repeat(59) }],
  ];
  for (const [name, { given, want }] of cases) {
    it(name, () => expect(slugify(given, 'project')).toBe(want));
  }
});

describe('withUniqueSlug', () => {
  it('tries base, base-2, base-3 until the insert does not conflict', async () => {
    const taken = new Set(['shop', 'shop-2']);
    const tried: string[] = [];
    const slug = await withUniqueSlug('shop', async (candidate) => {
      tried.push(candidate);
      if (taken.has(candidate)) throw Object.assign(new Error('duplicate'), { code: '23505', constraint: 'projects_team_id_slug_key' });
      return candidate;
    });
    expect(slug).toBe('shop-3');
    expect(tried).toEqual(['shop', 'shop-2', 'shop-3']);
  });

  it('rethrows other errors at once', async () => {
    let calls = 0;
    const failing = withUniqueSlug('x', async () => {
      calls++;
      throw Object.assign(new Error('boom'), { code: '23503', constraint: 'fk' });
    });
    await expect(failing).rejects.toThrow('boom');
    expect(calls).toBe(1);
  });
});
