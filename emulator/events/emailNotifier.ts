/**
 * Raises an event for the email kind: every ACTIVE email template of the account that matches the event gets one
 * email, rendered now (content parameters filled from the event's object) and written to the email delivery log
 * in one transaction, then handed to the EmailDeliverer, which sends it in the background.
 */
import { templateMatchesEvent, type EventKey } from "../../contract/events";
import { TemplateStatus, TemplateType } from "../../contract/platform";
import type { EmailDeliveryStore } from "../store/emailDeliveryStore";
import type { Store } from "../store/store";
import type { TemplateRecord } from "./catalog";
import type { EmailDeliverer } from "./emailDeliverer";
import { renderEmail } from "./emailRender";

export class EmailNotifier {
  constructor(
    private readonly store: Store,
    private readonly emails: EmailDeliveryStore,
    private readonly now: () => number,
    private readonly deliverer: EmailDeliverer,
  ) {}

  /** The ids of the emails made (one per matching active email template). The caller checked the plugin permission. */
  raise(partnerId: number, event: EventKey, object: Record<string, unknown>): number[] {
    const templates = this.store
      .listDocs<TemplateRecord>("template", partnerId)
      .filter((t) => t.status === TemplateStatus.ACTIVE && t.type === TemplateType.EMAIL && templateMatchesEvent(t, event));
    if (templates.length === 0) return [];
    const nowMs = this.now();
    const created = this.store.transaction(() =>
      templates.map((t) => {
        const row = {
          partnerId,
          templateId: t.id,
          jobId: this.store.nextSeq("notificationJob", 1),
          event,
          message: renderEmail(t, event, object),
          state: "pending" as const,
          attempts: [],
          nextAttemptAt: nowMs,
          createdAt: nowMs,
          updatedAt: nowMs,
        };
        return { ...row, id: this.emails.insert(row) };
      }),
    );
    for (const row of created) this.deliverer.schedule(row);
    return created.map((r) => r.id);
  }
}
