// Slugs derive from names and are unique per parent: "Blog API", "Blog API" → blog-api, blog-api-2.

export function slugify(name: string, fallback: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  return slug || fallback;
}

/**
 * Inserts with the first free slug: `insert` is tried with `base`, `base-2`, `base-3`…
 * until it does not hit the unique constraint on the slug.
 */
export async function withUniqueSlug<T>(base: string, insert: (slug: string) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const slug = attempt === 1 ? base : `${base}-${attempt}`;
    try {
      return await insert(slug);
    } catch (error) {
      if (!isSlugConflict(error) || attempt >= 1000) throw error;
    }
  }
}

function isSlugConflict(error: unknown): boolean {
  const { code, constraint } = error as { code?: string; constraint?: string };
  return code === '23505' && typeof constraint === 'string' && constraint.includes('slug');
}
