/**
 * Errors of the avatar APIs (backend clients): one class on the sdk's SvcError base with a stable code per
 * status of the spec's tables. `status` is the HTTP status, `reason` the end reason a 410 carries.
 */
import { avatarStatusMeaning, type AvatarStatusMeaning } from "../../contract/avatar";
import { SvcError, type SvcErrorInit } from "../core/errors";
import { redact } from "../core/redact";

export type AvatarApiErrorCode =
  | "AVATAR_BAD_REQUEST" // 400
  | "AVATAR_UNAUTHORIZED" // 401: session string or JWT invalid
  | "AVATAR_FORBIDDEN" // 403: not authorized (feature off, urirestrict, widget session)
  | "AVATAR_SESSION_NOT_FOUND" // 404
  | "AVATAR_SESSION_GONE" // 410: already ended
  | "AVATAR_UNSUPPORTED_MEDIA_TYPE" // 415
  | "AVATAR_RATE_LIMITED" // 429
  | "AVATAR_SERVER_ERROR" // 5xx
  | "AVATAR_HTTP_ERROR"; // anything else

/** The contract's meaning of each status (shared with the browser library), as this client's codes. */
const BY_MEANING: Record<AvatarStatusMeaning, AvatarApiErrorCode> = {
  "bad-request": "AVATAR_BAD_REQUEST",
  unauthorized: "AVATAR_UNAUTHORIZED",
  forbidden: "AVATAR_FORBIDDEN",
  "not-found": "AVATAR_SESSION_NOT_FOUND",
  conflict: "AVATAR_HTTP_ERROR",
  gone: "AVATAR_SESSION_GONE",
  "unsupported-media-type": "AVATAR_UNSUPPORTED_MEDIA_TYPE",
  "rate-limited": "AVATAR_RATE_LIMITED",
  "server-error": "AVATAR_SERVER_ERROR",
  "http-error": "AVATAR_HTTP_ERROR",
};

export class AvatarApiError extends SvcError {
  declare readonly code: AvatarApiErrorCode;
  /** The server's `error` text, redacted. */
  readonly serverError: string | undefined;
  /** On 410: why the session ended (client, server, idle-timeout, error) when the server says; redacted. */
  readonly reason: string | undefined;

  constructor(code: AvatarApiErrorCode, message: string, init: SvcErrorInit & { serverError?: string; reason?: string } = {}) {
    super(code, message, init);
    this.name = "AvatarApiError";
    // Server text is redacted like the message: a server may echo the ks or the JWT it was sent.
    this.serverError = init.serverError === undefined ? undefined : redact(init.serverError);
    this.reason = init.reason === undefined ? undefined : redact(init.reason);
  }
}

/** The status -> error factory. */
export function avatarErrorFromStatus(
  op: string,
  status: number,
  body: { error?: string; reason?: string } | undefined,
  init: SvcErrorInit = {},
): AvatarApiError {
  const code = BY_MEANING[avatarStatusMeaning(status)];
  const detail = body?.error ? `: ${body.error}` : "";
  return new AvatarApiError(code, `avatar ${op} failed with status ${status}${detail}`, {
    ...init,
    status,
    action: op,
    service: "avatar",
    ...(body?.error ? { serverError: body.error } : {}),
    ...(body?.reason ? { reason: body.reason } : {}),
  });
}
