/**
 * Which api_v3 actions are safe to repeat, each with its reason. The platform honours no idempotency key, so the
 * transport retries by what the action does; what each class retries on is RETRY_RULES
 * (sdk/transport/retryPolicy.ts). docs/sdk.md "Retry rules" shows both as one table.
 */
import { isNotFound } from "../../contract/platform";

export type ActionClass = "idempotent" | "create";

export const ACTION_CLASSES: Readonly<Record<string, { class: ActionClass; reason: string }>> = {
  get: { class: "idempotent", reason: "a read" },
  list: { class: "idempotent", reason: "a read" },
  listTemplates: { class: "idempotent", reason: "a read" },
  update: { class: "idempotent", reason: "sets the given values: repeating it gives the same object" },
  updateStatus: { class: "idempotent", reason: "sets the given status: repeating it gives the same object" },
  delete: { class: "idempotent", reason: "gone stays gone; a repeat that finds the object gone counts as done" },
  end: { class: "idempotent", reason: "session.end: an ended session stays ended" },
  start: { class: "idempotent", reason: "session.start makes no object anyone manages: a ks whose answer was lost just expires" },
  startWidgetSession: { class: "idempotent", reason: "makes no object anyone manages: a lost widget ks just expires" },
  startSession: { class: "idempotent", reason: "appToken.startSession makes no object anyone manages: a lost ks just expires" },
  add: { class: "create", reason: "a repeat after a lost answer could make a second object: retried only by the caller's recovery" },
  clone: { class: "create", reason: "a repeat after a lost answer could make a second template: retried only by the caller's recovery" },
};

/** Unknown actions are treated as creates: the safe side. */
export function isIdempotentAction(action: string): boolean {
  return Object.hasOwn(ACTION_CLASSES, action) && ACTION_CLASSES[action]?.class === "idempotent";
}

/** Deletes repeated after a lost answer find the object gone: that is success, not an error. */
export function isNotFoundAfterRetriedDelete(action: string, attempts: number, code: string): boolean {
  return action === "delete" && attempts > 1 && isNotFound(code);
}
