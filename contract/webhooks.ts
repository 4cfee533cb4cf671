/**
 * Webhook facts, defined once: the two headers of a delivery, the algorithm names per `secureHashingAlgo`, and
 * which URLs a template may point at. The emulator signs and sends with these; the sdk's receiver verifies with
 * them; the url rule (webhookUrl.ts) is applied by the contract's template schemas, so sdk, emulator and
 * provider refuse the same URLs.
 */
import { SecureHashingAlgo, type SecureHashingAlgoName } from "./platform";

/** hex hash(algorithm, signSecret + raw body): a plain hash, not an HMAC. */
export const SIGNATURE_HEADER = "X-SVC-SIGNATURE";
/** Names the algorithm of X-SVC-SIGNATURE (`sha1`, `sha256`, `sha512`); a receiver that finds none uses SHA256. */
export const SIGNATURE_ALGORITHM_HEADER = "X-SVC-HASH-ALGO";

/** The header's value (also the node:crypto hash name) and the hex length of a signature, per algorithm. */
export const SIGNATURE_ALGORITHMS = {
  SHA1: { header: "sha1", hexLength: 40 },
  SHA256: { header: "sha256", hexLength: 64 },
  SHA512: { header: "sha512", hexLength: 128 },
} as const satisfies Record<SecureHashingAlgoName, { header: string; hexLength: number }>;

export type SignatureAlgorithm = (typeof SIGNATURE_ALGORITHMS)[SecureHashingAlgoName]["header"];
/** What the spec describes, and what a delivery without X-SVC-HASH-ALGO is signed with. */
export const DEFAULT_SIGNATURE_ALGORITHM: SignatureAlgorithm = "sha256";

const NAMES = Object.keys(SIGNATURE_ALGORITHMS) as SecureHashingAlgoName[];

/** The algorithm of a template's `secureHashingAlgo` (1, 2, 3); SHA256 when absent or unknown. */
export function signatureAlgorithmOf(secureHashingAlgo: number | undefined): SignatureAlgorithm {
  const name = NAMES.find((key) => SecureHashingAlgo[key] === secureHashingAlgo);
  return name ? SIGNATURE_ALGORITHMS[name].header : DEFAULT_SIGNATURE_ALGORITHM;
}

/** The algorithm an X-SVC-HASH-ALGO value names (case-insensitive); undefined when it names none we know. */
export function parseSignatureAlgorithm(value: string): SignatureAlgorithm | undefined {
  const wanted = value.trim().toLowerCase();
  return NAMES.map((key) => SIGNATURE_ALGORITHMS[key].header).find((header) => header === wanted);
}

/** The algorithm whose signatures have this many hex characters (the emulator's stored jobs carry only the hex). */
export function signatureAlgorithmByLength(hexLength: number): SignatureAlgorithm | undefined {
  return NAMES.map((key) => SIGNATURE_ALGORITHMS[key]).find((a) => a.hexLength === hexLength)?.header;
}

export { isAllowedWebhookUrl, isLoopbackHost, WEBHOOK_URL_EXPECTATION } from "./webhookUrl";
