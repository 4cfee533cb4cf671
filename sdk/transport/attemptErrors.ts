/** What a failed attempt's raw error is called: its low-level code, and the SvcError a call ends with after it. */
import { SvcNetworkError, type SvcError, SvcTimeoutError } from "../core/errors";

const PER_ATTEMPT_TIMEOUTS = new Set(["UND_ERR_CONNECT_TIMEOUT", "UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT"]);

/** The low-level code of a failure (undici codes, errno codes, or the first of an AggregateError). */
export function errnoOf(error: unknown): string {
  const e = error as { code?: unknown; cause?: { code?: unknown }; errors?: Array<{ code?: unknown }> };
  for (const candidate of [e?.code, e?.cause?.code, e?.errors?.[0]?.code]) {
    if (typeof candidate === "string" && candidate) return candidate;
  }
  return "UNKNOWN";
}

/** The error a call ends with when its last attempt failed without an answer. */
export function attemptFailure(error: unknown, where: string, attempts: number, label: { service?: string; action?: string }): SvcError {
  const errno = errnoOf(error);
  const tries = attempts === 1 ? "1 attempt" : `${attempts} attempts`;
  if (PER_ATTEMPT_TIMEOUTS.has(errno)) {
    return new SvcTimeoutError(`${where}: timed out (${errno}) after ${tries}`, { ...label, cause: error });
  }
  const detail = error instanceof Error ? error.message : String(error);
  return new SvcNetworkError(`${where}: request failed (${errno}: ${detail}) after ${tries}`, { ...label, errno, cause: error });
}
