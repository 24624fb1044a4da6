// The idle slots of a worker loop: each waits until its poll interval passes or something wakes it
// (a job queued, a task planned, a slot freed). The generation worker's job slots and the task
// worker's task slots both sleep this way.

export class IdleSlots {
  private readonly wakeUps = new Set<() => void>();

  /** Resolves after `ms`, or as soon as `wakeAll` is called, whichever comes first. */
  idle(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const wakeUp = () => {
        clearTimeout(timer);
        this.wakeUps.delete(wakeUp);
        resolve();
      };
      const timer = setTimeout(wakeUp, ms);
      this.wakeUps.add(wakeUp);
    });
  }

  /** Wakes every slot idle now. */
  wakeAll(): void {
    for (const wakeUp of [...this.wakeUps]) wakeUp();
  }
}
