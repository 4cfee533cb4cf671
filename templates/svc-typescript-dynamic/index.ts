/**
 * An app token on the video platform, through pulumi-svc's dynamic providers: they run inside Pulumi's Node.js
 * host, no plugin is installed. The account comes from the stack's svc:* settings.
 */
import * as svc from "pulumi-svc";

const pipeline = new svc.AppToken("pipeline", { description: "Deployment pipeline", sessionPrivileges: "list:*" });

export const pipelineTokenId = pipeline.tokenId;
/** A secret: `pulumi stack output pipelineToken --show-secrets`. */
export const pipelineToken = pipeline.token;
