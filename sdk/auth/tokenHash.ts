/** appToken.startSession's tokenHash: lower-case hex of hash(hashType, ks + token), ks being the session sent with it. */
import { createHash } from "node:crypto";
import type { HashType } from "../contract/platform";

const NODE_ALGORITHM: Record<HashType, string> = { MD5: "md5", SHA1: "sha1", SHA256: "sha256", SHA512: "sha512" };

export function appTokenHash(hashType: HashType, ks: string, token: string): string {
  return createHash(NODE_ALGORITHM[hashType]).update(ks + token, "utf8").digest("hex");
}
