// Teams and team API keys (`svc_api_…`), stored hashed.
import { randomUUID } from 'node:crypto';
import type { Queryable } from './db.ts';
import { slugify, withUniqueSlug } from './slugs.ts';
import { TEAM_KEY_PREFIX, fromKey, hashesMatch, issueKey } from '../security/api-keys.ts';

export interface Team {
  id: string;
  slug: string;
  name: string;
  createdAt: string;
  updatedAt: string;
}

export interface TeamApiKey {
  id: string;
  teamId: string;
  name: string;
  keyPrefix: typeof TEAM_KEY_PREFIX;
  projectsScope: string[] | null;
  lastUsedAt: string | null;
  revokedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

/** The caller a valid team key stands for. */
export interface TeamPrincipal {
  keyId: string;
  teamId: string;
  projectsScope: string[] | null;
}

interface TeamRow {
  id: string;
  slug: string;
  name: string;
  created_at: Date;
  updated_at: Date;
}

interface KeyRow {
  id: string;
  team_id: string;
  name: string;
  key_hash: Buffer;
  projects_scope: string[] | null;
  last_used_at: Date | null;
  revoked_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

const toTeam = (row: TeamRow): Team => ({
  id: row.id,
  slug: row.slug,
  name: row.name,
  createdAt: row.created_at.toISOString(),
  updatedAt: row.updated_at.toISOString(),
});

const toKey = (row: KeyRow): TeamApiKey => ({
  id: row.id,
  teamId: row.team_id,
  name: row.name,
  keyPrefix: TEAM_KEY_PREFIX,
  projectsScope: row.projects_scope,
  lastUsedAt: row.last_used_at?.toISOString() ?? null,
  revokedAt: row.revoked_at?.toISOString() ?? null,
  createdAt: row.created_at.toISOString(),
  updatedAt: row.updated_at.toISOString(),
});

export class TeamStore {
  constructor(private readonly db: Queryable) {}

  async createTeam(name: string, slug?: string): Promise<Team> {
    return withUniqueSlug(slug ?? slugify(name, 'team'), async (candidate) => {
      const { rows } = await this.db.query<TeamRow>(
        'INSERT INTO teams (id, slug, name) VALUES ($1, $2, $3) RETURNING *',
        [randomUUID(), candidate, name],
      );
      return toTeam(rows[0]!);
    });
  }

  /** The team with this slug, created when missing (idempotent; safe under concurrent starts). */
  async ensureTeam(slug: string, name: string): Promise<{ team: Team; created: boolean }> {
    const inserted = await this.db.query<TeamRow>(
      'INSERT INTO teams (id, slug, name) VALUES ($1, $2, $3) ON CONFLICT (slug) DO NOTHING RETURNING *',
      [randomUUID(), slug, name],
    );
    if (inserted.rows[0]) return { team: toTeam(inserted.rows[0]), created: true };
    return { team: (await this.findTeamBySlug(slug))!, created: false };
  }

  async findTeamBySlug(slug: string): Promise<Team | undefined> {
    const { rows } = await this.db.query<TeamRow>('SELECT * FROM teams WHERE slug = $1', [slug]);
    return rows[0] && toTeam(rows[0]);
  }

  async listTeams(): Promise<Team[]> {
    const { rows } = await this.db.query<TeamRow>('SELECT * FROM teams ORDER BY created_at, id');
    return rows.map(toTeam);
  }

  /** Issues a new key; the secret is in the result and nowhere else. */
  async createKey(teamId: string, options: { name?: string; projectsScope?: string[] | null; key?: string } = {}) {
    const issued = options.key ? fromKey(options.key, TEAM_KEY_PREFIX) : issueKey(TEAM_KEY_PREFIX);
    if (!issued) throw new Error(`a team API key must look like ${TEAM_KEY_PREFIX}<at least 24 letters, digits, _ or ->`);
    const { rows } = await this.db.query<KeyRow>(
      `INSERT INTO team_api_keys (id, team_id, name, lookup, key_hash, projects_scope)
       VALUES ($1, $2, $3, $4, $5, $6) RETURNING *`,
      [randomUUID(), teamId, options.name ?? '', issued.lookup, issued.hash, options.projectsScope ?? null],
    );
    return { ...toKey(rows[0]!), key: issued.key };
  }

  /** Whether a key with exactly this secret exists (used to make the bootstrap key idempotent). */
  async keyExists(key: string): Promise<boolean> {
    return (await this.findKeyRow(key)) !== undefined;
  }

  /** The principal of a presented key, or undefined when it is unknown, malformed or revoked. */
  async authenticate(key: string): Promise<TeamPrincipal | undefined> {
    const row = await this.findKeyRow(key);
    if (!row || row.revoked_at) return undefined;
    return { keyId: row.id, teamId: row.team_id, projectsScope: row.projects_scope };
  }

  /** Whether the key exists and is not revoked. */
  async keyActive(id: string): Promise<boolean> {
    const { rows } = await this.db.query<{ revoked_at: Date | null }>('SELECT revoked_at FROM team_api_keys WHERE id = $1', [id]);
    return rows.length === 1 && rows[0]!.revoked_at === null;
  }

  async touchKeys(ids: string[], at: Date): Promise<void> {
    if (ids.length === 0) return;
    await this.db.query('UPDATE team_api_keys SET last_used_at = $2 WHERE id = ANY($1::uuid[])', [ids, at]);
  }

  async listKeys(options: { teamId?: string; limit: number; offset: number }): Promise<{ items: TeamApiKey[]; total: number }> {
    const filter = options.teamId ? 'WHERE team_id = $1' : 'WHERE $1::uuid IS NULL';
    const params = [options.teamId ?? null];
    const [page, count] = await Promise.all([
      this.db.query<KeyRow>(`SELECT * FROM team_api_keys ${filter} ORDER BY created_at, id LIMIT $2 OFFSET $3`, [
        ...params,
        options.limit,
        options.offset,
      ]),
      this.db.query<{ total: string }>(`SELECT count(*) AS total FROM team_api_keys ${filter}`, params),
    ]);
    return { items: page.rows.map(toKey), total: Number(count.rows[0]!.total) };
  }

  /** Revokes a key; false when there is no such key. Revoking twice is harmless. */
  async revokeKey(id: string, teamId?: string): Promise<boolean> {
    const { rowCount } = await this.db.query(
      `UPDATE team_api_keys SET revoked_at = coalesce(revoked_at, now()), updated_at = now()
       WHERE id = $1 AND ($2::uuid IS NULL OR team_id = $2)`,
      [id, teamId ?? null],
    );
    return rowCount === 1;
  }

  private async findKeyRow(key: string): Promise<KeyRow | undefined> {
    const presented = fromKey(key, TEAM_KEY_PREFIX);
    if (!presented) return undefined;
    const { rows } = await this.db.query<KeyRow>('SELECT * FROM team_api_keys WHERE lookup = $1', [presented.lookup]);
    const row = rows[0];
    return row && hashesMatch(row.key_hash, presented.hash) ? row : undefined;
  }
}
