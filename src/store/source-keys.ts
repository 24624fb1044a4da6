// Source API keys (`svc_src_…`): runtime credentials of one source, stored hashed.
import { randomUUID } from 'node:crypto';
import { issueKey, SOURCE_KEY_PREFIX } from '../security/api-keys.ts';
import type { Queryable } from './db.ts';
import type { Page } from './projects.ts';
import { slugify, withUniqueSlug } from './slugs.ts';

export interface SourceApiKey {
  id: string;
  slug: string;
  sourceId: string;
  keyPrefix: typeof SOURCE_KEY_PREFIX;
  lastUsedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

interface KeyRow {
  id: string;
  source_id: string;
  slug: string;
  key_hash: Buffer;
  last_used_at: Date | null;
  revoked_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

const toKey = (row: KeyRow): SourceApiKey => ({
  id: row.id,
  slug: row.slug,
  sourceId: row.source_id,
  keyPrefix: SOURCE_KEY_PREFIX,
  lastUsedAt: row.last_used_at?.toISOString() ?? null,
  createdAt: row.created_at.toISOString(),
  updatedAt: row.updated_at.toISOString(),
});

/** What checking a presented source key needs (never the secret: its hash). */
export interface SourceKeyCredential {
  keyId: string;
  sourceId: string;
  hash: Buffer;
  revoked: boolean;
}

export class SourceKeyStore {
  constructor(private readonly db: Queryable) {}

  /** Issues a key; the secret is in the result and nowhere else. */
  async create(sourceId: string, name?: string): Promise<SourceApiKey & { key: string }> {
    const issued = issueKey(SOURCE_KEY_PREFIX);
    return withUniqueSlug(slugify(name ?? 'key', 'key'), async (slug) => {
      const { rows } = await this.db.query<KeyRow>(
        'INSERT INTO source_api_keys (id, source_id, slug, name, lookup, key_hash) VALUES ($1, $2, $3, $4, $5, $6) RETURNING *',
        [randomUUID(), sourceId, slug, name ?? '', issued.lookup, issued.hash],
      );
      return { ...toKey(rows[0]!), key: issued.key };
    });
  }

  /** Active keys of a source, oldest first. */
  async list(sourceId: string, page: { limit: number; offset: number }): Promise<Page<SourceApiKey>> {
    const where = 'WHERE source_id = $1 AND revoked_at IS NULL';
    const [rows, count] = await Promise.all([
      this.db.query<KeyRow>(`SELECT * FROM source_api_keys ${where} ORDER BY created_at, id LIMIT $2 OFFSET $3`, [sourceId, page.limit, page.offset]),
      this.db.query<{ total: string }>(`SELECT count(*) AS total FROM source_api_keys ${where}`, [sourceId]),
    ]);
    return { items: rows.rows.map(toKey), total: Number(count.rows[0]!.total) };
  }

  /** Revokes an active key of the source; false when there is none with that id. */
  async revoke(sourceId: string, keyId: string): Promise<boolean> {
    const { rowCount } = await this.db.query(
      'UPDATE source_api_keys SET revoked_at = now(), updated_at = now() WHERE id = $1 AND source_id = $2 AND revoked_at IS NULL',
      [keyId, sourceId],
    );
    return rowCount === 1;
  }

  async revokeAll(sourceId: string): Promise<void> {
    await this.db.query('UPDATE source_api_keys SET revoked_at = now(), updated_at = now() WHERE source_id = $1 AND revoked_at IS NULL', [sourceId]);
  }

  /** What checking a presented key needs, by the key's public lookup part (revoked keys included). */
  async credential(lookup: string): Promise<SourceKeyCredential | undefined> {
    const { rows } = await this.db.query<KeyRow>('SELECT id, source_id, key_hash, revoked_at FROM source_api_keys WHERE lookup = $1', [lookup]);
    const row = rows[0];
    return row && { keyId: row.id, sourceId: row.source_id, hash: row.key_hash, revoked: row.revoked_at !== null };
  }

  async touch(ids: string[], at: Date): Promise<void> {
    if (ids.length === 0) return;
    await this.db.query('UPDATE source_api_keys SET last_used_at = $2 WHERE id = ANY($1::uuid[])', [ids, at]);
  }
}
