/**
 * The retry rule, in one place (shouldRetry) with its delay computation.
 *
 * - Idempotent requests are retried on connection errors, per-attempt timeouts and retryable statuses.
 * - Non-idempotent requests (creates) are retried ONLY when the request cannot have reached the server:
 *   the connection was never established (refused, DNS failure, unreachable, connect timeout).
 *   A reset, a closed socket, a timeout waiting for headers or any HTTP status (even 429/503) means the
 *   server may have acted, so the error is surfaced instead of risking a duplicate.
 */
import { TRANSPORT_DEFAULTS } from "./options";

/** Error codes raised before a single byte of the request could have been sent. */
const NOT_SENT_CODES = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EADDRNOTAVAIL",
  "UND_ERR_CONNECT_TIMEOUT",
]);

/** Errors after which the request may or may not have been processed. */
const MAYBE_SENT_CODES = new Set([
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "UND_ERR_SOCKET",
  "UND_ERR_CLOSED",
  "UND_ERR_HEADERS_TIMEOUT",
  "UND_ERR_BODY_TIMEOUT",
]);

export type Outcome = { kind: "status"; status: number; retryAfterMs?: number } | { kind: "error"; errno: string };

export interface RetryInput {
  outcome: Outcome;
  idempotent: boolean;
  /** Retries already made (0 after the first attempt). */
  retriesDone: number;
  maxRetries: number;
}

export function shouldRetry(input: RetryInput): boolean {
  if (input.retriesDone >= input.maxRetries) return false;
  const { outcome } = input;
  if (outcome.kind === "error") {
    if (NOT_SENT_CODES.has(outcome.errno)) return true;
    return input.idempotent && MAYBE_SENT_CODES.has(outcome.errno);
  }
  return input.idempotent && TRANSPORT_DEFAULTS.retryStatuses.includes(outcome.status);
}

/** True when the error code proves the request never left this process. */
export function requestNotSent(errno: string): boolean {
  return NOT_SENT_CODES.has(errno);
}

/** Delay before retry number `retry` (1-based): Retry-After if given (capped), else full jitter. */
export function retryDelayMs(
  retry: number,
  retryAfterMs: number | undefined,
  tuning: { baseDelayMs: number; maxDelayMs: number; maxRetryAfterMs: number },
  random: () => number,
): number {
  if (retryAfterMs !== undefined) return Math.min(Math.max(0, retryAfterMs), tuning.maxRetryAfterMs);
  const ceiling = Math.min(tuning.maxDelayMs, tuning.baseDelayMs * 2 ** (retry - 1));
  return Math.floor(random() * ceiling);
}

/** Retry-After is either delta-seconds or an HTTP date. Returns undefined when absent or unreadable. */
export function parseRetryAfter(value: string | string[] | undefined, now = Date.now()): number | undefined {
  const raw = Array.isArray(value) ? value[0] : value;
  if (!raw) return undefined;
  const trimmed = raw.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
