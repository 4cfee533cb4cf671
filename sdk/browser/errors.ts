/**
 * AvatarError: every failure of the library, with a stable `code` (AvatarErrorCode), a message that has
 * been through redact() and optional `details` (status, server error text, operation; never a token).
 */
import { avatarStatusMeaning } from "../../contract/avatar";
import { redact, redactValue } from "../core/redact";

/** The stable codes of AvatarError. */
export const AvatarErrorCode = {
  INVALID_STATE: "INVALID_STATE",
  API_REQUEST_FAILED: "API_REQUEST_FAILED",
  RTC_CONNECTION_FAILED: "RTC_CONNECTION_FAILED",
  INVALID_CONFIGURATION: "INVALID_CONFIGURATION",
  SESSION_NOT_FOUND: "SESSION_NOT_FOUND",
  UNAUTHORIZED: "UNAUTHORIZED",
} as const;
export type AvatarErrorCode = (typeof AvatarErrorCode)[keyof typeof AvatarErrorCode];

export class AvatarError extends Error {
  readonly code: AvatarErrorCode;
  readonly details: Record<string, unknown> | undefined;

  constructor(code: AvatarErrorCode, message: string, details?: Record<string, unknown>) {
    super(redact(message));
    this.name = "AvatarError";
    this.code = code;
    this.details = details === undefined ? undefined : redactValue(details);
  }

  static is(value: unknown): value is AvatarError {
    return value instanceof AvatarError;
  }
}

/** The spec's status table mapped to codes (details keep the status and the server's error text). */
export function errorFromStatus(op: string, status: number, serverError: string | undefined, reason?: string): AvatarError {
  const details = { op, status, ...(serverError ? { error: serverError } : {}), ...(reason ? { reason } : {}) };
  const suffix = serverError ? `: ${serverError}` : "";
  // What the status means comes from the contract's table (shared with the backend client).
  const meaning = avatarStatusMeaning(status);
  if (meaning === "unauthorized" || meaning === "forbidden") {
    return new AvatarError(AvatarErrorCode.UNAUTHORIZED, `${op} was refused (${status})${suffix}`, details);
  }
  if (meaning === "not-found") return new AvatarError(AvatarErrorCode.SESSION_NOT_FOUND, `${op}: session not found${suffix}`, details);
  if (meaning === "gone") return new AvatarError(AvatarErrorCode.SESSION_NOT_FOUND, `${op}: session already ended`, details);
  return new AvatarError(AvatarErrorCode.API_REQUEST_FAILED, `${op} failed with status ${status}${suffix}`, details);
}

export function invalidState(op: string, state: string): AvatarError {
  return new AvatarError(AvatarErrorCode.INVALID_STATE, `${op} is not allowed in state ${state}`, { op, state });
}

export function invalidConfiguration(message: string, details?: Record<string, unknown>): AvatarError {
  return new AvatarError(AvatarErrorCode.INVALID_CONFIGURATION, message, details);
}

/** Wrap anything thrown into an AvatarError of the given code (AvatarErrors pass through). */
export function toAvatarError(error: unknown, code: AvatarErrorCode, op: string): AvatarError {
  if (error instanceof AvatarError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new AvatarError(code, `${op}: ${message}`, { op });
}
