// Projects of a team. Scope checks live in the management layer; this layer only filters by them.
import { randomUUID } from 'node:crypto';
import type { components } from '../contract.ts';
import type { Queryable } from './db.ts';
import { slugify, withUniqueSlug } from './slugs.ts';

/** A project as the contract defines it. */
export type Project = components['schemas']['Project'];

export interface ProjectChanges {
  name?: string;
  description?: string;
  icon?: string;
}

export interface Page<T> {
  items: T[];
  total: number;
}

interface ProjectRow {
  id: string;
  team_id: string;
  slug: string;
  name: string;
  description: string;
  icon: string;
  created_at: Date;
  updated_at: Date;
}

const toProject = (row: ProjectRow): Project => ({
  id: row.id,
  slug: row.slug,
  name: row.name,
  description: row.description,
  icon: row.icon,
  teamId: row.team_id,
  createdAt: row.created_at.toISOString(),
  updatedAt: row.updated_at.toISOString(),
});

export class ProjectStore {
  constructor(private readonly db: Queryable) {}

  /** Projects of `teamId`, restricted to `scope` when it is not null, oldest first. */
  async list(teamId: string, scope: string[] | null, page: { limit: number; offset: number }): Promise<Page<Project>> {
    const where = 'WHERE team_id = $1 AND ($2::uuid[] IS NULL OR id = ANY($2::uuid[]))';
    const [rows, count] = await Promise.all([
      this.db.query<ProjectRow>(`SELECT * FROM projects ${where} ORDER BY created_at, id LIMIT $3 OFFSET $4`, [
        teamId,
        scope,
        page.limit,
        page.offset,
      ]),
      this.db.query<{ total: string }>(`SELECT count(*) AS total FROM projects ${where}`, [teamId, scope]),
    ]);
    return { items: rows.rows.map(toProject), total: Number(count.rows[0]!.total) };
  }

  /** The project with this id in any team; callers decide what another team's project means. */
  async find(id: string): Promise<Project | undefined> {
    const { rows } = await this.db.query<ProjectRow>('SELECT * FROM projects WHERE id = $1', [id]);
    return rows[0] && toProject(rows[0]);
  }

  async create(teamId: string, input: { name: string; description?: string; icon?: string }): Promise<Project> {
    return withUniqueSlug(slugify(input.name, 'project'), async (slug) => {
      const { rows } = await this.db.query<ProjectRow>(
        `INSERT INTO projects (id, team_id, slug, name, description, icon)
         VALUES ($1, $2, $3, $4, $5, $6) RETURNING *`,
        [randomUUID(), teamId, slug, input.name, input.description ?? '', input.icon ?? ''],
      );
      return toProject(rows[0]!);
    });
  }

  async update(id: string, changes: ProjectChanges): Promise<Project | undefined> {
    const { rows } = await this.db.query<ProjectRow>(
      `UPDATE projects SET
         name = coalesce($2, name),
         description = coalesce($3, description),
         icon = coalesce($4, icon),
         updated_at = now()
       WHERE id = $1 RETURNING *`,
      [id, changes.name ?? null, changes.description ?? null, changes.icon ?? null],
    );
    return rows[0] && toProject(rows[0]);
  }

  /** Deletes the project; dependent rows (schemas, sources, keys) go with it by foreign-key cascade. */
  async delete(id: string): Promise<boolean> {
    const { rowCount } = await this.db.query('DELETE FROM projects WHERE id = $1', [id]);
    return rowCount === 1;
  }
}
