/**
 * appToken.startSession: exchanges an app token for a session without the admin secret.
 * tokenHash = lowercase hex hash(hashType, ks + token), where ks is the (widget or other) session sent on this
 * same request. The minted ks takes type and user from the token, carries `sessionid` and `apptoken:<id>` plus
 * the token's privileges, and lives min(token duration (0 -> 86400), token remaining life, requested expiry).
 */
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { AppTokenStatus, HASH_TYPE_ALGORITHM, OBJECT_TYPES, SessionType, type AppTokenSession } from "../../contract/platform";
import type { ApiCall } from "../api/call";
import { ApiError } from "../shared/errors";
import { formatPrivileges, parsePrivileges } from "../sessions/ks";
import { findAppToken, type AppTokenRecord } from "./appTokenRecords";
import { DEFAULT_SESSION_SECONDS, sessionType } from "./session";

export function appTokenHash(token: AppTokenRecord, ks: string): string {
  return createHash(HASH_TYPE_ALGORITHM[token.hashType] ?? HASH_TYPE_ALGORITHM.SHA1)
    .update(ks + token.token)
    .digest("hex");
}

/** appToken.startSession */
export function startAppTokenSession(call: ApiCall): AppTokenSession {
  const ctx = call.ctx;
  const caller = call.anySession();
  const id = call.str("id");
  const tokenHash = call.str("tokenHash").toLowerCase();
  const token = findAppToken(ctx, caller.partnerId, id);
  if (token.status !== AppTokenStatus.ACTIVE) {
    throw new ApiError("APP_TOKEN_NOT_ACTIVE", `Application token id "${id}" is not active`, { ID: id });
  }
  const expected = Buffer.from(appTokenHash(token, call.ks ?? ""));
  const given = Buffer.from(tokenHash);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
    throw new ApiError("INVALID_APP_TOKEN_HASH", "Invalid application token hash");
  }
  const now = Math.floor(ctx.now() / 1000);
  const remaining = token.expiry > 0 ? token.expiry - now : Infinity;
  if (remaining <= 0) throw new ApiError("APP_TOKEN_EXPIRED", `Application token id "${id}" expired`, { ID: id });

  const requested = call.optInt("expiry");
  const lifetime = Math.min(
    token.sessionDuration > 0 ? token.sessionDuration : DEFAULT_SESSION_SECONDS,
    remaining,
    requested && requested > 0 ? requested : Infinity,
  );
  // The token's type wins; an ADMIN token may be asked for a USER session, never the other way round.
  const askedType = call.optInt("type");
  const type =
    token.sessionType === SessionType.ADMIN && askedType !== undefined && sessionType(askedType) === SessionType.USER ? SessionType.USER : token.sessionType;
  const userId = token.sessionUserId || call.optStr("userId") || "";
  // Requested privileges come first so the token's own (fixed) privileges win on the same key.
  const privileges = {
    ...parsePrivileges(call.optStr("sessionPrivileges")),
    ...parsePrivileges(token.sessionPrivileges),
    sessionid: randomBytes(16).toString("hex"),
    apptoken: token.id,
  };
  const expiry = now + lifetime;
  const ks = ctx.sessions.issue({ partnerId: token.partnerId, type, userId, expiry, privileges });
  return {
    ks,
    sessionType: type,
    partnerId: token.partnerId,
    userId,
    expiry,
    privileges: formatPrivileges(privileges),
    objectType: OBJECT_TYPES.sessionInfo,
  };
}
