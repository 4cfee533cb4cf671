/**
 * The program the pipeline files in this folder deploy: the same code for every environment, one stack each
 * (dev, staging, prod), with the per-environment settings in Pulumi.<stack>.yaml. The connection is not in the
 * stack files: the pipeline takes it from the CI secret store as SVC_BASE_URL, SVC_PARTNER_ID and an app token
 * (SVC_APP_TOKEN_ID + SVC_APP_TOKEN), which the provider reads when the matching svc:* config is absent.
 */
import * as pulumi from "@pulumi/pulumi";
import * as svc from "pulumi-svc";

const config = new pulumi.Config();
const environment = pulumi.getStack();

const backend = new svc.AppToken("backend", {
  description: `backend service (${environment})`,
  sessionType: "USER",
  sessionDuration: config.getNumber("sessionDuration") ?? 3600,
  keepers: { rotation: config.get("tokenRotation") ?? "1" },
});

export const stack = environment;
export const backendTokenId = backend.tokenId;
export const backendToken = backend.token; // a secret
