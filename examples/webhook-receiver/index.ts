/**
 * One webhook per event the receiver cares about, all pointing at the same receiver URL and signed with the same
 * secret. The connection (`svc:*`) comes from stack config or the SVC_* environment variables.
 */
import * as pulumi from "@pulumi/pulumi";
import * as svc from "pulumi-svc";

const config = new pulumi.Config();
const receiverUrl = config.get("receiverUrl") ?? "http://127.0.0.1:4020/hooks";
const signSecret = config.requireSecret("webhookSigningSecret");

const events: svc.TemplateEvent[] = ["entry.added", "entry.ready"];

const templates = events.map(
  (event) =>
    new svc.HttpNotificationTemplate(`hook-${event.replace(/[^a-z]+/g, "-")}`, {
      event,
      name: `Receiver: ${event}`,
      // Unique per account among active templates; the event makes it readable in the platform's console.
      systemName: `RECEIVER_${event.toUpperCase().replace(/[^A-Z]+/g, "_")}`,
      url: receiverUrl,
      signSecret,
    }),
);

/** event -> template id, e.g. { "entry.added": "1001" }. */
export const templateIds = pulumi.all(templates.map((t) => t.templateId)).apply((ids) => Object.fromEntries(events.map((event, i) => [event, ids[i]])));
export const url = receiverUrl;
