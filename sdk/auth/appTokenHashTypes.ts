/**
 * Which hash type an app token was created with, for appToken.startSession's tokenHash. Given (the sdk's
 * `hashType`, the provider's svc:appTokenHashType), it is used alone. Not given, each is tried in turn while the
 * platform answers INVALID_APP_TOKEN_HASH, and the one that worked is remembered for the client's later sessions:
 * tokens made by this project default to SHA256, tokens made elsewhere to the platform's default, SHA1. The type
 * whose tokens have the given token's length goes first (the spec: a SHA256 token is 64 hex characters), since
 * that is usually the one; the real service also hands out 32-character tokens of any type, hence the search.
 */
import { type HashType, TOKEN_HEX_LENGTH } from "../../contract/platform";
import { SvcApiError } from "../core/errors";

/** The order of the search: this project's default, then the platform's, then the others. */
export const HASH_TYPE_SEARCH_ORDER: readonly HashType[] = ["SHA256", "SHA1", "SHA512", "MD5"];

/** The search order for `token`: the type its length suggests first. */
export function hashTypesToTry(token: string): HashType[] {
  const byLength = HASH_TYPE_SEARCH_ORDER.filter((hashType) => TOKEN_HEX_LENGTH[hashType] === token.length);
  return [...byLength, ...HASH_TYPE_SEARCH_ORDER.filter((hashType) => !byLength.includes(hashType))];
}

export interface HashTypeFinder {
  /** Run `attempt` with the known hash type, or with each in turn until one is not refused as INVALID_APP_TOKEN_HASH. */
  find<T>(attempt: (hashType: HashType) => Promise<T>): Promise<T>;
}

export function createHashTypeFinder(given: HashType | undefined, token: string): HashTypeFinder {
  let known = given;
  const order = hashTypesToTry(token);
  return {
    async find(attempt) {
      if (known) return attempt(known);
      let refusal: unknown;
      for (const hashType of order) {
        try {
          const result = await attempt(hashType);
          known = hashType;
          return result;
        } catch (error) {
          if (!(error instanceof SvcApiError && error.code === "INVALID_APP_TOKEN_HASH")) throw error;
          refusal = error;
        }
      }
      throw refusal;
    },
  };
}
