/**
 * What the pipeline applies on every merge. It authenticates with the pipeline's app token (stack config
 * `svc:appTokenId` and the secret `svc:appToken`, or SVC_APP_TOKEN_ID / SVC_APP_TOKEN with SVC_BASE_URL / SVC_PARTNER_ID
 * in the CI environment),
 * made once by bootstrap.ts; the admin secret is neither in this program nor in the stack.
 */
import * as pulumi from "@pulumi/pulumi";
import * as svc from "pulumi-svc";

const config = new pulumi.Config();

// The token the backend service uses. Changing `rotation` replaces it: the new token is created first, the old
// one is revoked after, and the stack output changes, so the service's deployment can pick up the new value.
const backendToken = new svc.AppToken("backend", {
  description: "backend service (managed by the pipeline)",
  sessionType: "USER",
  sessionDuration: 3600,
  keepers: { rotation: config.get("tokenRotation") ?? "1" },
});

const entryReady = new svc.HttpNotificationTemplate("entry-ready", {
  event: "entry.ready",
  name: "Entry ready (pipeline)",
  systemName: "PIPELINE_ENTRY_READY",
  url: config.require("webhookUrl"),
  signSecret: config.requireSecret("webhookSigningSecret"),
});

export const backendTokenId = backendToken.tokenId;
export const backendTokenValue = backendToken.token; // a secret
export const entryReadyTemplateId = entryReady.templateId;
