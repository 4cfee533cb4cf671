/**
 * Raises catalog events: every ACTIVE HTTP template of the account that matches the event gets one delivery
 * job (a Notification body, signed once with the template's signing secret). Jobs are committed in one
 * transaction, then handed to the Deliverer, which sends them in the background. Email templates are the
 * EmailNotifier's (emailNotifier.ts), called from here.
 */
import { createHash } from "node:crypto";
import { EVENTS, templateMatchesEvent, type EventKey } from "../../contract/events";
import { EVENT_NOTIFICATION_PLUGIN, OBJECT_TYPES, TemplateStatus, TemplateType, type Notification } from "../../contract/platform";
import { signatureAlgorithmOf } from "../../contract/webhooks";
import { hasFeature } from "../platform/partnerFeatures";
import type { Store } from "../store/store";
import type { TemplateRecord } from "./catalog";
import type { Deliverer } from "./deliverer";
import type { EmailNotifier } from "./emailNotifier";

/** hex hash(signSecret + body) with the template's secureHashingAlgo (SHA256 when it has none). */
export function signPayload(secret: string, body: string, secureHashingAlgo: number | undefined): string {
  return createHash(signatureAlgorithmOf(secureHashingAlgo))
    .update(secret + body)
    .digest("hex");
}

export interface RaisedEvent {
  event: EventKey;
  partnerId: number;
  /** Ids of the delivery jobs created (one per matching active template). */
  deliveryIds: number[];
  jobIds: number[];
  /** Ids of the emails made (one per matching active email template; the control API's /emails log). */
  emailIds: number[];
}

export class EventNotifier {
  constructor(
    private readonly store: Store,
    private readonly now: () => number,
    private readonly deliverer: Deliverer,
    private readonly emails?: EmailNotifier,
  ) {}

  raise(partnerId: number, event: EventKey, object: Record<string, unknown>): RaisedEvent {
    const e = EVENTS[event];
    // Without the event notification plugin the account's templates do not fire.
    if (!hasFeature(this.store, partnerId, EVENT_NOTIFICATION_PLUGIN)) return { event, partnerId, deliveryIds: [], jobIds: [], emailIds: [] };
    const templates = this.store
      .listDocs<TemplateRecord>("template", partnerId)
      .filter((t) => t.status === TemplateStatus.ACTIVE && t.type === TemplateType.HTTP && templateMatchesEvent(t, event) && t.url);
    const partner = this.store.getPartner(partnerId);
    const nowMs = this.now();
    const created = this.store.transaction(() =>
      templates.map((t) => {
        const jobId = this.store.nextSeq("notificationJob", 1);
        const notification: Notification = {
          object: { objectType: e.objectType, ...object },
          eventType: e.eventType,
          eventObjectType: e.eventObjectType,
          eventNotificationJobId: jobId,
          templateId: t.id,
          templateName: t.name,
          ...(t.systemName ? { templateSystemName: t.systemName } : {}),
          partnerId,
          objectType: OBJECT_TYPES.notification,
        };
        const payload = JSON.stringify(notification);
        // Without a signing secret of its own, the template signs with the account's admin secret.
        const secret = t.signSecret || partner?.adminSecret || "";
        const row = {
          partnerId,
          templateId: t.id,
          jobId,
          event,
          url: t.url ?? "",
          payload,
          signature: signPayload(secret, payload, t.secureHashingAlgo),
          state: "pending" as const,
          attempts: [],
          nextAttemptAt: nowMs,
          createdAt: nowMs,
          updatedAt: nowMs,
        };
        return { ...row, id: this.store.insertDelivery(row) };
      }),
    );
    for (const row of created) this.deliverer.schedule(row);
    const emailIds = this.emails?.raise(partnerId, event, object) ?? [];
    return { event, partnerId, deliveryIds: created.map((r) => r.id), jobIds: created.map((r) => r.jobId), emailIds };
  }
}
