/**
 * How a resource reaches the platform. Usually from stack config (`svc:*`, read by the dynamic provider's
 * configure), with environment variables as fallback; a resource may pass an explicit `connection` to reach a
 * second account. Credentials are secrets: the resource wrappers wrap this object in pulumi.secret(). A connection
 * that names an account (baseUrl or partnerId) brings its own credentials: see connection.ts for the rules.
 */
import { z } from "zod";
import { BaseUrl } from "../../contract/baseUrl";
import { HashType } from "../../contract/platform";

export const ConnectionInput = z.strictObject({
  /** The api_v3 root, e.g. https://api.example.com/api_v3 (or the emulator's base URL). */
  baseUrl: BaseUrl.optional(),
  partnerId: z.number().int().positive().optional(),
  /** The account's admin secret: enough for everything, but pipelines should prefer an app token. */
  adminSecret: z.string().min(1).optional(),
  /** An app token (id and value) to authenticate with, instead of the admin secret. */
  appTokenId: z.string().min(1).optional(),
  appToken: z.string().min(1).optional(),
  appTokenHashType: HashType.optional(),
  /** A ready session string. */
  ks: z.string().min(1).optional(),
  /** Timeout of each HTTP call, in milliseconds. */
  requestTimeoutMs: z.number().int().positive().optional(),
  /** Allow a plain http:// baseUrl of this connection to a host outside loopback; only ever counts next to that baseUrl. */
  allowInsecureHttp: z.boolean().optional(),
});
export type ConnectionInput = z.infer<typeof ConnectionInput>;
