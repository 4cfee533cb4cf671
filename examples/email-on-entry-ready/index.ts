/**
 * An email to the editors when an entry is ready: one EmailNotificationTemplate. The platform's "entry ready" system
 * email template chooses the event; the email itself (subject, body, sender, recipients) is declared here, and its
 * `{entry_name}` and `{entry_id}` are filled from the entry that became ready. Where and how to reach the platform
 * comes from stack config (`svc:baseUrl`, `svc:partnerId`, and `svc:adminSecret` or an app token), read by the
 * provider at run time, never by this program.
 */
import * as pulumi from "@pulumi/pulumi";
import * as svc from "pulumi-svc";

const config = new pulumi.Config();
const auditEmail = config.get("auditEmail");

const entryReady = new svc.EmailNotificationTemplate("editors-entry-ready", {
  event: "entry.ready",
  name: "Tell editors when an entry is ready",
  systemName: "EDITORS_ENTRY_READY",
  subject: "Ready to review: {entry_name}",
  body: "The entry {entry_name} ({entry_id}) is ready.\n\nReview it before it is published.",
  fromEmail: config.get("fromEmail") ?? "video@example.com",
  fromName: "Video platform",
  to: [{ email: config.require("editorsEmail"), name: "Editors" }],
  // Plain lists of {email, name?}: an empty list is no one.
  bcc: auditEmail ? [{ email: auditEmail }] : [],
  priority: "HIGH",
  contentParameters: [
    { key: "entry_name", value: "{entry.name}", description: "The entry's name" },
    { key: "entry_id", value: "{entry.id}" },
  ],
});

export const templateId = entryReady.templateId;
export const templateActive = entryReady.active;
export const subject = entryReady.subject;
export const recipients = entryReady.to;
