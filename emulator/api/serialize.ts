/**
 * Response bodies: `format=1` JSON with null fields omitted; without a format, a minimal XML envelope as the
 * real service's default (`<xml><result>...</result><executionTime/></xml>`). format=2 is XML too.
 */

/** Drops null/undefined fields recursively (the platform omits null fields from JSON). */
export function omitNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map((v) => (v === null || v === undefined ? null : omitNulls(v)));
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) if (v !== null && v !== undefined) out[k] = omitNulls(v);
    return out;
  }
  return value;
}

export type ResponseFormat = "json" | "xml";

export function formatOf(format: string | undefined): ResponseFormat {
  if (format === undefined || format === "" || format === "2") return "xml";
  return "json";
}

/** JSON text of a result; a void result (undefined) is an empty body, as the spec says for delete. */
export function toJson(result: unknown): string {
  return result === undefined ? "" : JSON.stringify(omitNulls(result));
}

const escapeXml = (s: string): string => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

function xmlValue(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (Array.isArray(value)) return value.map((v) => `<item>${xmlValue(v)}</item>`).join("");
  if (typeof value === "object") {
    return Object.entries(value)
      .filter(([, v]) => v !== null && v !== undefined)
      .map(([k, v]) => (/^[A-Za-z_][\w.-]*$/.test(k) ? `<${k}>${xmlValue(v)}</${k}>` : `<item name="${escapeXml(k)}">${xmlValue(v)}</item>`))
      .join("");
  }
  return escapeXml(String(value));
}

/** `isError` wraps the error object in `<error>` as the real XML format does. */
export function toXml(result: unknown, isError = false, executionTime = 0): string {
  const inner = isError ? `<error>${xmlValue(result)}</error>` : xmlValue(result);
  return `<?xml version="1.0" encoding="utf-8"?><xml><result>${inner}</result><executionTime>${executionTime}</executionTime></xml>`;
}
