/**
 * The retry rules, in one table (RETRY_RULES): for each kind of failed attempt, whether it is retried for an
 * idempotent request and for a create, and why. shouldRetry only reads the table. Which api_v3 action is which
 * class is in sdk/platform/actionSafety.ts; docs/sdk.md "Retry rules" shows both as one table.
 */
import { SvcError } from "../core/errors";
import { TRANSPORT_DEFAULTS } from "./options";

/** Error codes raised before a single byte of the request could have been sent. */
const NOT_SENT_CODES = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH", "EADDRNOTAVAIL", "UND_ERR_CONNECT_TIMEOUT"]);

/** Errors after which the request may or may not have been processed. */
const MAYBE_SENT_CODES = new Set(["ECONNRESET", "EPIPE", "ETIMEDOUT", "UND_ERR_SOCKET", "UND_ERR_CLOSED", "UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT"]);

/** What a failed attempt tells about the platform's side. */
export type FailureKind = "notSent" | "throttled" | "maybeActedStatus" | "maybeActedError" | "final";

export interface RetryRule {
  failure: FailureKind;
  /** The failures of this kind, in words. */
  when: string;
  /** Retried for idempotent requests: reads, full-value writes, deletes, session starts. */
  idempotent: boolean;
  /** Retried for creates (add, clone). */
  create: boolean;
  reason: string;
}

/** THE retry rules. Retries stop after maxRetries (default 3) or at the call's deadline, whichever comes first. */
export const RETRY_RULES: readonly RetryRule[] = [
  {
    failure: "notSent",
    when: "connection refused, DNS failure, host or network unreachable, connect timeout",
    idempotent: true,
    create: true,
    reason: "the request never left this process, so the platform cannot have acted",
  },
  {
    failure: "throttled",
    when: "HTTP 429",
    idempotent: true,
    create: true,
    reason:
      "the platform refused the request before acting; wait its Retry-After (capped) and hold every request of the client for that long, so a large stack does not keep hitting the limit",
  },
  {
    failure: "maybeActedStatus",
    when: "HTTP 408, 500, 502, 503, 504",
    idempotent: true,
    create: false,
    reason:
      "the platform may have acted before failing: repeating an idempotent request reaches the same end state, a repeated create could make a second object; a create is retried only by the caller's recovery (the provider finds what the create made, then adopts it or creates again)",
  },
  {
    failure: "maybeActedError",
    when: "connection reset or closed, no answer within the attempt's timeout (headers or body)",
    idempotent: true,
    create: false,
    reason: "the request was sent and the answer lost: as for a 5xx, the platform may have acted",
  },
  {
    failure: "final",
    when: "any other HTTP status (api_v3 errors come with HTTP 200 and are final), any other error",
    idempotent: false,
    create: false,
    reason: "the answer is the platform's decision: repeating the request gives the same answer",
  },
];

export type Outcome = { kind: "status"; status: number; retryAfterMs?: number } | { kind: "error"; errno: string };

/** Which row of RETRY_RULES an attempt's outcome falls in. */
export function failureKind(outcome: Outcome): FailureKind {
  if (outcome.kind === "error") {
    if (NOT_SENT_CODES.has(outcome.errno)) return "notSent";
    return MAYBE_SENT_CODES.has(outcome.errno) ? "maybeActedError" : "final";
  }
  if (outcome.status === 429) return "throttled";
  return TRANSPORT_DEFAULTS.retryStatuses.includes(outcome.status) ? "maybeActedStatus" : "final";
}

export interface RetryInput {
  outcome: Outcome;
  idempotent: boolean;
  /** Retries already made (0 after the first attempt). */
  retriesDone: number;
  maxRetries: number;
}

export function shouldRetry(input: RetryInput): boolean {
  if (input.retriesDone >= input.maxRetries) return false;
  if (input.outcome.kind === "status" && input.outcome.status >= 200 && input.outcome.status < 400) return false;
  const rule = RULE_BY_FAILURE.get(failureKind(input.outcome)) as RetryRule;
  return input.idempotent ? rule.idempotent : rule.create;
}

const RULE_BY_FAILURE = new Map(RETRY_RULES.map((rule) => [rule.failure, rule]));

/** True when the error code proves the request never left this process. */
export function requestNotSent(errno: string): boolean {
  return NOT_SENT_CODES.has(errno);
}

/**
 * True when a failed create may or may not have taken effect (the answer was lost, or a 5xx/408 came back): the
 * caller must look for what it may have made before creating again. `error` is any error the sdk throws.
 */
export function mayHaveActed(error: unknown): boolean {
  const e = error as { code?: unknown; status?: unknown; errno?: unknown } | null;
  if (!e || typeof e !== "object") return false;
  // The call's deadline passed: the platform may have acted unless the call was only waiting (a slot, a Retry-After).
  if (e.code === "TIMEOUT") return (e as { requestOnWire?: unknown }).requestOnWire !== false;
  if (e.code === "NETWORK_ERROR") return typeof e.errno === "string" ? !NOT_SENT_CODES.has(e.errno) : true;
  if (e.code === "HTTP_ERROR" && typeof e.status === "number") return failureKind({ kind: "status", status: e.status }) === "maybeActedStatus";
  return false;
}

/**
 * True when the platform may still act, after the call failed with `error`, on a request the call sent: the call was
 * cut (cancelled, or its deadline passed) while an attempt was on the wire unanswered, or the answer was lost (as
 * mayHaveActed). False when the call was cut while only waiting (for a slot, a pause, a Retry-After) with every
 * request answered, or its answer came. An error that does not tell (not the sdk's) counts as true.
 */
export function mayStillAct(error: unknown): boolean {
  if (!SvcError.isSvcError(error)) return true;
  if (error.code === "ABORTED" || error.code === "TIMEOUT") return (error as { requestOnWire?: boolean }).requestOnWire !== false;
  return mayHaveActed(error);
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
