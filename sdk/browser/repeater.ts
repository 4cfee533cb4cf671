/** Runs a task every `intervalMs` on the injected clock, never two at once (a slow run skips a beat). */
import type { Clock, TimerHandle } from "./clock";

export class Repeater {
  private timer: TimerHandle | undefined;
  private running = false;
  private stopped = false;

  constructor(
    private readonly clock: Clock,
    private readonly intervalMs: number,
    private readonly task: () => Promise<void> | void,
  ) {}

  start(): this {
    this.schedule();
    return this;
  }

  stop(): void {
    this.stopped = true;
    if (this.timer !== undefined) this.clock.clearTimeout(this.timer);
    this.timer = undefined;
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = this.clock.setTimeout(() => this.fire(), this.intervalMs);
  }

  private fire(): void {
    this.schedule();
    if (this.running || this.stopped) return;
    this.running = true;
    Promise.resolve()
      .then(this.task)
      .catch(() => undefined)
      .finally(() => {
        this.running = false;
      });
  }
}
