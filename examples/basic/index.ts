/**
 * The smallest useful stack: an app token for a backend service and a webhook that tells it when entries are
 * added. Where and how to reach the platform comes from stack config (`svc:baseUrl`, `svc:partnerId`, and
 * `svc:adminSecret` or an app token), read by the provider at run time, never by this program.
 */
import * as pulumi from "@pulumi/pulumi";
import * as svc from "pulumi-svc";

const config = new pulumi.Config();

// A USER token: the backend exchanges it for short sessions; it can never act as the account admin.
const backendToken = new svc.AppToken("backend", {
  description: "backend service (basic example)",
  sessionType: "USER",
  sessionDuration: 3600,
});

// A webhook: clones the platform's "entry added" system template with our URL and signing secret, then activates it.
const entryAdded = new svc.HttpNotificationTemplate("entry-added", {
  event: "entry.added",
  name: "Entry added (basic example)",
  systemName: "BASIC_ENTRY_ADDED",
  url: config.require("webhookUrl"),
  signSecret: config.requireSecret("webhookSigningSecret"),
});

export const tokenId = backendToken.tokenId;
/** A Pulumi secret: shown as [secret]; read it with `pulumi stack output backendToken --show-secrets`. */
export const backendTokenValue = backendToken.token;
export const templateId = entryAdded.templateId;
export const templateActive = entryAdded.active;
