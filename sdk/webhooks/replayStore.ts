/**
 * Replay protection for webhook receivers: a delivery is identified by its `eventNotificationJobId`, and a job id
 * already processed within the window is not handed to the callback again. Deliveries are at-least-once (the
 * platform sends a job again when it did not get a 200/204 in time), so a repeat is normal, not only an attack.
 *
 * The store is pluggable: the in-memory default holds ids for one process; receivers behind a load balancer, or
 * that restart, pass a shared store (Redis SET NX PX, a unique-keyed SQL table, ...) implementing ReplayStore.
 */

export interface ReplayStore {
  /**
   * Atomically: when `key` is not held (or its hold expired), hold it for `ttlMs` and return true; otherwise return
   * false. Two concurrent claims of one key must not both get true (Redis: `SET key 1 NX PX ttlMs`).
   */
  claim(key: string, ttlMs: number): boolean | Promise<boolean>;
  /** Forget `key`: its processing failed, so the platform's next attempt of that job must be processed. */
  release(key: string): void | Promise<void>;
}

export const REPLAY_DEFAULTS = {
  /** How long a processed job id is remembered: longer than any retry schedule of a delivery. */
  windowMs: 24 * 60 * 60 * 1000,
  /** The in-memory store's bound: past it the oldest ids are forgotten first (their replays are then accepted). */
  maxEntries: 100_000,
} as const;

/** The default store: a Map in this process, bounded, expired entries dropped as they are met. */
export class MemoryReplayStore implements ReplayStore {
  private readonly held = new Map<string, number>();

  constructor(
    private readonly maxEntries: number = REPLAY_DEFAULTS.maxEntries,
    private readonly now: () => number = Date.now,
  ) {
    if (!Number.isInteger(maxEntries) || maxEntries < 1) throw new TypeError("MemoryReplayStore: maxEntries must be a positive integer");
  }

  claim(key: string, ttlMs: number): boolean {
    const now = this.now();
    const until = this.held.get(key);
    if (until !== undefined && until > now) return false;
    this.held.delete(key);
    this.held.set(key, now + ttlMs);
    this.trim(now);
    return true;
  }

  release(key: string): void {
    this.held.delete(key);
  }

  get size(): number {
    return this.held.size;
  }

  /** Drop expired ids from the oldest end, then the oldest live ones while over the bound. */
  private trim(now: number): void {
    for (const [key, until] of this.held) {
      if (this.held.size <= this.maxEntries && until > now) break;
      this.held.delete(key);
    }
  }
}
