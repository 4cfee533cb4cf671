/**
 * The retry layer: sends attempts until one answers for good, as RETRY_RULES (retryPolicy.ts) decide, waiting full
 * jitter or the server's Retry-After between them, and never past the call's deadline (it surfaces the last outcome
 * instead). The pause of the whole client after a 429 is the gate layer's.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { attemptFailure, errnoOf } from "./attemptErrors";
import { describeCall, type Exchange, type Layer, labelOf } from "./exchange";
import type { TransportResponse } from "./options";
import { type Outcome, parseRetryAfter, retryDelayMs, shouldRetry } from "./retryPolicy";
import type { RetryNotice } from "./telemetryLayer";

export interface RetryLayerOptions {
  tuning: { baseDelayMs: number; maxDelayMs: number; maxRetryAfterMs: number };
  random: () => number;
  onRetry: (exchange: Exchange, notice: RetryNotice) => void;
}

export function retryLayer(options: RetryLayerOptions): Layer {
  const delayAfter = (attempt: number, outcome: Outcome): number =>
    retryDelayMs(attempt, outcome.kind === "status" ? outcome.retryAfterMs : undefined, options.tuning, options.random);

  return function withRetries(next) {
    return async function sendUntilFinal(call) {
      for (let attempt = 1; ; attempt++) {
        if (call.signal.aborted) throw call.signal.reason;
        const exchange = { ...call, attempt };
        let response: TransportResponse | undefined;
        let failure: unknown;
        let outcome: Outcome;
        try {
          response = await next(exchange);
          outcome = { kind: "status", status: response.status, retryAfterMs: parseRetryAfter(response.headers["retry-after"]) };
        } catch (error) {
          if (call.signal.aborted) throw call.signal.reason;
          failure = error;
          outcome = { kind: "error", errno: errnoOf(error) };
        }

        const retry = shouldRetry({ outcome, idempotent: call.idempotent, retriesDone: attempt - 1, maxRetries: call.maxRetries });
        const delayMs = retry ? delayAfter(attempt, outcome) : 0;
        // Waiting past the deadline is pointless: surface the last outcome instead.
        if (!retry || delayMs >= call.deadlineAt - performance.now()) {
          if (response) return response;
          throw attemptFailure(failure, describeCall(call), attempt, labelOf(call));
        }
        options.onRetry(exchange, {
          delayMs,
          reason: outcome.kind === "status" ? `status ${outcome.status}` : outcome.errno,
          ...(outcome.kind === "status" ? { status: outcome.status } : {}),
        });
        try {
          await sleep(delayMs, undefined, { signal: call.signal });
        } catch {
          throw call.signal.reason;
        }
      }
    };
  };
}
