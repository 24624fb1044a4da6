// sds owns its namespaces: before a generation creates, replaces or swaps into a namespace, and
// before deleting a source drops one, the namespace must be reserved for that source
// (owned_namespaces) and, should it exist on the target, have been created there by sds. A schema or
// database someone else made (`app_billing`, `important_db`, a stray `x__next`) is never touched.
import type { TargetConnection } from '../dialects/dialect.ts';
import { dialectOfKind } from '../dialects/index.ts';
import { stagingNamespace } from '../model/namespace-names.ts';
import type { OwnedNamespaceStore } from '../store/owned-namespaces.ts';
import type { Source } from '../store/sources.ts';

/** sds refuses to create or replace a namespace: the reason is the job's error, for the source's team. */
export class NamespaceRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NamespaceRefusedError';
  }
}

export class NamespaceOwnership {
  constructor(private readonly owned: OwnedNamespaceStore) {}

  /**
   * Makes `namespace` the source's to create or replace on `connection`: it must be reserved for the
   * source and, if it exists on the target, created there by sds; it is then recorded as created
   * (before it is, so a crash in between never leaves an sds namespace unrecorded). Throws
   * NamespaceRefusedError otherwise. The message names only the source's own namespace.
   */
  async claim(source: Source, connection: TargetConnection, namespace: string): Promise<void> {
    const word = dialectOfKind(source.kind).facts.namespaceField;
    const record = (await this.owned.ofSource(source.id)).find((owned) => owned.namespace === namespace);
    if (!record) {
      throw new NamespaceRefusedError(`The ${word} "${namespace}" is not reserved for this source, so sds will not create or replace it`);
    }
    if (record.created) return;
    if (await connection.namespaceExists(namespace)) {
      const remedy = source.runtimeTarget
        ? `drop or rename it on your server, or create the source with another config.${word}`
        : 'it was left as it is; an operator may drop or rename it';
      throw new NamespaceRefusedError(
        `The ${word} "${namespace}" already exists on the target database and sds did not create it: sds never replaces or drops a ${word} it did not create (${remedy})`,
      );
    }
    if (!(await this.owned.markCreated(source.id, namespace))) {
      throw new NamespaceRefusedError(`The ${word} "${namespace}" is no longer reserved for this source (was it deleted?)`);
    }
  }

  /** Drops the source's staging namespace if sds created it (a half-built run's leftovers). */
  async dropStaging(source: Source, connection: TargetConnection, live: string): Promise<void> {
    const staging = stagingNamespace(live);
    const owned = await this.owned.ofSource(source.id);
    if (owned.some((record) => record.namespace === staging && record.created)) await connection.dropNamespace(staging);
  }

  /** Drops every namespace of the source that sds created (staging first); others stay as they are. */
  async dropOwned(source: Source, connection: TargetConnection): Promise<void> {
    for (const record of await this.owned.ofSource(source.id)) {
      if (record.created) await connection.dropNamespace(record.namespace);
    }
  }
}
