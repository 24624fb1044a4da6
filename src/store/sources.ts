// Sources: a schema version bound to a target database namespace, plus encrypted connection strings.
import { randomUUID } from 'node:crypto';
import type { components, SourceKind } from '../contract.ts';
import type { SecretBox } from '../security/secrets.ts';
import type { Db, Queryable } from './db.ts';
import { OwnedNamespaceStore } from './owned-namespaces.ts';
import type { Page } from './projects.ts';
import { slugify, withUniqueSlug } from './slugs.ts';

export type { SourceKind };

/** Per-source generation settings (row counts per entity, batch size), as the contract has them. */
export type GeneratorConfig = components['schemas']['GeneratorConfig'];

/** What the last successful generation recorded. */
export type GenerationAudit = components['schemas']['GenerationAudit'];

/** A source as the API shows it (never the connection string): the contract's Source. */
export type Source = components['schemas']['Source'];

/**
 * What each engine calls a namespace, which is also the key of a source's `config` that names it
 * (DialectFacts.namespaceField: `schema` on PostgreSQL, `database` on MySQL). The store is given it
 * (service.ts, from the dialects' facts) rather than loading the dialects.
 */
export type NamespaceFields = Readonly<Record<SourceKind, keyof Source['config']>>;

/** Where a source's data lives, for the code that connects to it. */
export interface SourceLocation {
  kind: SourceKind;
  namespace: string;
  /** Id of the encrypted connection string; undefined means the service's default target of the kind. */
  connectionSecretId: string | undefined;
}

interface SourceRow {
  id: string;
  project_id: string;
  slug: string;
  name: string;
  description: string;
  kind: SourceKind;
  schema_version_id: string;
  seed: string;
  target: string;
  namespace: string;
  connection_secret_id: string | null;
  generator_config: GeneratorConfig;
  rate_limit_rpm: number;
  require_auth: boolean;
  last_generation_at: Date | null;
  generation_audit: GenerationAudit | null;
  created_at: Date;
  updated_at: Date;
}

const toSource = (row: SourceRow, namespaceFields: NamespaceFields): Source => ({
  id: row.id,
  slug: row.slug,
  name: row.name,
  description: row.description,
  projectId: row.project_id,
  schemaVersionId: row.schema_version_id,
  config: { [namespaceFields[row.kind]]: row.namespace },
  kind: row.kind,
  seed: row.seed,
  generatorConfig: row.generator_config,
  rateLimitRpm: row.rate_limit_rpm,
  requireAuth: row.require_auth,
  lastGenerationAt: row.last_generation_at?.toISOString() ?? null,
  generationAudit: row.generation_audit,
  createdAt: row.created_at.toISOString(),
  updatedAt: row.updated_at.toISOString(),
  ...(row.connection_secret_id ? { runtimeTarget: { connectionSecretId: row.connection_secret_id } } : {}),
});

/** Where a source's data lives. Its config names the namespace under the one key its engine uses (toSource writes no other). */
export const toLocation = (source: Pick<Source, 'kind' | 'config' | 'runtimeTarget'>): SourceLocation => ({
  kind: source.kind,
  namespace: (source.config.schema ?? source.config.database)!,
  connectionSecretId: source.runtimeTarget?.connectionSecretId,
});

export interface NewSource {
  projectId: string;
  name: string;
  description?: string;
  kind: SourceKind;
  schemaVersionId: string;
  seed: string;
  /** Explicit namespace (a bring-your-own target only); default namespaceFor(slug, id). */
  namespace?: string;
  connectionString?: string;
  generatorConfig?: GeneratorConfig;
  rateLimitRpm?: number;
  requireAuth?: boolean;
}

export interface SourceChanges {
  name?: string;
  description?: string;
  seed?: string;
  rateLimitRpm?: number;
  requireAuth?: boolean;
  schemaVersionId?: string;
  generatorConfig?: GeneratorConfig;
}

/**
 * Default namespace of a source: `sds_<slug>_<first 8 hex digits of its id>`, an identifier short enough
 * for staging suffixes. It comes from the source's own identity alone, so no answer depends on (or
 * reveals) which namespaces other sources or applications hold on the target.
 */
export function namespaceFor(slug: string, id: string): string {
  const name = slug.replace(/-/g, '_').slice(0, 35).replace(/_+$/, '');
  return `sds_${name}_${id.replace(/-/g, '').slice(0, 8)}`;
}

/** New ids tried when a default namespace is taken (a 32-bit clash: practically never). */
const NAMESPACE_ATTEMPTS = 5;

export class SourceStore {
  constructor(
    private readonly db: Db,
    private readonly secrets: SecretBox,
    private readonly namespaceFields: NamespaceFields,
  ) {}

  async list(projectId: string, page: { limit: number; offset: number }): Promise<Page<Source>> {
    const [rows, count] = await Promise.all([
      this.db.query<SourceRow>('SELECT * FROM sources WHERE project_id = $1 ORDER BY created_at, id LIMIT $2 OFFSET $3', [
        projectId,
        page.limit,
        page.offset,
      ]),
      this.db.query<{ total: string }>('SELECT count(*) AS total FROM sources WHERE project_id = $1', [projectId]),
    ]);
    return { items: rows.rows.map((row) => toSource(row, this.namespaceFields)), total: Number(count.rows[0]!.total) };
  }

  async listAll(projectId: string): Promise<Source[]> {
    const { rows } = await this.db.query<SourceRow>('SELECT * FROM sources WHERE project_id = $1', [projectId]);
    return rows.map((row) => toSource(row, this.namespaceFields));
  }

