/**
 * Webhook signature check: X-SVC-SIGNATURE = hex(hash(signingSecret + rawBody)), compared in constant time. The
 * hash is the one X-SVC-HASH-ALGO names (sha1, sha256, sha512: the template's secureHashingAlgo); when the caller
 * passes no algorithm header, the one the signature's length gives (a delivery of the spec's kind is SHA256).
 */
import { createHash, timingSafeEqual } from "node:crypto";
import {
  DEFAULT_SIGNATURE_ALGORITHM,
  SIGNATURE_ALGORITHMS,
  parseSignatureAlgorithm,
  signatureAlgorithmByLength,
  type SignatureAlgorithm,
} from "../../contract/webhooks";

export type { SignatureAlgorithm };

const HEX = /^[0-9a-f]+$/;

export function computeSignature(rawBody: string | Buffer, secret: string, algorithm: SignatureAlgorithm = DEFAULT_SIGNATURE_ALGORITHM): string {
  const body = typeof rawBody === "string" ? Buffer.from(rawBody, "utf8") : rawBody;
  return createHash(algorithm)
    .update(Buffer.concat([Buffer.from(secret, "utf8"), body]))
    .digest("hex");
}

export interface VerifyOptions {
  /** The algorithms accepted (default: all three). A signature made with any other is false. */
  accept?: readonly SignatureAlgorithm[];
}

/**
 * True when `header` is the signature of `rawBody` (the exact bytes received, before any JSON parsing) under
 * `secret`. The algorithm is the one the delivery's X-SVC-HASH-ALGO header names (`algorithmHeader`); without it
 * (the simple form), the one whose hex length the signature has (40 sha1, 64 sha256, 128 sha512), so a receiver
 * that passes only X-SVC-SIGNATURE still verifies every algorithm the platform uses. An algorithm header naming
 * anything else, or an algorithm outside `options.accept`, is false: a receiver must not guess. Upper-case hex and
 * surrounding spaces are tolerated; anything else is false.
 */
export function verifySignature(
  rawBody: string | Buffer,
  header: string | undefined,
  secret: string,
  algorithmHeader?: string,
  options: VerifyOptions = {},
): boolean {
  if (typeof header !== "string" || typeof secret !== "string" || secret === "") return false;
  if (typeof rawBody !== "string" && !Buffer.isBuffer(rawBody)) return false;
  const given = header.trim().toLowerCase();
  const named = typeof algorithmHeader === "string" && algorithmHeader !== "";
  const algorithm = named ? parseSignatureAlgorithm(algorithmHeader) : (signatureAlgorithmByLength(given.length) ?? DEFAULT_SIGNATURE_ALGORITHM);
  if (algorithm === undefined) return false;
  if (options.accept !== undefined && !options.accept.includes(algorithm)) return false;
  const hexLength = Object.values(SIGNATURE_ALGORITHMS).find((a) => a.header === algorithm)?.hexLength;
  if (given.length !== hexLength || !HEX.test(given)) return false;
  const expected = computeSignature(rawBody, secret, algorithm);
  return timingSafeEqual(Buffer.from(given, "utf8"), Buffer.from(expected, "utf8"));
}
