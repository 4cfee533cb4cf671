/**
 * A clock for tests: timers run only when `advance` moves time past them, in order, and pending promise
 * work (fetch through an in-process app, JSON parsing) settles between timers.
 */
import type { Clock, TimerHandle } from "../clock";

interface Timer {
  id: number;
  at: number;
  callback: () => void;
}

export class FakeClock implements Clock {
  private current: number;
  private nextId = 1;
  private timers: Timer[] = [];

  /**
   * `busy` tells the clock that work outside it is still running (e.g. a test's count of fetches in flight:
   * WebCrypto and streams finish on other threads), so `advance` waits for it before running the next timer.
   */
  constructor(
    startMs = 1_700_000_000_000,
    public busy: () => boolean = () => false,
  ) {
    this.current = startMs;
  }

  now(): number {
    return this.current;
  }

  setTimeout(callback: () => void, ms: number): TimerHandle {
    const timer = { id: this.nextId++, at: this.current + Math.max(0, ms), callback };
    this.timers.push(timer);
    return timer.id;
  }

  clearTimeout(handle: TimerHandle): void {
    this.timers = this.timers.filter((timer) => timer.id !== handle);
  }

  /** Timers still waiting. */
  pending(): number {
    return this.timers.length;
  }

  /** Move time forward by `ms`, running every timer that falls due (and what they schedule) in order. */
  async advance(ms: number): Promise<void> {
    const target = this.current + ms;
    await this.settle();
    for (;;) {
      const due = this.timers.filter((timer) => timer.at <= target).sort((a, b) => a.at - b.at || a.id - b.id)[0];
      if (!due) break;
      this.timers = this.timers.filter((timer) => timer !== due);
      this.current = Math.max(this.current, due.at);
      due.callback();
      await this.settle();
    }
    this.current = target;
    await this.settle();
  }

  /** Settle promise work, then keep settling while `busy` says outside work is still running (bounded). */
  async settle(): Promise<void> {
    const deadline = Date.now() + 5_000;
    do await settle();
    while (this.busy() && Date.now() < deadline);
  }
}

/** Let promise chains and in-process I/O finish (a few macrotask turns). */
export async function settle(turns = 10): Promise<void> {
  for (let i = 0; i < turns; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}