  async find(id: string, projectId?: string): Promise<Source | undefined> {
    const { rows } = await this.db.query<SourceRow>('SELECT * FROM sources WHERE id = $1 AND ($2::uuid IS NULL OR project_id = $2)', [
      id,
      projectId ?? null,
    ]);
    return rows[0] && toSource(rows[0], this.namespaceFields);
  }

  /**
   * Whether sds created the source's live namespace on its target (owned_namespaces): only then are
   * the tables there the source's generated data. False before its first generation succeeded, and for
   * a namespace that was there before sds (which the source then never serves).
   */
  async servesOwnNamespace(id: string): Promise<boolean> {
    const { rows } = await this.db.query(
      'SELECT 1 FROM owned_namespaces o JOIN sources s ON s.id = o.source_id AND s.namespace = o.namespace WHERE o.source_id = $1 AND o.created_at IS NOT NULL',
      [id],
    );
    return rows.length > 0;
  }

  /**
   * Creates the source (and its sealed connection string) with unique slug and namespace, and
   * reserves its namespace and staging namespace on its target (owned_namespaces).
   */
  async create(input: NewSource, client: Queryable = this.db): Promise<Source> {
    // The source and its reservations go in together, or not at all.
    if (client === this.db) return this.db.transaction((tx) => this.create(input, tx));
    const secretId = input.connectionString ? await this.storeSecret(input.connectionString, client) : undefined;
    const target = secretId ?? 'default';
    return withUniqueSlug(slugify(input.name, 'source'), async (slug) => {
      for (let attempt = 1; ; attempt++) {
        const id = randomUUID();
        const namespace = input.namespace ?? namespaceFor(slug, id);
        // A failed attempt would abort the transaction: a savepoint keeps it usable for the next one.
        await client.query('SAVEPOINT source_insert');
        try {
          const { rows } = await client.query<SourceRow>(
            `INSERT INTO sources (id, project_id, slug, name, description, kind, schema_version_id, seed, target, namespace,
               connection_secret_id, generator_config, rate_limit_rpm, require_auth)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14) RETURNING *`,
            [
              id,
              input.projectId,
              slug,
              input.name,
              input.description ?? '',
              input.kind,
              input.schemaVersionId,
              input.seed,
              target,
              namespace,
              secretId ?? null,
              JSON.stringify(input.generatorConfig ?? {}),
              input.rateLimitRpm ?? 600,
              input.requireAuth ?? true,
            ],
          );
          const row = rows[0]!;
          await new OwnedNamespaceStore(this.db).reserve({ sourceId: row.id, kind: row.kind, target: row.target }, namespace, client);
          return toSource(row, this.namespaceFields);
        } catch (error) {
          await client.query('ROLLBACK TO SAVEPOINT source_insert');
          // A default namespace already reserved on the target: another id gives another name. (An
          // explicit one is on the source's own target, its own secret, where nothing else is reserved.)
          const { code, constraint } = error as { code?: string; constraint?: string };
          if (code === '23505' && constraint?.includes('namespace') && !input.namespace && attempt < NAMESPACE_ATTEMPTS) continue;
          // A slug conflict goes to withUniqueSlug, which tries the next slug.
          throw error;
        }
      }
    });
  }

  async update(id: string, changes: SourceChanges): Promise<Source | undefined> {
    const { rows } = await this.db.query<SourceRow>(
      `UPDATE sources SET
         name = coalesce($2, name),
         description = coalesce($3, description),
         seed = coalesce($4, seed),
         rate_limit_rpm = coalesce($5, rate_limit_rpm),
         require_auth = coalesce($6, require_auth),
         schema_version_id = coalesce($7, schema_version_id),
         generator_config = coalesce($8, generator_config),
         updated_at = now()
       WHERE id = $1 RETURNING *`,
      [
        id,
        changes.name ?? null,
        changes.description ?? null,
        changes.seed ?? null,
        changes.rateLimitRpm ?? null,
        changes.requireAuth ?? null,
        changes.schemaVersionId ?? null,
        changes.generatorConfig ? JSON.stringify(changes.generatorConfig) : null,
      ],
    );
    return rows[0] && toSource(rows[0], this.namespaceFields);
  }

  /** Records a successful generation; its seed becomes the source's (the seed of the data it serves). */
  async recordGeneration(id: string, audit: GenerationAudit, finishedAt: Date, client: Queryable = this.db): Promise<void> {
    await client.query('UPDATE sources SET last_generation_at = $2, generation_audit = $3, seed = $4 WHERE id = $1', [
      id,
      finishedAt,
      JSON.stringify(audit),
      audit.seed,
    ]);
  }

  async delete(id: string): Promise<boolean> {
    const { rows } = await this.db.query<{ connection_secret_id: string | null }>(
      'DELETE FROM sources WHERE id = $1 RETURNING connection_secret_id',
      [id],
    );
    const secretId = rows[0]?.connection_secret_id;
    if (secretId) await this.db.query('DELETE FROM secrets WHERE id = $1', [secretId]);
    return rows.length === 1;
  }

  /** The plaintext connection string behind a secret id (only to open a connection). */
  async connectionString(secretId: string): Promise<string> {
    const { rows } = await this.db.query<{ iv: Buffer; tag: Buffer; ciphertext: Buffer }>('SELECT iv, tag, ciphertext FROM secrets WHERE id = $1', [
      secretId,
    ]);
    if (!rows[0]) throw new Error(`secret ${secretId} is missing`);
    return this.secrets.open(rows[0], secretId);
  }

  private async storeSecret(plaintext: string, client: Queryable): Promise<string> {
    const id = randomUUID();
    const sealed = this.secrets.seal(plaintext, id);
    await client.query('INSERT INTO secrets (id, iv, tag, ciphertext) VALUES ($1, $2, $3, $4)', [id, sealed.iv, sealed.tag, sealed.ciphertext]);
    return id;
  }
}
