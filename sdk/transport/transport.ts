/**
 * createTransport: a generic HTTP transport on undici for every sdk API (api_v3, avatar APIs).
 * One Agent per transport (keep-alive, bounded connections, connect/headers/body timeouts), an overall
 * deadline per call, AbortSignal cancellation, and one retry wrapper driven by retryPolicy.shouldRetry.
 * It knows nothing about api_v3: callers map statuses and bodies to their own errors.
 */
import { setTimeout as sleep } from "node:timers/promises";
import type { Dispatcher } from "undici";
import { SvcAbortError, SvcError, SvcNetworkError, SvcTimeoutError } from "../core/errors";
import { redact } from "../core/redact";
import { errnoOf, sendOnce } from "./attempt";
import { TRANSPORT_DEFAULTS, type Transport, type TransportEvent, type TransportOptions, type TransportRequest, type TransportResponse } from "./options";
import { createRequestGate } from "./requestGate";
import { Agent } from "./undiciParts";
import { failureKind, parseRetryAfter, retryDelayMs, shouldRetry, type Outcome } from "./retryPolicy";

const PER_ATTEMPT_TIMEOUTS = new Set(["UND_ERR_CONNECT_TIMEOUT", "UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT"]);

export function createTransport(options: TransportOptions = {}): Transport {
  const config = {
    ...TRANSPORT_DEFAULTS,
    ...definedOnly(options.retry ?? {}),
    ...definedOnly({
      timeoutMs: options.timeoutMs,
      maxRetries: options.maxRetries,
      connectTimeoutMs: options.connectTimeoutMs,
      headersTimeoutMs: options.headersTimeoutMs,
      bodyTimeoutMs: options.bodyTimeoutMs,
      connections: options.connections,
      keepAliveTimeoutMs: options.keepAliveTimeoutMs,
    }),
  };
  const ownsDispatcher = !options.dispatcher;
  const dispatcher: Dispatcher =
    options.dispatcher ??
    new Agent({
      connections: config.connections,
      keepAliveTimeout: config.keepAliveTimeoutMs,
      connect: { timeout: config.connectTimeoutMs },
      headersTimeout: config.headersTimeoutMs,
      bodyTimeout: config.bodyTimeoutMs,
    });
  const random = options.random ?? Math.random;
  const gate = createRequestGate(options.maxConcurrency);
  let closed = false;

  const emit = (event: TransportEvent): void => {
    if (!options.onEvent) return;
    try {
      options.onEvent(event);
    } catch {
      // A telemetry hook must never break a call.
    }
  };

  async function request(req: TransportRequest): Promise<TransportResponse> {
    if (closed) throw new SvcError("CLIENT_CLOSED", "the client was closed", { service: req.service, action: req.action });
    const method = req.method ?? "POST";
    const timeoutMs = req.timeoutMs ?? config.timeoutMs;
    const maxRetries = req.maxRetries ?? config.maxRetries;
    const label = { service: req.service, action: req.action };
    const where = req.service && req.action ? `${req.service}.${req.action}` : `${method} ${pathOf(req.url)}`;
    // Parsing and redacting the path costs a little per call: only when someone listens.
    const base = { ...label, method, path: options.onEvent ? pathOf(req.url) : "" };

    // One controller per call, aborted by the deadline or the caller's signal; both are released when the
    // call ends (AbortSignal.timeout/any would leave a 30 s timer and listeners behind per call).
    const controller = new AbortController();
    const signal = controller.signal;
    const deadline = setTimeout(() => controller.abort(), timeoutMs);
    const onCallerAbort = (): void => controller.abort();
    req.signal?.addEventListener("abort", onCallerAbort, { once: true });
    if (req.signal?.aborted) controller.abort();
    const started = performance.now();
    const abortError = (): SvcError =>
      req.signal?.aborted
        ? new SvcAbortError(`${where}: cancelled by the caller`, label)
        : new SvcTimeoutError(`${where}: no answer within ${timeoutMs} ms`, label);
    try {
      return await attempts();
    } finally {
      clearTimeout(deadline);
      req.signal?.removeEventListener("abort", onCallerAbort);
    }

    async function attempts(): Promise<TransportResponse> {
      for (let attempt = 1; ; attempt++) {
        if (signal.aborted) throw abortError();
        let releaseSlot: () => void;
        try {
          releaseSlot = await gate.acquire(signal);
        } catch {
          throw abortError();
        }
        emit({ type: "request", ...base, attempt });
        const attemptStart = performance.now();
        let outcome: Outcome;
        let response: TransportResponse | undefined;
        let failure: unknown;
        try {
          const result = await sendOnce({
            dispatcher,
            url: req.url,
            method,
            headers: req.headers,
            body: req.body,
            signal,
            headersTimeoutMs: config.headersTimeoutMs,
            bodyTimeoutMs: config.bodyTimeoutMs,
            maxResponseBytes: config.maxResponseBytes,
          });
          const requestId = headerValue(result.headers["x-request-id"]);
          response = { ...result, requestId, attempts: attempt };
          outcome = { kind: "status", status: result.status, retryAfterMs: parseRetryAfter(result.headers["retry-after"]) };
          if (options.onEvent) {
            const serverTimeMs = Date.parse(headerValue(result.headers.date) ?? "");
            emit({
              type: "response",
              ...base,
              attempt,
              status: result.status,
              ms: elapsed(attemptStart),
              requestId,
              ...(Number.isNaN(serverTimeMs) ? {} : { serverTimeMs }),
            });
          }
        } catch (error) {
          if (signal.aborted) {
            const mapped = abortError();
            emit({ type: "error", ...base, attempt, ms: elapsed(attemptStart), errorCode: mapped.code });
            throw mapped;
          }
          failure = error;
          outcome = { kind: "error", errno: errnoOf(error) };
          emit({ type: "error", ...base, attempt, ms: elapsed(attemptStart), errorCode: outcome.errno });
        } finally {
          releaseSlot();
        }

        const retry = shouldRetry({ outcome, idempotent: req.idempotent, retriesDone: attempt - 1, maxRetries });
        const delayMs = retry ? retryDelayMs(attempt, outcome.kind === "status" ? outcome.retryAfterMs : undefined, config, random) : 0;
        // A 429 holds the whole client, not just this call: every other request would meet the same limit.
        if (failureKind(outcome) === "throttled") {
          gate.pause(retry ? delayMs : retryDelayMs(attempt, outcome.kind === "status" ? outcome.retryAfterMs : undefined, config, random));
        }
        // Waiting past the deadline is pointless: surface the last outcome instead.
        const remaining = timeoutMs - elapsed(started);
        if (!retry || delayMs >= remaining) {
          if (response) return response;
          throw finalError(failure, outcome, where, attempt, label);
        }
        emit({
          type: "retry",
          ...base,
          attempt,
          delayMs,
          reason: outcome.kind === "status" ? `status ${outcome.status}` : outcome.errno,
          ...(outcome.kind === "status" ? { status: outcome.status } : {}),
        });
        try {
          await sleep(delayMs, undefined, { signal });
        } catch {
          throw abortError();
        }
      }
    }
  }

  async function close(): Promise<void> {
    if (closed) return;
    closed = true;
    if (ownsDispatcher) await dispatcher.close();
  }

  return { request, close };
}

function finalError(error: unknown, outcome: Outcome, where: string, attempts: number, label: { service?: string; action?: string }): SvcError {
  const errno = outcome.kind === "error" ? outcome.errno : "UNKNOWN";
  const tries = attempts === 1 ? "1 attempt" : `${attempts} attempts`;
  if (PER_ATTEMPT_TIMEOUTS.has(errno)) {
    return new SvcTimeoutError(`${where}: timed out (${errno}) after ${tries}`, { ...label, cause: error });
  }
  const detail = error instanceof Error ? error.message : String(error);
  return new SvcNetworkError(`${where}: request failed (${errno}: ${detail}) after ${tries}`, {
    ...label,
    errno,
    cause: error,
  });
}

function pathOf(url: string): string {
  try {
    return redact(new URL(url).pathname);
  } catch {
    return "(invalid url)";
  }
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function elapsed(since: number): number {
  return Math.round(performance.now() - since);
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
