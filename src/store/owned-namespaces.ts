// The namespaces sds reserved for each source on its target, and which of them it has created there
// (migration 007). A namespace sds did not record as created is never replaced or dropped.
import { stagingNamespace } from '../model/namespace-names.ts';
import type { Db, Queryable } from './db.ts';
import type { SourceKind } from './sources.ts';

/** One reserved namespace of a source. */
export interface OwnedNamespace {
  namespace: string;
  /** The staging namespace of the source's live one (`<live>__next`). */
  staging: boolean;
  /** Whether sds has created it on the target (only then may it replace or drop it). */
  created: boolean;
}

/** Where a source's namespaces are reserved: its kind, and `default` or the id of its secret. */
export interface NamespaceOwner {
  sourceId: string;
  kind: SourceKind;
  target: string;
}

export class OwnedNamespaceStore {
  constructor(private readonly db: Db) {}

  /**
   * Reserves a new source's live namespace and its staging one. A name already reserved on the
   * target rejects with the unique violation of `owned_namespaces_pkey` (the caller's transaction
   * then picks another name).
   */
  async reserve(owner: NamespaceOwner, namespace: string, client: Queryable = this.db): Promise<void> {
    await client.query(
      `INSERT INTO owned_namespaces (kind, target, namespace, source_id, staging)
       VALUES ($1, $2, $3, $4, false), ($1, $2, $5, $4, true)`,
      [owner.kind, owner.target, namespace, owner.sourceId, stagingNamespace(namespace)],
    );
  }

  /** The namespaces reserved for a source. */
  async ofSource(sourceId: string): Promise<OwnedNamespace[]> {
    const { rows } = await this.db.query<{ namespace: string; staging: boolean; created: boolean }>(
      'SELECT namespace, staging, created_at IS NOT NULL AS created FROM owned_namespaces WHERE source_id = $1 ORDER BY staging DESC, namespace',
      [sourceId],
    );
    return rows;
  }

  /** Records that sds created the source's `namespace` on its target (kept from the first time). */
  async markCreated(sourceId: string, namespace: string): Promise<boolean> {
    const { rowCount } = await this.db.query(
      'UPDATE owned_namespaces SET created_at = coalesce(created_at, now()) WHERE source_id = $1 AND namespace = $2',
      [sourceId, namespace],
    );
    return rowCount === 1;
  }
}
