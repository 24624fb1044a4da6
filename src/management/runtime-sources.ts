// What the runtime API needs of a source on every request (its settings and schema config), cached
// briefly so a hot runtime path does not read the control plane each time. Changes made through this
// process invalidate at once; other processes see them within the TTL.
import type { SchemaConfig } from '../contract.ts';
import type { SchemaStore } from '../store/schemas.ts';
import type { Source, SourceStore } from '../store/sources.ts';

export interface RuntimeSource {
  source: Source;
  config: SchemaConfig;
}

const TTL_MS = 2_000;

export class RuntimeSources {
  private readonly entries = new Map<string, { value: Promise<RuntimeSource | undefined>; expires: number }>();
  /** Schema versions are immutable: their configs are cached for good. */
  private readonly configs = new Map<string, SchemaConfig>();

  constructor(
    private readonly sources: SourceStore,
    private readonly schemas: SchemaStore,
  ) {}

  get(sourceId: string): Promise<RuntimeSource | undefined> {
    const now = Date.now();
    const cached = this.entries.get(sourceId);
    if (cached && cached.expires > now) return cached.value;
    const value = this.load(sourceId);
    this.entries.set(sourceId, { value, expires: now + TTL_MS });
    value.catch(() => this.entries.delete(sourceId));
    if (this.entries.size > 10_000) this.entries.delete(this.entries.keys().next().value!);
    return value;
  }

  invalidate(sourceId: string): void {
    this.entries.delete(sourceId);
  }

  private async load(sourceId: string): Promise<RuntimeSource | undefined> {
    const source = await this.sources.find(sourceId);
    if (!source) return undefined;
    let config = this.configs.get(source.schemaVersionId);
    if (!config) {
      const version = await this.schemas.findVersionById(source.schemaVersionId);
      if (!version) return undefined;
      config = version.schema;
      this.configs.set(source.schemaVersionId, config);
    }
    return { source, config };
  }
}
