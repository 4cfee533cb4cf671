/**
 * The hash types of an app token, the one list: the contract's zod enum (platform.ts) and the provider's
 * `appTokenHashType` setting (provider/core/settings.ts) are both made from it. No zod here: the plugin checks its
 * settings at Configure without loading it.
 */
export const HASH_TYPES = ["SHA1", "SHA256", "SHA512", "MD5"] as const;
export type HashTypeName = (typeof HASH_TYPES)[number];
