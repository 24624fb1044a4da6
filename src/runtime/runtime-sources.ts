// What the runtime API needs of a source on every request (its settings and schema config), cached so
// a hot runtime path does not read the control plane each time. A change made through any process
// drops the entry in every process at once (ChangeFeed); while the feed is down, entries live only
// briefly, so other processes' changes are seen within that TTL.
import type { SchemaConfig } from '../contract.ts';
import type { ChangeSubscriber } from '../store/change-feed.ts';
import type { SchemaStore } from '../store/schemas.ts';
import type { SourceStore } from '../store/sources.ts';
import type { RuntimeSource } from '../operation.ts';

const TTL_MS = 30_000;
const TTL_WITHOUT_FEED_MS = 2_000;

export class RuntimeSources implements ChangeSubscriber {
  private readonly entries = new Map<string, { value: Promise<RuntimeSource | undefined>; expires: number }>();
  /** Schema versions are immutable: their configs are cached for good. */
  private readonly configs = new Map<string, SchemaConfig>();

  constructor(
    private readonly sources: SourceStore,
    private readonly schemas: SchemaStore,
    /** Whether other processes' changes reach this one (ChangeFeed.live). */
    private readonly live: () => boolean = () => false,
  ) {}

  get(sourceId: string): Promise<RuntimeSource | undefined> {
    const now = Date.now();
    const cached = this.entries.get(sourceId);
    if (cached && cached.expires > now) return cached.value;
    const value = this.load(sourceId);
    const entry = { value, expires: now + (this.live() ? TTL_MS : TTL_WITHOUT_FEED_MS) };
    this.entries.set(sourceId, entry);
    // A source without data of its own yet is looked up afresh: its first generation may succeed any moment.
    value.then(
      (loaded) => loaded?.ownsNamespace === false && this.entries.get(sourceId) === entry && this.entries.delete(sourceId),
      () => this.entries.delete(sourceId),
    );
    if (this.entries.size > 10_000) this.entries.delete(this.entries.keys().next().value!);
    return value;
  }

  changed(sourceId: string): void {
    this.entries.delete(sourceId);
  }

  reset(): void {
    this.entries.clear();
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
    return { source, config, ownsNamespace: await this.sources.servesOwnNamespace(source.id) };
  }
}
