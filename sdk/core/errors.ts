/**
 * The sdk's errors: one base class with a stable string `code`, and one subclass per kind of failure.
 * Callers branch on `code` (or instanceof), never on message text. Every message and code passes through
 * redact() (a code is also cut to MAX_ERROR_CODE_LENGTH), and no error keeps the request body, headers or a session
 * string.
 */
import { inspect } from "node:util";
import type { ErrorCode } from "../../contract/platform";
import { redact, redactValue } from "./redact";

/** Codes of failures that are not platform API errors (those carry the platform's own code). */
export type SvcErrorCode =
  | "INVALID_INPUT"
  | "INVALID_RESPONSE"
  | "HTTP_ERROR"
  | "NETWORK_ERROR"
  | "TIMEOUT"
  | "ABORTED"
  | "SESSION_ERROR"
  | "CLIENT_CLOSED"
  | "LIST_TOO_LONG";

/**
 * A platform error's code: one the contract names (ErrorCode), UNKNOWN_API_ERROR for a malformed error object, or
 * any other code the real service sends (it has many more than the services here use), hence the open end.
 */
export type PlatformErrorCode = ErrorCode | "UNKNOWN_API_ERROR" | (string & {});

export interface SvcErrorInit {
  status?: number;
  requestId?: string;
  service?: string;
  action?: string;
  cause?: unknown;
}

const BRAND = Symbol.for("pulumi-svc.sdk.SvcError");

/** The longest error code kept, in characters: a platform's codes are short words (APP_TOKEN_ID_NOT_FOUND). */
export const MAX_ERROR_CODE_LENGTH = 100;

/**
 * An error's code as messages, events and logs may show it: redacted as a message is, and cut to
 * MAX_ERROR_CODE_LENGTH. A platform (or anything posing as one) sends the code it likes: it may echo a credential,
 * or be megabytes long.
 */
export function safeErrorCode(code: unknown): string {
  const text = redact(String(code));
  return text.length <= MAX_ERROR_CODE_LENGTH ? text : `${text.slice(0, MAX_ERROR_CODE_LENGTH - 1)}…`;
}

export class SvcError extends Error {
  /** Stable, machine-readable; platform errors carry the platform's code (e.g. APP_TOKEN_ID_NOT_FOUND). */
  readonly code: SvcErrorCode | PlatformErrorCode;
  readonly status: number | undefined;
  readonly requestId: string | undefined;
  readonly service: string | undefined;
  readonly action: string | undefined;
  override readonly cause: unknown;

  constructor(code: SvcErrorCode | PlatformErrorCode, message: string, init: SvcErrorInit = {}) {
    super(redact(message));
    this.name = "SvcError";
    this.code = safeErrorCode(code);
    this.status = init.status;
    this.requestId = init.requestId;
    this.service = init.service;
    this.action = init.action;
    // A cause is kept only as a redacted summary: lower-level errors may hold request options.
    this.cause = init.cause === undefined ? undefined : summarizeCause(init.cause);
    Object.defineProperty(this, BRAND, { value: true });
  }

  static isSvcError(value: unknown): value is SvcError {
    return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[BRAND] === true;
  }

  toJSON(): Record<string, unknown> {
    return redactValue({
      name: this.name,
      code: this.code,
      message: this.message,
      status: this.status,
      requestId: this.requestId,
      service: this.service,
      action: this.action,
    });
  }

  [inspect.custom](): string {
    return `${this.name} [${this.code}]: ${this.message}`;
  }
}

/** An error object answered by the platform (HTTP 200, objectType SvcAPIException). */
export class SvcApiError extends SvcError {
  declare readonly code: PlatformErrorCode;
  readonly args: Record<string, unknown>;
  readonly httpStatus: number;

  constructor(code: PlatformErrorCode, message: string, init: SvcErrorInit & { args?: Record<string, unknown> | unknown[]; httpStatus?: number } = {}) {
    super(code, message, { ...init, status: init.httpStatus ?? 200 });
    this.name = "SvcApiError";
    this.httpStatus = init.httpStatus ?? 200;
    // `args` is [] on the wire when empty; normalise to an object and drop secret-named keys.
    const args = Array.isArray(init.args) || !init.args ? {} : init.args;
    this.args = redactValue(args);
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), args: this.args, httpStatus: this.httpStatus };
  }
}

/** Bad input caught before any call was made. */
export class SvcValidationError extends SvcError {
  declare readonly code: "INVALID_INPUT";
  constructor(message: string, init: SvcErrorInit = {}) {
    super("INVALID_INPUT", message, init);
    this.name = "SvcValidationError";
  }
}

/** A response that is not what the contract says (missing field, not JSON, ...). */
export class SvcResponseError extends SvcError {
  declare readonly code: "INVALID_RESPONSE";
  constructor(message: string, init: SvcErrorInit = {}) {
    super("INVALID_RESPONSE", message, init);
    this.name = "SvcResponseError";
  }
}

/** A non-2xx HTTP status that was not retried or whose retries ran out. */
export class SvcHttpError extends SvcError {
  declare readonly code: "HTTP_ERROR";
  /** Milliseconds the server asked us to wait (Retry-After), when it said so. */
  readonly retryAfterMs: number | undefined;
  constructor(status: number, message: string, init: SvcErrorInit & { retryAfterMs?: number } = {}) {
    super("HTTP_ERROR", message, { ...init, status });
    this.name = "SvcHttpError";
    this.retryAfterMs = init.retryAfterMs;
  }
}

/** The connection failed (refused, reset, DNS, socket closed). `errno` is the low-level code. */
export class SvcNetworkError extends SvcError {
  declare readonly code: "NETWORK_ERROR";
  readonly errno: string | undefined;
  constructor(message: string, init: SvcErrorInit & { errno?: string } = {}) {
    super("NETWORK_ERROR", message, init);
    this.name = "SvcNetworkError";
    this.errno = init.errno;
  }
}

/**
 * How a call that was cut (its deadline, or the caller's signal) stood on the wire: `requestOnWire` is true when an
 * attempt had been sent and not yet answered (the platform may still act on it), false when the call was waiting
 * (for a slot, a pause after a 429, a Retry-After) with every request it sent answered; undefined when not known.
 */
export interface CutCallInit extends SvcErrorInit {
  requestOnWire?: boolean;
}

export class SvcTimeoutError extends SvcError {
  declare readonly code: "TIMEOUT";
  readonly requestOnWire: boolean | undefined;
  constructor(message: string, init: CutCallInit = {}) {
    super("TIMEOUT", message, init);
    this.name = "SvcTimeoutError";
    this.requestOnWire = init.requestOnWire;
  }
}

export class SvcAbortError extends SvcError {
  declare readonly code: "ABORTED";
  readonly requestOnWire: boolean | undefined;
  constructor(message: string, init: CutCallInit = {}) {
    super("ABORTED", message, init);
    this.name = "SvcAbortError";
    this.requestOnWire = init.requestOnWire;
  }
}

/** Authentication could not produce a session (bad credentials, expired given ks, ...). */
export class SvcSessionError extends SvcError {
  declare readonly code: "SESSION_ERROR";
  constructor(message: string, init: SvcErrorInit = {}) {
    super("SESSION_ERROR", message, init);
    this.name = "SvcSessionError";
  }
}

function summarizeCause(cause: unknown): { name?: string; code?: string; message: string } {
  if (cause instanceof Error) {
    const code = (cause as { code?: unknown }).code;
    return { name: cause.name, code: typeof code === "string" ? safeErrorCode(code) : undefined, message: redact(cause.message) };
  }
  return { message: redact(String(cause)) };
}
