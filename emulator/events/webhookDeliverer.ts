/**
 * Webhook delivery (the queue itself is deliveryQueue.ts's): an attempt POSTs the stored payload with the stored
 * signature; only 200 and 204 count as delivered. Other statuses, timeouts and refused connections are retried.
 * X-SVC-HASH-ALGO names the signature's algorithm, as the real platform sends it; a job stores only the hex, whose
 * length tells the algorithm (so jobs stored before the header existed are sent with the right one too).
 */
import { Agent, request } from "undici";
import { DEFAULT_SIGNATURE_ALGORITHM, SIGNATURE_ALGORITHM_HEADER, SIGNATURE_HEADER, signatureAlgorithmByLength } from "../../contract/webhooks";
import type { DeliveryAttempt, DeliveryRow, Store } from "../store/store";
import { DeliveryQueue, type DeliveryOptions, type SendOutcome } from "./deliveryQueue";

export class WebhookDeliverer extends DeliveryQueue<DeliveryAttempt, DeliveryRow> {
  private readonly agent = new Agent({ keepAliveTimeout: 1_000, connections: 16 });

  constructor(store: Store, now: () => number, options: Partial<DeliveryOptions> = {}, log?: (line: string) => void) {
    const webhookLog = {
      get: (id: number) => store.getDelivery(id),
      update: (row: DeliveryRow) => store.updateDelivery(row),
      list: (filter: { state?: string }) => store.listDeliveries(filter),
    };
    super(webhookLog, now, options, log);
  }

  protected async send(row: DeliveryRow): Promise<SendOutcome<DeliveryAttempt>> {
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
      error = describeError(err);
    }
    return {
      recorded: { ...(status !== undefined ? { status } : {}), ...(error ? { error } : {}) },
      answered: status !== undefined,
      delivered: status === 200 || status === 204,
      summary: status ?? error ?? "",
    };
  }

  protected describe(row: DeliveryRow): string {
    return `delivery ${row.id} (template ${row.templateId}, job ${row.jobId})`;
  }

  protected override async release(): Promise<void> {
    await this.agent.close();
  }
}

function describeError(err: unknown): string {
  const e = err as { code?: string; name?: string; message?: string };
  return e.code ?? e.name ?? "request failed";
}
