// Cached list totals. Counting the matching rows dominates a list's cost, so totals are kept in an
// in-memory LRU keyed by source + table + compiled WHERE + parameters, dropped per source on any
// write or regeneration, and bounded in age for writes this process does not see.

export interface CountCacheOptions {
  /** Most totals kept; the least recently used go first. Default 10,000. */
  maxEntries?: number;
  /** Age after which a total is counted again. Default 60 s; 0 keeps totals until invalidated. */
  ttlMs?: number;
  /** Clock, for tests. */
  now?: () => number;
}

interface Entry {
  source: string;
  total: number;
  expires: number;
}

export class CountCache {
  private readonly entries = new Map<string, Entry>();
  private readonly keysBySource = new Map<string, Set<string>>();
  /** Bumped by invalidateSource: a count that started before it is not stored after it. */
  private readonly epochs = new Map<string, number>();
  private readonly inflight = new Map<string, { source: string; promise: Promise<number> }>();
  private readonly maxEntries: number;
  private readonly ttlMs: number;
  private readonly now: () => number;

  constructor(options: CountCacheOptions = {}) {
    this.maxEntries = options.maxEntries ?? 10_000;
    this.ttlMs = options.ttlMs ?? 60_000;
    this.now = options.now ?? Date.now;
  }

  /** The cache key of a count: the source, the table, the compiled WHERE and its parameters. */
  static key(sourceId: string, table: string, where: string, params: unknown[]): string {
    return JSON.stringify([sourceId, table, where, params], (_, value: unknown) => (typeof value === 'bigint' ? `${value}n` : value));
  }

  get size(): number {
    return this.entries.size;
  }

  get(sourceId: string, key: string): number | undefined {
    const entry = this.entries.get(key);
    if (!entry || entry.source !== sourceId) return undefined;
    if (this.ttlMs > 0 && entry.expires <= this.now()) {
      this.delete(key);
      return undefined;
    }
    // Most recently used goes to the end of the map's order.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.total;
  }

  /** The source's invalidation counter: pass it to `set` to store a total only if no write came between. */
  epoch(sourceId: string): number {
    return this.epochs.get(sourceId) ?? 0;
  }

  /** Stores a total; ignored when `epoch` is given and the source was invalidated since. */
  set(sourceId: string, key: string, total: number, epoch?: number): void {
    if (epoch !== undefined && epoch !== this.epoch(sourceId)) return;
    this.delete(key);
    this.entries.set(key, { source: sourceId, total, expires: this.now() + this.ttlMs });
    let keys = this.keysBySource.get(sourceId);
    if (!keys) this.keysBySource.set(sourceId, (keys = new Set()));
    keys.add(key);
    while (this.entries.size > this.maxEntries) this.delete(this.entries.keys().next().value!);
  }

  /**
   * The cached total, or `count()`'s, stored unless the source was invalidated meanwhile.
   * Concurrent callers of one key share one count.
   */
  async total(sourceId: string, key: string, count: () => Promise<number>): Promise<number> {
    const cached = this.get(sourceId, key);
    if (cached !== undefined) return cached;
    const running = this.inflight.get(key);
    if (running && running.source === sourceId) return running.promise;
    const epoch = this.epoch(sourceId);
    const promise = count().then((total) => {
      this.set(sourceId, key, total, epoch);
      return total;
    });
    const flight = { source: sourceId, promise };
    this.inflight.set(key, flight);
    try {
      return await promise;
    } finally {
      if (this.inflight.get(key) === flight) this.inflight.delete(key);
    }
  }

  /** Drops every total of a source (call on its writes and regenerations). */
  invalidateSource(sourceId: string): void {
    this.epochs.set(sourceId, (this.epochs.get(sourceId) ?? 0) + 1);
    for (const key of this.keysBySource.get(sourceId) ?? []) this.entries.delete(key);
    this.keysBySource.delete(sourceId);
    // Counts still running for this source are not joined by later callers.
    for (const [key, flight] of this.inflight) if (flight.source === sourceId) this.inflight.delete(key);
  }

  clear(): void {
    for (const source of [...this.keysBySource.keys(), ...[...this.inflight.values()].map((flight) => flight.source)]) this.invalidateSource(source);
  }

  private delete(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    const keys = this.keysBySource.get(entry.source);
    keys?.delete(key);
    if (keys?.size === 0) this.keysBySource.delete(entry.source);
  }
}
