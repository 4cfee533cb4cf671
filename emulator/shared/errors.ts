/**
 * The emulator's two kinds of error. `ApiError` is a platform error: api_v3 answers it with HTTP 200 and the
 * real error object. A transport-level failure (control API misuse, a method api_v3 does not take, injected
 * faults) is Hono's own HTTPException (`HttpError` adds response headers such as Retry-After and Allow).
 * Both become a Response in one place, errorResponse (used by app.ts `onError`; api/dispatch.ts shapes the
 * api_v3 body). Messages never carry secrets: callers pass ids, never ks strings or secrets.
 */
import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { OBJECT_TYPES, type ErrorCode } from "../../contract/platform";

export type ApiErrorArgs = Record<string, string | number>;

export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly args: ApiErrorArgs;
  constructor(code: ErrorCode, message: string, args: ApiErrorArgs = {}) {
    super(message);
    this.name = "ApiError";
    this.code = code;
    this.args = args;
  }

  /** The platform's error object: `args` is `[]` when empty, as the real service sends it. */
  toBody(): { code: ErrorCode; message: string; objectType: typeof OBJECT_TYPES.exception; args: ApiErrorArgs | [] } {
    return {
      code: this.code,
      message: this.message,
      objectType: OBJECT_TYPES.exception,
      args: Object.keys(this.args).length > 0 ? this.args : [],
    };
  }
}

export class HttpError extends HTTPException {
  readonly headers: Record<string, string>;
  constructor(status: number, message: string, headers: Record<string, string> = {}) {
    super(status as ContentfulStatusCode, { message });
    this.name = "HttpError";
    this.headers = headers;
  }
}

/**
 * The one place an error becomes a Response: an HTTPException keeps its status (and HttpError its headers) with a
 * `{error}` body; an ApiError is the platform's error object with HTTP 200; anything else is a bare 500 (logged).
 */
export function errorResponse(err: Error, c: Context, log: (line: string) => void): Response {
  if (err instanceof HTTPException) return c.json({ error: err.message }, err.status, err instanceof HttpError ? err.headers : {});
  if (err instanceof ApiError) return c.json(err.toBody(), 200);
  log(`unhandled error: ${err.message}`);
  return c.json({ error: "internal error" }, 500);
}

// ---- constructors for the codes used in several services ---------------------------------------

export const missingParameter = (name: string): ApiError => new ApiError("MISSING_MANDATORY_PARAMETER", `Missing parameter "${name}"`, { PARAM_NAME: name });

export const invalidEnum = (value: string, name: string, enumName: string): ApiError =>
  new ApiError("INVALID_ENUM_VALUE", `Invalid enumeration value "${value}" for parameter "${name}", expected ${enumName}`, {
    VALUE: value,
    PARAM_NAME: name,
    ENUM: enumName,
  });

export const invalidField = (name: string, expectation: string): ApiError =>
  new ApiError("INVALID_FIELD_VALUE", `Invalid value for field "${name}": ${expectation}`, { FIELD_NAME: name });

export const notUpdatable = (propName: string): ApiError =>
  new ApiError("PROPERTY_VALIDATION_NOT_UPDATABLE", `Property "${propName}" cannot be updated`, { PROP_NAME: propName });

export const cannotBeNull = (propName: string): ApiError =>
  new ApiError("PROPERTY_VALIDATION_CANNOT_BE_NULL", `Property "${propName}" cannot be null`, { PROP_NAME: propName });

export const minLength = (propName: string, min: number): ApiError =>
  new ApiError("PROPERTY_VALIDATION_MIN_LENGTH", `Property "${propName}" must have a minimum length of ${min} characters`, {
    PROP_NAME: propName,
    MIN_LENGTH: min,
  });

export const forbidden = (service: string, action: string): ApiError =>
  new ApiError("SERVICE_FORBIDDEN", `The access to service [${service}->${action}] is forbidden`, {
    SERVICE: `${service}->${action}`,
  });
