/**
 * Renders an HTTP template's webhook for one event: the Notification body the real platform POSTs, and its
 * signature, fixed when the job is made (so every attempt sends the same bytes).
 */
import { createHash } from "node:crypto";
import { EVENTS, type EventKey } from "../../contract/events";
import { OBJECT_TYPES, type Notification } from "../../contract/platform";
import { signatureAlgorithmOf } from "../../contract/webhooks";
import type { TemplateRecord } from "./catalog";

/** hex hash(signSecret + body) with the template's secureHashingAlgo (SHA256 when it has none). */
export function signPayload(secret: string, body: string, secureHashingAlgo: number | undefined): string {
  return createHash(signatureAlgorithmOf(secureHashingAlgo))
    .update(secret + body)
    .digest("hex");
}

export interface RenderedWebhook {
  url: string;
  payload: string;
  signature: string;
}

/** `accountSecret` signs when the template has no signing secret of its own (the account's admin secret). */
export function renderWebhook(
  template: TemplateRecord,
  event: EventKey,
  object: Record<string, unknown>,
  job: { jobId: number; partnerId: number },
  accountSecret: string,
): RenderedWebhook {
  const e = EVENTS[event];
  const notification: Notification = {
    object: { objectType: e.objectType, ...object },
    eventType: e.eventType,
    eventObjectType: e.eventObjectType,
    eventNotificationJobId: job.jobId,
    templateId: template.id,
    templateName: template.name,
    ...(template.systemName ? { templateSystemName: template.systemName } : {}),
    partnerId: job.partnerId,
    objectType: OBJECT_TYPES.notification,
  };
  const payload = JSON.stringify(notification);
  const secret = template.signSecret || accountSecret;
  return { url: template.url ?? "", payload, signature: signPayload(secret, payload, template.secureHashingAlgo) };
}
