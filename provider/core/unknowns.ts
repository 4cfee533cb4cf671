/**
 * During preview the engine sends values it does not know yet (outputs of resources not created) as a sentinel
 * string. check and diff must treat them as unknown, never validate them as values.
 */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

/** True when the value is unknown, or holds an unknown anywhere inside it. */
export function isUnknown(value: unknown): boolean {
  if (value === UNKNOWN) return true;
  if (Array.isArray(value)) return value.some(isUnknown);
  if (value !== null && typeof value === "object") return Object.values(value).some(isUnknown);
  return false;
}
