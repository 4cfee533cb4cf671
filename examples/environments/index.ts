/**
 * One program for every environment. Only stack config differs: where the platform is and how to authenticate
 * (`svc:*`), where webhooks go, and a suffix that keeps template system names apart. Switch with
 * `pulumi stack select dev|prod`.
 */
import * as pulumi from "@pulumi/pulumi";
import * as svc from "pulumi-svc";

const config = new pulumi.Config();
const environment = pulumi.getStack();
const suffix = config.require("systemNameSuffix").toUpperCase();
if (!/^[A-Z0-9_]{1,20}$/.test(suffix)) {
  throw new Error(`systemNameSuffix must be 1-20 letters, digits or _ (got "${suffix}")`);
}

const backendToken = new svc.AppToken("backend", {
  description: `backend service (${environment})`,
  sessionType: "USER",
  sessionDuration: 3600,
  keepers: { rotation: config.get("tokenRotation") ?? "1" },
});

const entryReady = new svc.HttpNotificationTemplate("entry-ready", {
  event: "entry.ready",
  name: `Entry ready (${environment})`,
  systemName: `ENTRY_READY_${suffix}`,
  url: config.require("webhookUrl"),
  signSecret: config.requireSecret("webhookSigningSecret"),
});

export const stack = environment;
export const backendTokenId = backendToken.tokenId;
export const backendTokenValue = backendToken.token; // a secret
export const entryReadyTemplateId = entryReady.templateId;
export const entryReadySystemName = entryReady.systemName;
