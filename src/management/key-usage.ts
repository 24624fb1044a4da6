// `lastUsedAt` without a write per request: key ids seen are remembered and written in one
// statement every interval (and on close).

export class KeyUsageRecorder {
  private pending = new Set<string>();
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly write: (ids: string[], at: Date) => Promise<void>,
    intervalMs = 5_000,
    private readonly onError: (error: unknown) => void = () => {},
  ) {
    this.timer = setInterval(() => void this.flush(), intervalMs);
    this.timer.unref();
  }

  record(keyId: string): void {
    this.pending.add(keyId);
  }

  async flush(): Promise<void> {
    if (this.pending.size === 0) return;
    const ids = [...this.pending];
    this.pending = new Set();
    try {
      await this.write(ids, new Date());
    } catch (error) {
      // Usage times are best effort: keep them for the next flush rather than fail a request.
      for (const id of ids) this.pending.add(id);
      this.onError(error);
    }
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }
}
