/**
 * Session JWTs: HS256 via jose with the emulator's random key. Claims: sub = session id, jti = the session's
 * token id (cleared on end, which invalidates the token), pid/uid = owner, exp = one day (the real service's
 * lifetime is about a day). jose is ESM-only, so it is loaded with a dynamic import from this CommonJS module.
 */
type Jose = typeof import("jose", { with: { "resolution-mode": "import" }});
let josePromise: Promise<Jose> | undefined;
const jose = (): Promise<Jose> => (josePromise ??= import("jose"));

export const JWT_LIFETIME_SECONDS = 24 * 60 * 60;
const ISSUER = "svc-emulator/avatar-api";

export interface SessionClaims {
  sessionId: string;
  tokenId: string;
  partnerId: number;
  userId: string;
}

export async function signSessionJwt(key: Uint8Array, claims: SessionClaims, nowMs: number): Promise<string> {
  const { SignJWT } = await jose();
  const iat = Math.floor(nowMs / 1000);
  return new SignJWT({ pid: claims.partnerId, uid: claims.userId })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setSubject(claims.sessionId)
    .setJti(claims.tokenId)
    .setIssuer(ISSUER)
    .setIssuedAt(iat)
    .setExpirationTime(iat + JWT_LIFETIME_SECONDS)
    .sign(key);
}

/** The token's session id and token id, or undefined when the signature, issuer or expiry is wrong. */
export async function verifySessionJwt(key: Uint8Array, token: string, nowMs: number): Promise<{ sessionId: string; tokenId: string } | undefined> {
  const { jwtVerify } = await jose();
  try {
    const { payload } = await jwtVerify(token, key, {
      algorithms: ["HS256"],
      issuer: ISSUER,
      currentDate: new Date(nowMs),
    });
    if (typeof payload.sub !== "string" || typeof payload.jti !== "string") return undefined;
    return { sessionId: payload.sub, tokenId: payload.jti };
  } catch {
    return undefined;
  }
}
