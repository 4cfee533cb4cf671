/**
 * An app token on the video platform, through the svc plugin (`pulumi-svc/native`): the engine downloads the plugin
 * of this package's version when it is missing. The account comes from the stack's svc:* settings.
 */
import * as svc from "pulumi-svc/native";

const pipeline = new svc.AppToken("pipeline", { description: "Deployment pipeline", sessionPrivileges: "list:*" });

export const pipelineTokenId = pipeline.id;
/** A secret: `pulumi stack output pipelineToken --show-secrets`. */
export const pipelineToken = pipeline.token;
