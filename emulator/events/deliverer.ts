/**
 * Webhook delivery: each job is a row in the store (durable, so a restart resumes pending jobs). An attempt
 * POSTs the stored payload with the stored signature; only 200 and 204 count as delivered. Other statuses,
 * timeouts and refused connections are retried with exponential backoff up to maxAttempts, then the job is
 * marked failed. Nothing here runs on the API request path: enqueue() only schedules a timer.
 * X-SVC-HASH-ALGO names the signature's algorithm, as the real platform sends it; a job stores only the hex, whose
 * length tells the algorithm (so jobs stored before the header existed are sent with the right one too).
 */
import { JobScheduler } from "./jobScheduler";
import { Agent, request } from "undici";
import { DEFAULT_SIGNATURE_ALGORITHM, SIGNATURE_ALGORITHM_HEADER, SIGNATURE_HEADER, signatureAlgorithmByLength } from "../../contract/webhooks";
import type { DeliveryRow, Store } from "../store/store";

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

export class Deliverer {
  private readonly options: DeliveryOptions;
  private readonly agent: Agent;
  private readonly jobs: JobScheduler;

  constructor(
    private readonly store: Store,
    private readonly now: () => number,
    options: Partial<DeliveryOptions> = {},
    private readonly log: (line: string) => void = () => {},
  ) {
    this.options = { ...DEFAULT_DELIVERY, ...options };
    this.jobs = new JobScheduler(now, (id) => this.attempt(id));
    this.agent = new Agent({ keepAliveTimeout: 1_000, connections: 16 });
  }

  /** Schedules a job's first attempt (or resumes a pending one after a restart). */
  schedule(row: DeliveryRow): void {
    if (row.state === "pending") this.jobs.schedule(row.id, row.nextAttemptAt);
  }

  resumePending(): void {
    for (const row of this.store.listDeliveries({ state: "pending" })) this.schedule(row);
  }

  /** Resolves when no job is scheduled or running (tests use it through the control API). */
  idle(): Promise<void> {
    return this.jobs.idle();
  }

  async close(): Promise<void> {
    await this.jobs.close();
    await this.agent.close();
  }

  private async attempt(id: number): Promise<void> {
    const row = this.store.getDelivery(id);
    if (row?.state !== "pending" || this.jobs.closed) return;
    const started = this.now();
    let status: number | undefined;
    let error: string | undefined;
    try {
      const res = await request(row.url, {
        method: "POST",
        body: row.payload,
        headers: {
          "content-type": "application/json",
          [SIGNATURE_HEADER]: row.signature,
          [SIGNATURE_ALGORITHM_HEADER]: signatureAlgorithmByLength(row.signature.length) ?? DEFAULT_SIGNATURE_ALGORITHM,
          "user-agent": "svc-emulator",
        },
        dispatcher: this.agent,
        headersTimeout: this.options.timeoutMs,
        bodyTimeout: this.options.timeoutMs,
      });
      status = res.statusCode;
      await res.body.dump();
    } catch (err) {
      error = describe(err);
    }
    if (this.jobs.closed && status === undefined) return; // shutting down: leave the job pending for the next start
    const at = this.now();
    row.attempts.push({ atMs: started, durationMs: at - started, ...(status !== undefined ? { status } : {}), ...(error ? { error } : {}) });
    row.updatedAt = at;
    if (status === 200 || status === 204) {
      row.state = "delivered";
    } else if (row.attempts.length >= this.options.maxAttempts) {
      row.state = "failed";
    } else {
      const { initialDelayMs, backoffMultiplier, maxDelayMs } = this.options;
      row.nextAttemptAt = at + Math.min(maxDelayMs, initialDelayMs * backoffMultiplier ** (row.attempts.length - 1));
    }
    this.store.updateDelivery(row);
    this.log(`delivery ${row.id} (template ${row.templateId}, job ${row.jobId}) attempt ${row.attempts.length}: ${status ?? error} -> ${row.state}`);
    if (row.state === "pending") this.schedule(row);
  }
}

function describe(err: unknown): string {
  const e = err as { code?: string; name?: string; message?: string };
  return e.code ?? e.name ?? "request failed";
}
