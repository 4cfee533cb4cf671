/** Turn an api_v3 HTTP answer into a value or a typed error (errors arrive with HTTP 200). */
import { ApiErrorBody, OBJECT_TYPES } from "../../contract/platform";
import { SvcApiError, SvcHttpError, SvcResponseError, type SvcError } from "../core/errors";
import type { TransportResponse } from "../transport";
import { parseRetryAfter } from "../transport/retryPolicy";

export interface CallLabel {
  service: string;
  action: string;
  requestId?: string;
}

/** Parse the body (JSON; empty means a void answer) or throw a typed error. */
export function readBody(response: TransportResponse, label: CallLabel): unknown {
  let body: unknown;
  try {
    body = response.body.trim() === "" ? null : JSON.parse(response.body);
  } catch {
    if (response.status !== 200) throw httpError(response, label);
    const type = String(response.headers["content-type"] ?? "unknown");
    throw new SvcResponseError(`${label.service}.${label.action} response: not JSON (content-type ${type}); was format=1 honoured?`, label);
  }
  const apiError = asApiError(body, label, response.status);
  if (apiError) throw apiError;
  if (response.status < 200 || response.status > 299) throw httpError(response, label);
  return body;
}

/** The typed error of an error object, or undefined when `body` is not one. */
export function asApiError(body: unknown, label: CallLabel, httpStatus = 200): SvcApiError | undefined {
  if (!isErrorObject(body)) return undefined;
  const parsed = ApiErrorBody.safeParse(body);
  const code = parsed.success ? parsed.data.code : "UNKNOWN_API_ERROR";
  const message = parsed.success ? parsed.data.message : "malformed error object";
  return new SvcApiError(code, `${label.service}.${label.action}: ${message}`, {
    args: parsed.success ? parsed.data.args : undefined,
    httpStatus,
    service: label.service,
    action: label.action,
    requestId: label.requestId,
  });
}

export function isErrorObject(body: unknown): boolean {
  return typeof body === "object" && body !== null && (body as { objectType?: unknown }).objectType === OBJECT_TYPES.exception;
}

function httpError(response: TransportResponse, label: CallLabel): SvcError {
  return new SvcHttpError(response.status, `${label.service}.${label.action}: HTTP ${response.status}`, {
    service: label.service,
    action: label.action,
    requestId: label.requestId,
    retryAfterMs: parseRetryAfter(response.headers["retry-after"]),
  });
}
