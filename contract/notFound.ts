/**
 * The platform's not-found codes (platform.ts re-exports them and checks they are its error codes), apart from the
 * contract's schemas: the provider's errors (provider/core/errors.ts) test for them in a process that has not loaded zod.
 */

/** Codes meaning "this object does not exist (any more)": a delete that meets one has nothing left to do. */
export const NOT_FOUND_CODES = ["APP_TOKEN_ID_NOT_FOUND", "EVENT_NOTIFICATION_TEMPLATE_NOT_FOUND", "ENTRY_ID_NOT_FOUND"] as const;

/** True for an error (or a code) that says the object does not exist (any more). */
export function isNotFound(errorOrCode: unknown): boolean {
  const code = typeof errorOrCode === "object" && errorOrCode !== null ? (errorOrCode as { code?: unknown }).code : errorOrCode;
  return typeof code === "string" && (NOT_FOUND_CODES as readonly string[]).includes(code);
}
