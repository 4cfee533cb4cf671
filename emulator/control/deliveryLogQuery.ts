/** What the control API's two delivery logs (webhooks, emails) share: a job's head, the listing's filter, the bounded wait. */
import type { DeliveryJob } from "../store/deliveryTable";

/** The fields every job shows first, whatever it sends. */
export function jobHead(d: DeliveryJob): Record<string, unknown> {
  return { id: d.id, templateId: d.templateId, partnerId: d.partnerId, event: d.event, jobId: d.jobId };
}

/** The filter of a log listing from its query: ?templateId=&partnerId=&state= (each optional). */
export function logFilterOf(q: Record<string, string>): { templateId?: string; partnerId?: number; state?: string } {
  return {
    ...(q.templateId ? { templateId: q.templateId } : {}),
    ...(q.partnerId ? { partnerId: Number(q.partnerId) } : {}),
    ...(q.state ? { state: q.state } : {}),
  };
}

/** Waits until `idle` resolves, at most ?timeoutMs= (default 10 s, at most 120 s); true when it did. */
export async function waitUntilIdle(idle: () => Promise<void>, timeoutParam: string | undefined): Promise<boolean> {
  const timeoutMs = Math.min(Number(timeoutParam ?? 10_000) || 10_000, 120_000);
  let timer: NodeJS.Timeout | undefined;
  const timedOut = await Promise.race([idle().then(() => false), new Promise<boolean>((r) => (timer = setTimeout(() => r(true), timeoutMs)))]);
  clearTimeout(timer);
  return !timedOut;
}
