/**
 * Raises catalog events. Every ACTIVE template of the account that matches the event gets one job, rendered now by
 * its kind's renderer (an HTTP template: a signed Notification body, webhookRender.ts; an email template: the
 * message, emailRender.ts). All the event's jobs are committed in one transaction, then handed to their kind's
 * deliverer, which sends them in the background (deliveryQueue.ts).
 */
import { templateMatchesEvent, type EventKey } from "../../contract/events";
import { EVENT_NOTIFICATION_PLUGIN, TemplateStatus, TemplateType } from "../../contract/platform";
import type { EmailDeliveryStore } from "../store/emailDeliveryStore";
import { hasFeature } from "../store/partnerFeatures";
import type { Store } from "../store/store";
import type { TemplateRecord } from "./catalog";
import type { EmailDeliverer } from "./emailDeliverer";
import { renderEmail } from "./emailRender";
import type { WebhookDeliverer } from "./webhookDeliverer";
import { renderWebhook } from "./webhookRender";

export interface RaisedEvent {
  event: EventKey;
  partnerId: number;
  /** Ids of the webhook delivery jobs created (one per matching active HTTP template). */
  deliveryIds: number[];
  jobIds: number[];
  /** Ids of the emails made (one per matching active email template; the control API's /emails log). */
  emailIds: number[];
}

export class EventNotifier {
  constructor(
    private readonly store: Store,
    private readonly now: () => number,
    private readonly webhooks: WebhookDeliverer,
    private readonly emails: { log: EmailDeliveryStore; deliverer: EmailDeliverer },
  ) {}

  raise(partnerId: number, event: EventKey, object: Record<string, unknown>): RaisedEvent {
    // Without the event notification plugin the account's templates do not fire.
    if (!hasFeature(this.store, partnerId, EVENT_NOTIFICATION_PLUGIN)) return { event, partnerId, deliveryIds: [], jobIds: [], emailIds: [] };
    const matching = this.store
      .listDocs<TemplateRecord>("template", partnerId)
      .filter((t) => t.status === TemplateStatus.ACTIVE && templateMatchesEvent(t, event));
    const accountSecret = this.store.getPartner(partnerId)?.adminSecret ?? "";
    const nowMs = this.now();
    const job = (t: TemplateRecord) => ({
      partnerId,
      templateId: t.id,
      jobId: this.store.nextSeq("notificationJob", 1),
      event,
      state: "pending" as const,
      attempts: [],
      nextAttemptAt: nowMs,
      createdAt: nowMs,
      updatedAt: nowMs,
    });
    const { hooks, mails } = this.store.transaction(() => ({
      // HTTP templates first, so their job ids come before the emails' (as they did when each kind had its own notifier).
      hooks: matching
        .filter((t) => t.type === TemplateType.HTTP && t.url)
        .map((t) => {
          const j = job(t);
          const row = { ...j, ...renderWebhook(t, event, object, j, accountSecret) };
          return { ...row, id: this.store.insertDelivery(row) };
        }),
      mails: matching
        .filter((t) => t.type === TemplateType.EMAIL)
        .map((t) => {
          const row = { ...job(t), message: renderEmail(t, event, object) };
          return { ...row, id: this.emails.log.insert(row) };
        }),
    }));
    for (const row of hooks) this.webhooks.schedule(row);
    for (const row of mails) this.emails.deliverer.schedule(row);
    return { event, partnerId, deliveryIds: hooks.map((r) => r.id), jobIds: hooks.map((r) => r.jobId), emailIds: mails.map((r) => r.id) };
  }
}
