/** The three ways a client authenticates, validated with messages that name the field (never its value). */
import { z } from "zod";
import { HashType } from "../../contract/platform";
import { SvcValidationError } from "../core/errors";
import { validateInput } from "../platform/validate";

export const AdminSecretAuth = z.strictObject({
  adminSecret: z.string().min(1, "must be a non-empty string"),
  userId: z.string().optional(),
  /** Privileges of the admin session; default "disableentitlement" (templates need it). */
  privileges: z.string().optional(),
  /** Session lifetime in seconds; default 86400. */
  sessionExpiry: z.number().int().min(60).optional(),
});
export type AdminSecretAuth = z.input<typeof AdminSecretAuth>;

export const AppTokenAuth = z.strictObject({
  appTokenId: z.string().min(1, "must be a non-empty string"),
  appToken: z.string().regex(/^[0-9a-fA-F]+$/, "must be the token's hex value"),
  /** The token's hashType (fixed at creation); found by trying each when not given (auth/appTokenHashTypes.ts). */
  hashType: HashType.optional(),
  userId: z.string().optional(),
  /** Requested session lifetime in seconds (the token's sessionDuration caps it). */
  sessionExpiry: z.number().int().min(60).optional(),
});
export type AppTokenAuth = z.input<typeof AppTokenAuth>;

export const KsAuth = z.strictObject({ ks: z.string().min(1, "must be a non-empty string") });
export type KsAuth = z.input<typeof KsAuth>;

export type ClientAuth = AdminSecretAuth | AppTokenAuth | KsAuth;

export type ParsedAuth =
  | ({ kind: "adminSecret" } & z.output<typeof AdminSecretAuth>)
  | ({ kind: "appToken" } & z.output<typeof AppTokenAuth>)
  | ({ kind: "ks" } & z.output<typeof KsAuth>);

/** Pick the variant by its distinguishing key, then validate that variant alone (clear messages). */
export function parseAuth(auth: unknown): ParsedAuth {
  if (!auth || typeof auth !== "object") {
    throw new SvcValidationError('SvcClient: field "auth" is required: { adminSecret } | { appTokenId, appToken } | { ks }');
  }
  const keys = ["adminSecret", "appTokenId", "ks"].filter((key) => key in auth);
  if (keys.length !== 1) {
    throw new SvcValidationError(
      `SvcClient: field "auth" must have exactly one of "adminSecret", "appTokenId", "ks" (found ${keys.length ? keys.join(", ") : "none"})`,
    );
  }
  if (keys[0] === "adminSecret") return { kind: "adminSecret", ...validateInput(AdminSecretAuth, auth, "SvcClient auth") };
  if (keys[0] === "appTokenId") return { kind: "appToken", ...validateInput(AppTokenAuth, auth, "SvcClient auth") };
  return { kind: "ks", ...validateInput(KsAuth, auth, "SvcClient auth") };
}
