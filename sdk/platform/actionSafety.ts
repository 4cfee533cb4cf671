/**
 * Which api_v3 actions are safe to repeat, each with its reason. The platform honours no idempotency key, so the
 * transport retries by what the action does; what each class retries on is RETRY_RULES
 * (sdk/transport/retryPolicy.ts). docs/sdk.md "Retry rules" shows both as one table.
 */
import { isNotFound } from "../../contract/platform";

export type ActionClass = "idempotent" | "create";

/** The actions safe to repeat, each with why. */
const IDEMPOTENT: Readonly<Record<string, string>> = {
  get: "a read",
  list: "a read",
  listTemplates: "a read",
  update: "sets the given values: repeating it gives the same object",
  updateStatus: "sets the given status: repeating it gives the same object",
  delete: "gone stays gone; a repeat that finds the object gone counts as done",
  end: "session.end: an ended session stays ended",
  start: "session.start makes no object anyone manages: a ks whose answer was lost just expires",
  startWidgetSession: "makes no object anyone manages: a lost widget ks just expires",
  startSession: "appToken.startSession makes no object anyone manages: a lost ks just expires",
};

/** The actions that make an object, each with why a repeat is not safe. */
const CREATES: Readonly<Record<string, string>> = {
  add: "a repeat after a lost answer could make a second object: retried only by the caller's recovery",
  clone: "a repeat after a lost answer could make a second template: retried only by the caller's recovery",
};

const classed = (actions: Readonly<Record<string, string>>, actionClass: ActionClass) =>
  Object.entries(actions).map(([action, reason]) => [action, { class: actionClass, reason }] as const);

export const ACTION_CLASSES: Readonly<Record<string, { class: ActionClass; reason: string }>> = Object.fromEntries([
  ...classed(IDEMPOTENT, "idempotent"),
  ...classed(CREATES, "create"),
]);

/** Unknown actions are treated as creates: the safe side. */
export function isIdempotentAction(action: string): boolean {
  return Object.hasOwn(ACTION_CLASSES, action) && ACTION_CLASSES[action]?.class === "idempotent";
}

/** Deletes repeated after a lost answer find the object gone: that is success, not an error. */
export function isNotFoundAfterRetriedDelete(action: string, attempts: number, code: string): boolean {
  return action === "delete" && attempts > 1 && isNotFound(code);
}
