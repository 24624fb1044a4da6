// Schemas and their versions. Versions are immutable: there is no update of a version's config.
import { randomUUID } from 'node:crypto';
import type { components, SchemaConfig } from '../contract.ts';
import type { Db } from './db.ts';
import type { Page } from './projects.ts';
import { slugify, withUniqueSlug } from './slugs.ts';

/** A schema as the contract defines it. */
export type Schema = components['schemas']['Schema'];

/** A version as the contract defines it, its config typed by the schema-config JSON Schema. */
export type SchemaVersion = Omit<components['schemas']['SchemaVersion'], 'schema'> & { schema: SchemaConfig };

interface SchemaRow {
  id: string;
  project_id: string;
  slug: string;
  name: string;
  description: string | null;
  created_at: Date;
  updated_at: Date | null;
  latest_version: number | null;
}

interface VersionRow {
  id: string;
  schema_id: string;
  version: number;
  config: SchemaConfig;
  created_at: Date;
  updated_at: Date;
}

const toSchema = (row: SchemaRow): Schema => ({
  id: row.id,
  slug: row.slug,
  name: row.name,
  description: row.description,
  projectId: row.project_id,
  createdAt: row.created_at.toISOString(),
  updatedAt: row.updated_at?.toISOString() ?? null,
  latestVersion: row.latest_version,
});

const toVersion = (row: VersionRow): SchemaVersion => ({
  id: row.id,
  schemaId: row.schema_id,
  version: row.version,
  schema: row.config,
  createdAt: row.created_at.toISOString(),
  updatedAt: row.updated_at.toISOString(),
});

const SELECT_SCHEMA = `SELECT s.*, (SELECT max(version) FROM schema_versions v WHERE v.schema_id = s.id) AS latest_version FROM schemas s`;

export class SchemaStore {
  constructor(private readonly db: Db) {}

  async list(projectId: string, page: { limit: number; offset: number }): Promise<Page<Schema>> {
    const [rows, count] = await Promise.all([
      this.db.query<SchemaRow>(`${SELECT_SCHEMA} WHERE s.project_id = $1 ORDER BY s.created_at, s.id LIMIT $2 OFFSET $3`, [
        projectId,
        page.limit,
        page.offset,
      ]),
      this.db.query<{ total: string }>('SELECT count(*) AS total FROM schemas WHERE project_id = $1', [projectId]),
    ]);
    return { items: rows.rows.map(toSchema), total: Number(count.rows[0]!.total) };
  }

  async find(projectId: string, schemaId: string): Promise<Schema | undefined> {
    const { rows } = await this.db.query<SchemaRow>(`${SELECT_SCHEMA} WHERE s.id = $1 AND s.project_id = $2`, [schemaId, projectId]);
    return rows[0] && toSchema(rows[0]);
  }

  /** Creates the schema and, when given, its first version, in one transaction. */
  async create(
    projectId: string,
    input: { name: string; description?: string | null; initialConfig?: SchemaConfig },
  ): Promise<Schema> {
    return this.db.transaction(async (client) => {
      const schema = await withUniqueSlug(slugify(input.name, 'schema'), async (slug) => {
        // A savepoint keeps the transaction usable when a slug is taken.
        await client.query('SAVEPOINT slug');
        try {
          const { rows } = await client.query<SchemaRow>(
            `INSERT INTO schemas (id, project_id, slug, name, description) VALUES ($1, $2, $3, $4, $5)
             RETURNING *, NULL::integer AS latest_version`,
            [randomUUID(), projectId, slug, input.name, input.description ?? null],
          );
          return rows[0]!;
        } catch (error) {
          await client.query('ROLLBACK TO SAVEPOINT slug');
          throw error;
        }
      });
      if (input.initialConfig) {
        await client.query('INSERT INTO schema_versions (id, schema_id, version, config) VALUES ($1, $2, 1, $3)', [
          randomUUID(),
          schema.id,
          JSON.stringify(input.initialConfig),
        ]);
        schema.latest_version = 1;
      }
      return toSchema(schema);
    });
  }

  async update(schemaId: string, changes: { name?: string; description?: string | null }): Promise<void> {
    await this.db.query(
      `UPDATE schemas SET
         name = coalesce($2, name),
         description = CASE WHEN $3 THEN $4 ELSE description END,
         updated_at = now()
       WHERE id = $1`,
      [schemaId, changes.name ?? null, changes.description !== undefined, changes.description ?? null],
    );
  }

  /** Deletes the schema and its versions; 'bound' when a source still uses one of its versions. */
  async delete(schemaId: string): Promise<'deleted' | 'missing' | 'bound'> {
    try {
      const { rowCount } = await this.db.query('DELETE FROM schemas WHERE id = $1', [schemaId]);
      return rowCount === 1 ? 'deleted' : 'missing';
    } catch (error) {
      // Sources reference schema versions with ON DELETE RESTRICT: the database says it is in use.
      if ((error as { code?: string }).code === '23503') return 'bound';
      throw error;
    }
  }

  async listVersions(schemaId: string, page: { limit: number; offset: number }): Promise<Page<SchemaVersion>> {
    const [rows, count] = await Promise.all([
      this.db.query<VersionRow>('SELECT * FROM schema_versions WHERE schema_id = $1 ORDER BY version LIMIT $2 OFFSET $3', [
        schemaId,
        page.limit,
        page.offset,
      ]),
      this.db.query<{ total: string }>('SELECT count(*) AS total FROM schema_versions WHERE schema_id = $1', [schemaId]),
    ]);
    return { items: rows.rows.map(toVersion), total: Number(count.rows[0]!.total) };
  }

  async findVersion(schemaId: string, version: number): Promise<SchemaVersion | undefined> {
    const { rows } = await this.db.query<VersionRow>('SELECT * FROM schema_versions WHERE schema_id = $1 AND version = $2', [
      schemaId,
      version,
    ]);
    return rows[0] && toVersion(rows[0]);
  }

  /** A version by its id, with the project it belongs to (sources bind versions by id). */
  async findVersionById(versionId: string): Promise<(SchemaVersion & { projectId: string }) | undefined> {
    const { rows } = await this.db.query<VersionRow & { project_id: string }>(
      'SELECT v.*, s.project_id FROM schema_versions v JOIN schemas s ON s.id = v.schema_id WHERE v.id = $1',
      [versionId],
    );
    return rows[0] && { ...toVersion(rows[0]), projectId: rows[0].project_id };
  }

  /** Appends the next version; the schema row lock serialises concurrent appends. */
  async createVersion(schemaId: string, config: SchemaConfig): Promise<SchemaVersion> {
    return this.db.transaction(async (client) => {
      await client.query('SELECT 1 FROM schemas WHERE id = $1 FOR UPDATE', [schemaId]);
      const { rows } = await client.query<VersionRow>(
        `INSERT INTO schema_versions (id, schema_id, version, config)
         VALUES ($1, $2, (SELECT coalesce(max(version), 0) + 1 FROM schema_versions WHERE schema_id = $2), $3)
         RETURNING *`,
        [randomUUID(), schemaId, JSON.stringify(config)],
      );
      await client.query('UPDATE schemas SET updated_at = now() WHERE id = $1', [schemaId]);
      return toVersion(rows[0]!);
    });
  }
}
