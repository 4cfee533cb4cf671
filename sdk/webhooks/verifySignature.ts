/**
 * Webhook signature check: X-SVC-SIGNATURE = hex(hash(signingSecret + rawBody)), compared in constant time. The
 * hash is the one X-SVC-HASH-ALGO names (sha1, sha256, sha512: the template's secureHashingAlgo); SHA256 when the
 * delivery names none, as the spec describes.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import { DEFAULT_SIGNATURE_ALGORITHM, SIGNATURE_ALGORITHMS, parseSignatureAlgorithm, type SignatureAlgorithm } from "../../contract/webhooks";

export type { SignatureAlgorithm };

const HEX = /^[0-9a-f]+$/;

export function computeSignature(rawBody: string | Buffer, secret: string, algorithm: SignatureAlgorithm = DEFAULT_SIGNATURE_ALGORITHM): string {
  const body = typeof rawBody === "string" ? Buffer.from(rawBody, "utf8") : rawBody;
  return createHash(algorithm)
    .update(Buffer.concat([Buffer.from(secret, "utf8"), body]))
    .digest("hex");
}

/**
 * True when `header` is the signature of `rawBody` (the exact bytes received, before any JSON parsing) under
 * `secret`, with the algorithm the delivery's X-SVC-HASH-ALGO header names (`algorithmHeader`; SHA256 when it is
 * absent). An algorithm header naming anything else is false: a receiver must not guess. Upper-case hex and
 * surrounding spaces are tolerated; anything else is false.
 */
export function verifySignature(rawBody: string | Buffer, header: string | undefined, secret: string, algorithmHeader?: string): boolean {
  if (typeof header !== "string" || typeof secret !== "string" || secret === "") return false;
  const algorithm = algorithmHeader === undefined || algorithmHeader === "" ? DEFAULT_SIGNATURE_ALGORITHM : parseSignatureAlgorithm(algorithmHeader);
  if (algorithm === undefined) return false;
  const given = header.trim().toLowerCase();
  const hexLength = Object.values(SIGNATURE_ALGORITHMS).find((a) => a.header === algorithm)?.hexLength;
  if (given.length !== hexLength || !HEX.test(given)) return false;
  const expected = computeSignature(rawBody, secret, algorithm);
  return timingSafeEqual(Buffer.from(given, "utf8"), Buffer.from(expected, "utf8"));
}
