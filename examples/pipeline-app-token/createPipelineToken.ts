/**
 * The one-time bootstrap of a GitOps pipeline's credential: an ADMIN app token with the `disableentitlement`
 * privilege (what template calls need), created once with the account's admin secret. From then on the pipeline
 * holds only this token's id and value: it never sees the admin secret, and the token can be revoked on its own.
 */
import type { AppToken, SvcClient } from "pulumi-svc/sdk";

export interface PipelineTokenOptions {
  /** Shown in the platform's token list; name the pipeline and repository. */
  description?: string;
  /** Maximum lifetime in seconds of each session the pipeline starts from it; default one hour. */
  sessionDuration?: number;
  /** Unix time after which the token stops working; default 0 (never; rotate instead). */
  expiry?: number;
}

export const PIPELINE_TOKEN_DEFAULTS = {
  description: "pulumi pipeline (bootstrap)",
  sessionDuration: 3600,
  expiry: 0,
} as const;

/**
 * Creates the token with an admin client (an `SvcClient` on the admin secret; any object with its
 * `appTokens.add`). The result carries the token value: hand it on, never log it.
 */
export async function createPipelineToken(
  adminClient: { readonly appTokens: Pick<SvcClient["appTokens"], "add"> },
  options: PipelineTokenOptions = {},
): Promise<{ id: string; token: string; hashType: AppToken["hashType"] }> {
  const created = await adminClient.appTokens.add({
    hashType: "SHA256",
    // ADMIN, because managing app tokens and templates needs an admin session; the privilege below is what
    // the event notification services require on top (spec: ADMIN session with disableentitlement).
    sessionType: 2,
    sessionPrivileges: "disableentitlement",
    sessionDuration: options.sessionDuration ?? PIPELINE_TOKEN_DEFAULTS.sessionDuration,
    expiry: options.expiry ?? PIPELINE_TOKEN_DEFAULTS.expiry,
    description: options.description ?? PIPELINE_TOKEN_DEFAULTS.description,
  });
  if (!created.token) throw new Error(`appToken.add returned token ${created.id} without its value; delete it and retry`);
  return { id: created.id, token: created.token, hashType: created.hashType };
}
