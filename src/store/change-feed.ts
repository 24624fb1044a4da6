// Cross-process cache invalidation over PostgreSQL LISTEN/NOTIFY. Every server process on one control
// plane caches what the runtime API needs on each request (a source's settings, its keys, table
// totals); a change made through any process is published here and every process drops what it
// cached of that source, within milliseconds.
//
// While the listening connection is down a process cannot hear others' changes: `live` turns false
// (callers stop trusting long-lived entries) and, once it is back, every subscriber is told to drop
// everything, since notifications sent meanwhile are lost.
import pg from 'pg';
import type { Logger } from 'pino';

const CHANNEL = 'sds_changes';
const RETRY_MIN_MS = 500;
const RETRY_MAX_MS = 10_000;

export interface ChangeSubscriber {
  /** A source's settings, keys or data changed, or it is gone (here or in another process). */
  changed(sourceId: string): void;
  /** Changes may have been missed: drop everything. */
  reset(): void;
  /**
   * Only rows of a source changed, through this process's runtime API (its settings and keys did
   * not): for caches of data, such as list totals. `changed` follows for every subscriber when the
   * write is announced to all processes.
   */
  rowsChanged?(sourceId: string): void;
}

export interface ChangePublisher {
  /** Tells this process at once and every other process once the notification is delivered. */
  publish(sourceId: string): Promise<void>;
  /**
   * Rows of a source were written: tells this process at once and the others at most once per
   * source every WRITES_EVERY_MS, so a burst of writes costs one notification, not one each.
   */
  rowsWritten(sourceId: string): void;
}

/** How often, at most, one source's runtime writes are announced to other processes. */
const WRITES_EVERY_MS = 100;

export class ChangeFeed implements ChangePublisher {
  private readonly subscribers: ChangeSubscriber[] = [];
  /** Sources whose writes are announced to other processes at the end of the current interval. */
  private readonly pendingWrites = new Set<string>();
  private client: pg.Client | undefined;
  private retryMs = RETRY_MIN_MS;
  private retryTimer: NodeJS.Timeout | undefined;
  private stopped = false;
  private isLive = false;

  constructor(
    private readonly connectionString: string,
    private readonly publishWith: Pick<pg.Pool, 'query'>,
    private readonly logger: Pick<Logger, 'warn' | 'info'>,
  ) {}

  /** True while notifications of other processes reach this one. */
  get live(): boolean {
    return this.isLive;
  }

  /** Adds a subscriber; the function returned removes it again. */
  subscribe(subscriber: ChangeSubscriber): () => void {
    this.subscribers.push(subscriber);
    return () => {
      const at = this.subscribers.indexOf(subscriber);
      if (at >= 0) this.subscribers.splice(at, 1);
    };
  }

  /** Connects and listens; resolves once listening (or after the first failure, retrying behind). */
  async start(): Promise<void> {
    await this.connect();
  }

  async publish(sourceId: string): Promise<void> {
    this.dispatch(sourceId);
    try {
      await this.publishWith.query('SELECT pg_notify($1, $2)', [CHANNEL, sourceId]);
    } catch (error) {
      // Other processes keep stale entries until their TTL; the change itself is stored.
      this.logger.warn({ error: String(error), sourceId }, 'could not publish a change to other processes');
    }
  }

  rowsWritten(sourceId: string): void {
    for (const subscriber of this.subscribers) subscriber.rowsChanged?.(sourceId);
    if (this.pendingWrites.has(sourceId)) return;
    this.pendingWrites.add(sourceId);
    setTimeout(() => {
      this.pendingWrites.delete(sourceId);
      void this.publish(sourceId);
    }, WRITES_EVERY_MS).unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    const client = this.client;
    this.client = undefined;
    this.isLive = false;
    await client?.end().catch(() => {});
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    const client = new pg.Client({ connectionString: this.connectionString, application_name: 'sds-changes' });
    client.on('notification', (message) => this.receive(message.payload));
    client.on('error', () => this.lost(client));
    client.on('end', () => this.lost(client));
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANNEL}`);
    } catch (error) {
      this.logger.warn({ error: String(error) }, 'change feed: cannot listen, retrying');
      this.lost(client);
      return;
    }
    if (this.stopped) {
      await client.end().catch(() => {});
      return;
    }
    this.client = client;
    this.isLive = true;
    this.retryMs = RETRY_MIN_MS;
    // Whatever was published while we were not listening is lost.
    for (const subscriber of this.subscribers) subscriber.reset();
  }

  private lost(client: pg.Client): void {
    if (this.client !== undefined && this.client !== client) return;
    const wasListening = this.client === client;
    this.client = undefined;
    this.isLive = false;
    client.end().catch(() => {});
    if (this.stopped || this.retryTimer) return;
    if (wasListening) this.logger.warn({}, 'change feed: connection lost, reconnecting');
    for (const subscriber of this.subscribers) subscriber.reset();
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      void this.connect();
    }, this.retryMs);
    this.retryTimer.unref();
    this.retryMs = Math.min(RETRY_MAX_MS, this.retryMs * 2);
  }

  private receive(payload: string | undefined): void {
    if (payload) this.dispatch(payload);
  }

  private dispatch(sourceId: string): void {
    for (const subscriber of this.subscribers) subscriber.changed(sourceId);
  }
}
