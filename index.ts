/**
 * The main example: the API setup of a video platform team, as code, one stack per environment
 * (Pulumi.dev.yaml runs against the local emulator, Pulumi.prod.yaml against a real account).
 *
 *   - an app token for the deployment pipeline (USER sessions, narrow privileges, rotated by `tokenRotation`)
 *   - an app token for the backend that starts avatar sessions (ADMIN sessions for one fixed service user)
 *   - a webhook: entries that become ready are POSTed, signed, to the publishing service
 *
 * The connection comes from stack config (`svc:baseUrl`, `svc:partnerId`, and `svc:appTokenId` + secret
 * `svc:appToken`, or secret `svc:adminSecret`) or the SVC_* environment variables.
 */
import * as pulumi from "@pulumi/pulumi";
import * as svc from "pulumi-svc";

const stack = pulumi.getStack();
const config = new pulumi.Config();
const rotation = { rotation: config.get("tokenRotation") ?? "1" };

const pipelineToken = new svc.AppToken("deploy-pipeline", {
  description: `Deployment pipeline (${stack})`,
  sessionType: "USER",
  sessionPrivileges: "list:*",
  sessionDuration: 3600,
  keepers: rotation,
});

const avatarBackendToken = new svc.AppToken("avatar-backend", {
  description: `Avatar session backend (${stack})`,
  sessionType: "ADMIN",
  sessionUserId: "avatar-backend",
  sessionDuration: 86400,
  keepers: rotation,
});

const entryReady = new svc.HttpNotificationTemplate("entry-ready", {
  event: "entry.ready",
  name: `Entry ready -> publishing (${stack})`,
  systemName: `PUBLISHING_ENTRY_READY_${stack.toUpperCase()}`,
  url: config.require("webhookUrl"),
  signSecret: config.requireSecret("webhookSigningSecret"),
});

export const pipelineTokenId = pipelineToken.tokenId;
/** Secret: read it with `pulumi stack output pipelineToken --show-secrets`, store it in the pipeline's vault. */
export const pipelineTokenValue = pipelineToken.token;
export const avatarBackendTokenId = avatarBackendToken.tokenId;
export const avatarBackendTokenValue = avatarBackendToken.token;
export const webhookTemplateId = entryReady.templateId;
export const webhookActive = entryReady.active;
