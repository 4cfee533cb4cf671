/** appToken.startSession's tokenHash: lower-case hex of hash(hashType, ks + token), ks being the session sent with it. */
import { createHash } from "node:crypto";
import { HASH_TYPE_ALGORITHM, type HashType } from "../../contract/platform";

export function appTokenHash(hashType: HashType, ks: string, token: string): string {
  return createHash(HASH_TYPE_ALGORITHM[hashType])
    .update(ks + token, "utf8")
    .digest("hex");
}
