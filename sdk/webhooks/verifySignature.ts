/** Webhook signature check: X-SVC-SIGNATURE = hex(SHA256(signingSecret + rawBody)), compared in constant time. */
import { createHash, timingSafeEqual } from "node:crypto";

const HEX_SHA256 = /^[0-9a-f]{64}$/;

export function computeSignature(rawBody: string | Buffer, secret: string): string {
  const body = typeof rawBody === "string" ? Buffer.from(rawBody, "utf8") : rawBody;
  return createHash("sha256").update(Buffer.concat([Buffer.from(secret, "utf8"), body])).digest("hex");
}

/**
 * True when `header` is the signature of `rawBody` (the exact bytes received, before any JSON parsing)
 * under `secret`. Upper-case hex and surrounding spaces are tolerated; anything else is false.
 */
export function verifySignature(rawBody: string | Buffer, header: string | undefined, secret: string): boolean {
  if (typeof header !== "string" || typeof secret !== "string" || secret === "") return false;
  const given = header.trim().toLowerCase();
  if (!HEX_SHA256.test(given)) return false;
  const expected = computeSignature(rawBody, secret);
  return timingSafeEqual(Buffer.from(given, "utf8"), Buffer.from(expected, "utf8"));
}
