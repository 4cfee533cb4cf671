/**
 * Which api_v3 actions are safe to repeat. The platform honours no idempotency key, so the transport
 * retries by what the action does (see docs/sdk.md "Retry rule"):
 * - reads and full-value writes (update with the given values, updateStatus, delete, session.end) are
 *   idempotent and retried on connection errors, timeouts, 429 and 5xx;
 * - everything else (add, clone, session.start, appToken.startSession, unknown actions) is a create:
 *   retried only when the request cannot have reached the server.
 */
import { isNotFound } from "../contract/platform";

const IDEMPOTENT_ACTIONS = new Set(["get", "list", "listTemplates", "update", "updateStatus", "delete", "end"]);

export function isIdempotentAction(action: string): boolean {
  return IDEMPOTENT_ACTIONS.has(action);
}

/** Deletes repeated after a lost answer find the object gone: that is success, not an error. */
export function isNotFoundAfterRetriedDelete(action: string, attempts: number, code: string): boolean {
  return action === "delete" && attempts > 1 && isNotFound(code);
}
