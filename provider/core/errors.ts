/** Errors of the provider runtime. Messages name the field and what was expected, and never carry a secret. */
import { isNotFound } from "../../contract/notFound";
import { safeErrorCode } from "../../sdk/core/errors";
import { redact } from "../../sdk/core/redact";

/**
 * A failure as "CODE: message" (or the message alone when it has no code and no `fallbackCode`), for provider
 * messages and events. Both parts are redacted and the code is cut short: the platform's error code is its own text,
 * which may echo a credential or run long.
 */
export function failureText(error: unknown, fallbackCode?: string): string {
  const e = error as { code?: unknown; message?: unknown } | null | undefined;
  const message = redact(String(typeof e?.message === "string" ? e.message : error));
  const code = e !== null && typeof e === "object" && e.code !== undefined ? e.code : fallbackCode;
  return code === undefined ? message : `${safeErrorCode(code)}: ${message}`;
}

/** An error saying the object does not exist (any more): the contract's not-found codes. */
export function isGone(error: unknown): boolean {
  return typeof error === "object" && error !== null && isNotFound(error);
}

/** Runs a call on one object; undefined when the object does not exist (any more), any other failure throws. */
export async function unlessGone<T>(call: () => Promise<T>): Promise<T | undefined> {
  try {
    return await call();
  } catch (error) {
    if (isGone(error)) return undefined;
    throw error;
  }
}

export class ProviderError extends Error {
  override readonly name = "ProviderError";
}

/**
 * A create that made an object but could not finish and could not clean up either: carrying `id` and `properties`
 * makes the engine record the object (a partial failure), so nothing is left on the server unrecorded.
 */
export class PartialCreateError extends Error {
  override readonly name = "PartialCreateError";
  constructor(
    message: string,
    readonly id: string,
    readonly properties: Record<string, unknown>,
    readonly reasons: string[] = [message],
  ) {
    super(message);
  }
}
