/**
 * Webhook signature check: X-SVC-SIGNATURE = hex(hash(signingSecret + rawBody)), compared in constant time. The
 * hash is the one X-SVC-HASH-ALGO names (sha1, sha256, sha512: the template's secureHashingAlgo); when the caller
 * passes no algorithm header, the one the signature's length gives (a delivery of the spec's kind is SHA256).
 * Only the accepted algorithms count, RECOMMENDED_ALGORITHMS unless the caller says otherwise: the sender's header
 * names the hash, so without a list it would choose SHA1 too.
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

/**
 * Accepted when the receiver pins nothing: SHA256 (the spec's algorithm and a template's default) and SHA512.
 * SHA1 (secureHashingAlgo 1) is accepted only when listed explicitly: `algorithms: ["sha1"]`.
 */
export const RECOMMENDED_ALGORITHMS: readonly SignatureAlgorithm[] = Object.freeze(["sha256", "sha512"]);

const HEX = /^[0-9a-f]+$/;

export function computeSignature(rawBody: string | Buffer, secret: string, algorithm: SignatureAlgorithm = DEFAULT_SIGNATURE_ALGORITHM): string {
  const body = typeof rawBody === "string" ? Buffer.from(rawBody, "utf8") : rawBody;
  return createHash(algorithm)
    .update(Buffer.concat([Buffer.from(secret, "utf8"), body]))
    .digest("hex");
}

export interface VerifyOptions {
  /** The algorithms accepted (default RECOMMENDED_ALGORITHMS: sha256, sha512). A signature made with any other is false. */
  accept?: readonly SignatureAlgorithm[];
}

/**
 * True when `header` is the signature of `rawBody` (the exact bytes received, before any JSON parsing) under
 * `secret`. The algorithm is the one the delivery's X-SVC-HASH-ALGO header names (`algorithmHeader`); without it
 * (the simple form), the one whose hex length the signature has (40 sha1, 64 sha256, 128 sha512). An algorithm
 * header naming anything else, or an algorithm outside `options.accept` (default sha256, sha512), is false: a
 * receiver must not guess. Upper-case hex and
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
  if (!(options.accept ?? RECOMMENDED_ALGORITHMS).includes(algorithm)) return false;
  const hexLength = Object.values(SIGNATURE_ALGORITHMS).find((a) => a.header === algorithm)?.hexLength;
  if (given.length !== hexLength || !HEX.test(given)) return false;
  const expected = computeSignature(rawBody, secret, algorithm);
  return timingSafeEqual(Buffer.from(given, "utf8"), Buffer.from(expected, "utf8"));
}
