/**
 * The timers of the emulator's deliveries (webhooks and emails): each pending job's next attempt at its time, the
 * attempts in flight, a wait for all of them to finish (`idle`, which the control API's waits use), and a close that
 * stops scheduling and lets what runs finish. What an attempt does is the deliverer's.
 */
export class JobScheduler {
  private readonly timers = new Map<number, NodeJS.Timeout>();
  private readonly inFlight = new Set<Promise<void>>();
  private idleWaiters: (() => void)[] = [];
  private closedFlag = false;

  constructor(
    private readonly now: () => number,
    private readonly attempt: (id: number) => Promise<void>,
  ) {}

  /** True once close() began: attempts stop sending, so that pending jobs stay pending for the next start. */
  get closed(): boolean {
    return this.closedFlag;
  }

  /** Runs job `id`'s attempt at `atMs` (now, when that is past). */
  schedule(id: number, atMs: number): void {
    if (this.closedFlag) return;
    const timer = setTimeout(
      () => {
        this.timers.delete(id);
        const p = this.attempt(id).finally(() => {
          this.inFlight.delete(p);
          this.notifyIdle();
        });
        this.inFlight.add(p);
      },
      Math.max(0, atMs - this.now()),
    );
    timer.unref?.();
    this.timers.set(id, timer);
  }

  /** Resolves when no job is scheduled or running. */
  idle(): Promise<void> {
    if (this.timers.size === 0 && this.inFlight.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  async close(): Promise<void> {
    this.closedFlag = true;
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
    await Promise.allSettled([...this.inFlight]);
    this.notifyIdle();
  }

  private notifyIdle(): void {
    if (this.timers.size > 0 || this.inFlight.size > 0) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const w of waiters) w();
  }
}
