/**
 * What webhook and email delivery share: each job is a row of a durable log (so a restart resumes pending jobs);
 * its attempt runs at its time (JobScheduler); the outcome is recorded, and the job is then delivered, failed
 * (after maxAttempts, or at once when the channel says the refusal is permanent) or retried with exponential
 * backoff. Nothing here runs on the API request path: schedule() only sets a timer. What an attempt sends is the
 * channel's: WebhookDeliverer (an HTTP POST) and EmailDeliverer (an SMTP conversation).
 */
import type { AttemptTimes, DeliveryJob } from "../store/deliveryTable";
import { JobScheduler } from "./jobScheduler";

export interface DeliveryOptions {
  maxAttempts: number;
  initialDelayMs: number;
  maxDelayMs: number;
  backoffMultiplier: number;
  /** Per-attempt timeout (headers and body). */
  timeoutMs: number;
}

export const DEFAULT_DELIVERY: DeliveryOptions = {
  maxAttempts: 5,
  initialDelayMs: 1_000,
  maxDelayMs: 60_000,
  backoffMultiplier: 2,
  timeoutMs: 10_000,
};

/** The log a queue reads and writes its jobs in. */
export interface DeliveryLog<Job> {
  get(id: number): Job | undefined;
  update(job: Job): void;
  list(filter: { state?: string }): Job[];
}

/** One attempt's result, as the channel saw it. */
export interface SendOutcome<Attempt extends AttemptTimes> {
  /** What the attempt records beside its times. */
  recorded: Omit<Attempt, "atMs" | "durationMs">;
  /** The receiver answered (an HTTP status, an SMTP reply): without an answer during shutdown, the job stays pending. */
  answered: boolean;
  delivered: boolean;
  /** A refusal that no retry can change (an SMTP 5xx). */
  permanent?: boolean;
  /** The log line's word for the outcome (a status, a reply code, an error code). */
  summary: string | number;
}

export abstract class DeliveryQueue<Attempt extends AttemptTimes, Job extends DeliveryJob<Attempt>> {
  protected readonly options: DeliveryOptions;
  private readonly jobs: JobScheduler;

  constructor(
    private readonly log: DeliveryLog<Job>,
    private readonly now: () => number,
    options: Partial<DeliveryOptions> = {},
    private readonly logLine: (line: string) => void = () => {},
  ) {
    this.options = { ...DEFAULT_DELIVERY, ...options };
    this.jobs = new JobScheduler(now, (id) => this.attempt(id));
  }

  /** Schedules a job's next attempt (or resumes a pending one after a restart). */
  schedule(job: Job): void {
    if (job.state === "pending") this.jobs.schedule(job.id, job.nextAttemptAt);
  }

  resumePending(): void {
    for (const job of this.log.list({ state: "pending" })) this.schedule(job);
  }

  /** Resolves when no job is scheduled or running (the control API's waits use it). */
  idle(): Promise<void> {
    return this.jobs.idle();
  }

  async close(): Promise<void> {
    await this.jobs.close();
    await this.release();
  }

  /** Sends the job once. */
  protected abstract send(job: Job): Promise<SendOutcome<Attempt>>;

  /** How the log line names the job, e.g. `delivery 3 (template 1001, job 7)`. */
  protected abstract describe(job: Job): string;

  /** Called once the job is delivered, before it is written back. */
  protected onDelivered(_job: Job): void {}

  /** Frees what the channel holds (connections), after the last attempt finished. */
  protected async release(): Promise<void> {}

  private async attempt(id: number): Promise<void> {
    const job = this.log.get(id);
    if (job?.state !== "pending" || this.jobs.closed) return;
    const started = this.now();
    const outcome = await this.send(job);
    if (this.jobs.closed && !outcome.answered) return; // shutting down: leave the job pending for the next start
    const at = this.now();
    job.attempts.push({ atMs: started, durationMs: at - started, ...outcome.recorded } as Attempt);
    job.updatedAt = at;
    if (outcome.delivered) {
      job.state = "delivered";
      this.onDelivered(job);
    } else if (outcome.permanent || job.attempts.length >= this.options.maxAttempts) {
      job.state = "failed";
    } else {
      const { initialDelayMs, backoffMultiplier, maxDelayMs } = this.options;
      job.nextAttemptAt = at + Math.min(maxDelayMs, initialDelayMs * backoffMultiplier ** (job.attempts.length - 1));
    }
    this.log.update(job);
    this.logLine(`${this.describe(job)} attempt ${job.attempts.length}: ${outcome.summary} -> ${job.state}`);
    if (job.state === "pending") this.schedule(job);
  }
}
