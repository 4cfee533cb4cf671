/**
 * App tokens as a team leaves them in an account: repeated, missing and varied settings, for the takeover tests
 * (the plugin's and every language's) to find and write as code.
 */
const HASHES = ["SHA1", "SHA256", "SHA512"] as const;

/** The fields of the `i`-th token (every tenth without a description, some with a user id or an expiry). */
export function variedTokenFields(i: number) {
  return {
    ...(i % 10 === 9 ? {} : { description: `service ${i % 45}` }),
    hashType: HASHES[i % 3],
    sessionType: i % 4 === 0 ? 2 : 0,
    sessionDuration: (i % 5) * 600,
    sessionPrivileges: i % 2 === 0 ? "list:*" : "",
    ...(i % 7 === 0 ? { sessionUserId: `user-${i}` } : {}),
    ...(i % 11 === 0 ? { expiry: Math.floor(Date.now() / 1000) + 86_400 * 365 } : {}),
  };
}
